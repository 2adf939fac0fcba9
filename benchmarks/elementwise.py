"""Elementwise performance of dlarray next to NumPy, measured in the same run.

Per-call overhead (small arrays, operators and indexing) and throughput on 10**7 elements.
Each line: case, our time, NumPy's time, ratio = ours / NumPy (below 1.0: we are faster).
Throughput lines also give GB/s moved (inputs read + output written) for our run. dlarray
runs on one thread ("1t") and on all the threads it would use by default ("Nt"); NumPy's
elementwise loops are single-threaded.

`--transcendental` instead times every transcendental function on 10**6 float32 and float64
values from its domain, dlarray on one thread (DLARRAY_VECTOR_MATH=all gives the libmvec-only
choice to compare with; see benchmarks/accuracy.py for the errors).

`--half` times float16 against NumPy's float16 and bfloat16 against PyTorch's (CPU, one
thread each) on 10**6 values.

`--table` times every op of the kernel table (`dlarray._core._elementwise_ops()`) on every
real dtype it takes and NumPy has, 10**6 elements, one thread, and prints the cases slower
than NumPy by more than 15% (all of them with --all) and how many there are.

usage: PYTHONPATH=python python3 benchmarks/elementwise.py [--quick] [--transcendental] [--half] [--table [--all]]
"""
import argparse
import sys
import timeit

import numpy as np

import dlarray as dl


def best(fn, number, repeat):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def row(case, ours, theirs, unit, extra=""):
    scale = {"us": 1e6, "ms": 1e3}[unit]
    print(f"{case:<34} {ours * scale:>10.3f} {unit} {theirs * scale:>10.3f} {unit} {ours / theirs:>7.2f}  {extra}")


def per_call(quick):
    number, repeat = (20000, 3) if quick else (200000, 7)
    for n in (1, 10, 1000):
        a, b = dl.ones(n), dl.ones(n)
        na, nb = np.ones(n), np.ones(n)
        row(f"a + b        float64 n={n}", best(lambda: a + b, number, repeat), best(lambda: na + nb, number, repeat), "us")
        row(f"a * 2.0      float64 n={n}", best(lambda: a * 2.0, number, repeat), best(lambda: na * 2.0, number, repeat), "us")
    x, nx = dl.asarray(np.arange(20.0).reshape(4, 5)), np.arange(20.0).reshape(4, 5)
    for label, fn, nfn in (("x[1:3]", lambda: x[1:3], lambda: nx[1:3]), ("x[i, j]", lambda: x[1, 2], lambda: nx[1, 2])):
        try:
            fn()
        except Exception as e:  # indexing is another issue's work; report instead of failing
            print(f"{label:<34} {'n/a':>13} {best(nfn, number, repeat) * 1e6:>10.3f} us      -  ({type(e).__name__})")
            continue
        row(label, best(fn, number, repeat), best(nfn, number, repeat), "us")


def throughput(quick):
    n = 10**6 if quick else 10**7
    repeat = 3 if quick else 7
    rng = np.random.default_rng(0)
    cases = [("add", lambda x, y: x + y, 2), ("multiply", lambda x, y: x * y, 2),
             ("exp", lambda x, y: dl.exp(x) if isinstance(x, dl.Array) else np.exp(x), 1),
             ("sin", lambda x, y: dl.sin(x) if isinstance(x, dl.Array) else np.sin(x), 1)]
    nthreads = dl._core._num_threads()
    for dtype in ("float32", "float64"):
        na = rng.uniform(-5, 5, n).astype(dtype)
        nb = rng.uniform(-5, 5, n).astype(dtype)
        a, b = dl.asarray(na), dl.asarray(nb)
        side = int(round(n ** 0.5))
        na2, nb2 = na[: side * side].reshape(side, side), nb[: side * side].reshape(side, side)
        a2, b2 = dl.asarray(na2), dl.asarray(nb2)
        strided = [("add a.T + b.T", lambda x, y: x.T + y.T, 2, (a2, b2), (na2, nb2)),
                   ("add a + b.T (mixed order)", lambda x, y: x + y.T, 2, (a2, b2), (na2, nb2))]
        all_cases = [(name, f, k, (a, b), (na, nb)) for name, f, k in cases] + strided
        for name, f, nops, ours_args, np_args in all_cases:
            t_np = best(lambda: f(*np_args), 1, repeat)
            moved = (nops + 1) * ours_args[0].size * np.dtype(dtype).itemsize
            for threads in sorted({1, nthreads}):
                dl._core._set_num_threads(threads)
                t = best(lambda: f(*ours_args), 1, repeat)
                row(f"{name:<14} {dtype} {threads}t", t, t_np, "ms", f"{moved / t / 1e9:6.1f} GB/s")
        dl._core._set_num_threads(nthreads)


