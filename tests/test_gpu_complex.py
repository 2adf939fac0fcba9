"""complex64 and complex128 on a real GPU (cuda:0, else rocm:0) against the CPU.

tests/test_gpu_complex_fake.py checks the same over the fake backend, where the real functions
under the complex ones are glibc's on both sides; here they are the vendor's device math
library (a few ulp from glibc's), so finite results are compared within a few ulp of the
result's magnitude, special cases still exactly (NaN for NaN, infinities and the zero signs
the standard lists). The largest error each function shows is printed with -s. Skipped
without a device.
"""
import zlib

import numpy as np
import pytest

import dlarray as dl
from helpers.complex_cases import BINARY, COMPLEX, UNARY, compare, condition, finite_values, report_worst, special_grid
from helpers.gpu_util import first_gpu_device, host
from test_gpu_complex_fake import complex_data, exact

pytestmark = pytest.mark.gpu

# The largest ulp error (relative to |result|) allowed for finite arguments: the device's real
# functions (sinf, cosf, coshf, ...: up to 2 ulp each in CUDA's documentation) make products
# such as cosh(x) cos(y) differ from glibc's by up to 5 ulp on an H100; tan and tanh, quotients
# of such products, and the inverse functions (glibc's own method against Hull et al.'s) by a
# few more.
MAX_ULP = {"asin": 8, "asinh": 8, "acos": 8, "acosh": 8, "atan": 8, "atanh": 8, "pow": 8, "tan": 8, "tanh": 8}
WORST = {}


@pytest.fixture(scope="module")
def device():
    return first_gpu_device()


@pytest.fixture(scope="module", autouse=True)
def report():
    yield from report_worst(WORST, "GPU vs CPU")


def check(device, name, dtype, args, what=""):
    want = host(getattr(dl, name)(*[dl.asarray(a) for a in args]))
    got_arr = getattr(dl, name)(*[dl.asarray(a).to_device(device) for a in args])
    assert str(got_arr.device) == device
    worst = compare(host(got_arr), want, args, MAX_ULP.get(name, 6), what=f"{name} {dtype} {what}", device_math=True,
                    condition=condition(name, args), zero_signs=name != "pow")
    WORST[(name, dtype)] = max(WORST.get((name, dtype), 0.0), worst)


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", UNARY)
def test_unary(device, name, dtype):
    rng = np.random.default_rng(zlib.crc32(f"{name}-{dtype}".encode()))
    check(device, name, dtype, [special_grid(dtype)], "special grid")
    check(device, name, dtype, [finite_values(dtype, 100000, rng)], "finite")


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", BINARY)
def test_binary(device, name, dtype):
    rng = np.random.default_rng(zlib.crc32(f"{name}-{dtype}".encode()))
    g = special_grid(dtype)
    check(device, name, dtype, [np.repeat(g, g.size), np.tile(g, g.size)], "special grid")
    a, b = finite_values(dtype, 100000, rng), finite_values(dtype, 100000, rng)
    rng.shuffle(b)
    if name == "pow":
        b = (b / np.maximum(1, np.abs(b))).astype(dtype) * 4
        b[::3] = np.round(b[::3].real * 4)
    check(device, name, dtype, [a, b], "finite")


@pytest.mark.parametrize("dtype", COMPLEX)
def test_casts_scalars_views_reductions(device, dtype):
    rng = np.random.default_rng(1)
    a = finite_values(dtype, 4000, rng)[:4000].reshape(40, 100)
    x, g = dl.asarray(a), dl.asarray(a).to_device(device)
    other = "complex128" if dtype == "complex64" else "complex64"
    for f in (lambda v: v.astype(getattr(dl, other)), lambda v: v.astype(dl.bool), lambda v: dl.real(v) + 0j,
              lambda v: (v[::2, ::-3] * (1 - 2j)).mT, lambda v: v[:, :1] / v, lambda v: dl.where(dl.real(v) > 0, v, 1j)):
        np.testing.assert_array_equal(host(f(g)), host(f(x)))
    f32 = rng.standard_normal(100).astype(np.float32)
    np.testing.assert_array_equal(host(dl.asarray(f32).to_device(device).astype(getattr(dl, dtype))), f32.astype(dtype))
    rtol = 64 * np.finfo(a.real.dtype).eps
    b = a / np.abs(a)
    xb, gb = dl.asarray(b), dl.asarray(b).to_device(device)
    for name in ("sum", "prod", "mean"):
        for axis in (None, 0, 1):
            np.testing.assert_allclose(host(getattr(dl, name)(gb, axis=axis)), host(getattr(dl, name)(xb, axis=axis)),
                                       rtol=rtol, atol=rtol)
    for name in ("cumulative_sum", "cumulative_prod"):
        np.testing.assert_allclose(host(getattr(dl, name)(gb, axis=1)), host(getattr(dl, name)(xb, axis=1)), rtol=rtol,
                                   atol=rtol)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_sort_unique_nonzero(device, dtype):
    a = complex_data(30000, dtype, 7)
    x, g = dl.asarray(a), dl.asarray(a).to_device(device)
    for descending in (False, True):
        for fn in (dl.sort, dl.argsort):
            np.testing.assert_array_equal(exact(host(fn(g, descending=descending))), exact(host(fn(x, descending=descending))))
    for gv, cv in zip(dl.unique_all(g), dl.unique_all(x)):
        np.testing.assert_array_equal(exact(host(gv)), exact(host(cv)))
    np.testing.assert_array_equal(exact(host(dl.unique_values(g))), exact(host(dl.unique_values(x))))
    for gv, cv in zip(dl.nonzero(g), dl.nonzero(x)):
        np.testing.assert_array_equal(host(gv), host(cv))
    assert int(dl.count_nonzero(g)) == int(dl.count_nonzero(x))
