"""dlarray.fft next to numpy.fft (and, with --scipy, scipy.fft), measured in the same run.

Each line: case, our time, NumPy's time, ratio = ours / NumPy (below 1.0: we are faster). The
two are timed in alternation, best of the rounds, so a noisy machine hurts both alike. Sizes are
the issue's: 2^10 and 2^20 points (fft, rfft) and 512 x 512 (fftn), double and single precision.
The last lines give the per-call overhead of dlarray's glue (zero-copy views both ways, argument
checks) at n = 16: our time minus NumPy's, in microseconds.
--scipy adds scipy.fft (workers=1 and workers=-1) next to numpy.fft: the measurement behind the
choice of backend (see the README).

usage: PYTHONPATH=python python3 benchmarks/fft.py [--quick] [--scipy]
"""
import argparse
import os
import sys
import timeit

import numpy as np

import dlarray as dl


def alternating(fns, number, rounds):
    """Best time per call of each function, timed in turn within each round."""
    best = [float("inf")] * len(fns)
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            best[i] = min(best[i], timeit.timeit(fn, number=number) / number)
    return best


def cases(rng):
    c = lambda *shape: (rng.standard_normal(shape) + 1j * rng.standard_normal(shape))  # noqa: E731
    r = lambda *shape: rng.standard_normal(shape)  # noqa: E731
    out = []
    for prec, cdt, rdt in (("double", np.complex128, np.float64), ("single", np.complex64, np.float32)):
        for n in (2**10, 2**20):
            out.append((f"fft n=2^{n.bit_length() - 1} {prec}", "fft", c(n).astype(cdt)))
            out.append((f"rfft n=2^{n.bit_length() - 1} {prec}", "rfft", r(n).astype(rdt)))
        out.append((f"fftn 512x512 {prec}", "fftn", c(512, 512).astype(cdt)))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="fewer rounds")
    p.add_argument("--scipy", action="store_true", help="also time scipy.fft (backend choice)")
    args = p.parse_args()
    rounds = 3 if args.quick else 9
    print(f"dlarray vs NumPy {np.__version__} (pocketfft); {os.cpu_count()} CPUs")
    print(f"{'case':<24} {'dlarray':>11} {'numpy':>11} {'ratio':>7}")
    rng = np.random.default_rng(0)
    table = cases(rng)
    for label, name, a in table:
        x = dl.asarray(a)
        ours, theirs = getattr(dl.fft, name), getattr(np.fft, name)
        number = max(1, int(2e5 // a.size))
        t_ours, t_np = alternating([lambda: ours(x), lambda: theirs(a)], number, rounds)
        print(f"{label:<24} {t_ours * 1e3:>8.3f} ms {t_np * 1e3:>8.3f} ms {t_ours / t_np:>7.2f}")

    print(f"\nper-call overhead at n=16 (dlarray - numpy), best of {rounds * 3} rounds")
    small = {"fft": rng.standard_normal(16) + 0j, "rfft": rng.standard_normal(16),
             "fftn": rng.standard_normal((4, 4)) + 0j, "irfft": rng.standard_normal(9) + 0j}
    for name, a in small.items():
        x = dl.asarray(a)
        ours, theirs = getattr(dl.fft, name), getattr(np.fft, name)
        t_ours, t_np = alternating([lambda: ours(x), lambda: theirs(a)], 20000, rounds * 3)
        print(f"{name + ' n=16':<24} {t_ours * 1e6:>8.2f} us {t_np * 1e6:>8.2f} us "
              f"overhead {(t_ours - t_np) * 1e6:.2f} us")

    if args.scipy:
        import scipy
        import scipy.fft as sf

        print(f"\nscipy.fft {scipy.__version__} next to numpy.fft (ratio = scipy / numpy)")
        print(f"{'case':<24} {'numpy':>11} {'sp w=1':>11} {'sp w=-1':>11} {'w=1':>6} {'w=-1':>6}")
        for label, name, a in table:
            number = max(1, int(2e5 // a.size))
            f_np, f_sp = getattr(np.fft, name), getattr(sf, name)
            t_np, t1, tn = alternating([lambda: f_np(a), lambda: f_sp(a, workers=1),
                                        lambda: f_sp(a, workers=-1)], number, rounds)
            print(f"{label:<24} {t_np * 1e3:>8.3f} ms {t1 * 1e3:>8.3f} ms {tn * 1e3:>8.3f} ms "
                  f"{t1 / t_np:>6.2f} {tn / t_np:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
