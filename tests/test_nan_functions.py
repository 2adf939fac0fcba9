"""The NaN-aware reductions (dlarray/_nan_functions.py) against NumPy's: shapes, dtypes, axes,
keepdims, NaN placements (none, some, all-NaN slices), empty arrays, the warnings and errors, and
the fake GPU device."""
import warnings

import numpy as np
import pytest

import dlarray as dl
from helpers.gpu_util import host

REDUCTIONS = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin"]
FLOATS = [np.float32, np.float64]
INTS = [np.int8, np.int32, np.int64, np.uint8, np.uint64, np.bool_]


def with_nans(shape, dtype, fraction=0.3, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape) * 3
    if np.issubdtype(dtype, np.complexfloating):
        a = a + 1j * rng.standard_normal(shape)
    a = a.astype(dtype)
    if a.size:
        spots = rng.random(shape) < fraction
        a[spots] = np.nan
    return a


def compare(got, want, dtype=None):
    got = host(got)
    assert got.shape == np.shape(want)
    if dtype is not None:
        assert got.dtype == dtype
    else:
        assert got.dtype == np.asarray(want).dtype
    if got.dtype.kind in "fc":
        tol = 1e-4 if got.dtype in (np.float32, np.complex64) else 1e-11
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def call_both(name, a, quiet=True, **kwargs):
    """(ours, NumPy's) with the same arguments; warnings silenced (tested separately)."""
    np_kwargs = dict(kwargs)
    if "correction" in np_kwargs:
        np_kwargs["ddof"] = np_kwargs.pop("correction")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, name)(a, **np_kwargs)
        got = getattr(dl, name)(dl.asarray(a), **kwargs)
    return got, want


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape,axis", [
    ((7,), None), ((7,), 0), ((7,), -1), ((4, 5), None), ((4, 5), 0), ((4, 5), 1), ((4, 5), -2),
    ((3, 4, 5), (0, 2)), ((3, 4, 5), (1,)), ((3, 4, 5), (-1, 0)), ((2, 3, 4), (0, 1, 2)),
])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_match_numpy(name, dtype, shape, axis, keepdims):
    a = with_nans(shape, dtype)
    got, want = call_both(name, a, axis=axis, keepdims=keepdims)
    compare(got, want)


@pytest.mark.parametrize("name", REDUCTIONS + ["nanargmax", "nanargmin"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_without_nan_equals_the_plain_reduction(name, dtype):
    a = with_nans((6, 5), dtype, fraction=0.0)
    for axis in (None, 0, 1):
        got, want = call_both(name, a, axis=axis)
        compare(got, want)


@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax",
                                  "nanmin", "nanargmax", "nanargmin", "nancumsum"])
@pytest.mark.parametrize("dtype", INTS)
def test_integer_and_bool_input_behave_like_the_plain_function(name, dtype):
    rng = np.random.default_rng(3)
    a = rng.integers(0, 5, (4, 6)).astype(dtype)
    for axis in (None, 0, 1):
        got, want = call_both(name, a, axis=axis)
        compare(got, want)


@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_nan_is_either_part(name, dtype):
    a = with_nans((5, 4), dtype)
    a[0, 0] = complex(np.nan, 1.0)
    a[1, 2] = complex(1.0, np.nan)
    for axis in (None, 0, 1):
        got, want = call_both(name, a, axis=axis)
        compare(got, want)


def test_complex_nanargmax_and_nancumsum():
    a = np.array([1 + 2j, complex(np.nan, 0), 3 - 1j, complex(0, np.nan), 3 + 0j])
    for name in ("nanargmax", "nanargmin", "nancumsum"):
        got, want = call_both(name, a)
        compare(got, want)


def test_complex_nanmax_raises_type_error_as_max():
    with pytest.raises(TypeError, match="max"):
        dl.nanmax(dl.asarray(np.array([1 + 1j, np.nan])))


