"""Accuracy of dlarray's transcendental functions next to NumPy's, on the same inputs.

For each function and dtype (float32, float64) it draws --n inputs (default 10**6) over the
function's domain, hard regions included (tiny arguments, huge arguments of sin/cos/tan,
arguments next to multiples of pi/2, next to the branch points of log1p/acosh/atanh/asin/
acos), and prints the largest error in ulps of dlarray's result and of NumPy's against a
reference computed in x87 extended precision (numpy.longdouble: 64-bit significand, so the
reference is 2**11 times finer than a float64 ulp). An ulp is measured at the reference's
magnitude in the target dtype (subnormal spacing below the normal range); a correctly
rounded result is within 0.5 ulp. Where the reference rounds to inf, NaN or zero-limit
values, the result must match it exactly (otherwise the error is shown as inf).

usage: PYTHONPATH=python python3 benchmarks/accuracy.py [--n N] [--only sin,cos] [--dtype float64]
                                                      [--json PATH]
       python3 benchmarks/accuracy.py --plot-only PATH   (redraws the chart of a recorded run)
--json also writes the figures (per function and dtype: both largest errors, dlarray's worst
input and its result; "inf" where a special value was wrong) with the date and machine, and
draws them next to the file (benchmarks/charts.py, matplotlib: accuracy.svg/.png for
accuracy.json), dlarray's and NumPy's largest error side by side per function.
DLARRAY_VECTOR_MATH=0 shows glibc's scalar libm everywhere, DLARRAY_VECTOR_MATH=all libmvec
everywhere (the choice before the accuracy policy of src/backends/cpu/vector_math.cpp).
"""
import argparse
import json
import math
import os
import pathlib
import sys

import numpy as np

import dlarray as dl

HERE = pathlib.Path(__file__).resolve().parent
LD = np.longdouble
if np.finfo(LD).nmant < 63:
    sys.exit("numpy.longdouble is not x87 extended precision on this platform; no reference available")

PARAMS = {  # dtype -> (significand bits incl. the implicit one, minimum normal exponent, log10 range)
    "float32": (24, -126, 38),
    "float64": (53, -1022, 308),
}


def ulp_error(ours, ref, dtype):
    """|ours - ref| in ulps of `dtype` at ref's magnitude; exact match demanded off the finite range."""
    p, emin, _ = PARAMS[dtype]
    ref_rounded = ref.astype(dtype)
    err = np.zeros(ref.shape, dtype=np.float64)
    special = ~np.isfinite(ref_rounded)
    same = (ours == ref_rounded) | (np.isnan(ours) & np.isnan(ref_rounded))
    err[special & ~same] = np.inf
    fin = ~special
    o = ours[fin].astype(LD)
    r = ref[fin]
    _, e = np.frexp(r)  # r = m * 2**e, 0.5 <= |m| < 1
    e = np.maximum(e.astype(np.int64) - 1, emin)
    ulp = np.ldexp(LD(1), e - (p - 1))
    with np.errstate(invalid="ignore", over="ignore"):
        d = np.abs(o - r) / ulp
    d[~np.isfinite(o)] = np.inf
    err[fin] = d.astype(np.float64)
    return err


def mix(rng, n, parts):
    """Concatenates generators (weight, fn(rng, k)) into n values, shuffled."""
    total = sum(w for w, _ in parts)
    out = []
    for w, fn in parts:
        out.append(np.asarray(fn(rng, max(1, int(n * w / total))), dtype=LD))
    x = np.concatenate(out)[:n]
    rng.shuffle(x)
    return x


def uniform(lo, hi):
    return lambda rng, k: rng.uniform(lo, hi, k)


def loguniform(lo_exp, hi_exp, signed=True):
    def gen(rng, k):
        v = 10.0 ** rng.uniform(lo_exp, hi_exp, k)
        return v * rng.choice([-1.0, 1.0], k) if signed else v
    return gen


def near(points, lo_exp, hi_exp):
    """Points plus or minus 10**U(lo_exp, hi_exp) (relative to 1 at the point)."""
    pts = np.asarray(points, dtype=np.float64)
    def gen(rng, k):
        c = rng.choice(pts, k)
        return c + rng.choice([-1.0, 1.0], k) * 10.0 ** rng.uniform(lo_exp, hi_exp, k)
    return gen


def near_half_pi_multiples(dtype, max_k):
    """The dtype values nearest k*pi/2 and a few ulps around them: the hardest reductions."""
    def gen(rng, k):
        m = np.unique(np.round(10.0 ** rng.uniform(0, np.log10(max_k), k)))
        c = (m * (np.pi / 2)).astype(dtype)  # nearest dtype value (float64 pi/2 suffices for that)
        steps = rng.integers(-3, 4, c.size)
        r = c.copy()
        for s in range(1, 4):
            r = np.where(steps >= s, np.nextafter(r, np.inf, dtype=dtype), r)
            r = np.where(steps <= -s, np.nextafter(r, -np.inf, dtype=dtype), r)
        return np.resize(r, k)
    return gen


