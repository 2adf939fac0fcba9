"""dlarray.fft against numpy.fft as the oracle: values and dtypes for every transform, n/s/axes/norm,
non-contiguous, read-only and zero-size input, the errors the standard names, fftfreq/rfftfreq,
fftshift/ifftshift, devices, and round-trip properties. Every test runs on both backends
(scipy.fft and numpy.fft; the SciPy half is skipped where SciPy is not installed)."""
import inspect
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import dlarray as dl
from helpers.cases import N_D, ONE_D, REAL_INPUT, accepted
from helpers.gpu_util import fake_gpu_backend, random_values as data
from helpers.oracle import to_numpy

F = dl.fft
SPEC_NAMES = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
              "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
# The standard's result dtype per (function kind, input dtype).
COMPLEX_OF = {"float32": "complex64", "float64": "complex128", "complex64": "complex64",
              "complex128": "complex128"}
REAL_OF = {"float32": "float32", "float64": "float64", "complex64": "float32", "complex128": "float64"}
REAL_OUTPUT = {"irfft", "hfft", "irfftn"}


@pytest.fixture(autouse=True, params=["scipy", "numpy"])
def backend(request):
    if request.param == "scipy":
        pytest.importorskip("scipy.fft")
    F._use_backend(request.param)
    yield request.param
    F._use_backend()


def assert_close(got, expected, expected_dtype):
    """got (a dlarray) has expected_dtype, expected's shape, and its values to FFT accuracy."""
    assert isinstance(got, dl.Array)
    assert str(got.dtype) == expected_dtype
    g = to_numpy(got)
    assert g.shape == expected.shape
    tol = 3e-6 if expected_dtype in ("float32", "complex64") else 1e-13
    scale = max(1.0, float(np.max(np.abs(expected), initial=0.0)))
    np.testing.assert_allclose(g, expected, rtol=tol, atol=tol * scale * 4)


def result_dtype(name, dtype):
    return REAL_OF[dtype] if name in REAL_OUTPUT else COMPLEX_OF[dtype]


# ---- the namespace ---------------------------------------------------------------------------

def test_namespace_has_the_14_functions():
    assert sorted(F.__all__) == sorted(SPEC_NAMES)
    assert dl.fft is sys.modules["dlarray.fft"]
    for name in SPEC_NAMES:
        assert callable(getattr(F, name)) and getattr(F, name).__name__ == name


@pytest.mark.parametrize("name, signature", [
    *[(n, "(x, /, *, n=None, axis=-1, norm='backward')") for n in ONE_D],
    *[(n, "(x, /, *, s=None, axes=None, norm='backward')") for n in N_D],
    ("fftfreq", "(n, /, *, d=1.0, dtype=None, device=None)"),
    ("rfftfreq", "(n, /, *, d=1.0, dtype=None, device=None)"),
    ("fftshift", "(x, /, *, axes=None)"),
    ("ifftshift", "(x, /, *, axes=None)"),
])
def test_signatures_match_the_stubs(name, signature):
    assert str(inspect.signature(getattr(F, name))) == signature


def test_import_dlarray_does_not_import_numpy():
    code = "import sys, dlarray; dlarray.fft.fftshift(dlarray.arange(4)); print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---- 1-D transforms --------------------------------------------------------------------------

def valid_inputs(names):
    """(name, dtype) pairs the function accepts; complex input to rfft & co is tested as an error."""
    return [(name, dtype) for name in names for dtype in accepted(name)]


@pytest.mark.parametrize("name, dtype", valid_inputs(ONE_D))
@pytest.mark.parametrize("n", [None, 3, 13])  # 8 points along axis -1, 5 along 0: trim and pad
@pytest.mark.parametrize("axis", [0, -1])
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_one_d_transforms_match_numpy(name, dtype, n, axis, norm):
    a = data((5, 8), dtype)
    got = getattr(F, name)(dl.asarray(a), n=n, axis=axis, norm=norm)
    assert_close(got, getattr(np.fft, name)(a, n=n, axis=axis, norm=norm), result_dtype(name, dtype))