@pytest.mark.parametrize("name,message", [
    ("nanmean", "Mean of empty slice"), ("nanvar", "Degrees of freedom"),
    ("nanstd", "Degrees of freedom"), ("nanmax", "All-NaN slice"), ("nanmin", "All-NaN slice"),
])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_all_nan_slices_give_nan_and_warn(name, message, axis):
    a = np.array([[np.nan, 1.0, np.nan], [np.nan, np.nan, np.nan]])
    if axis is None:
        a = np.full((2, 3), np.nan)
    with pytest.warns(RuntimeWarning, match=message):
        got = getattr(dl, name)(dl.asarray(a), axis=axis)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, name)(a, axis=axis)
    compare(got, want)


@pytest.mark.parametrize("name", ["nansum", "nanprod"])
def test_all_nan_sums_are_the_identity_without_warning(name):
    a = np.full((3, 2), np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = getattr(dl, name)(dl.asarray(a), axis=0)
    compare(got, getattr(np, name)(a, axis=0))


@pytest.mark.parametrize("name", ["nanargmax", "nanargmin"])
def test_all_nan_slice_raises_for_arg_functions(name):
    a = np.array([[np.nan, 1.0], [np.nan, 2.0]])
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        getattr(np, name)(a, axis=0)
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        getattr(dl, name)(dl.asarray(a), axis=0)
    got, want = call_both(name, a, axis=1)
    compare(got, want)
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        getattr(dl, name)(dl.asarray(np.full(4, np.nan)))


@pytest.mark.parametrize("name", ["nanargmax", "nanargmin"])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, False), (1, True), (-1, False),
                                           (None, True)])
def test_arg_functions_match_numpy(name, dtype, axis, keepdims):
    a = with_nans((6, 7), dtype, fraction=0.4, seed=5)
    a[:, 0] = 1.0  # no all-NaN slice
    a[0, :] = -np.inf  # a slice of -inf and NaN: the first -inf
    a[0, 3] = np.nan
    got, want = call_both(name, a, axis=axis, keepdims=keepdims)
    compare(got, want)


@pytest.mark.parametrize("correction", [0, 1, 2, 1.5])
@pytest.mark.parametrize("name", ["nanvar", "nanstd"])
def test_correction(name, correction):
    a = with_nans((5, 6), np.float64, seed=2)
    for axis in (None, 0, 1):
        got, want = call_both(name, a, axis=axis, correction=correction)
        compare(got, want)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        alias = getattr(dl, name)(dl.asarray(a), axis=0, ddof=correction)
    compare(alias, getattr(np, name)(a, axis=0, ddof=correction))


def test_correction_and_ddof_together_raise():
    with pytest.raises(TypeError, match="ddof"):
        dl.nanvar(dl.asarray([1.0, 2.0]), correction=1, ddof=1)
    with pytest.raises(TypeError, match="correction"):
        dl.nanvar(dl.asarray([1.0, 2.0]), correction="1")


def test_correction_too_large_warns_without_nan():
    a = np.array([[1.0, 2.0], [3.0, 5.0]])
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        got = dl.nanvar(dl.asarray(a), axis=0, correction=2)
    compare(got, np.full(2, np.nan))


@pytest.mark.parametrize("name", ["nansum", "nanprod"])
@pytest.mark.parametrize("dtype", [dl.float32, dl.float64, None])
def test_sum_dtype(name, dtype):
    a = with_nans((4, 5), np.float32)
    got = getattr(dl, name)(dl.asarray(a), axis=1, dtype=dtype)
    np_dtype = None if dtype is None else np.dtype(str(dtype).rsplit(".", 1)[-1])
    compare(got, getattr(np, name)(a, axis=1, dtype=np_dtype), dtype=np_dtype or np.float32)


@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("shape,axis", [((0,), None), ((0, 3), 0), ((0, 3), 1), ((3, 0), 1),
                                        ((2, 0, 3), (0, 2))])
def test_empty_arrays(name, shape, axis):
    a = np.zeros(shape)
    got, want = call_both(name, a, axis=axis)
    compare(got, want)


def test_empty_nanmax_raises_as_max():
    with pytest.raises(ValueError):
        dl.nanmax(dl.asarray(np.zeros(0)))