def inputs(name, dtype, n, rng):
    big = PARAMS[dtype][2]
    f32 = dtype == "float32"
    tiny = loguniform(-45 if f32 else -320, -4)
    exp_hi, exp_lo = (88.8, -103.9) if f32 else (709.8, -745.1)
    trig = [(4, uniform(-10, 10)), (2, loguniform(1, 5)), (1, loguniform(5, big)), (1, tiny),
            (2, near_half_pi_multiples(dtype, 1e5 if f32 else 1e9))]
    log_like = [(4, loguniform(-big - (7 if f32 else 16), big, signed=False)), (2, near([1.0], -8 if f32 else -17, -1)),
                (1, uniform(0, 10))]
    table = {
        "exp": [(4, uniform(exp_lo, exp_hi)), (2, uniform(-5, 5)), (1, tiny)],
        "expm1": [(3, uniform(-40, exp_hi)), (3, uniform(-1, 1)), (1, tiny)],
        "log": log_like, "log2": log_like, "log10": log_like,
        "log1p": [(3, loguniform(-big + 1, big, signed=False)), (2, near([-1.0], -7 if f32 else -16, -0.1)),
                  (2, uniform(-1, 1)), (1, tiny)],
        "sin": trig, "cos": trig, "tan": trig,
        "asin": [(4, uniform(-1, 1)), (2, near([-1.0, 1.0], -7 if f32 else -16, -1)), (1, tiny)],
        "acos": [(4, uniform(-1, 1)), (2, near([-1.0, 1.0], -7 if f32 else -16, -1)), (1, tiny)],
        "atan": [(3, uniform(-5, 5)), (3, loguniform(-5, big)), (1, tiny)],
        "sinh": [(3, uniform(-exp_hi - 0.6, exp_hi + 0.6)), (3, uniform(-2, 2)), (1, tiny)],
        "cosh": [(3, uniform(-exp_hi - 0.6, exp_hi + 0.6)), (3, uniform(-2, 2)), (1, tiny)],
        "tanh": [(3, uniform(-20, 20)), (3, uniform(-1, 1)), (1, tiny)],
        "asinh": [(3, loguniform(-5, big)), (3, uniform(-2, 2)), (1, tiny)],
        "acosh": [(3, near([1.0], -7 if f32 else -16, 0)), (3, loguniform(0.01, big, signed=False)), (1, uniform(1, 3))],
        "atanh": [(4, uniform(-1, 1)), (2, near([-1.0, 1.0], -7 if f32 else -16, -1)), (1, tiny)],
    }
    with np.errstate(over="ignore"):
        return mix(rng, n, table[name]).astype(dtype)


FUNCS = ["exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan",
         "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]
NP_NAME = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh",
           "atanh": "arctanh"}


def _figure(v):
    """A float for JSON: finite ones as they are, inf and NaN as the strings "inf", "nan"."""
    v = float(v)
    return v if math.isfinite(v) else str(v)


def _charts():
    sys.path.insert(0, str(HERE))
    import charts

    return charts


def draw(doc, path):
    """The chart next to the JSON file `path`; a message instead when matplotlib is absent."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("no matplotlib: chart not drawn (pip install matplotlib)")
        return []
    paths = _charts().plot_accuracy(doc, path.parent, path.stem)
    for p in paths:
        print(f"wrote {p}")
    return paths


def write_json(path, n, rows, goal_met):
    charts = _charts()
    date, stamp = charts.now()
    doc = {"kind": "accuracy", "format": 1, "date": date, "timestamp": stamp,
           "machine": charts.machine_info(numpy=np.__version__, dlarray=dl.__version__),
           "n": n, "reference": "x87 long double",
           "vector_math": os.environ.get("DLARRAY_VECTOR_MATH"), "goal_met": goal_met, "results": rows}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {path}")
    draw(doc, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10**6, help="inputs per function and dtype")
    ap.add_argument("--only", default="", help="comma-separated function names")
    ap.add_argument("--dtype", default="", help="float32 or float64 (default both)")
    ap.add_argument("--json", metavar="PATH", help="also write the figures here, and their chart next to it")
    ap.add_argument("--plot-only", metavar="PATH", help="redraw the chart of this JSON; measures nothing")
    args = ap.parse_args()
    if args.plot_only:
        path = pathlib.Path(args.plot_only)
        draw(json.loads(path.read_text()), path)
        return 0
    rows = []
    names = args.only.split(",") if args.only else FUNCS
    dtypes = [args.dtype] if args.dtype else ["float32", "float64"]
    print(f"max ulp error on {args.n} inputs per function; reference: x87 long double; NumPy {np.__version__}")
    print(f"{'function':<8} {'dtype':<8} {'dlarray':>9} {'numpy':>9}   worst dlarray input")
    worst_ok = True
    for dtype in dtypes:
        for name in names:
            rng = np.random.default_rng([ord(c) for c in name + dtype])  # same inputs every run
            x = inputs(name, dtype, args.n, rng)
            npf = getattr(np, NP_NAME.get(name, name))
            with np.errstate(all="ignore"):
                ref = npf(x.astype(LD))
                theirs = npf(x)
            ours = np.from_dlpack(getattr(dl, name)(dl.asarray(x)))
            e_ours = ulp_error(ours, ref, dtype)
            e_np = ulp_error(theirs, ref, dtype)
            i = int(np.argmax(e_ours))
            print(f"{name:<8} {dtype:<8} {e_ours.max():>9.3f} {e_np.max():>9.3f}   x={x[i]!r} -> {ours[i]!r}")
            rows.append({"function": name, "dtype": dtype, "dlarray_max_ulp": _figure(e_ours.max()),
                         "numpy_max_ulp": _figure(e_np.max()), "worst_input": _figure(x[i]),
                         "worst_output": _figure(ours[i])})
            bound = 1.0 if dtype == "float64" else e_np.max()
            worst_ok &= bool(e_ours.max() <= max(bound, 1.0))
    print("goal (float64 <= 1 ulp, float32 <= max(NumPy, 1 ulp)):", "met" if worst_ok else "NOT met")
    if args.json:
        write_json(pathlib.Path(args.json), args.n, rows, worst_ok)
    return 0


if __name__ == "__main__":
    sys.exit(main())
