"""complex64 and complex128 on GPU arrays against the CPU: over dlarray._fake_gpu on every
machine, and on a real GPU (cuda:0, else rocm:0) where marked gpu (skipped without one).

The fake backend runs the GPU's element bodies on the host: for complex dtypes the functors of
src/core/elementwise_functors.h on dcomplex with the device-callable functions of
src/core/device_complex.h, where the CPU runs them on std::complex with glibc's functions. Every
(op, complex dtype) pair is compared over the special-case grid (each part one of +-0, +-inf,
NaN, the largest and smallest numbers, ...: exact results, signs of zeros included) and over
finite values across the magnitudes (within a few ulp of the result's magnitude; the largest
error each function shows on each device is printed with -s), on the fake backend and on a real
GPU: there the real functions under the complex ones are the vendor's device math library (a
few ulp from glibc's), so finite results are compared within a few more ulp, special cases
still exactly (NaN for NaN, infinities and the zero signs the standard lists). Then casts,
Python scalars, broadcasting and strided views, reductions and scans, and the searching,
sorting and set functions.
"""
import zlib

import numpy as np
import pytest

import dlarray as dl
from helpers.complex_cases import BINARY, COMPLEX, UNARY, compare, condition, finite_values, report_worst, special_grid
from helpers.gpu_util import FAKE, GPU, clean, host, real_device  # noqa: F401  (clean, real_device: fixtures)
from helpers.cases import bits

# The largest ulp error (relative to |result|) allowed for finite arguments: (for any function,
# for these). Over the fake backend, where the real functions underneath are the host's (glibc's)
# on both sides: the functions the kernels compute by glibc's own method (exp, log, sqrt, the
# hyperbolic and circular functions, arithmetic) agree exactly, or within 2 ulp where the
# kernels' own hypot (closer to exact than glibc 2.36's) enters; the inverse functions, computed
# by Hull et al.'s method where glibc has its own, differ by a few. On a real GPU the device's
# real functions (sinf, cosf, coshf, ...: up to 2 ulp each in CUDA's documentation) make products
# such as cosh(x) cos(y) differ from glibc's by up to 5 ulp on an H100; tan and tanh, quotients
# of such products, and the inverse functions (glibc's own method against Hull et al.'s) by a
# few more.
MAX_ULP = {
    FAKE: (3, {"asin": 6, "asinh": 6, "acos": 6, "acosh": 6, "atan": 6, "atanh": 6, "pow": 4}),
    GPU: (6, {"asin": 8, "asinh": 8, "acos": 8, "acosh": 8, "atan": 8, "atanh": 8, "pow": 8, "tan": 8, "tanh": 8}),
}
FINITE_VALUES = {FAKE: 4000, GPU: 100000}  # how many finite arguments each function is tried on
WORST = {FAKE: {}, GPU: {}}


@pytest.fixture(scope="module", autouse=True)
def report():
    yield from report_worst({"fake GPU vs CPU": WORST[FAKE], "GPU vs CPU": WORST[GPU]})


def gpu(a, device="rocm:0"):
    return dl.asarray(a).to_device(device)


def check(device, name, dtype, args, what=""):
    want = host(getattr(dl, name)(*[dl.asarray(a) for a in args]))
    got_arr = getattr(dl, name)(*[gpu(a, device) for a in args])
    assert str(got_arr.device) == device
    default, max_ulp = MAX_ULP[device.where]
    real = device.where != FAKE
    worst = compare(host(got_arr), want, args, max_ulp.get(name, default), what=f"{name} {dtype} {what}",
                    device_math=real, condition=condition(name, args), zero_signs=not real or name != "pow")
    WORST[device.where][(name, dtype)] = max(WORST[device.where].get((name, dtype), 0.0), worst)


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", UNARY)
def test_unary_special_cases_and_finite_values(gpu_device, name, dtype):
    rng = np.random.default_rng(zlib.crc32(f"{name}-{dtype}".encode()))
    check(gpu_device, name, dtype, [special_grid(dtype)], "special grid")
    check(gpu_device, name, dtype, [finite_values(dtype, FINITE_VALUES[gpu_device.where], rng)], "finite")


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", BINARY)
def test_binary_special_cases_and_finite_values(gpu_device, name, dtype):
    rng = np.random.default_rng(zlib.crc32(f"{name}-{dtype}".encode()))
    g = special_grid(dtype)
    check(gpu_device, name, dtype, [np.repeat(g, g.size), np.tile(g, g.size)], "special grid")
    n = FINITE_VALUES[gpu_device.where]
    a, b = finite_values(dtype, n, rng), finite_values(dtype, n, rng)
    rng.shuffle(b)
    if name == "pow":  # moderate exponents (huge ones only overflow) and small integer ones
        b = (b / np.maximum(1, np.abs(b))).astype(dtype) * 4
        b[::3] = np.round(b[::3].real * 4)
    check(gpu_device, name, dtype, [a, b], "finite")