TRANSCENDENTAL = {  # name -> (NumPy name, input range)
    "exp": ("exp", -5, 5), "expm1": ("expm1", -5, 5), "log": ("log", 0, 5), "log1p": ("log1p", 0, 5),
    "log2": ("log2", 0, 5), "log10": ("log10", 0, 5), "sin": ("sin", -5, 5), "cos": ("cos", -5, 5),
    "tan": ("tan", -5, 5), "asin": ("arcsin", -1, 1), "acos": ("arccos", -1, 1), "atan": ("arctan", -5, 5),
    "sinh": ("sinh", -5, 5), "cosh": ("cosh", -5, 5), "tanh": ("tanh", -5, 5), "asinh": ("arcsinh", -5, 5),
    "acosh": ("arccosh", 1, 5), "atanh": ("arctanh", -1, 1),
}


def transcendental(quick):
    n, number, repeat = 10**6, (2 if quick else 5), (3 if quick else 7)
    rng = np.random.default_rng(0)
    nthreads = dl._core._num_threads()
    dl._core._set_num_threads(1)
    for dtype in ("float32", "float64"):
        for name, (np_name, lo, hi) in TRANSCENDENTAL.items():
            nx = rng.uniform(lo, hi, n).astype(dtype)
            x = dl.asarray(nx)
            ours, theirs = getattr(dl, name), getattr(np, np_name)
            row(f"{name:<6} {dtype} 1t", best(lambda: ours(x), number, repeat), best(lambda: theirs(nx), number, repeat), "ms")
        # The two-argument ones: atan2 over every quadrant, pow of positive bases.
        for name, np_name, (a_lo, a_hi), (b_lo, b_hi) in (("atan2", "arctan2", (-5, 5), (-5, 5)),
                                                          ("pow", "power", (0.5, 3), (-3, 3))):
            na, nb = rng.uniform(a_lo, a_hi, n).astype(dtype), rng.uniform(b_lo, b_hi, n).astype(dtype)
            a, b = dl.asarray(na), dl.asarray(nb)
            ours, theirs = getattr(dl, name), getattr(np, np_name)
            row(f"{name:<6} {dtype} 1t", best(lambda: ours(a, b), number, repeat),
                best(lambda: theirs(na, nb), number, repeat), "ms")
    dl._core._set_num_threads(nthreads)


def half(quick):
    n, number, repeat = 10**6, (2 if quick else 5), (3 if quick else 7)
    nx = np.random.default_rng(0).uniform(0.5, 3, n).astype(np.float16)
    ny = nx[::-1].copy()
    x, y = dl.asarray(nx), dl.asarray(ny)
    nthreads = dl._core._num_threads()
    dl._core._set_num_threads(1)
    cases = [("a + b", lambda p, a, b: a + b), ("a * 2.0", lambda p, a, b: a * 2.0),
             ("exp", lambda p, a, b: p.exp(a)), ("sin", lambda p, a, b: p.sin(a)), ("log", lambda p, a, b: p.log(a)),
             ("sum", lambda p, a, b: p.sum(a)), ("mean", lambda p, a, b: p.mean(a))]
    for name, f in cases:
        row(f"{name:<8} float16 1t", best(lambda: f(dl, x, y), number, repeat), best(lambda: f(np, nx, ny), number, repeat), "ms")
    try:
        import torch
    except ImportError:
        print("bfloat16: torch not installed")
    else:
        torch_threads = torch.get_num_threads()
        torch.set_num_threads(1)
        tx = torch.from_numpy(nx.astype(np.float32)).to(torch.bfloat16)
        ty = torch.flip(tx, [0])
        bx, by = dl.from_dlpack(tx), dl.from_dlpack(ty)
        for name, f in cases:
            row(f"{name:<8} bfloat16 1t", best(lambda: f(dl, bx, by), number, repeat),
                best(lambda: f(torch, tx, ty), number, repeat), "ms", "(vs torch)")
        torch.set_num_threads(torch_threads)
    dl._core._set_num_threads(nthreads)


