"""matmul and dlarray.linalg next to NumPy (both on OpenBLAS), measured in the same run.

Each line: case, our time, NumPy's time, ratio = ours / NumPy (below 1.0: we are faster).
Both libraries use their default threads (OpenBLAS's pool: OPENBLAS_NUM_THREADS for both;
dlarray's own pool for stacks of small matrices: DLARRAY_NUM_THREADS). Cases run in
alternation, best of `repeat`, so that machine noise hits both sides alike.

usage: PYTHONPATH=python python3 benchmarks/linalg.py [--quick] [--only SUBSTRING]
"""
import argparse
import timeit

import numpy as np

import dlarray as dl


def best_pair(ours, theirs, repeat, number):
    t1, t2 = [], []
    for _ in range(repeat):
        t1.append(timeit.timeit(ours, number=number) / number)
        t2.append(timeit.timeit(theirs, number=number) / number)
    return min(t1), min(t2)


def spd(n, batch=(), seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def cases(quick):
    rng = np.random.default_rng(1)
    sizes = (512,) if quick else (512, 2048)
    for dtype in ("float32", "float64"):
        for n in sizes:
            a, b = rng.standard_normal((n, n)).astype(dtype), rng.standard_normal((n, n)).astype(dtype)
            yield f"matmul {dtype} {n}^3", dl.matmul, np.matmul, (a, b), {}
    a, b = rng.standard_normal((64, 64, 64)), rng.standard_normal((64, 64, 64))
    yield "matmul float64 batched 64 x (64x64)", dl.matmul, np.matmul, (a, b), {}
    lin = [("solve", lambda n, bt: (spd(n, bt), rng.standard_normal(bt + (n, 1)))),
           ("inv", lambda n, bt: (spd(n, bt),)),
           ("cholesky", lambda n, bt: (spd(n, bt),)),
           ("qr", lambda n, bt: (rng.standard_normal(bt + (n, n)),)),
           ("svd", lambda n, bt: (rng.standard_normal(bt + (n, n)),)),
           ("eigh", lambda n, bt: (spd(n, bt),))]
    for name, make in lin:
        ours, theirs = getattr(dl.linalg, name), getattr(np.linalg, name)
        for n in ((256,) if quick else (256, 1024)):
            yield f"{name} float64 {n}", ours, theirs, make(n, ()), {}
        yield f"{name} float64 batched 1000 x (8x8)", ours, theirs, make(8, (1000,)), {}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="smaller sizes, fewer repetitions")
    p.add_argument("--only", default="", help="run the cases whose name contains this")
    args = p.parse_args()
    repeat = 3 if args.quick else 5
    print(f"dlarray vs NumPy {np.__version__}; dlarray threads {dl._core._num_threads()}")
    print(f"{'case':<44} {'dlarray':>11} {'numpy':>11} {'ratio':>7}")
    for label, ours, theirs, nargs, kw in cases(args.quick):
        if args.only not in label:
            continue
        dargs = tuple(dl.asarray(x) for x in nargs)
        ours(*dargs, **kw)  # warm up (workspace sizes, thread pools)
        theirs(*nargs, **kw)
        t = timeit.timeit(lambda: theirs(*nargs, **kw), number=1)
        number = max(1, int(0.05 / max(t, 1e-7)))
        t_ours, t_np = best_pair(lambda: ours(*dargs, **kw), lambda: theirs(*nargs, **kw), repeat, number)
        print(f"{label:<44} {t_ours * 1e3:9.3f}ms {t_np * 1e3:9.3f}ms {t_ours / t_np:7.2f}", flush=True)


if __name__ == "__main__":
    main()