@pytest.mark.parametrize("name", ONE_D)
def test_defaults_are_backward_norm_and_last_axis(name):
    a = data((3, 6), "float64")
    expected = getattr(np.fft, name)(a)
    assert_close(getattr(F, name)(dl.asarray(a)), expected, result_dtype(name, "float64"))


@pytest.mark.parametrize("name", ONE_D + N_D)
def test_non_contiguous_and_negative_stride_input(name):
    base = data((6, 10, 4), "float64" if name in REAL_INPUT else "complex128")
    x = dl.asarray(base)
    views = [(x[::2, 1:9, 1], base[::2, 1:9, 1]),
             (dl.permute_dims(x, (2, 0, 1)), base.transpose(2, 0, 1)),
             (dl.flip(x, axis=1), base[:, ::-1])]
    for view, expected_in in views:
        expected = getattr(np.fft, name)(expected_in)
        assert_close(getattr(F, name)(view), expected, to_dtype_of(expected))


def to_dtype_of(a):
    return a.dtype.name


def test_read_only_input_is_read_not_written():
    a = data((4, 8), "complex64")
    a.flags.writeable = False
    x = dl.from_dlpack(a)
    out = F.fft(x)
    assert_close(out, np.fft.fft(a), "complex64")
    np.testing.assert_array_equal(to_numpy(x), a)
    out[0, 0] = 0  # the result is a fresh, writable array of its own
    np.testing.assert_array_equal(to_numpy(x), a)


def test_result_wraps_the_backend_output_without_a_copy():
    x = dl.asarray(data((16,), "complex128"))
    out = F.fft(x)
    view = np.from_dlpack(out)
    view[3] = 42
    assert complex(out[3]) == 42


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "ihfft"])
def test_zero_size_batch_axes_are_kept(name):
    a = np.zeros((0, 5), "float64")
    got = getattr(F, name)(dl.asarray(a), axis=1)
    expected = getattr(np.fft, name)(a, axis=1)
    assert got.shape == expected.shape and str(got.dtype) == expected.dtype.name


@pytest.mark.parametrize("name", ONE_D)
def test_zero_length_transform_is_a_value_error(name):
    x = dl.zeros((3, 0), dtype=dl.float64)
    with pytest.raises(ValueError, match=f"fft.{name}"):
        getattr(F, name)(x)


@pytest.mark.parametrize("name", ["irfft", "hfft"])
def test_single_input_point_gives_zero_default_length(name):
    with pytest.raises(ValueError):  # n = 2*(M-1) = 0
        getattr(F, name)(dl.ones(1, dtype=dl.complex128))
    out = getattr(F, name)(dl.ones(1, dtype=dl.complex128), n=1)
    assert_close(out, getattr(np.fft, name)(np.ones(1, complex), n=1), "float64")


def test_zero_padding_of_an_empty_axis():
    got = F.fft(dl.zeros((2, 0), dtype=dl.complex64), n=4)
    assert_close(got, np.zeros((2, 4), np.complex64), "complex64")


# ---- n-D transforms --------------------------------------------------------------------------

ND_CASES = [(None, None), (None, (0,)), (None, (2, 0)), ((3, 10), (0, 2)), ((4,), (-1,)),
            ((2, 7, 5), (1, 0, 2)), ((6, 9), (-2, -1))]


@pytest.mark.parametrize("name, dtype", valid_inputs(N_D))
@pytest.mark.parametrize("s, axes", ND_CASES)
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_n_d_transforms_match_numpy(name, dtype, s, axes, norm):
    a = data((4, 5, 6), dtype)
    got = getattr(F, name)(dl.asarray(a), s=s, axes=axes, norm=norm)
    expected = getattr(np.fft, name)(a, s=s, axes=axes, norm=norm)
    assert_close(got, expected, result_dtype(name, dtype))


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn"])
def test_s_minus_one_keeps_the_axis_length(name):
    a = data((4, 6), "float64")
    got = getattr(F, name)(dl.asarray(a), s=(-1, 8), axes=(0, 1))
    assert_close(got, getattr(np.fft, name)(a, s=(4, 8), axes=(0, 1)), result_dtype(name, "float64"))


