"""Searching, sorting and set functions of dlarray next to NumPy, measured in the same run.

Each line: case, our time, NumPy's time, ratio = ours / NumPy (below 1.0: we are faster).
Every case runs with dlarray on one thread and on all the threads it may use; NumPy's sorts
are single-threaded either way. dlarray's sort is stable (the standard's default); NumPy's
is its default kind (SIMD quicksort on AVX2/AVX-512), the faster of its two.

usage: PYTHONPATH=python python3 benchmarks/sorting.py [--quick]
"""
import argparse
import sys
import timeit

import numpy as np

import dlarray as dl


def best(fn, repeat):
    fn()  # warm up (allocator cache, page faults)
    return min(timeit.repeat(fn, number=1, repeat=repeat))


def cases(large):
    rng = np.random.default_rng(0)
    sizes = (10**6, 10**7) if large else (10**6,)
    for n in sizes:
        for dtype in ("float32", "float64", "int64"):
            x = (rng.standard_normal(n).astype(dtype) if dtype != "int64"
                 else rng.integers(-(2**62), 2**62, n))
            yield f"sort {dtype} n={n:.0e}", dl.sort, np.sort, (x,)
            yield f"argsort {dtype} n={n:.0e}", dl.argsort, np.argsort, (x,)
    x = rng.standard_normal(10**6)
    yield "unique_values float64 n=1e6", dl.unique_values, np.unique_values, (x,)
    yield "unique_counts float64 n=1e6", dl.unique_counts, np.unique_counts, (x,)
    xi = rng.integers(0, 10**5, 10**6)
    yield "unique_values int64 (1e5 distinct) n=1e6", dl.unique_values, np.unique_values, (xi,)
    yield "unique_counts int64 (1e5 distinct) n=1e6", dl.unique_counts, np.unique_counts, (xi,)
    s, q = np.sort(rng.standard_normal(10**6)), rng.standard_normal(10**6)
    yield "searchsorted 1e6 queries into 1e6", dl.searchsorted, np.searchsorted, (s, q)
    yield "isin int64 1e6 in 1e4", dl.isin, np.isin, (xi, rng.integers(0, 10**5, 10**4))
    x = rng.standard_normal(10**7)
    yield "argmax float64 n=1e7", dl.argmax, np.argmax, (x,)
    yield "argmax float32 n=1e7", dl.argmax, np.argmax, (x.astype("float32"),)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="10**6 only, fewer repetitions")
    args = p.parse_args()
    repeat = 3 if args.quick else 5
    all_threads = dl._core._num_threads()
    print(f"dlarray vs NumPy {np.__version__}; ratio = dlarray / NumPy at 1 and {all_threads} dlarray threads")
    print(f"{'case':<44} {'numpy':>10} {'1 thread':>10} {'ratio':>6} {'all':>10} {'ratio':>6}")
    for label, ours, theirs, nargs in cases(not args.quick):
        dargs = tuple(dl.asarray(a) for a in nargs)
        t_np = best(lambda: theirs(*nargs), repeat)
        dl._core._set_num_threads(1)
        t_one = best(lambda: ours(*dargs), repeat)
        dl._core._set_num_threads(all_threads)
        t_all = best(lambda: ours(*dargs), repeat)
        print(f"{label:<44} {t_np * 1e3:>7.2f} ms {t_one * 1e3:>7.2f} ms {t_one / t_np:>6.2f} "
              f"{t_all * 1e3:>7.2f} ms {t_all / t_np:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
