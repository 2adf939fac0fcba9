"""The cases of issue 10's remaining gaps, dlarray vs NumPy, timed in alternation.

Each line: case, then for 1 and 2 dlarray threads our time, NumPy's time (ms for 10**7-element
cases, us for per-call ones) and the ratio ours / NumPy (below 1.0: we are faster). NumPy is
single-threaded throughout. Optional arguments keep only the cases whose names contain them.

usage: PYTHONPATH=python python3 benchmarks/gaps.py [substring ...]
"""
import sys
import timeit

import numpy as np

import dlarray as dl


def per_call(fn, number):
    return min(timeit.repeat(fn, number=number, repeat=1)) / number


def alternate(ours, theirs, number, repeat):
    ours(), theirs()  # warm up (allocator cache, page faults)
    t_ours = t_np = float("inf")
    for _ in range(repeat):  # alternate so both see the same machine state
        t_ours = min(t_ours, per_call(ours, number))
        t_np = min(t_np, per_call(theirs, number))
    return t_ours, t_np


def cases():
    rng = np.random.default_rng(0)
    for dtype in ("float32", "float64"):
        nx = rng.standard_normal(10**7).astype(dtype)
        x = dl.asarray(nx)
        for name in ("argmax", "max", "sum"):
            yield f"{name} {dtype} n=1e7", (lambda f=getattr(dl, name): f(x)), (lambda f=getattr(np, name): f(nx)), 1
    side = 3162
    na = rng.uniform(-5, 5, (side, side)).astype("float32")
    nb = rng.uniform(-5, 5, (side, side)).astype("float32")
    a, b = dl.asarray(na), dl.asarray(nb)
    yield "a + b.T float32 3162^2", lambda: a + b.T, lambda: na + nb.T, 1
    a1, b1, na1, nb1 = dl.ones(1000), dl.ones(1000), np.ones(1000), np.ones(1000)
    yield "a + b float64 n=1000", lambda: a1 + b1, lambda: na1 + nb1, 20000
    xs, nxs = dl.asarray(np.arange(100.0).reshape(10, 10)), np.arange(100.0).reshape(10, 10)
    yield "x[i, j]", lambda: xs[2, 3], lambda: nxs[2, 3], 50000


def main(selected):
    all_threads = dl._core._num_threads()
    print(f"dlarray vs NumPy {np.__version__}; ratio = dlarray / NumPy at 1 and 2 dlarray threads")
    for label, ours, theirs, number in cases():
        if selected and not any(s in label for s in selected):
            continue
        unit, scale = ("ms", 1e3) if number == 1 else ("us", 1e6)
        cells = []
        for threads in (1, 2):
            dl._core._set_num_threads(threads)
            t_ours, t_np = alternate(ours, theirs, number, 9)
            cells.append(f"{threads}t {t_ours * scale:8.3f} {t_np * scale:8.3f} {unit} {t_ours / t_np:5.2f}")
        print(f"{label:<24} " + "   ".join(cells), flush=True)
    dl._core._set_num_threads(all_threads)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