def test_irfftn_s_minus_one_on_the_last_axis_uses_every_input_element():
    # The standard: "if n equals M[i] or -1, all elements along axis i must be used"; on the last
    # axis that is the default output length 2*(M-1). (NumPy reads -1 as M there.)
    a = data((4, 6), "complex128")
    got = F.irfftn(dl.asarray(a), s=(3, -1), axes=(0, 1))
    assert_close(got, np.fft.irfftn(a, s=(3, 10), axes=(0, 1)), "float64")


@pytest.mark.parametrize("name", ["fftn", "ifftn"])
def test_no_axes_is_a_copy_in_the_result_dtype(name):
    a = data((3, 4), "float32")
    x = dl.asarray(a)
    for kw, src in (({"axes": ()}, a), ({}, a[0, 0])):
        arg = x if kw else x[0, 0]  # a 0-d array: "all axes" are none
        out = getattr(F, name)(arg, **kw)
        assert_close(out, src.astype(np.complex64), "complex64")
        out[...] = 7  # not a view of the input
    np.testing.assert_array_equal(to_numpy(x), a)


@pytest.mark.parametrize("name", ["rfftn", "irfftn"])
def test_real_n_d_transforms_need_an_axis(name):
    x = dl.asarray(data((3, 4), "float64" if name == "rfftn" else "complex128"))
    with pytest.raises(ValueError, match="at least one axis"):
        getattr(F, name)(x, axes=())
    with pytest.raises(ValueError, match="at least one axis"):
        getattr(F, name)(x[0, 0])


def test_fftn_of_a_512_square_matches_numpy():
    a = data((512, 512), "complex64")
    assert_close(F.fftn(dl.asarray(a)), np.fft.fftn(a), "complex64")


# ---- errors ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ONE_D + N_D)
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_input_is_a_type_error(name, dtype):
    x = dl.zeros((4, 4), dtype=getattr(dl, dtype))
    with pytest.raises(TypeError, match=f"fft.{name}: x has dtype {dtype}"):
        getattr(F, name)(x)


@pytest.mark.parametrize("name", ONE_D + N_D)
@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "uint32"])
def test_integer_input_transforms_as_float64(name, dtype):
    """As NumPy's and SciPy's fft (the standard leaves non-floating input open)."""
    a = (np.arange(16).reshape(4, 4) % 3).astype(dtype)
    got = getattr(F, name)(dl.asarray(a))
    want = getattr(F, name)(dl.asarray(a.astype(np.float64)))
    assert got.dtype == want.dtype and got.dtype in (dl.float64, dl.complex128)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


@pytest.mark.parametrize("name", sorted(REAL_INPUT))
def test_real_input_functions_reject_complex_input(name):
    with pytest.raises(TypeError, match="real floating-point"):
        getattr(F, name)(dl.ones((2, 4), dtype=dl.complex64))


@pytest.mark.parametrize("name", ONE_D + N_D + ["fftshift", "ifftshift"])
def test_non_array_input_is_a_type_error(name):
    with pytest.raises(TypeError, match="dlarray.Array"):
        getattr(F, name)(np.ones(4))


@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize("kw, error, match", [
    ({"axis": 2}, ValueError, "axis 2 is out of range"),
    ({"axis": -3}, ValueError, "axis -3 is out of range"),
    ({"axis": 1.0}, TypeError, "axis must be an integer"),
    ({"n": 0}, ValueError, "n must be >= 1"),
    ({"n": -4}, ValueError, "n must be >= 1"),
    ({"n": 2.5}, TypeError, "n must be an integer"),
    ({"n": True}, TypeError, "n must be an integer"),
    ({"norm": "unitary"}, ValueError, "norm"),
])
def test_bad_one_d_arguments(name, kw, error, match):
    x = dl.ones((3, 4), dtype=dl.float64)
    with pytest.raises(error, match=match):
        getattr(F, name)(x, **kw)


def test_numpy_integers_are_accepted_for_n_and_axis():
    a = data((3, 8), "complex128")
    got = F.fft(dl.asarray(a), n=np.int64(5), axis=np.int32(0))
    assert_close(got, np.fft.fft(a, n=5, axis=0), "complex128")


