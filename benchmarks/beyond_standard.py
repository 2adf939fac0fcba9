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
    g, r = dl.random.default_rng(0), np.random.default_rng(0)
    return [
        ("random float64", lambda: g.random(n), lambda: r.random(n)),
        ("random float32", lambda: g.random(n, dtype=dl.float32), lambda: r.random(n, dtype=np.float32)),
        ("standard_normal float64", lambda: g.standard_normal(n), lambda: r.standard_normal(n)),
        ("standard_normal float32", lambda: g.standard_normal(n, dtype=dl.float32),
         lambda: r.standard_normal(n, dtype=np.float32)),
        ("exponential", lambda: g.exponential(2.0, n), lambda: r.exponential(2.0, n)),
        ("integers [0, 1000)", lambda: g.integers(0, 1000, n), lambda: r.integers(0, 1000, n)),
        ("permutation", lambda: g.permutation(n), lambda: r.permutation(n)),
        ("choice with p (10 outcomes)", lambda: g.choice(10, n, p=[0.1] * 10), lambda: r.choice(10, n, p=[0.1] * 10)),
    ]


def einsum_cases(n):
    """einsum with optimize=True on both sides."""
    rng = np.random.default_rng(0)
    side = int(round(n ** 0.5))  # matrices of n elements
    batch = max(1, int(round(n ** (1 / 3))))  # batch of batch x batch matrices: n elements
    cases = [
        ("ij,jk->ik", [(side, side), (side, side)]),
        ("ij,jk,kl->il", [(side, side), (side, side), (side, side)]),
        ("bij,bjk->bik", [(batch, batch, batch)] * 2),
        ("ii->", [(side, side)]),
        ("ij->", [(side, side)]),
        ("i,i->", [(n,), (n,)]),
        ("ij,ij->i", [(side, side), (side, side)]),
        ("ij,kj->ik", [(side, side), (side, side)]),
        ("ij->ji", [(side, side)]),
        ("ii->i", [(side, side)]),
        ("i,j->ij", [(side,), (side,)]),
        ("ij,j->i", [(side, side), (side,)]),
        ("...ij,...jk->...ik", [(batch, batch, batch), (batch, batch)]),
    ]
    out = []
    for subscripts, shapes in cases:
        host = [rng.standard_normal(s) for s in shapes]
        arrays = [dl.asarray(x) for x in host]
        out.append((f"einsum {subscripts}",
                    lambda s=subscripts, xs=arrays: dl.einsum(s, *xs, optimize=True),
                    lambda s=subscripts, xs=host: np.einsum(s, *xs, optimize=True)))
    return out


def nan_cases(n):
    """The NaN-aware reductions, pad, bincount and histogram."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal(n)
    a[rng.random(n) < 0.01] = np.nan  # ~1% NaN
    x = dl.asarray(a)
    cases = [(f"{name} (1% NaN)", lambda f=getattr(dl, name): f(x),
              lambda f=getattr(np, name): f(a)) for name in ("nansum", "nanmean", "nanvar", "nanmax", "nanargmax", "nancumsum")]
    side = int(round(n ** 0.5))
    m = rng.standard_normal((side, side))
    xm = dl.asarray(m)
    for mode in ("constant", "edge", "reflect", "symmetric", "wrap"):
        cases.append((f"pad {side}x{side} by 10 {mode}", lambda mode=mode: dl.pad(xm, 10, mode),
                      lambda mode=mode: np.pad(m, 10, mode)))
    keys = rng.integers(0, 1000, n)
    weights = rng.random(n)
    xk, xw = dl.asarray(keys), dl.asarray(weights)
    clean = rng.standard_normal(n)
    xc = dl.asarray(clean)
    edges = np.linspace(-3.0, 3.0, 50)
    xe = dl.asarray(edges)
    cases += [
        ("bincount [0, 1000)", lambda: dl.bincount(xk), lambda: np.bincount(keys)),
        ("bincount [0, 1000) weights", lambda: dl.bincount(xk, xw),
         lambda: np.bincount(keys, weights)),
        ("histogram 50 bins", lambda: dl.histogram(xc, 50), lambda: np.histogram(clean, 50)),
        ("histogram 50 edges", lambda: dl.histogram(xc, xe), lambda: np.histogram(clean, edges)),
    ]
    return cases


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