@pytest.mark.parametrize("dtype", COMPLEX)
def test_where_selects_complex_elements(fake, dtype):
    g = special_grid(dtype)
    c = np.arange(g.size) % 3 == 0
    got, want = dl.where(gpu(c), gpu(g), gpu(g[::-1].copy())), dl.where(dl.asarray(c), dl.asarray(g), dl.asarray(g[::-1].copy()))
    np.testing.assert_array_equal(bits(host(got).view(f"f{g.itemsize // 2}")), bits(host(want).view(f"f{g.itemsize // 2}")))
    np.testing.assert_array_equal(host(dl.where(gpu(c), gpu(g), 2j)), np.where(c, g, np.array(2j, dtype)))


def test_pow_small_integer_exponents_are_exact_products(fake):
    z = gpu(np.array([1 + 1j, 2 - 3j, -0.5 + 0.25j], "complex128"))
    np.testing.assert_array_equal(host(z ** 2), host(dl.asarray(host(z)) ** 2))
    assert host(gpu(np.array([1 + 1j])) ** 2)[0] == 2j


# ---- casts ------------------------------------------------------------------------------------

SOURCES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
           "bfloat16", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("src", SOURCES)
@pytest.mark.parametrize("dst", COMPLEX + ["bool"])
def test_casts_to_complex_and_to_bool(fake, src, dst):
    if src == dst:
        return
    rng = np.random.default_rng(5)
    if src in COMPLEX:
        values = np.concatenate([special_grid(src), finite_values(src, 800, rng)])
    elif src in ("float16", "bfloat16", "float32", "float64"):
        values = np.concatenate([np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, -1e-30, 65504.0]),
                                 rng.standard_normal(40) * 1e3])
    else:
        values = rng.integers(0, 2 if src == "bool" else 100, 48)
    x = dl.asarray(values).astype(getattr(dl, src)) if src in ("float16", "bfloat16") else dl.asarray(values.astype(src))
    want = host(dl.astype(x, getattr(dl, dst)))
    fake.clear_log()
    got = dl.astype(x.to_device("rocm:0")[::-1], getattr(dl, dst))[::-1]
    assert str(got.device) == "rocm:0" and "cast" in [e[0] for e in fake.log()]
    np.testing.assert_array_equal(bits(host(got).view(f"f{want.itemsize // 2}") if dst in COMPLEX else host(got)),
                                  bits(want.view(f"f{want.itemsize // 2}") if dst in COMPLEX else want))


def test_complex_to_real_stays_refused_and_real_imag_work(fake):
    z = gpu(np.array([1 + 2j, -0.0 - 3j], "complex64"))
    with pytest.raises(TypeError, match="imaginary part"):
        dl.astype(z, dl.float32)
    np.testing.assert_array_equal(host(dl.real(z)), np.array([1, -0.0], "float32"))
    np.testing.assert_array_equal(host(dl.imag(z)), np.array([2, -3], "float32"))


# ---- operands: Python scalars, mixed dtypes, broadcasting, views, in place ---------------------

def test_python_scalars_and_mixed_dtypes(fake):
    rng = np.random.default_rng(2)
    for dtype in COMPLEX:
        a = finite_values(dtype, 64, rng)
        x, g = dl.asarray(a), gpu(a)
        for f in (lambda v: v + (1 + 2j), lambda v: (2 - 1j) * v, lambda v: v / 1j, lambda v: (1 + 1j) - v,
                  lambda v: 2.5 * v, lambda v: v ** 2, lambda v: v ** 0.5, lambda v: (0.5 + 0j) ** v,
                  lambda v: v == (1 + 2j), lambda v: -v, lambda v: abs(v)):
            want, got = host(f(x)), f(g)
            assert str(got.device) == "rocm:0"
            compare(host(got), want, [a], 8)
    f32 = np.linspace(-2, 2, 7, dtype=np.float32)
    for other in (1j, np.array([1 + 1j], "complex128")):
        want = dl.asarray(f32) * (dl.asarray(other) if isinstance(other, np.ndarray) else other)
        got = gpu(f32) * (gpu(other) if isinstance(other, np.ndarray) else other)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(host(got), host(want))
    g32 = gpu(f32)
    fake.clear_log()
    g32.astype(dl.complex64) * (1 - 1j)
    assert [e[0] for e in fake.log() if e[0] in ("memcpy", "elementwise", "cast")] == ["cast", "elementwise"]


