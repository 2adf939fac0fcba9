"""argmax/argmin, searchsorted, isin, nonzero and unique of GPU arrays against the CPU: over
dlarray._fake_gpu on every machine, and on a real GPU (cuda:0, else rocm:0) in the tests marked
gpu at the end, skipped without one.

Everything these run on a GPU (src/backends/gpu/gpu_search.cpp) is element jobs of
src/backends/gpu/gpu_elementwise_kernels.h, tree folds and scans of them, and the GPU sort;
the fake backend runs those same element bodies on the host, so the results are compared
with the CPU's bit for bit (NaN first wins, -0 equals +0, exact elements kept). The calls
that must wait for the device (a data-dependent output size) are checked in the fake's log.
On a real GPU the same element bodies run as nvcc/hipcc kernels (32-bit and 64-bit index paths,
many threads writing distinct slots), with the vendor sort unique uses.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import dlarray as dl
from helpers.gpu_util import clean, host, real_device  # noqa: F401  (clean, real_device: fixtures)
from helpers.cases import REAL, bits, data, on_gpu


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


# ---- searchsorted ------------------------------------------------------------------------


def assert_searches_match(x1, q, sorter=None):
    c1, g1 = dl.asarray(x1), on_gpu(x1)
    cq = q if np.isscalar(q) else dl.asarray(q)
    gq = q if np.isscalar(q) else on_gpu(q)
    cs = None if sorter is None else dl.asarray(sorter)
    gs = None if sorter is None else on_gpu(sorter)
    for side in ("left", "right"):
        same(dl.searchsorted(g1, gq, side=side, sorter=gs), dl.searchsorted(c1, cq, side=side, sorter=cs),
             what=(side, sorter is not None))


@pytest.mark.parametrize("dtype", REAL)
def test_searchsorted_every_dtype_with_and_without_sorter(fake, dtype):
    a = data((61,), dtype, seed=3)
    q = data((4, 15), dtype, seed=4)
    order = np.argsort(a, kind="stable")
    assert_searches_match(np.sort(a), q)
    assert_searches_match(a, q, sorter=order)
    assert_searches_match(a, q, sorter=order.astype("int32"))  # any integer sorter is cast
    assert_searches_match(np.sort(a)[:1], q)
    assert_searches_match(a[::-1].copy(), q)  # unsorted x1: the CPU's probe sequence, step for step


def test_searchsorted_nan_signed_zeros_views_and_scalars(fake):
    x1 = np.array([-np.inf, -1.0, -0.0, 0.0, 0.0, 2.0, np.inf, np.nan, np.nan])
    q = np.array([np.nan, -np.nan, 0.0, -0.0, 2.0, -np.inf, np.inf, 5.0, -7.0])
    assert_searches_match(x1, q)
    assert_searches_match(x1, q.reshape(3, 3)[:, ::-2])
    assert_searches_match(x1, 0.0)
    assert_searches_match(x1, np.float64(np.nan))
    g = on_gpu(np.repeat(x1, 2))[::2]  # a strided x1 and sorter
    c = dl.asarray(np.repeat(x1, 2))[::2]
    s = np.arange(9)[::-1].copy()
    gs, cs = on_gpu(np.repeat(s, 3))[::3], dl.asarray(np.repeat(s, 3))[::3]
    for side in ("left", "right"):
        same(dl.searchsorted(g, on_gpu(q), side=side), dl.searchsorted(c, dl.asarray(q), side=side))
        same(dl.searchsorted(g[::-1], on_gpu(q), side=side, sorter=gs),
             dl.searchsorted(c[::-1], dl.asarray(q), side=side, sorter=cs))
    same(dl.searchsorted(on_gpu(np.arange(5, dtype="int8")), on_gpu(np.array([300, -3], "int16"))),
         dl.searchsorted(dl.asarray(np.arange(5, dtype="int8")), dl.asarray(np.array([300, -3], "int16"))))


def test_searchsorted_empty_inputs_and_sync(fake):
    assert_searches_match(np.zeros(0, "float32"), np.array([1.0, np.nan], "float32"))
    assert_searches_match(np.arange(4.0), np.zeros((2, 0)))
    g1, gq = on_gpu(np.arange(100.0)), on_gpu(np.linspace(-3, 103, 40))
    fake.clear_log()
    dl.searchsorted(g1, gq, side="right")
    assert "sync" not in ops_of(fake)  # without a sorter: queued only
    dl.searchsorted(g1, gq, sorter=on_gpu(np.arange(100)))
    assert ops_of(fake).count("sync") == 1  # the sorter's bounds check reads one count back


def test_searchsorted_bad_sorter_raises_as_on_the_cpu(fake):
    x1 = np.array([3.0, 1.0, 2.0])
    for bad in ([0, 3, 1], [2, -1, 0], [5, 0, -9]):
        with pytest.raises(IndexError) as cpu:
            dl.searchsorted(dl.asarray(x1), dl.asarray(x1), sorter=dl.asarray(np.array(bad)))
        with pytest.raises(IndexError) as gpu:
            dl.searchsorted(on_gpu(x1), on_gpu(x1), sorter=on_gpu(np.array(bad)))
        assert str(gpu.value) == str(cpu.value)
    with pytest.raises(NotImplementedError, match="searchsorted on device 'rocm:0' is not available yet for dtype complex128"):
        dl.searchsorted(on_gpu(np.array([1j])), on_gpu(np.array([1j])))


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hnp.arrays(np.float32, st.integers(0, 20), elements=st.floats(width=32) | st.sampled_from([0.0, -0.0])),
       hnp.arrays(np.float32, st.integers(1, 10), elements=st.floats(width=32) | st.sampled_from([0.0, -0.0])),
       st.booleans())
def test_searchsorted_random(fake, x1, q, sorted_first):
    if sorted_first:
        assert_searches_match(np.sort(x1), q)
    else:
        assert_searches_match(x1, q, sorter=np.argsort(x1, kind="stable"))


# ---- isin ----------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("invert", [False, True])
def test_isin_every_dtype(fake, dtype, invert):
    a, b = data((4, 9), dtype, seed=1), data((13,), dtype, seed=2)
    same(dl.isin(on_gpu(a), on_gpu(b), invert=invert), dl.isin(dl.asarray(a), dl.asarray(b), invert=invert))


def test_isin_nan_signed_zeros_promotion_empty_and_no_sync(fake):
    a = np.array([np.nan, -0.0, 0.0, 1.5, -np.inf, 7.0], "float32")
    b = np.array([0.0, np.nan, np.inf, 7.0, -np.inf], "float64")
    for invert in (False, True):  # NaN finds nothing, -0 finds +0; float32 meets float64
        same(dl.isin(on_gpu(a), on_gpu(b), invert=invert), dl.isin(dl.asarray(a), dl.asarray(b), invert=invert))
    same(dl.isin(on_gpu(np.arange(5, dtype="int8")), on_gpu(np.array([300, 2], "int16"))),
         dl.isin(dl.asarray(np.arange(5, dtype="int8")), dl.asarray(np.array([300, 2], "int16"))))
    for x1, x2 in ((np.zeros(0), np.arange(3.0)), (np.arange(3.0), np.zeros(0)), (np.arange(6.0).reshape(2, 3)[:, ::2], np.arange(2.0))):
        for invert in (False, True):
            same(dl.isin(on_gpu(x1), on_gpu(x2), invert=invert), dl.isin(dl.asarray(x1), dl.asarray(x2), invert=invert))
    g1, g2 = on_gpu(np.arange(100.0)), on_gpu(np.linspace(-3, 103, 40))
    fake.clear_log()
    dl.isin(g1, g2)
    assert "sync" not in ops_of(fake)  # sort, search, take, equal: all queued
    with pytest.raises(NotImplementedError, match="isin on device 'rocm:0' is not available yet for dtype complex128"):
        dl.isin(on_gpu(np.array([1j])), on_gpu(np.array([1j])))


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hnp.arrays(np.float64, st.integers(0, 30), elements=st.floats() | st.sampled_from([0.0, -0.0])),
       hnp.arrays(np.float64, st.integers(0, 30), elements=st.floats() | st.sampled_from([0.0, -0.0])), st.booleans())
def test_isin_random(fake, x1, x2, invert):
    same(dl.isin(on_gpu(x1), on_gpu(x2), invert=invert), dl.isin(dl.asarray(x1), dl.asarray(x2), invert=invert))


# ---- nonzero and boolean masks -----------------------------------------------------------


def assert_nonzero_matches(a):
    x, g = dl.asarray(a), on_gpu(a)
    got, want = dl.nonzero(g), dl.nonzero(x)
    assert len(got) == len(want)
    for k, (gd, cd) in enumerate(zip(got, want)):
        same(gd, cd, what=("axis", k))


@pytest.mark.parametrize("dtype", REAL)
def test_nonzero_every_dtype(fake, dtype):
    for shape in ((37,), (4, 9), (3, 4, 5), (2, 1, 3, 2)):
        assert_nonzero_matches(data(shape, dtype, seed=sum(shape)))


def test_nonzero_nan_zeros_views_and_sync(fake):
    a = np.array([[0.0, -0.0, np.nan], [1.0, 0.0, -np.inf]])
    assert_nonzero_matches(a)
    assert_nonzero_matches(np.zeros((3, 4)))  # nothing nonzero: (0,) per axis
    assert_nonzero_matches(np.ones((2, 3), bool))
    assert_nonzero_matches(np.zeros((3, 0)))
    assert_nonzero_matches(data((3000,), "int8", seed=1))
    b = data((6, 8, 10), "float32", seed=6)
    for view in (lambda t: t[::2, :, 1::3], lambda t: dl.permute_dims(t, (2, 0, 1)), lambda t: t[:, ::-1]):
        got, want = dl.nonzero(view(on_gpu(b))), dl.nonzero(view(dl.asarray(b)))
        for gd, cd in zip(got, want):
            same(gd, cd)
    g = on_gpu(b)
    fake.clear_log()
    dl.nonzero(g)
    assert ops_of(fake).count("sync") == 1  # the count: the result's length
    with pytest.raises(ValueError, match="at least one dimension"):
        dl.nonzero(on_gpu(np.float64(1.0)))


def test_boolean_masks_select_on_the_device(fake):
    a = data((5, 6), "float64", seed=8)
    m = a > 0
    x, g = dl.asarray(a), on_gpu(a)
    same(g[on_gpu(m)], x[dl.asarray(m)])
    same(g[on_gpu(m[:, 0])], x[dl.asarray(m[:, 0])])
    same(g[:, on_gpu(m[0])], x[:, dl.asarray(m[0])])


# ---- unique_values / unique_counts / unique_inverse / unique_all ---------------------------

UNIQUE = ("unique_values", "unique_counts", "unique_inverse", "unique_all")


def assert_unique_matches(a):
    x, g = dl.asarray(a), on_gpu(a)
    for name in UNIQUE:
        got, want = getattr(dl, name)(g), getattr(dl, name)(x)
        if name == "unique_values":
            got, want = (got,), (want,)
        assert type(got) is type(want) and len(got) == len(want), name
        for field, gv, cv in zip(getattr(want, "_fields", ("values",)), got, want):
            same(gv, cv, what=(name, field))


@pytest.mark.parametrize("dtype", REAL)
def test_unique_every_dtype(fake, dtype):
    for shape in ((50,), (6, 7), (2, 3, 4), (1,)):
        assert_unique_matches(data(shape, dtype, seed=sum(shape) + len(dtype)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_unique_nans_are_distinct_and_signed_zeros_equal(fake, dtype):
    u = f"u{np.dtype(dtype).itemsize}"
    a = np.array([np.nan, 0.0, -0.0, 1.0, np.nan, -0.0, 1.0, -np.nan, np.inf, -np.inf], dtype)
    raw = a.view(u)
    raw[4] |= 3  # a NaN payload: unique_values gives the quiet NaN, unique_all the exact element
    assert_unique_matches(a)
    assert_unique_matches(a[::-1].copy())
    assert_unique_matches(np.full(5, np.nan, dtype))
    assert_unique_matches(np.array([-0.0, 0.0, -0.0], dtype))  # one value, kept as -0 with indices


def test_unique_views_empty_and_sync(fake):
    b = data((6, 8, 10), "int16", seed=6)
    for view in (lambda t: t[::2, :, 1::3], lambda t: dl.permute_dims(t, (2, 0, 1)), lambda t: t[:, ::-1]):
        for name in UNIQUE:
            got, want = getattr(dl, name)(view(on_gpu(b))), getattr(dl, name)(view(dl.asarray(b)))
            for gv, cv in zip(got if name != "unique_values" else (got,), want if name != "unique_values" else (want,)):
                same(gv, cv, what=name)
    assert_unique_matches(np.zeros((3, 0), "float32"))
    assert_unique_matches(np.float64(2.5))  # 0-d
    assert_unique_matches(data((5000,), "uint8", seed=3))
    g = on_gpu(b)
    fake.clear_log()
    dl.unique_all(g)
    assert ops_of(fake).count("sync") == 1  # the number of unique values: the outputs' length


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hnp.arrays(np.float32, hnp.array_shapes(min_dims=1, max_dims=2, max_side=12),
                  elements=st.floats(width=32) | st.sampled_from([0.0, -0.0, 1.0, float("nan")])))
def test_unique_random(fake, a):
    assert_unique_matches(a)


# ---- on a real GPU: the kernels at larger sizes --------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("dtype", REAL)
def test_all_four_every_dtype(real_device, dtype):
    a = data((40, 33, 7), dtype, seed=len(dtype))
    x, g = dl.asarray(a), on_gpu(a, real_device)
    for fn in (dl.argmax, dl.argmin):
        same(fn(g), fn(x), real_device)
        for axis in (0, 1, 2):
            same(fn(g, axis=axis), fn(x, axis=axis), real_device)
    s = np.sort(a.ravel())
    for side in ("left", "right"):
        same(dl.searchsorted(on_gpu(s, real_device), g, side=side), dl.searchsorted(dl.asarray(s), x, side=side),
             real_device)
    for gd, cd in zip(dl.nonzero(g), dl.nonzero(x)):
        same(gd, cd, real_device)
    for gv, cv in zip(dl.unique_all(g), dl.unique_all(x)):
        same(gv, cv, real_device)
    same(dl.unique_values(g), dl.unique_values(x), real_device)


@pytest.mark.gpu
def test_long_inputs(real_device):
    a = data((3_000_000,), "float32", seed=5)
    x, g = dl.asarray(a), on_gpu(a, real_device)
    same(dl.argmax(g), dl.argmax(x), real_device)
    same(dl.argmin(g), dl.argmin(x), real_device)
    for gd, cd in zip(dl.nonzero(g), dl.nonzero(x)):
        same(gd, cd, real_device)
    for gv, cv in zip(dl.unique_counts(g), dl.unique_counts(x)):
        same(gv, cv, real_device)
