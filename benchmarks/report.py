"""A fixed, representative set of cases, dlarray next to NumPy and PyTorch's CPU kernels, timed in
alternation, written as a JSON of times and ratios and drawn as charts (benchmarks/charts.py).

The families: elementwise (add, multiply, exp, sin, where on 10^6 elements), reductions (sum,
prod, mean, var, max on 10^6; sum along axis 0 and 1 of 1000x1000), sort/argsort (10^6), matmul
(500x500 float64), linalg (solve 300x300), fft (rfft of 2^16), small arrays per call (x[0] of a
4-element array, ones(4)), and DLPack exchange per call, each direction. An exchange case times
one consumer importing one producer's array; the NumPy and PyTorch columns time the same call
with that library in dlarray's place (so "dl.from_dlpack(np)" is next to np.from_dlpack(np) and
torch.from_dlpack(np); "np.from_dlpack(dl)" next to np.from_dlpack(np) and np.from_dlpack(torch)).

Each case's functions run in turn, `repeat` rounds of blocks of back-to-back calls (about 2 ms
each), and the best time per call of each is kept (cpu_peers.alternate): a burst of load on a
shared machine hits them alike. dlarray and PyTorch run with the same thread count; BLAS
libraries (NumPy's matmul and solve) are limited to it too when threadpoolctl is installed.
PyTorch is optional: without it the PyTorch figures are null and only the NumPy chart is drawn.

The JSON (default benchmarks/results/report.json): machine (platform, CPU model, CPU count,
versions of Python, NumPy, PyTorch and dlarray), date, thread count, and per case its name,
family, times in seconds per library, and dlarray's time over NumPy's and over PyTorch's.
Charts: report-numpy.svg/.png and report-pytorch.svg/.png next to it.

usage: PYTHONPATH=python python3 benchmarks/report.py [--threads N] [--quick] [--out JSON]
       python3 benchmarks/report.py --plot-only JSON   (redraws the charts of a recorded run)
"""
import argparse
import json
import os
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import charts  # noqa: E402  (no dlarray, NumPy or matplotlib at import)

DEFAULT_OUT = HERE / "results" / "report.json"
N = 10**6
SIDE = 1000


def _pick(cases, names):
    """The cases of a cpu_peers list with these names, in this order."""
    by_name = {c[0]: c for c in cases}
    missing = [n for n in names if n not in by_name]
    if missing:
        raise KeyError(f"cpu_peers has no case {missing}")
    return [by_name[n] for n in names]


def build_cases(dl, np, torch):
    """(name, family, inputs, dlarray call, NumPy call, PyTorch call or None) per case; inputs()
    gives the three calls' arguments (by default one NumPy array, converted to each library)."""
    from cpu_peers import data, other_cases, reduction_cases

    t = torch is not None

    def converted(make):
        def inputs():
            nx = make()
            return dl.asarray(nx), nx, torch.from_numpy(nx) if t else None
        return inputs

    out = []
    elementwise = _pick(other_cases(N), [f"add float64 n={N}", f"multiply float64 n={N}",
                                         f"exp float32 n={N}", f"sin float32 n={N}", f"where float64 n={N}"])
    reductions = _pick(reduction_cases(N, SIDE), [f"{f} float64 n={N}" for f in ("sum", "prod", "mean", "var", "max")]
                       + [f"sum(axis={a}) float64 {SIDE}x{SIDE}" for a in (0, 1)])
    sorting = _pick(other_cases(N), [f"sort float64 n={N}", f"argsort float32 n={N}"])
    for family, group in (("elementwise", elementwise), ("reductions", reductions), ("sort", sorting)):
        for name, shape, dtype, ours, numpys, torchs in group:
            out.append((name, family, converted(lambda s=shape, d=dtype: data(s, d)), ours, numpys,
                        torchs if t else None))

    # Diagonally dominant: solve's time on a well-conditioned system (cpu_peers' data is near 1).
    well_conditioned = converted(lambda: data((300, 300), "float64") + 300 * np.eye(300))
    out.append(("matmul float64 500x500", "matmul", converted(lambda: data((500, 500), "float64")),
                lambda a: dl.matmul(a, a), lambda a: np.matmul(a, a), t and (lambda a: torch.matmul(a, a))))
    out.append(("solve float64 300x300", "linalg", well_conditioned,
                lambda a: dl.linalg.solve(a, a), lambda a: np.linalg.solve(a, a),
                t and (lambda a: torch.linalg.solve(a, a))))
    out.append((f"rfft float64 n={2**16}", "fft", converted(lambda: data((2**16,), "float64")),
                dl.fft.rfft, np.fft.rfft, t and torch.fft.rfft))

    four = converted(lambda: np.array([1.0, 2.0, 3.0, 4.0]))
    out.append(("x[0] float64 (4 elements)", "small arrays", four,
                lambda x: x[0], lambda x: x[0], t and (lambda x: x[0])))
    out.append(("ones(4) float64", "small arrays", four,
                lambda x: dl.ones(4), lambda x: np.ones(4), t and (lambda x: torch.ones(4, dtype=torch.float64))))

    # Exchange of a 4-element array, per call. Export: the consumer is fixed and the producer is
    # each library's array; import: the producer is fixed and the consumer each library.
    def producers(name):
        def inputs():
            a_dl, a_np, a_t = four()
            return {"np": (a_np,) * 3, "torch": (a_t,) * 3}.get(name, (a_dl, a_np, a_t))
        return inputs

    out.append(("np.from_dlpack(dl) (export to NumPy)", "exchange", producers("dl"),
                np.from_dlpack, np.from_dlpack, t and np.from_dlpack))
    out.append(("dl.from_dlpack(np) (import from NumPy)", "exchange", producers("np"),
                dl.from_dlpack, np.from_dlpack, t and torch.from_dlpack))
    if t:
        out.append(("torch.from_dlpack(dl) (export to PyTorch)", "exchange", producers("dl"),
                    torch.from_dlpack, torch.from_dlpack, torch.from_dlpack))
        out.append(("dl.from_dlpack(torch) (import from PyTorch)", "exchange", producers("torch"),
                    dl.from_dlpack, np.from_dlpack, torch.from_dlpack))
    return out


