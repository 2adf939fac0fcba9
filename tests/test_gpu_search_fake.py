"""argmax/argmin, searchsorted, nonzero and unique of GPU arrays, over dlarray._fake_gpu, against the CPU.

Everything these run on a GPU (src/backends/gpu/gpu_search.cpp) is element jobs of
src/backends/gpu/gpu_elementwise_kernels.h, tree folds and scans of them, and the GPU sort;
the fake backend runs those same element bodies on the host, so the results are compared
with the CPU's bit for bit (NaN first wins, -0 equals +0, exact elements kept). The calls
that must wait for the device (a data-dependent output size) are checked in the fake's log.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import dlarray as dl
from gpu_util import fresh_log_and_streams
from test_gpu_sort_fake import REAL, bits, data, host, on_gpu


@pytest.fixture(autouse=True)
def clean(fake):
    yield from fresh_log_and_streams(fake)


def same(got_arr, want_arr, device="rocm:0", what=""):
    assert str(got_arr.device) == device, what
    got, want = host(got_arr), host(want_arr)
    assert got.dtype == want.dtype and got.shape == want.shape, (what, got.shape, want.shape)
    np.testing.assert_array_equal(bits(got), bits(want), err_msg=str(what))


def ops_of(fake):
    return [e[0] for e in fake.log()]


# ---- argmax / argmin ---------------------------------------------------------------------


def assert_arg_extremes_match(x, g, **kw):
    for fn in (dl.argmax, dl.argmin):
        same(fn(g, **kw), fn(x, **kw), what=(fn.__name__, kw))


@pytest.mark.parametrize("dtype", REAL)
def test_argmax_argmin_every_dtype_and_axis(fake, dtype):
    a = data((5, 6, 17), dtype, seed=len(dtype))
    x, g = dl.asarray(a), on_gpu(a)
    assert_arg_extremes_match(x, g)
    for axis in (0, 1, 2, -1):
        for keepdims in (False, True):
            assert_arg_extremes_match(x, g, axis=axis, keepdims=keepdims)
    assert_arg_extremes_match(x, g, keepdims=True)
    fake.clear_log()
    dl.argmax(g, axis=1), dl.argmin(g)
    assert "sync" not in ops_of(fake)  # queued only: the results stay on the device


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_argmax_argmin_first_nan_and_first_of_ties(fake, dtype):
    cases = [
        [1.0, 3.0, 3.0, -1.0, -1.0],                   # ties: the first of each
        [1.0, np.nan, 5.0, np.nan, -5.0],              # the first NaN wins both
        [np.nan, -np.inf, np.inf],
        [-0.0, 0.0, -0.0],                             # -0 equals +0: position 0 both ways
        [0.0, -0.0, -1.0, 1.0],
        [-np.inf, -np.inf, np.inf, np.inf],
        [np.nan] * 4,
    ]
    for c in cases:
        a = np.array(c, dtype)
        neg_nan = a.copy()
        neg_nan[np.isnan(a)] = -np.nan  # NaNs with the sign bit set count as NaN too
        for v in (a, neg_nan):
            assert_arg_extremes_match(dl.asarray(v), on_gpu(v))
    a = np.array([[1, np.nan, 2], [np.nan, 3, np.nan], [4, 4, -4]], dtype)
    for axis in (0, 1):
        assert_arg_extremes_match(dl.asarray(a), on_gpu(a), axis=axis)


def test_argmax_argmin_views_long_rows_and_single_elements(fake):
    a = data((8, 9, 10), "float64", seed=9)
    x_full, g_full = dl.asarray(a), on_gpu(a)
    for view in (lambda t: t[::2, :, 1::3], lambda t: dl.permute_dims(t, (2, 0, 1)), lambda t: t[:, ::-1, :]):
        x, g = view(x_full), view(g_full)
        assert_arg_extremes_match(x, g)
        for axis in range(x.ndim):
            assert_arg_extremes_match(x, g, axis=axis, keepdims=True)
    b = data((3, 50001), "int16", seed=2)  # an odd row length: tree folds carry the odd one out
    assert_arg_extremes_match(dl.asarray(b), on_gpu(b), axis=1)
    assert_arg_extremes_match(dl.asarray(b), on_gpu(b))
    for shape, axis in (((4, 1), 1), ((1,), 0), ((1, 1), None), ((), None)):
        c = data(shape, "float32", seed=1) if shape else np.float32(2.5)
        assert_arg_extremes_match(dl.asarray(c), on_gpu(c), axis=axis)


def test_argmax_argmin_errors_as_on_the_cpu(fake):
    g = on_gpu(np.zeros((3, 0), "float32"))
    assert_arg_extremes_match(dl.asarray(np.zeros((3, 0), "float32")), g, axis=0)  # (0,) result
    with pytest.raises(ValueError, match="no elements"):
        dl.argmax(g)
    with pytest.raises(ValueError, match="no elements"):
        dl.argmin(g, axis=1)
    with pytest.raises(NotImplementedError, match="argmax on device 'rocm:0' is not available yet for dtype complex64"):
        dl.argmax(on_gpu(np.array([1j, 2], "complex64")))


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hnp.arrays(np.float32, hnp.array_shapes(min_dims=1, max_dims=3, max_side=9),
                  elements=st.floats(allow_nan=True, allow_infinity=True, width=32) | st.sampled_from([0.0, -0.0])),
       st.integers(-1, 2))
def test_argmax_argmin_random(fake, a, axis):
    kw = {} if axis < 0 else {"axis": axis % a.ndim}
    assert_arg_extremes_match(dl.asarray(a), on_gpu(a), **kw)
