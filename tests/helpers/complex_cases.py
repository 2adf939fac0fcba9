"""Complex test data and the comparison of GPU results with the CPU's, for the complex tests over
the fake backend and on real GPUs (tests/test_gpu_complex.py).

The CPU computes complex functions with std::complex and glibc; the GPU kernels with dcomplex
and src/core/device_complex.h. Results are compared part by part (compare() below): the
standard's special cases exactly (NaN matching NaN, zeros by sign), other parts within a number
of ulp relative to the result's magnitude (the larger part's spacing), which is how accurate
complex functions are specified.
"""
import math

import numpy as np

import dlarray as dl
from helpers.cases import OPS, accepts

COMPLEX = ["complex64", "complex128"]
UNARY = sorted(n for n, op in OPS.items() if op["arity"] == 1 and accepts(op, dl.complex64))
BINARY = sorted(n for n, op in OPS.items() if op["arity"] == 2 and accepts(op, dl.complex64))


def real_of(dtype):
    return np.dtype(dtype).type(0).real.dtype


def special_parts(dtype):
    """Each part of the special-case grid: signed zeros, infinities, NaN, the ends of the
    finite range (largest, smallest subnormal) and a few ordinary numbers."""
    f = np.finfo(real_of(dtype))
    tiny = float(f.smallest_subnormal)
    return [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.5, -2.5, 3.0, float(f.max), -float(f.max),
            tiny, -tiny, 1e-20, math.pi / 2]


def special_grid(dtype):
    p = np.array(special_parts(dtype), dtype=real_of(dtype))
    re, im = np.meshgrid(p, p, indexing="ij")
    z = np.empty(re.size, dtype=dtype)
    z.real, z.imag = re.ravel(), im.ravel()
    return z


def finite_values(dtype, n, rng):
    """Finite arguments across the magnitudes: random exponents over the whole range, ordinary
    numbers, the neighbourhoods of the unit circle, of +-1 and +-i (where log, log1p, asin,
    acos, atanh and friends cancel) and of 0, and real parts where exp and the hyperbolic
    functions overflow in an intermediate but not in the result."""
    r = real_of(dtype)
    top = math.log10(float(np.finfo(r).max)) * 0.98
    k = n // 8

    def spread(m):
        return rng.choice([-1.0, 1.0], m) * 10.0 ** rng.uniform(-top, top, m)

    theta = rng.uniform(-math.pi, math.pi, k)
    near = 1 + rng.choice([-1, 1], k) * 10.0 ** rng.uniform(-7 if r == np.float32 else -15, -1, k)
    small = 10.0 ** rng.uniform(-6 if r == np.float32 else -15, -1, k)
    unit = rng.choice([-1.0, 1.0, 0.0], (k, 2))
    edge = 88.0 if r == np.float32 else 709.0
    parts = [
        (spread(k), spread(k)),
        (rng.uniform(-10, 10, k), rng.uniform(-10, 10, k)),
        (near * np.cos(theta), near * np.sin(theta)),  # |z| close to 1
        (unit[:, 0] + rng.normal(0, 1e-3, k) * small, unit[:, 1] + rng.normal(0, 1e-3, k) * small),
        (rng.normal(0, 1, k) * small, rng.normal(0, 1, k) * small),  # close to 0
        (rng.choice([-1, 1], k) * rng.uniform(edge - 10, edge * 3, k), rng.uniform(-4, 4, k)),
        (spread(k), rng.uniform(-2, 2, k)),
        (rng.uniform(-2, 2, k), spread(k)),
    ]
    re = np.concatenate([a for a, _ in parts]).astype(r)
    im = np.concatenate([b for _, b in parts]).astype(r)
    z = np.empty(re.size, dtype=dtype)
    z.real, z.imag = re, im
    return z


def _same_part(g, w):
    both_nan = np.isnan(g) & np.isnan(w)
    return both_nan | ((g == w) & (np.signbit(g) == np.signbit(w)))