def run(threads, quick):
    """Times every case; returns the report dict."""
    import numpy as np

    import dlarray as dl
    from cpu_peers import SETTLE_SECONDS, alternate

    try:
        import torch
    except ImportError:
        torch = None
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        threadpool_limits = None
    dl._core._set_num_threads(threads)
    if torch is not None:
        torch.set_num_threads(threads)
    blas = threadpool_limits(limits=threads, user_api="blas") if threadpool_limits else None
    repeat = 3 if quick else 7
    date, stamp = charts.now()
    report = {
        "kind": "report", "format": 1, "date": date, "timestamp": stamp,
        "machine": charts.machine_info(numpy=np.__version__, torch=torch.__version__ if torch else None,
                                       dlarray=dl.__version__),
        "threads": threads, "blas_threads_limited": blas is not None, "quick": quick, "repeat": repeat,
        "cases": [],
    }
    print(f"dlarray {dl.__version__} vs NumPy {np.__version__}"
          + (f", PyTorch {torch.__version__}" if torch else ", no PyTorch") + f"; {threads} threads")
    print(f"{'case':<44} {'dlarray':>10} {'numpy':>10} {'torch':>10} {'/numpy':>7} {'/torch':>7}  (us)")
    try:
        for name, family, inputs, ours, numpys, torchs in build_cases(dl, np, torch):
            a_dl, a_np, a_t = inputs()
            fns = [lambda f=ours, a=a_dl: f(a), lambda f=numpys, a=a_np: f(a)]
            if torchs:
                fns.append(lambda f=torchs, a=a_t: f(a))
            times = alternate(fns, repeat, SETTLE_SECONDS if threads > 1 else 0.0)
            t_torch = times[2] if torchs else None
            case = {"name": name, "family": family,
                    "times": {"dlarray": times[0], "numpy": times[1], "torch": t_torch},
                    "ratio_numpy": times[0] / times[1],
                    "ratio_torch": times[0] / t_torch if t_torch else None}
            report["cases"].append(case)
            print(f"{name:<44} {times[0] * 1e6:10.2f} {times[1] * 1e6:10.2f} "
                  f"{t_torch * 1e6 if t_torch else float('nan'):10.2f} {case['ratio_numpy']:7.2f} "
                  + (f"{case['ratio_torch']:7.2f}" if t_torch else f"{'-':>7}"), flush=True)
    finally:
        if blas is not None:
            blas.restore_original_limits()
    return report


def draw(report, out):
    """The charts next to `out`; a message instead when matplotlib is absent."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("no matplotlib: charts not drawn (pip install matplotlib)")
        return []
    paths = charts.plot_report(report, out.parent, out.stem)
    for p in paths:
        print(f"wrote {p}")
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=None,
                    help="threads for dlarray and PyTorch (default: dlarray's default, dl._core._num_threads())")
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run, noisy)")
    ap.add_argument("--out", default=str(DEFAULT_OUT), help=f"JSON to write (default {DEFAULT_OUT})")
    ap.add_argument("--plot-only", metavar="JSON", help="redraw the charts of this JSON; no timing")
    args = ap.parse_args()
    if args.plot_only:
        path = pathlib.Path(args.plot_only)
        draw(json.loads(path.read_text()), path)
        return 0
    if args.threads is None:
        import dlarray as dl

        args.threads = dl._core._num_threads()
    report = run(args.threads, args.quick)
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {out}")
    draw(report, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