def test_broadcasting_and_strided_views(fake):
    rng = np.random.default_rng(3)
    a = finite_values("complex128", 160, rng)[:120].reshape(4, 5, 6)
    b = finite_values("complex64", 16, rng)[:5].reshape(5, 1)
    c = np.ascontiguousarray(finite_values("complex128", 40, rng)[:30].reshape(6, 5)).T
    da, db, dc = gpu(a), gpu(b), gpu(np.ascontiguousarray(c.T)).mT
    xa, xb, xc = dl.asarray(a), dl.asarray(b), dl.asarray(np.ascontiguousarray(c.T)).mT
    for f in (lambda p, q, r: p * q + r, lambda p, q, r: p[:, ::2, ::-3] / q[::2],
              lambda p, q, r: dl.exp(dl.permute_dims(p, (2, 0, 1))), lambda p, q, r: dl.sqrt(p.mT) - r.mT,
              lambda p, q, r: dl.where(dl.abs(p) > 1, p, q)):
        np.testing.assert_array_equal(host(f(da, db, dc)), host(f(xa, xb, xc)))
    d = gpu(a)
    d[:, ::2] *= 1j
    a = a.copy()
    a[:, ::2] *= 1j
    d += gpu(b.astype("complex128"))
    a = a + b
    np.testing.assert_array_equal(host(d), a)


# ---- reductions, scans, searching, sorting, sets ----------------------------------------------

@pytest.mark.parametrize("dtype", COMPLEX)
def test_reductions_and_scans(fake, dtype):
    rng = np.random.default_rng(4)
    a = (rng.uniform(0.5, 1.5, (3, 5, 7)) + 1j * rng.uniform(-1, 1, (3, 5, 7))).astype(dtype)
    a[1, 2, 3] = complex(np.nan, 1)
    x, g = dl.asarray(a), gpu(a)
    rtol = 8 * np.finfo(a.real.dtype).eps
    for name in ("sum", "prod", "mean"):
        for axis in (None, 0, 2, (0, 2)):
            want, got = host(getattr(dl, name)(x, axis=axis)), getattr(dl, name)(g, axis=axis)
            assert str(got.device) == "rocm:0"
            np.testing.assert_allclose(host(got), want, rtol=rtol, equal_nan=True)
    for name in ("cumulative_sum", "cumulative_prod"):
        for axis in (0, 1, 2):
            want = host(getattr(dl, name)(x, axis=axis, include_initial=True))
            np.testing.assert_allclose(host(getattr(dl, name)(g, axis=axis, include_initial=True)), want, rtol=rtol,
                                       equal_nan=True)
    for name in ("var", "std"):
        np.testing.assert_allclose(host(getattr(dl, name)(g, axis=1)), host(getattr(dl, name)(x, axis=1)), rtol=rtol,
                                   equal_nan=True)


def complex_data(n, dtype, seed):
    """Duplicates in each part, -0, NaN and infinite parts: what orders and runs depend on."""
    rng = np.random.default_rng(seed)
    parts = np.array([0.0, -0.0, 1.0, -1.0, 2.5, np.inf, -np.inf, np.nan])
    z = np.empty(n, dtype)
    z.real = rng.choice(parts, n)
    z.imag = rng.choice(parts, n)
    return z


@pytest.mark.parametrize("dtype", COMPLEX)
def test_count_nonzero_and_nonzero(fake, dtype):
    a = complex_data(60, dtype, 1).reshape(6, 10)
    x, g = dl.asarray(a), gpu(a)
    for axis in (None, 0, 1):
        np.testing.assert_array_equal(host(dl.count_nonzero(g, axis=axis)), host(dl.count_nonzero(x, axis=axis)))
    for got, want in zip(dl.nonzero(g), dl.nonzero(x)):
        np.testing.assert_array_equal(host(got), host(want))


