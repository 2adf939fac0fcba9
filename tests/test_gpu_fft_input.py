"""dlarray.fft leaves a ROCm array's values alone: the core gives the vendor library a copy of the
input of every kind of transform on ROCm devices.

rocFFT (under hipFFT) may overwrite the input of out-of-place C2C and R2C transforms, not only of
C2R as cuFFT does, so src/backends/gpu/gpu_fft.cpp stages (copies) the input on ROCm even when x
is already a contiguous buffer of the right dtype. Checked over the fake backend (rocm:0), which
poses as ROCm (its fft_async overwrites C2R's input, and is to overwrite C2C's and R2C's as rocFFT
may): each transform's input is compared with a CPU copy taken before it, for contiguous inputs
of every floating dtype, several shapes and axes; and the log shows the copy made before the
library call where a CUDA device would make none.
"""
import numpy as np
import pytest

import dlarray as dl
import dlarray.fft as F
from helpers.gpu_util import fresh_log_for_fake_tests, host, random_values as signal

DEVICE = "rocm:0"
SHAPES = [(8,), (3, 10), (4, 5, 6)]
# The real-input functions take float32/float64 only (the standard); the others every float dtype.
DTYPES = {"rfft": ["float32", "float64"], "rfftn": ["float32", "float64"]}
ALL_DTYPES = ["complex64", "complex128", "float32", "float64"]


@pytest.fixture(autouse=True)
def clean(request):
    yield from fresh_log_for_fake_tests(request)


def one_d_cases(ndim):
    """(kwargs) of the 1-D functions: the last and first axis, with and without a length n."""
    return [{}, {"axis": 0}, {"axis": -1, "n": 6}] if ndim > 1 else [{}, {"n": 12}]


def n_d_cases(ndim):
    """(kwargs) of the n-D functions: all axes, the first, and two in reverse order."""
    cases = [{}, {"axes": [0]}]
    if ndim > 1:
        cases.append({"axes": [-1, 0]})
    return cases


def assert_input_unchanged(name, a, kw):
    g = dl.asarray(a).to_device(DEVICE)
    before = host(g).copy()  # the CPU copy the input must still equal after the transform
    r = getattr(F, name)(g, **kw)
    host(r)  # the transform has run (nothing is left queued)
    np.testing.assert_array_equal(host(g), before, err_msg=f"{name} {a.dtype} {a.shape} {kw}")


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_one_dimensional_transforms_leave_the_input_unchanged(fake, name, shape):
    for dtype in DTYPES.get(name, ALL_DTYPES):
        a = signal(shape, dtype, seed=len(name) + len(shape))
        for kw in one_d_cases(len(shape)):
            assert_input_unchanged(name, a, kw)


@pytest.mark.parametrize("name", ["fftn", "rfftn"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_n_dimensional_transforms_leave_the_input_unchanged(fake, name, shape):
    for dtype in DTYPES.get(name, ALL_DTYPES):
        a = signal(shape, dtype, seed=len(name) + len(shape))
        for kw in n_d_cases(len(shape)):
            assert_input_unchanged(name, a, kw)


@pytest.mark.parametrize("name, dtype", [("fft", "complex128"), ("fftn", "complex64"), ("rfft", "float64"),
                                         ("rfftn", "float32")])
def test_contiguous_input_of_the_right_dtype_is_still_copied_on_rocm(fake, name, dtype):
    # The case a CUDA device hands to cuFFT as it is: on ROCm the core copies it first, so the
    # library's writes land in the copy (until the fake overwrites inputs, the log shows the copy).
    g = dl.asarray(signal((4, 8), dtype, seed=5)).to_device(DEVICE)
    fake.clear_log()
    getattr(F, name)(g)
    calls = [e[0] for e in fake.log()]
    assert "fft" in calls, calls
    before_fft = calls[:calls.index("fft")]
    assert any(c in ("memcpy", "strided_copy") for c in before_fft), calls