@pytest.mark.parametrize("name", N_D)
@pytest.mark.parametrize("kw, error, match", [
    ({"s": (3, 4)}, ValueError, "s was given without axes"),
    ({"s": (3,), "axes": (0, 1)}, ValueError, "same length"),
    ({"axes": (0, 0)}, ValueError, "repeat an axis"),
    ({"axes": (0, -2)}, ValueError, "repeat an axis"),
    ({"axes": (2,)}, ValueError, "axes entry 2 is out of range"),
    ({"axes": 1}, TypeError, "axes must be a sequence"),
    ({"s": (0, 4), "axes": (0, 1)}, ValueError, r"s\[0\] must be >= 1"),
    ({"s": (3, -2), "axes": (0, 1)}, ValueError, r"s\[1\] must be >= 1"),
    ({"s": (3.0, 4), "axes": (0, 1)}, TypeError, r"s\[0\] must be an integer"),
    ({"norm": "unitary"}, ValueError, "norm"),
])
def test_bad_n_d_arguments(name, kw, error, match):
    x = dl.ones((3, 4), dtype=dl.float64)
    with pytest.raises(error, match=match):
        getattr(F, name)(x, **kw)


# ---- fftfreq, rfftfreq -----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("n", [1, 2, 5, 8, 101])
@pytest.mark.parametrize("d", [1.0, 0.25, 3, -2.0])
@pytest.mark.parametrize("dtype", [None, "float32", "float64"])
def test_frequencies_match_numpy(name, n, d, dtype):
    kw = {} if dtype is None else {"dtype": getattr(dl, dtype)}
    got = getattr(F, name)(n, d=d, **kw)
    expected = getattr(np.fft, name)(n, d).astype(dtype or "float64")
    assert str(got.dtype) == (dtype or "float64")
    np.testing.assert_array_equal(to_numpy(got), expected)
    assert got.device == dl.Device("cpu")


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_frequencies_on_an_explicit_cpu_device(name):
    got = getattr(F, name)(6, device=dl.Device("cpu"))
    np.testing.assert_array_equal(to_numpy(got), getattr(np.fft, name)(6))
    got = getattr(F, name)(6, device="cpu")
    assert got.device == "cpu"


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("args, kw, error, match", [
    ((0,), {}, ValueError, "n must be >= 1"),
    ((-3,), {}, ValueError, "n must be >= 1"),
    ((4.0,), {}, TypeError, "n must be an integer"),
    ((True,), {}, TypeError, "n must be an integer"),
    ((4,), {"d": 0.0}, ValueError, "d .* must be non-zero"),
    ((4,), {"d": 1j}, TypeError, "d must be a real number"),
    ((4,), {"d": "1"}, TypeError, "d must be a real number"),
    ((4,), {"dtype": "int8"}, TypeError, "dtype must be a real floating-point dtype"),
    ((4,), {"dtype": dl.int64}, TypeError, "dtype must be a real floating-point dtype"),
    ((4,), {"dtype": dl.complex128}, TypeError, "dtype must be a real floating-point dtype"),
    ((4,), {"device": "cuda:99"}, ValueError, "cuda:99"),
    ((4,), {"device": "tpu"}, ValueError, "unknown device"),
])
def test_bad_frequency_arguments(name, args, kw, error, match):
    with pytest.raises(error, match=match):
        getattr(F, name)(*args, **kw)


# ---- fftshift, ifftshift ---------------------------------------------------------------------