def test_zero_dimensional():
    for value in (2.5, np.nan):
        a = np.array(value)
        for name in ("nansum", "nanprod", "nanmean", "nanmax", "nanmin"):
            got, want = call_both(name, a)
            compare(got, want)
        got, want = call_both("nancumsum", a)
        compare(got, want)


@pytest.mark.parametrize("dtype", FLOATS + [np.int16, np.uint8, np.complex128])
@pytest.mark.parametrize("shape,axis", [((9,), None), ((9,), 0), ((3, 4), None), ((3, 4), 0),
                                        ((3, 4), 1), ((3, 4), -1), ((2, 3, 4), 1), ((0, 4), 0),
                                        ((0, 4), None)])
def test_nancumsum(dtype, shape, axis):
    a = with_nans(shape, dtype) if np.issubdtype(dtype, np.inexact) else \
        np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    got, want = call_both("nancumsum", a, axis=axis)
    compare(got, want)


def test_nancumsum_include_initial_and_dtype():
    a = with_nans((3, 4), np.float32)
    got = dl.nancumsum(dl.asarray(a), axis=1, include_initial=True, dtype=dl.float64)
    want = np.concatenate([np.zeros((3, 1)), np.nancumsum(a.astype(np.float64), axis=1)], axis=1)
    compare(got, want)


@pytest.mark.parametrize("name", REDUCTIONS + ["nanargmax", "nanargmin", "nancumsum"])
def test_bad_axis(name):
    x = dl.asarray(np.ones((2, 3)))
    with pytest.raises(IndexError, match=name):
        getattr(dl, name)(x, axis=2)
    with pytest.raises(IndexError, match=name):
        getattr(dl, name)(x, axis=-3)
    with pytest.raises(TypeError, match=name):
        getattr(dl, name)(x, axis=1.0)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_repeated_axis(name):
    with pytest.raises(ValueError, match="repeated axis"):
        getattr(dl, name)(dl.asarray(np.ones((2, 3))), axis=(1, -1))


@pytest.mark.parametrize("name", REDUCTIONS + ["nanargmax", "nanargmin", "nancumsum"])
def test_not_an_array(name):
    with pytest.raises(TypeError, match="dlarray.Array"):
        getattr(dl, name)(np.ones(3))


@pytest.mark.parametrize("name", ["nanargmax", "nanargmin", "nancumsum"])
def test_single_axis_functions_reject_tuples(name):
    with pytest.raises(TypeError, match="axis"):
        getattr(dl, name)(dl.asarray(np.ones((2, 3))), axis=(0,))


# ---- on the fake GPU device ---------------------------------------------------------------------

@pytest.mark.parametrize("name", REDUCTIONS + ["nanargmax", "nanargmin", "nancumsum"])
def test_on_the_fake_gpu(fake, name):
    a = with_nans((5, 6), np.float64, fraction=0.3, seed=7)
    a[:, 0] = 1.5
    for axis in (None, 1) if name != "nancumsum" else (None, 0):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            got = getattr(dl, name)(dl.asarray(a, device="rocm:0"), axis=axis)
            want = getattr(np, name)(a, axis=axis)
        assert str(got.device) == "rocm:0"
        compare(got, want)


def test_all_nan_on_the_fake_gpu(fake):
    a = np.array([[np.nan, 1.0], [np.nan, 3.0]])
    with pytest.warns(RuntimeWarning, match="All-NaN"):
        got = dl.nanmax(dl.asarray(a, device="rocm:0"), axis=0)
    assert str(got.device) == "rocm:0"
    compare(got, np.array([np.nan, 3.0]))
    with pytest.raises(ValueError, match="All-NaN"):
        dl.nanargmin(dl.asarray(a, device="rocm:0"), axis=0)


# ---- the one-pass NaN-skipping fold (the CPU's FoldOp::NanMax / NanMin) -------------------------

