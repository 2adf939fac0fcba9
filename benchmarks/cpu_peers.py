"""Reductions and casts of dlarray next to NumPy and PyTorch's CPU kernels, timed in alternation.

Each line: case, threads, then our time, NumPy's, PyTorch's (us, the median over rounds), the
ratios ours / NumPy and ours / PyTorch, and ours / the faster peer (below 1.0: we are faster than
both), each ratio the median over rounds of the ratio within a round (see paired_ratio). dlarray and
PyTorch run with the same thread count (`dl._core._set_num_threads`, `torch.set_num_threads`);
NumPy is single-threaded whatever the count. PyTorch is optional (its columns read nan without
it). Besides the reductions and casts, a few elementwise, sort and exchange rows keep watch that
nothing else regresses.

usage: PYTHONPATH=python python3 benchmarks/cpu_peers.py [--threads 1,2] [--quick] [substring ...]

Optional substrings keep only the cases whose names contain one of them. --quick: fewer
repetitions (a smoke run, noisy).
"""
import argparse
import os
import time
import timeit
from statistics import median

import numpy as np

import dlarray as dl

try:
    import torch
except ImportError:  # the PyTorch columns stay empty
    torch = None


def per_call(fn, number):
    return min(timeit.repeat(fn, number=number, repeat=1)) / number


BLOCK_SECONDS = 2e-3


def calls_per_block(fn):
    """Calls that fill a block of about BLOCK_SECONDS (1 to 200), from one timed warm call.

    A block of one call would time the first call after another library's: with threads, that
    is a pool worker's wake-up (tens to hundreds of microseconds on a virtual machine, and
    the pools spin for different times before they sleep) more than the kernel. Back-to-back
    calls are what a loop of array operations sees, for every library alike.
    """
    fn()  # warm up (allocator caches, page faults)
    t = timeit.timeit(fn, number=1)
    return max(1, min(200, int(BLOCK_SECONDS / max(t, 1e-9)) + 1))


# PyTorch's OpenMP threads spin for about 9 ms after each parallel call (the process's CPU time
# grows by that much over a sleep after torch.sum on two threads; dlarray's workers spin 5 ms),
# so a block timed right after PyTorch's shared the second core with a spinning thread: the
# two-thread 10^6 float64 max of dlarray took 159 us there and 60 us after its own calls.
SETTLE_SECONDS = 0.015


def alternate_rounds(fns, repeat, settle=0.0):
    """Time per call of each function in each of `repeat` rounds (a list per round), the
    functions timed in turn within a round; `settle` seconds of sleep before each block let the
    previous library's threads go idle, and an untimed block then wakes this library's."""
    numbers = [calls_per_block(fn) for fn in fns]
    rounds = []
    for _ in range(repeat):  # in turn, so that each sees the same machine state
        row = []
        for i, fn in enumerate(fns):
            if settle:
                time.sleep(settle)
                per_call(fn, numbers[i])  # an untimed block: the threads' wake-up (VM vCPUs take
                # several calls of 100-500 us to get back to speed after a sleep) stays out of it
            row.append(per_call(fn, numbers[i]))
        rounds.append(row)
    return rounds


def alternate(fns, repeat, settle=0.0):
    """Best time per call of each function over alternate_rounds' rounds."""
    rounds = alternate_rounds(fns, repeat, settle)
    return [min(r[i] for r in rounds) for i in range(len(fns))]


def paired_ratio(rounds, i, others):
    """Median over rounds of function i's time over the fastest of `others` in the same round.

    On a shared VM the speed drifts by 10-30% within seconds (other tenants' use of the
    caches and memory): the best time of each library may come from different moments, and a
    ratio of two minima moves with the drift. A ratio within one round compares the libraries
    at the same moment; the median of those ignores the rounds a burst of load spoiled.
    """
    return median([r[i] / min(r[j] for j in others) for r in rounds])


def data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith(("int", "uint")):
        return rng.integers(0, 100, shape).astype(dtype)
    # Products of values near 1 stay finite at every size (0.999..1.001 over 10^7 elements).
    return rng.uniform(0.999, 1.001, shape).astype(dtype)


def reduction_cases(n_big, side):
    """(name, numpy input builder, dlarray call, numpy call, torch call) for the reductions."""
    out = []
    for dtype in ("float64", "float32"):
        for n in (10**6, n_big):
            for name in ("sum", "prod", "mean", "var", "std", "max", "min", "argmax", "argmin"):
                t_name = {"max": "amax", "min": "amin"}.get(name, name)
                out.append((f"{name} {dtype} n={n}", (n,), dtype,
                            lambda x, f=getattr(dl, name): f(x),
                            lambda x, f=getattr(np, name): f(x),
                            lambda x, f=getattr(torch, t_name, None): f(x)))
        for axis in (0, 1):
            for name in ("sum", "max", "mean", "std"):
                t_name = {"max": "amax"}.get(name, name)
                out.append((f"{name}(axis={axis}) {dtype} {side}x{side}", (side, side), dtype,
                            lambda x, f=getattr(dl, name), a=axis: f(x, axis=a),
                            lambda x, f=getattr(np, name), a=axis: f(x, axis=a),
                            lambda x, f=getattr(torch, t_name, None), a=axis: f(x, dim=a)))
    for name in ("all", "any", "count_nonzero"):
        out.append((f"{name} bool n={n_big}", (n_big,), "bool",
                    lambda x, f=getattr(dl, name): f(x),
                    lambda x, f=getattr(np, name): f(x),
                    lambda x, f=getattr(torch, name, None): f(x)))
    out.append((f"sum int64 n={n_big}", (n_big,), "int64", dl.sum, np.sum, getattr(torch, "sum", None)))
    return out


