"""The namespace outside the elementwise table, next to NumPy: one line per function.

Creation, manipulation, indexing, reductions, searching, sorting, sets, linear algebra and fft,
each on 10**6 elements (a 1000 x 1000 matrix where it takes one) and on 10 elements (per-call
overhead), dlarray on one thread (NumPy's own loops are single-threaded; OpenBLAS is held to
one thread for both with OPENBLAS_NUM_THREADS=1, which this script sets before importing).
Each line: case, our time, NumPy's time (us), ratio = ours / NumPy (below 1.0: we are faster).
The elementwise functions are `benchmarks/elementwise.py --table`.

`--casts` times astype between every pair of dtypes instead (10**6 elements; complex to real
other than bool is refused by the standard) and lists the slowest.

usage: PYTHONPATH=python python3 benchmarks/namespace.py [--quick] [--casts] [substring ...]
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import timeit  # noqa: E402

import numpy as np  # noqa: E402

import dlarray as dl  # noqa: E402


def best(fn, number, repeat):
    fn()
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def cases(n):
    """(name, ours, NumPy's) for arrays of n elements."""
    rng = np.random.default_rng(0)
    nf = rng.standard_normal(n).astype(np.float32)
    nd = nf.astype(np.float64)
    ni = (nf * 1000).astype(np.int64)
    nb = nf > 0
    f, d, i, b = dl.asarray(nf), dl.asarray(nd), dl.asarray(ni), dl.asarray(nb)
    side = max(int(n ** 0.5), 2)
    nm = rng.standard_normal((side, side))
    m = dl.asarray(nm)
    nidx = rng.integers(0, n, max(n // 10, 1))
    idx = dl.asarray(nidx)
    half = slice(0, n // 2)
    values = nd.tolist()
    return [
        ("zeros", lambda: dl.zeros(n), lambda: np.zeros(n)),
        ("full", lambda: dl.full(n, 2.0), lambda: np.full(n, 2.0)),
        ("arange", lambda: dl.arange(n), lambda: np.arange(n)),
        ("linspace", lambda: dl.linspace(0, 1, n), lambda: np.linspace(0, 1, n)),
        ("ones_like", lambda: dl.ones_like(d), lambda: np.ones_like(nd)),
        ("tril", lambda: dl.tril(m), lambda: np.tril(nm)),
        ("astype f32->f64", lambda: dl.astype(f, dl.float64), lambda: nf.astype(np.float64)),
        ("astype f64->i64", lambda: dl.astype(d, dl.int64), lambda: nd.astype(np.int64)),
        ("astype f32->i32", lambda: dl.astype(f, dl.int32), lambda: nf.astype(np.int32)),
        ("astype f64->u8", lambda: dl.astype(d, dl.uint8), lambda: nd.astype(np.uint8)),
        ("astype f64->u64", lambda: dl.astype(d, dl.uint64), lambda: nd.astype(np.uint64)),
        ("where", lambda: dl.where(b, f, 0.0), lambda: np.where(nb, nf, np.float32(0))),
        ("clip", lambda: dl.clip(f, -1, 1), lambda: np.clip(nf, -1, 1)),
        ("x ** 2", lambda: d ** 2, lambda: nd ** 2),
        ("concat", lambda: dl.concat([f, f]), lambda: np.concatenate([nf, nf])),
        ("stack", lambda: dl.stack([f, f]), lambda: np.stack([nf, nf])),
        ("flip (copied)", lambda: dl.asarray(dl.flip(f), copy=True), lambda: np.flip(nf).copy()),
        ("x[::2] (copied)", lambda: dl.asarray(f[::2], copy=True), lambda: nf[::2].copy()),
        ("x.T (copied)", lambda: dl.asarray(m.T, copy=True), lambda: nm.T.copy()),
        ("roll", lambda: dl.roll(f, 3), lambda: np.roll(nf, 3)),
        ("repeat", lambda: dl.repeat(f, 2), lambda: np.repeat(nf, 2)),
        ("tile", lambda: dl.tile(f, (2,)), lambda: np.tile(nf, 2)),
        ("x[mask]", lambda: f[b], lambda: nf[nb]),
        ("x[mask] = 0", lambda: f.__setitem__(b, 0.0), lambda: nf.__setitem__(nb, 0.0)),
        ("x[idx]", lambda: f[idx], lambda: nf[nidx]),
        ("take", lambda: dl.take(f, idx), lambda: np.take(nf, nidx)),
        ("x[a:b] = v", lambda: f.__setitem__(half, 1.0), lambda: nf.__setitem__(half, 1.0)),
        ("x // 7 int64", lambda: i // 7, lambda: ni // 7),
        ("x % 7 int64", lambda: i % 7, lambda: ni % 7),
        ("asarray(list)", lambda: dl.asarray(values), lambda: np.asarray(values)),
        ("sum int64", lambda: dl.sum(i), lambda: np.sum(ni)),
        ("prod float64", lambda: dl.prod(d), lambda: np.prod(nd)),
        ("mean float32", lambda: dl.mean(f), lambda: np.mean(nf)),
        ("var float64", lambda: dl.var(d), lambda: np.var(nd)),
        ("std float32", lambda: dl.std(f), lambda: np.std(nf)),
        ("min int64", lambda: dl.min(i), lambda: np.min(ni)),
        ("sum axis=0", lambda: dl.sum(m, axis=0), lambda: np.sum(nm, axis=0)),
        ("sum axis=1", lambda: dl.sum(m, axis=1), lambda: np.sum(nm, axis=1)),
        ("max axis=0", lambda: dl.max(m, axis=0), lambda: np.max(nm, axis=0)),
        ("all", lambda: dl.all(b), lambda: np.all(nb)),
        ("any", lambda: dl.any(b), lambda: np.any(nb)),
        ("cumulative_sum", lambda: dl.cumulative_sum(d), lambda: np.cumsum(nd)),
        ("diff", lambda: dl.diff(d), lambda: np.diff(nd)),
        ("count_nonzero", lambda: dl.count_nonzero(b), lambda: np.count_nonzero(nb)),
        ("nonzero", lambda: dl.nonzero(b), lambda: np.nonzero(nb)),
        ("argmax", lambda: dl.argmax(d), lambda: np.argmax(nd)),
        ("searchsorted", lambda: dl.searchsorted(f, f), lambda: np.searchsorted(nf, nf)),
        ("sort float32", lambda: dl.sort(f), lambda: np.sort(nf)),
        ("argsort int64", lambda: dl.argsort(i), lambda: np.argsort(ni)),
        ("unique_values", lambda: dl.unique_values(i), lambda: np.unique(ni)),
        ("isin", lambda: dl.isin(i, i[:100]), lambda: np.isin(ni, ni[:100])),
        ("vecdot", lambda: dl.vecdot(d, d), lambda: np.dot(nd, nd)),
        ("matmul", lambda: m @ m, lambda: nm @ nm),
        ("vector_norm", lambda: dl.linalg.vector_norm(d), lambda: np.linalg.norm(nd)),
        ("matrix_norm fro", lambda: dl.linalg.matrix_norm(m), lambda: np.linalg.norm(nm)),
        ("solve", lambda: dl.linalg.solve(m, m), lambda: np.linalg.solve(nm, nm)),
        ("det", lambda: dl.linalg.det(m), lambda: np.linalg.det(nm)),
        ("fft", lambda: dl.fft.fft(d), lambda: np.fft.fft(nd)),
        ("rfft", lambda: dl.fft.rfft(d), lambda: np.fft.rfft(nd)),
    ]


DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
          "complex64", "complex128"]


def casts(quick):
    rng = np.random.default_rng(0)
    n = 10**6
    rows = []
    for src in DTYPES:
        nx = rng.random(n) < 0.5 if src == "bool" else (rng.standard_normal(n) * 50).astype(src)
        x = dl.asarray(nx)
        for dst in DTYPES:
            if dst == src or (src.startswith("complex") and not dst.startswith("complex") and dst != "bool"):
                continue
            with np.errstate(all="ignore"):
                t_ours = best(lambda: dl.astype(x, dst), 5 if quick else 10, 3)
                t_np = best(lambda: nx.astype(dst), 5 if quick else 10, 3)
            rows.append((t_ours / t_np, src, dst, t_ours, t_np))
    rows.sort(reverse=True)
    print(f"{'astype (slowest first)':<30} {'dlarray':>12} {'numpy':>12} {'ratio':>7}")
    for ratio, src, dst, t_ours, t_np in rows[:20]:
        print(f"{src + ' -> ' + dst:<30} {t_ours * 1e6:>9.1f} us {t_np * 1e6:>9.1f} us {ratio:>7.2f}")
    ratios = sorted(r[0] for r in rows)
    print(f"{len(ratios)} dtype pairs: {sum(r > 1.15 for r in ratios)} above 1.15x NumPy's time, "
          f"median ratio {ratios[len(ratios) // 2]:.2f}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="fewer repetitions (smoke run)")
    p.add_argument("--casts", action="store_true", help="astype between every pair of dtypes")
    p.add_argument("only", nargs="*", help="keep the cases whose names contain one of these")
    args = p.parse_args()
    dl._core._set_num_threads(1)
    if args.casts:
        print(f"dlarray vs NumPy {np.__version__}, one thread each")
        casts(args.quick)
        return 0
    print(f"dlarray vs NumPy {np.__version__}, one thread each")
    print(f"{'case':<30} {'dlarray':>12} {'numpy':>12} {'ratio':>7}")
    ratios = []
    for n, number in ((10**6, 2 if args.quick else 10), (10, 2000 if args.quick else 20000)):
        heavy = {"matmul", "solve", "det", "sort float32", "argsort int64", "unique_values", "searchsorted", "fft",
                 "asarray(list)"}
        for name, ours, theirs in cases(n):
            if args.only and not any(s in name for s in args.only):
                continue
            k = max(number // 5, 1) if (n > 10 and name in heavy) else number
            with np.errstate(all="ignore"):
                t_ours, t_np = best(ours, k, 3 if args.quick else 5), best(theirs, k, 3 if args.quick else 5)
            ratios.append(t_ours / t_np)
            print(f"{name + f' n={n}':<30} {t_ours * 1e6:>9.1f} us {t_np * 1e6:>9.1f} us {t_ours / t_np:>7.2f}")
    ratios.sort()
    print(f"{len(ratios)} cases: {sum(r > 1.15 for r in ratios)} above 1.15x NumPy's time, "
          f"median ratio {ratios[len(ratios) // 2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
