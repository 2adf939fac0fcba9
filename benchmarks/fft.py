"""dlarray.fft next to numpy.fft (and, with --scipy, scipy.fft), measured in the same run.

Each line: case, our time, NumPy's time, ratio = ours / NumPy (below 1.0: we are faster). The
two are timed in alternation, best of the rounds, so a noisy machine hurts both alike. Sizes are
the issue's: 2^10 and 2^20 points (fft, rfft) and 512 x 512 (fftn), double and single precision.
The last lines give the per-call overhead of dlarray's glue (zero-copy views both ways, argument
checks) at n = 16: our time minus the backend's (numpy.fft, scipy.fft) called directly, in us.
--scipy adds scipy.fft next to numpy.fft, single-threaded in thread CPU time (robust on a shared
machine) and with workers=-1 in wall time: the measurement behind the choice of backend.

usage: PYTHONPATH=python python3 benchmarks/fft.py [--quick] [--scipy]
"""
import argparse
import os
import sys
import time
import timeit

import numpy as np

import dlarray as dl


def alternating(fns, number, rounds, clock=time.perf_counter):
    """Best time per call of each function, timed in turn within each round."""
    best = [float("inf")] * len(fns)
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            best[i] = min(best[i], timeit.timeit(fn, number=number, timer=clock) / number)
    return best


def backends():
    """The backends dlarray.fft can use here: numpy always, scipy when installed."""
    try:
        import scipy.fft  # noqa: F401
        return ["numpy", "scipy"]
    except ImportError:
        return ["numpy"]


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
    print(f"dlarray ({dl.fft._use_backend()} backend) vs NumPy {np.__version__}; {os.cpu_count()} CPUs, "
          f"{dl._core._num_threads()} dlarray threads")
    print(f"{'case':<24} {'dlarray':>11} {'numpy':>11} {'ratio':>7}")
    rng = np.random.default_rng(0)
    table = cases(rng)
    for label, name, a in table:
        x = dl.asarray(a)
        ours, theirs = getattr(dl.fft, name), getattr(np.fft, name)
        number = max(1, int(2e5 // a.size))
        t_ours, t_np = alternating([lambda: ours(x), lambda: theirs(a)], number, rounds)
        print(f"{label:<24} {t_ours * 1e3:>8.3f} ms {t_np * 1e3:>8.3f} ms {t_ours / t_np:>7.2f}")

    print(f"\nper-call overhead at n=16: dlarray.fft minus its backend called directly, best of {rounds * 3}")
    small = {"fft": rng.standard_normal(16) + 0j, "rfft": rng.standard_normal(16),
             "fftn": rng.standard_normal((4, 4)) + 0j, "irfft": rng.standard_normal(9) + 0j}
    for backend in backends():
        dl.fft._use_backend(backend)
        direct = np.fft if backend == "numpy" else __import__("scipy.fft").fft
        for name, a in small.items():
            x = dl.asarray(a)
            ours, theirs = getattr(dl.fft, name), getattr(direct, name)
            t_ours, t_direct = alternating([lambda: ours(x), lambda: theirs(a)], 20000, rounds * 3)
            print(f"{name + ' [' + backend + ']':<24} {t_ours * 1e6:>8.2f} us {t_direct * 1e6:>8.2f} us "
                  f"overhead {(t_ours - t_direct) * 1e6:.2f} us")
    dl.fft._use_backend()

    if args.scipy:
        import scipy
        import scipy.fft as sf

        # Single-threaded, both are timed in CPU time of this thread: on a shared machine that
        # leaves out the time others hold the core, which wall time cannot.
        print(f"\nscipy.fft {scipy.__version__} next to numpy.fft: one thread in thread CPU time, "
              "and all threads (workers=-1) in wall time; ratio = scipy / numpy")
        print(f"{'case':<24} {'numpy cpu':>11} {'scipy cpu':>11} {'ratio':>6} {'numpy wall':>11} "
              f"{'w=-1 wall':>11} {'ratio':>6}")
        for label, name, a in table:
            number = max(1, int(2e5 // a.size))
            f_np, f_sp = getattr(np.fft, name), getattr(sf, name)
            c_np, c_sp = alternating([lambda: f_np(a), lambda: f_sp(a, workers=1)], number, rounds,
                                     clock=time.thread_time)
            w_np, w_sp = alternating([lambda: f_np(a), lambda: f_sp(a, workers=-1)], number, rounds)
            print(f"{label:<24} {c_np * 1e3:>8.3f} ms {c_sp * 1e3:>8.3f} ms {c_sp / c_np:>6.2f} "
                  f"{w_np * 1e3:>8.3f} ms {w_sp * 1e3:>8.3f} ms {w_sp / w_np:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