def cast_cases(side):
    pairs = [("float64", "float32"), ("float32", "float64"), ("float64", "int32"), ("int32", "float64"),
             ("float32", "int64"), ("int64", "float32"), ("uint8", "float32"), ("float32", "float16")]
    out = []
    for src, dst in pairs:
        for strided in (False, True):
            label = f"astype {src}->{dst} {side}x{side}{' .T' if strided else ''}"

            def ours(x, d=getattr(dl, dst), s=strided):
                return dl.astype(x.T if s else x, d)

            def numpys(x, d=dst, s=strided):
                return (x.T if s else x).astype(d)

            def torchs(x, d=dst, s=strided):
                return (x.T if s else x).to(getattr(torch, d))

            out.append((label, (side, side), src, ours, numpys, torchs))
    return out


def other_cases(n):
    """Elementwise and sort rows of n elements, and the per-call cost of a DLPack round trip
    through NumPy (producer NumPy, consumer each library)."""
    out = []
    for name, t_name in (("add", "add"), ("multiply", "mul")):
        out.append((f"{name} float64 n={n}", (n,), "float64",
                    lambda x, f=getattr(dl, name): f(x, x),
                    lambda x, f=getattr(np, name): f(x, x),
                    lambda x, f=getattr(torch, t_name, None): f(x, x)))
    for name in ("exp", "sqrt", "sin"):
        out.append((f"{name} float32 n={n}", (n,), "float32",
                    lambda x, f=getattr(dl, name): f(x),
                    lambda x, f=getattr(np, name): f(x),
                    lambda x, f=getattr(torch, name, None): f(x)))
    out.append((f"where float64 n={n}", (n,), "float64",
                lambda x: dl.where(x > 1.0, x, 0.0),
                lambda x: np.where(x > 1.0, x, 0.0),
                lambda x: torch.where(x > 1.0, x, 0.0)))
    out.append((f"sort float64 n={n}", (n,), "float64", dl.sort, np.sort,
                lambda x: torch.sort(x).values))
    out.append((f"argsort float32 n={n}", (n,), "float32", dl.argsort, np.argsort, getattr(torch, "argsort", None)))
    out.append(("from_dlpack round trip n=1000 (per call)", (1000,), "float64",
                lambda x: dl.from_dlpack(np.from_dlpack(x)),
                lambda x: np.from_dlpack(np.from_dlpack(x)),
                lambda x: torch.from_dlpack(np.from_dlpack(x))))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", default="1,2", help="comma-separated thread counts (default 1,2)")
    p.add_argument("--quick", action="store_true", help="fewer repetitions")
    p.add_argument("only", nargs="*", help="keep cases whose names contain one of these")
    args = p.parse_args()
    repeat = 3 if args.quick else 11
    n_big, side = 10**7, 2000
    cases = reduction_cases(n_big, side) + cast_cases(side) + other_cases(10**6)
    if args.only:
        cases = [c for c in cases if any(s in c[0] for s in args.only)]
    peers = f"NumPy {np.__version__}" + (f", PyTorch {torch.__version__}" if torch else ", no PyTorch")
    print(f"dlarray vs {peers}; {os.cpu_count()} CPUs")
    print(f"{'case':<42} {'thr':>3} {'dlarray':>9} {'numpy':>9} {'torch':>9} {'/numpy':>7} {'/torch':>7} {'/best':>7}")
    for threads in (int(t) for t in args.threads.split(",")):
        dl._core._set_num_threads(threads)
        if torch:
            torch.set_num_threads(threads)
        for name, shape, dtype, ours, numpys, torchs in cases:
            nx = data(shape, dtype)
            x = dl.asarray(nx)
            fns = [lambda: ours(x), lambda: numpys(nx)]
            if torch and torchs:
                tx = torch.from_numpy(nx)
                fns.append(lambda: torchs(tx))
            rounds = alternate_rounds(fns, repeat, SETTLE_SECONDS if threads > 1 else 0.0)
            t_ours, t_np = (median([r[i] for r in rounds]) for i in (0, 1))
            t_torch = median([r[2] for r in rounds]) if len(fns) > 2 else None
            ratio_torch = f"{paired_ratio(rounds, 0, [2]):7.2f}" if t_torch else f"{'-':>7}"
            print(f"{name:<42} {threads:>3} {t_ours * 1e6:9.1f} {t_np * 1e6:9.1f} "
                  f"{(t_torch * 1e6 if t_torch else float('nan')):9.1f} {paired_ratio(rounds, 0, [1]):7.2f} "
                  f"{ratio_torch} {paired_ratio(rounds, 0, list(range(1, len(fns)))):7.2f}", flush=True)


if __name__ == "__main__":
    main()