def exact(a):
    a = np.ascontiguousarray(a)
    return bits(a.view(f"f{a.itemsize // 2}")) if a.dtype.kind == "c" else bits(a)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_sort_and_argsort_order_real_then_imaginary(fake, dtype):
    for shape, axis in (((200,), -1), ((7, 30), 1), ((7, 30), 0), ((1, 5), 1)):
        a = complex_data(int(np.prod(shape)), dtype, 2).reshape(shape)
        x, g = dl.asarray(a), gpu(a)
        for descending in (False, True):
            for fn in (dl.sort, dl.argsort):
                got, want = fn(g, axis=axis, descending=descending), fn(x, axis=axis, descending=descending)
                assert str(got.device) == "rocm:0"
                np.testing.assert_array_equal(exact(host(got)), exact(host(want)), err_msg=f"{fn.__name__} {shape} {axis}")


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", ["unique_values", "unique_counts", "unique_inverse", "unique_all"])
def test_unique_matches_the_cpu(fake, name, dtype):
    for n, seed in ((300, 3), (1, 4), (2, 5)):
        a = complex_data(n, dtype, seed)
        got, want = getattr(dl, name)(gpu(a)), getattr(dl, name)(dl.asarray(a))
        got = (got,) if name == "unique_values" else tuple(got)
        want = (want,) if name == "unique_values" else tuple(want)
        for gv, cv in zip(got, want):
            assert str(gv.device) == "rocm:0"
            np.testing.assert_array_equal(exact(host(gv)), exact(host(cv)), err_msg=f"{name} n={n}")


def test_searches_over_complex_keys_say_they_are_not_there_yet(fake):
    g = gpu(np.array([1 + 2j, 0j]))
    for call in (dl.argmax, lambda v: dl.isin(v, v), lambda v: dl.searchsorted(v, v)):
        with pytest.raises(NotImplementedError, match="on device 'rocm:0' is not available yet for dtype complex128"):
            call(g)


# ---- on a real GPU: casts, operands, reductions, sorting and sets at larger sizes ----------------

@pytest.mark.gpu
@pytest.mark.parametrize("dtype", COMPLEX)
def test_casts_scalars_views_reductions(real_device, dtype):
    rng = np.random.default_rng(1)
    a = finite_values(dtype, 4000, rng)[:4000].reshape(40, 100)
    x, g = dl.asarray(a), gpu(a, real_device)
    other = "complex128" if dtype == "complex64" else "complex64"
    for f in (lambda v: v.astype(getattr(dl, other)), lambda v: v.astype(dl.bool), lambda v: dl.real(v) + 0j,
              lambda v: (v[::2, ::-3] * (1 - 2j)).mT, lambda v: v[:, :1] / v, lambda v: dl.where(dl.real(v) > 0, v, 1j)):
        np.testing.assert_array_equal(host(f(g)), host(f(x)))
    f32 = rng.standard_normal(100).astype(np.float32)
    np.testing.assert_array_equal(host(gpu(f32, real_device).astype(getattr(dl, dtype))), f32.astype(dtype))
    rtol = 64 * np.finfo(a.real.dtype).eps
    b = a / np.abs(a)
    xb, gb = dl.asarray(b), gpu(b, real_device)
    for name in ("sum", "prod", "mean"):
        for axis in (None, 0, 1):
            np.testing.assert_allclose(host(getattr(dl, name)(gb, axis=axis)), host(getattr(dl, name)(xb, axis=axis)),
                                       rtol=rtol, atol=rtol)
    for name in ("cumulative_sum", "cumulative_prod"):
        np.testing.assert_allclose(host(getattr(dl, name)(gb, axis=1)), host(getattr(dl, name)(xb, axis=1)), rtol=rtol,
                                   atol=rtol)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", COMPLEX)
def test_sort_unique_nonzero(real_device, dtype):
    a = complex_data(30000, dtype, 7)
    x, g = dl.asarray(a), gpu(a, real_device)
    for descending in (False, True):
        for fn in (dl.sort, dl.argsort):
            np.testing.assert_array_equal(exact(host(fn(g, descending=descending))), exact(host(fn(x, descending=descending))))
    for gv, cv in zip(dl.unique_all(g), dl.unique_all(x)):
        np.testing.assert_array_equal(exact(host(gv)), exact(host(cv)))
    np.testing.assert_array_equal(exact(host(dl.unique_values(g))), exact(host(dl.unique_values(x))))
    for gv, cv in zip(dl.nonzero(g), dl.nonzero(x)):
        np.testing.assert_array_equal(host(gv), host(cv))
    assert int(dl.count_nonzero(g)) == int(dl.count_nonzero(x))
