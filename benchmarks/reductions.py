"""Statistical reductions of dlarray next to NumPy, measured in the same run.

Each line: case, our time, NumPy's time, ratio = ours / NumPy (below 1.0: we are faster).
Inputs are 10**7 elements (a 1-d vector, and a 2000 x 5000 matrix reduced along each axis);
dlarray runs with the threads it would use by default.

usage: PYTHONPATH=python python3 benchmarks/reductions.py [--quick]
"""
import argparse
import sys
import timeit

import numpy as np

import dlarray as dl


def best(fn, repeat):
    return min(timeit.repeat(fn, number=1, repeat=repeat))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="10**6 elements, fewer repetitions")
    args = p.parse_args()
    n, repeat = (10**6, 3) if args.quick else (10**7, 7)
    rows, cols = (1000, 1000) if args.quick else (2000, 5000)
    print(f"dlarray vs NumPy {np.__version__}; {dl._core._num_threads()} threads available to dlarray")
    print(f"{'case':<40} {'dlarray':>11} {'numpy':>11} {'ratio':>7}")
    rng = np.random.default_rng(0)
    for dtype in ("float32", "float64"):
        na = rng.uniform(-1, 1, n).astype(dtype)
        nm = rng.uniform(-1, 1, rows * cols).astype(dtype).reshape(rows, cols)
        a, m = dl.asarray(na), dl.asarray(nm)
        cases = [(f"{name}(x) n={n}", getattr(dl, name), getattr(np, name), a, na, {})
                 for name in ("sum", "max", "mean", "var")]
        cases += [(f"sum(m, axis={ax}) {rows}x{cols}", dl.sum, np.sum, m, nm, {"axis": ax}) for ax in (0, 1)]
        cases += [(f"cumulative_sum(x) n={n}", dl.cumulative_sum, np.cumulative_sum, a, na, {})]
        for label, ours, theirs, x, nx, kw in cases:
            t_ours = best(lambda: ours(x, **kw), repeat)
            t_np = best(lambda: theirs(nx, **kw), repeat)
            print(f"{label + ' ' + dtype:<40} {t_ours * 1e3:>8.3f} ms {t_np * 1e3:>8.3f} ms {t_ours / t_np:>7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
