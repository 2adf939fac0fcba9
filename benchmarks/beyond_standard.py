"""The functions beyond the array API standard (docs/beyond-standard.md) next to NumPy.

One line per case, on 10**6 elements (a matrix or tensor of about that size where the function
takes one): case, our time, NumPy's time (us), ratio = ours / NumPy (below 1.0: we are faster).
dlarray runs with its default threads, NumPy as it comes; OpenBLAS is held to one thread for both
(OPENBLAS_NUM_THREADS=1, set before importing) so that einsum's contractions compare like with like.

usage: PYTHONPATH=python python3 benchmarks/beyond_standard.py [--quick] [substring ...]
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import timeit  # noqa: E402

import numpy as np  # noqa: E402

import dlarray as dl  # noqa: E402


def best(fn, number, repeat):
    fn()
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


# Each section: a function of n returning (name, ours, NumPy's) triples.


def random_cases(n):
    """dlarray.random next to numpy.random.Generator (PCG64 there, Philox-4x32-10 here)."""
    return []


def einsum_cases(n):
    """einsum with optimize=True on both sides."""
    return []


def nan_cases(n):
    """The NaN-aware reductions, pad, bincount and histogram."""
    return []


def selection_cases(n):
    """partition, argpartition, median, quantile and percentile."""
    a = np.random.default_rng(0).standard_normal(n)
    x = dl.asarray(a)
    k, q = n // 2, [0.1, 0.5, 0.9]
    return [
        ("partition kth=n//2", lambda: dl.partition(x, k), lambda: np.partition(a, k)),
        ("argpartition kth=n//2", lambda: dl.argpartition(x, k), lambda: np.argpartition(a, k)),
        ("median", lambda: dl.median(x), lambda: np.median(a)),
        ("quantile [0.1, 0.5, 0.9]", lambda: dl.quantile(x, q), lambda: np.quantile(a, q)),
        ("percentile 50", lambda: dl.percentile(x, 50), lambda: np.percentile(a, 50)),
    ]


SECTIONS = [random_cases, einsum_cases, nan_cases, selection_cases]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10**4 elements, fewer repeats")
    parser.add_argument("only", nargs="*", help="run the cases whose names contain one of these")
    args = parser.parse_args()
    n = 10**4 if args.quick else 10**6
    number, repeat = (3, 3) if args.quick else (5, 7)
    print(f"{'case':34s} {'dlarray us':>11s} {'NumPy us':>10s} {'ratio':>6s}")
    for section in SECTIONS:
        for name, ours, theirs in section(n):
            if args.only and not any(s in name for s in args.only):
                continue
            t_ours, t_theirs = best(ours, number, repeat), best(theirs, number, repeat)
            print(f"{name:34s} {t_ours * 1e6:11.1f} {t_theirs * 1e6:10.1f} {t_ours / t_theirs:6.2f}")


if __name__ == "__main__":
    main()