SHIFT_CASES = [(shape, axes) for shape in [(1,), (5,), (4, 6), (3, 4, 5)]
               for axes in [None, 0, -1, (0,), (-1, 0), [1, 0]] if len(shape) >= 2 or axes in (None, 0, -1, (0,))]


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("shape, axes", SHIFT_CASES)
@pytest.mark.parametrize("dtype", ["float32", "complex128", "int16", "bool"])
def test_shifts_match_numpy(name, shape, axes, dtype):
    a = (np.arange(np.prod(shape)) % 7).reshape(shape).astype(dtype)
    got = getattr(F, name)(dl.asarray(a), axes=axes)
    expected = getattr(np.fft, name)(a, axes=axes)
    assert str(got.dtype) == dtype
    np.testing.assert_array_equal(to_numpy(got), expected)


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
def test_shift_of_a_0d_array_or_no_axes_is_a_copy(name):
    x = dl.asarray(np.arange(6.0).reshape(2, 3))
    for arg, kw in ((x[1, 2], {}), (x, {"axes": ()})):
        out = getattr(F, name)(arg, **kw)
        np.testing.assert_array_equal(to_numpy(out), to_numpy(arg))
        out[...] = -1
    np.testing.assert_array_equal(to_numpy(x), np.arange(6.0).reshape(2, 3))


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
def test_bad_shift_axes(name):
    x = dl.ones((3, 4))
    with pytest.raises(ValueError, match="out of range"):
        getattr(F, name)(x, axes=2)
    with pytest.raises(ValueError, match="out of range"):
        getattr(F, name)(x, axes=(0, -3))
    with pytest.raises(TypeError, match="integer"):
        getattr(F, name)(x, axes=(0.5,))


def test_fftshift_inverts_ifftshift_on_odd_lengths():
    x = dl.asarray(np.arange(35.0).reshape(5, 7))
    np.testing.assert_array_equal(to_numpy(F.ifftshift(F.fftshift(x))), to_numpy(x))


# ---- devices ---------------------------------------------------------------------------------

@pytest.fixture
def fake_gpu():
    yield from fake_gpu_backend()


@pytest.mark.parametrize("name", ONE_D + N_D)
def test_gpu_arrays_without_an_fft_library_get_a_clean_error(fake_gpu, name):
    # The fake backend answers as a ROCm build without hipFFT does: DLA_GPU_UNSUPPORTED. GPU
    # transforms themselves: tests/test_gpu_fft.py.
    x = dl.ones((2, 4), dtype=dl.float32, device="rocm:0")
    before = fake_gpu.set_fft_error(-1)
    try:
        with pytest.raises(NotImplementedError, match=f"fft.{name} on device 'rocm:0' is not available yet"):
            getattr(F, name)(x)
    finally:
        fake_gpu.set_fft_error(before)


def test_shift_and_frequencies_on_a_gpu_device(fake_gpu):
    x = dl.asarray(np.arange(12.0).reshape(3, 4), device="rocm:1")
    out = F.fftshift(x, axes=1)
    assert out.device == "rocm:1"
    np.testing.assert_array_equal(np.from_dlpack(out.to_device("cpu")),
                                  np.fft.fftshift(np.arange(12.0).reshape(3, 4), axes=1))
    f = F.fftfreq(5, d=0.5, dtype=dl.float32, device="rocm:0")
    assert f.device == "rocm:0" and f.dtype == dl.float32
    np.testing.assert_array_equal(np.from_dlpack(f.to_device("cpu")),
                                  np.fft.fftfreq(5, 0.5).astype(np.float32))


# ---- properties ------------------------------------------------------------------------------

finite = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False, width=32)


@given(a=hnp.arrays(st.sampled_from([np.float32, np.float64]),
                    hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=9), elements=finite),
       data=st.data())
def test_irfft_inverts_rfft(a, data):
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    norm = data.draw(st.sampled_from(["backward", "ortho", "forward"]))
    x = dl.asarray(a)
    back = F.irfft(F.rfft(x, axis=axis, norm=norm), n=a.shape[axis], axis=axis, norm=norm)
    assert str(back.dtype) == a.dtype.name
    tol = 1e-4 if a.dtype == np.float32 else 1e-10
    np.testing.assert_allclose(to_numpy(back), a, rtol=tol, atol=tol * max(1.0, np.abs(a).max()))


@given(a=hnp.arrays(st.sampled_from([np.complex64, np.complex128]),
                    hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=7), elements=finite),
       norm=st.sampled_from(["backward", "ortho", "forward"]))
def test_ifftn_inverts_fftn(a, norm):
    back = F.ifftn(F.fftn(dl.asarray(a), norm=norm), norm=norm)
    assert str(back.dtype) == a.dtype.name
    tol = 1e-4 if a.dtype == np.complex64 else 1e-10
    np.testing.assert_allclose(to_numpy(back), a, rtol=tol, atol=tol * max(1.0, np.abs(a).max()))
