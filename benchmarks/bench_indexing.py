"""Per-call cost of indexing, dlarray vs NumPy, measured side by side in one process.

Prints one line per case: case, ours (ns), NumPy (ns), ratio (ours / NumPy; <= 1 is the goal).
The two are timed in alternation, in thread CPU time (so that time slices lost to other
processes on a shared machine do not count), and the minimum over repeats is kept.
"""
import sys
import time
import timeit

import numpy as np

import dlarray as dl


def per_call(stmt, env, number, repeat):
    t = timeit.Timer(stmt, globals=env, timer=time.thread_time)
    return min(t.repeat(repeat=repeat, number=number)) / number * 1e9


def main(number=100_000, repeat=15):
    a2 = np.arange(100.0).reshape(10, 10)
    a1 = np.arange(100.0)
    big = np.arange(1_000_000.0)
    mask = (big % 3) == 0
    idx = np.arange(0, 1_000_000, 7)
    cases = [
        # (case, statement, {name: numpy array})
        ("x[1:3] (1-d)", "x[1:3]", {"x": a1}),
        ("x[1:3] (2-d)", "x[1:3]", {"x": a2}),
        ("x[i, j]", "x[2, 3]", {"x": a2}),
        ("x[i]", "x[5]", {"x": a1}),
        ("x[..., None]", "x[..., None]", {"x": a2}),
        ("x[::-1]", "x[::-1]", {"x": a1}),
        ("x[i, j] = 1.0", "x[2, 3] = 1.0", {"x": a2}),
        ("x[1:3] = 0.0", "x[1:3] = 0.0", {"x": a1}),
        ("x[idx] (1e6, every 7th)", "x[idx]", {"x": big, "idx": idx}),
        ("x[mask] (1e6)", "x[mask]", {"x": big, "mask": mask}),
    ]
    print(f"{'case':28s} {'dlarray ns':>12s} {'numpy ns':>12s} {'ratio':>7s}")
    for name, stmt, arrays in cases:
        np_env = dict(arrays)
        dl_env = {k: dl.asarray(v) for k, v in arrays.items()}
        heavy = arrays["x"].size > 1000
        n, r = (max(number // 5000, 3), 5) if heavy else (number, repeat)
        ours = theirs = float("inf")
        for _ in range(r):  # alternate so both see the same machine state
            ours = min(ours, per_call(stmt, dl_env, n, 1))
            theirs = min(theirs, per_call(stmt, np_env, n, 1))
        print(f"{name:28s} {ours:12.1f} {theirs:12.1f} {ours / theirs:7.2f}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