def compare(got, want, args, max_ulp, what="", device_math=False, condition=None, zero_signs=True):
    """Asserts GPU results `got` match the CPU's `want` for arguments `args` (a list of arrays
    broadcast against the result); returns the largest ulp error it allowed.

    Part by part: an infinite or NaN part of the CPU's result must be matched exactly, and so
    must a zero part (by sign) where an argument has a zero, infinite or NaN part (elsewhere
    a zero may be an underflow, where a subnormal is as right), and every part where an
    argument has an infinite or NaN part; the other parts may differ by max_ulp spacings at
    the result's magnitude (its larger finite part). device_math: the GPU's real functions are
    the vendor's (a real GPU), not glibc's, so finite parts of special cases (pi/4 from atan2)
    may differ within max_ulp too, and an infinite part from finite arguments (an overflow)
    may have either sign: e^x (cos y + i sin y) for a huge y, as pow computes it, turns with
    the last bit of y, and so may a zero part where the condition exceeds 1/eps (the angle is
    lost); beside an infinite part a finite part need only be finite (|result| is infinite). condition: per element, how many times an ulp of error in an argument or
    intermediate is magnified (pow's |y log x|): the allowance is max_ulp times it.
    zero_signs=False: zeros of either sign match (pow's special cases on a GPU: exp(y log x)
    takes a zero's sign from an intermediate NaN, whose sign is the hardware's: negative on
    x86, positive on NVIDIA GPUs; the standard leaves those signs unspecified)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (what, got.dtype, want.dtype, got.shape, want.shape)
    if want.dtype.kind not in "fc":
        bad = got != want
        assert not bad.any(), f"{what}: {np.flatnonzero(bad)[:5]} {got[bad][:5]} {want[bad][:5]}"
        return 0.0
    nonfinite_arg = np.zeros(want.shape, bool)
    zero_arg = np.zeros(want.shape, bool)
    for a in args:
        a = np.broadcast_to(np.asarray(a), want.shape)
        if a.dtype.kind in "fc":
            nonfinite_arg |= ~np.isfinite(a.real) | ~np.isfinite(a.imag)
            zero_arg |= (a.real == 0) | (a.imag == 0)
    as_complex = np.result_type(want.dtype, np.complex64)  # float32 -> complex64
    w, g = want.astype(as_complex), got.astype(as_complex)
    parts = [(w.real, g.real), (w.imag, g.imag)]
    finite_w = [np.where(np.isfinite(wp), np.abs(wp), 0) for wp, _ in parts]
    top = np.finfo(w.real.dtype).max
    spacing = (np.spacing(np.minimum(np.maximum(*finite_w), top / 2).astype(w.real.dtype)).astype(np.float64)
               * np.where(np.maximum(*finite_w) > top / 2, 2, 1))  # (np.spacing(max) overflows)
    if device_math:  # beside an infinite part, any finite part is within 0 ulp of |result| = inf
        spacing = np.where(np.isinf(w.real) | np.isinf(w.imag), np.inf, spacing)
    worst = 0.0
    for k, (wp, gp) in enumerate(parts):
        exact = ~np.isfinite(wp) | ((wp == 0) & (zero_arg | nonfinite_arg))
        if not device_math:
            exact |= nonfinite_arg
        same = _same_part(gp, wp)
        if device_math:  # an overflow's sign follows an angle an ulp can turn when it is huge
            same |= ~nonfinite_arg & np.isinf(wp) & np.isinf(gp)
            if condition is not None:  # and so does an underflow's when the angle is lost
                lost = np.broadcast_to(condition, want.shape) * np.finfo(w.real.dtype).eps > 1
                same |= lost & ~nonfinite_arg & (wp == 0) & (gp == 0)
        if not zero_signs:
            same |= (wp == 0) & (gp == 0)
        wrong = exact & ~same
        if wrong.any():
            i = np.flatnonzero(wrong.ravel())[:6]
            argv = [np.broadcast_to(np.asarray(a), want.shape).ravel()[i] for a in args]
            raise AssertionError(f"{what}: special cases differ at {i}: args {argv} got {got.ravel()[i]} want {want.ravel()[i]}")
        rest = ~exact
        with np.errstate(all="ignore"):
            err = np.abs(gp[rest].astype(np.float64) - wp[rest]) / spacing[rest]
            if condition is not None:
                err = err / np.broadcast_to(condition, want.shape)[rest]
        err = np.where(np.isnan(err), np.inf, err)  # a NaN or infinite part where a number belongs
        if err.size and err.max() > worst:
            worst = float(err.max())
            if worst > max_ulp:
                i = np.argsort(err)[-4:]
                argv = [np.broadcast_to(np.asarray(a), want.shape)[rest][i] for a in args]
                raise AssertionError(f"{what}: {worst:.3g} ulp > {max_ulp}: args {argv} got {got[rest][i]} want {want[rest][i]}")
    return worst


def report_worst(worsts):
    """Generator for a module fixture: after the module's tests, the largest ulp error each
    (function, dtype) showed on each device (`worsts`: title -> {(function, dtype): error}),
    printed; pytest -s shows it."""
    yield
    for title, worst in worsts.items():
        if worst:
            print(f"\nlargest ulp error on finite arguments ({title}):")
            for key in sorted(worst):
                print(f"  {key[0]:>12} {key[1]:>10}: {worst[key]:.3g}")


def condition(name, args):
    """How pow magnifies an error in log x: |y log x| (1 for the other functions)."""
    if name != "pow":
        return None
    x, y = (np.asarray(a).astype(np.complex128) for a in args)
    with np.errstate(all="ignore"):
        c = 1 + np.abs(y) * np.abs(np.log(x))
    return np.where(np.isnan(c), 1, c)  # (0 ** 0)