def exact_both(name, a, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return host(getattr(dl, name)(dl.asarray(a), **kwargs)), getattr(np, name)(a, **kwargs)


@pytest.mark.parametrize("name", ["nanmax", "nanmin"])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 31, 32, 33, 63, 64, 65, 257, 1000, 4099])
@pytest.mark.parametrize("fraction", [0.0, 0.01, 0.5, 0.99])
def test_one_pass_rows_equal_numpy_exactly(name, dtype, n, fraction):
    # Rows on both sides of the vector body's thresholds (32 float64 / 64 float32 elements and
    # whole blocks of 8 vectors), with NaN first, last, and scattered.
    a = with_nans((n,), dtype, fraction=fraction, seed=n)
    for b in (a, np.concatenate([[np.nan], a]).astype(dtype), np.concatenate([a, [np.nan]]).astype(dtype)):
        got, want = exact_both(name, b)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", ["nanmax", "nanmin"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_one_pass_infinities_and_all_nan_rows(name, dtype):
    # The vector lanes start at -inf (+inf): a true infinity, a row of only infinities and an
    # all-NaN row must each come out as NumPy's.
    rows = np.full((6, 300), np.nan, dtype=dtype)
    rows[1, 17] = -np.inf
    rows[2, 290] = np.inf
    rows[3, :] = -np.inf
    rows[4, :] = np.inf
    rows[4, ::3] = np.nan
    rows[5, 100] = 2.5
    with pytest.warns(RuntimeWarning, match="All-NaN slice"):
        got = host(getattr(dl, name)(dl.asarray(rows), axis=1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, name)(rows, axis=1)
    np.testing.assert_array_equal(got, want)
    assert np.isnan(got[0]) and not np.isnan(got[1:]).any()


@pytest.mark.parametrize("name", ["nanmax", "nanmin"])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("layout", ["c", "f", "strided", "reversed"])
def test_one_pass_layouts_and_axes(name, dtype, axis, layout):
    a = with_nans((300, 257), dtype, fraction=0.05, seed=3)
    a[:, 5] = np.nan  # an all-NaN column
    a = {"c": a, "f": np.asfortranarray(a), "strided": a[::2, 1::3], "reversed": a[::-1, ::-1]}[layout]
    for keepdims in (False, True):
        got, want = exact_both(name, a, axis=axis, keepdims=keepdims)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", ["nanmax", "nanmin"])
def test_one_pass_large_enough_for_threads(name):
    # 2 * 10^6 elements: above the fold's threading threshold, into one element and along rows.
    a = with_nans((2000, 1000), np.float64, fraction=0.01, seed=11)
    for axis in (None, 0, 1):
        got, want = exact_both(name, a, axis=axis)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", ["nanmax", "nanmin"])
@pytest.mark.parametrize("dtype", [np.float16, "bfloat16"])
def test_one_pass_half_precision(name, dtype):
    ml_dtypes = pytest.importorskip("ml_dtypes") if dtype == "bfloat16" else None
    np_dtype = ml_dtypes.bfloat16 if ml_dtypes else np.float16
    a = with_nans((7, 200), np.float32, fraction=0.1, seed=5)
    a[2] = np.nan
    a = a.astype(np_dtype)
    with pytest.warns(RuntimeWarning, match="All-NaN slice"):
        got = getattr(dl, name)(dl.asarray(a), axis=1)
    assert got.dtype == (dl.bfloat16 if ml_dtypes else dl.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, name)(a.astype(np.float32), axis=1)
    np.testing.assert_array_equal(host(dl.astype(got, dl.float32)), want)


def test_one_pass_kernel_rejects_integers_and_empty_input():
    with pytest.raises(TypeError, match="real floating"):
        dl._core._nan_extreme(dl.asarray([1, 2, 3]), None, False, True)
    with pytest.raises(ValueError, match="no elements"):
        dl._core._nan_extreme(dl.asarray(np.zeros((0, 3))), 0, False, False)
    np.testing.assert_array_equal(host(dl._core._nan_extreme(dl.asarray(np.zeros((0, 3))), 1, False, False)),
                                  np.zeros(0))