TABLE_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]


def table_operands(rng, dtype, n):
    """Two operands of dtype (the second nonzero, for divisions), typical magnitudes."""
    if dtype == "bool":
        return rng.random(n) < 0.5, rng.random(n) < 0.5
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        a = rng.integers(max(info.min, -1000), min(info.max, 1000), n).astype(dtype)
        return a, rng.integers(1, min(info.max, 100), n).astype(dtype)
    return rng.standard_normal(n).astype(dtype), (rng.standard_normal(n) + 3).astype(dtype)


def table(quick, show_all):
    n, number, repeat = 10**6, (3 if quick else 10), (3 if quick else 5)
    rng = np.random.default_rng(0)
    nthreads = dl._core._num_threads()
    dl._core._set_num_threads(1)
    results = []
    for dtype in TABLE_DTYPES:
        na, nb = table_operands(rng, dtype, n)
        a, b = dl.asarray(na), dl.asarray(nb)
        for op in dl._core._elementwise_ops():
            ours, theirs = getattr(dl, op["name"], None), getattr(np, op["name"], None)
            if ours is None or theirs is None or op["arity"] > 2:
                continue
            args, nargs = ((a,), (na,)) if op["arity"] == 1 else ((a, b), (na, nb))
            try:
                ours(*args)
                with np.errstate(all="ignore"):
                    theirs(*nargs)
            except (TypeError, ValueError):  # a dtype the op (or NumPy) does not take
                continue
            with np.errstate(all="ignore"):
                t_ours = best(lambda: ours(*args), number, repeat)
                t_np = best(lambda: theirs(*nargs), number, repeat)
            results.append((t_ours / t_np, op["name"], dtype, t_ours, t_np))
    dl._core._set_num_threads(nthreads)
    shown = [r for r in sorted(results, reverse=True) if show_all or r[0] > 1.15]
    for ratio, name, dtype, t_ours, t_np in shown:
        row(f"{name:<17} {dtype:<8} 1t", t_ours, t_np, "ms")
    ratios = sorted(r[0] for r in results)
    print(f"{len(results)} op x dtype cases: {sum(r > 1.15 for r in ratios)} above 1.15x NumPy's time, "
          f"median ratio {ratios[len(ratios) // 2]:.2f}, worst {ratios[-1]:.2f}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="fewer repetitions and 10**6 elements (smoke run)")
    p.add_argument("--transcendental", action="store_true", help="only the transcendental functions, 10**6 values")
    p.add_argument("--half", action="store_true", help="only float16 (vs NumPy) and bfloat16 (vs PyTorch)")
    p.add_argument("--table", action="store_true", help="every op x real dtype at 10**6, the slow ones listed")
    p.add_argument("--all", action="store_true", help="with --table: list every case")
    args = p.parse_args()
    if args.table:
        print(f"dlarray vs NumPy {np.__version__}, one thread each")
        print(f"{'case':<34} {'dlarray':>13} {'numpy':>13} {'ratio':>7}")
        table(args.quick, args.all)
        return 0
    if args.half:
        print(f"dlarray vs NumPy {np.__version__} (float16) and PyTorch (bfloat16)")
        print(f"{'case':<34} {'dlarray':>13} {'peer':>13} {'ratio':>7}")
        half(args.quick)
        return 0
    if args.transcendental:
        print(f"dlarray (vector math: {dl._core._vector_math_isa()}) vs NumPy {np.__version__}")
        print(f"{'case':<34} {'dlarray':>13} {'numpy':>13} {'ratio':>7}")
        transcendental(args.quick)
        return 0
    print(f"dlarray vs NumPy {np.__version__}; {dl._core._num_threads()} threads available to dlarray")
    print(f"{'case':<34} {'dlarray':>13} {'numpy':>13} {'ratio':>7}")
    per_call(args.quick)
    throughput(args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
