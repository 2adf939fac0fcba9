"""argmax, argmin, count_nonzero, nonzero, searchsorted (src/core/search_sort_ops.h) against
NumPy: every dtype, axes and keepdims, strided views, NaN/-0/inf, empty and 0-d inputs, the
threaded paths, and the errors for bad arguments."""
import inspect

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import dlarray as dl
from helpers.oracle import DTYPE_NAMES, assert_matches, to_numpy

REAL = [d for d in DTYPE_NAMES if not d.startswith("complex")]
OPS = {op["name"]: op for op in dl._core._search_sort_ops()}


def data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    v = rng.integers(0 if dtype.startswith("uint") else -5, 5, n)
    if dtype.startswith("complex"):
        return (v + 1j * rng.integers(-2, 2, n)).astype(dtype).reshape(shape)
    return v.astype(dtype).reshape(shape)


def test_table_lists_the_chapters():
    assert {n for n, o in OPS.items() if o["chapter"] == "searching"} == {
        "argmax", "argmin", "count_nonzero", "nonzero", "searchsorted"}
    for name, op in OPS.items():
        assert str(inspect.signature(getattr(dl, name))) == "(" + op["params"] + ")"


# ---- argmax / argmin ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_arg_extreme_axes_keepdims(name, dtype):
    x = data((3, 4, 50), dtype)
    for axis in (None, 0, 1, 2, -1):
        for keepdims in (False, True):
            got = getattr(dl, name)(dl.asarray(x), axis=axis, keepdims=keepdims)
            want = getattr(np, name)(x, axis=axis, keepdims=keepdims)
            assert_matches(got, np.asarray(want, dtype=np.int64))


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_first_nan_wins_and_first_tie(name, dtype):
    x = np.array([1.0, 7.0, -7.0, np.nan, 7.0, np.nan, -7.0], dtype=dtype)
    assert int(getattr(dl, name)(dl.asarray(x))) == 3
    x = np.array([-0.0, 0.0, -1.0, 1.0, 1.0, -1.0], dtype=dtype)
    assert int(getattr(dl, name)(dl.asarray(x))) == getattr(np, name)(x)
    m = np.array([[1.0, np.nan, 3.0], [np.nan, 5.0, np.nan]], dtype=dtype)
    for axis in (0, 1):
        np.testing.assert_array_equal(to_numpy(getattr(dl, name)(dl.asarray(m), axis=axis)),
                                      getattr(np, name)(m, axis=axis))


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "uint8"])
def test_long_rows_blocks_and_threads(name, dtype):
    x = data((2_000_003,), dtype, seed=3)
    pos = 1_234_567
    x[pos] = np.iinfo(dtype).max if dtype[0] in "iu" and name == "argmax" else x[pos]
    if dtype[0] in "iu" and name == "argmin":
        x[pos] = np.iinfo(dtype).min
    if dtype.startswith("float"):
        x[pos] = 1e30 if name == "argmax" else -1e30
        x[pos + 10] = x[pos]
    assert int(getattr(dl, name)(dl.asarray(x))) == getattr(np, name)(x)
    if dtype.startswith("float"):
        x[1_999_999] = np.nan
        x[1_500_000] = np.nan
        assert int(getattr(dl, name)(dl.asarray(x))) == 1_500_000


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_strided_views(name):
    x = data((40, 60), "float64")
    xa = dl.asarray(x)
    for v, vn in ((xa[::-1, ::3], x[::-1, ::3]), (dl.permute_dims(xa, (1, 0)), x.T)):
        for axis in (None, 0, 1):
            np.testing.assert_array_equal(to_numpy(getattr(dl, name)(v, axis=axis)), getattr(np, name)(vn, axis=axis))


def test_arg_extreme_errors():
    with pytest.raises(ValueError, match="no elements"):
        dl.argmax(dl.asarray(np.zeros((0,))))
    with pytest.raises(ValueError, match="axis 1 has no elements"):
        dl.argmin(dl.asarray(np.zeros((3, 0))), axis=1)
    assert dl.argmax(dl.asarray(np.zeros((0, 3))), axis=1).shape == (0,)
    with pytest.raises(IndexError, match="out of bounds"):
        dl.argmax(dl.asarray([1, 2]), axis=1)
    with pytest.raises(TypeError, match="axis must be an integer"):
        dl.argmax(dl.asarray([1, 2]), axis=(0,))
    with pytest.raises(TypeError, match="keepdims must be a bool"):
        dl.argmin(dl.asarray([1, 2]), keepdims=0)
    assert int(dl.argmax(dl.asarray(5.0))) == 0  # 0-d: the flattened array has one element
    assert dl.argmax(dl.asarray(5.0), keepdims=True).shape == ()


# ---- count_nonzero ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_count_nonzero(dtype):
    x = data((3, 4, 5), dtype)
    for axis in (None, 0, -1, (0, 2), (1, 0), ()):
        for keepdims in (False, True):
            got = dl.count_nonzero(dl.asarray(x), axis=axis, keepdims=keepdims)
            want = np.count_nonzero(x, axis=axis, keepdims=keepdims)
            assert_matches(got, np.asarray(want, dtype=np.int64))


def test_count_nonzero_special_values():
    x = np.array([np.nan, -0.0, 0.0, np.inf, 1e-300])
    assert int(dl.count_nonzero(dl.asarray(x))) == 3
    z = np.array([0j, 1j, complex(0, -0.0), complex(np.nan, 0)])
    assert int(dl.count_nonzero(dl.asarray(z))) == 2
    with pytest.raises(ValueError, match="repeated axis"):
        dl.count_nonzero(dl.asarray(x), axis=(0, -1))


# ---- nonzero ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_nonzero(dtype):
    for shape in ((7,), (3, 4), (2, 3, 4), (2, 0, 3)):
        x = data(shape, dtype)
        got = dl.nonzero(dl.asarray(x))
        want = np.nonzero(x)
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_matches(g, w.astype(np.int64))


def test_nonzero_views_and_specials():
    x = np.array([[0.0, np.nan, -0.0], [1.0, 0.0, np.inf]])
    for v, vn in ((dl.asarray(x)[:, ::-1], x[:, ::-1]), (dl.permute_dims(dl.asarray(x), (1, 0)), x.T)):
        for g, w in zip(dl.nonzero(v), np.nonzero(vn)):
            np.testing.assert_array_equal(to_numpy(g), w)


def test_nonzero_zero_dim_raises():
    with pytest.raises(ValueError, match="at least one dimension"):
        dl.nonzero(dl.asarray(1))


# ---- searchsorted -------------------------------------------------------------------------------

@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("dtype", REAL)
def test_searchsorted(dtype, side):
    x1 = np.sort(data((50,), dtype))
    x2 = data((4, 6), dtype, seed=1)
    got = dl.searchsorted(dl.asarray(x1), dl.asarray(x2), side=side)
    assert_matches(got, np.searchsorted(x1, x2, side=side).astype(np.int64))


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_sorter_and_views(side):
    rng = np.random.default_rng(5)
    x1 = rng.integers(-20, 20, 101).astype("float64")
    sorter = np.argsort(x1, kind="stable")
    x2 = rng.integers(-25, 25, 300).astype("float64")
    want = np.searchsorted(x1, x2, side=side, sorter=sorter)
    got = dl.searchsorted(dl.asarray(x1), dl.asarray(x2), side=side, sorter=dl.asarray(sorter.astype("int32")))
    np.testing.assert_array_equal(to_numpy(got), want)
    s = np.sort(x1)[::-1]  # a reversed view of descending data is ascending
    got = dl.searchsorted(dl.asarray(np.ascontiguousarray(s))[::-1], dl.asarray(x2)[::2], side=side)
    np.testing.assert_array_equal(to_numpy(got), np.searchsorted(s[::-1], x2[::2], side=side))


def test_searchsorted_many_queries_threads():
    rng = np.random.default_rng(6)
    x1 = np.sort(rng.standard_normal(100_000))
    x2 = rng.standard_normal(1_000_003)
    for side in ("left", "right"):
        np.testing.assert_array_equal(to_numpy(dl.searchsorted(dl.asarray(x1), dl.asarray(x2), side=side)),
                                      np.searchsorted(x1, x2, side=side))


def test_searchsorted_nan_and_zero_consistent_with_sort():
    x1 = np.array([-np.inf, -1.0, -0.0, 0.0, 2.0, np.nan, np.nan])
    x2 = np.array([np.nan, 0.0, -0.0, np.inf, -np.inf])
    for side in ("left", "right"):
        np.testing.assert_array_equal(to_numpy(dl.searchsorted(dl.asarray(x1), dl.asarray(x2), side=side)),
                                      np.searchsorted(x1, x2, side=side))


def test_searchsorted_scalars_and_promotion():
    x1 = dl.asarray(np.array([1.0, 2.0, 3.0], dtype="float32"))
    out = dl.searchsorted(x1, 2)
    assert out.shape == () and out.dtype == dl.int64 and int(out) == 1
    assert int(dl.searchsorted(x1, 2.5, side="right")) == 2
    assert int(dl.searchsorted(dl.asarray([1, 5, 9], dtype=dl.int8), dl.asarray([6], dtype=dl.int64))[0]) == 2
    assert int(dl.searchsorted(dl.asarray([1, 2]), 1.5)) == int(np.searchsorted([1, 2], 1.5)) == 1  # in float64
    with pytest.raises(OverflowError, match="out of range"):
        dl.searchsorted(dl.asarray([1, 2], dtype=dl.int8), 1000)


def test_searchsorted_errors():
    x1 = dl.asarray([1, 2, 3])
    with pytest.raises(ValueError, match="one-dimensional"):
        dl.searchsorted(dl.asarray([[1, 2]]), x1)
    with pytest.raises(ValueError, match="'left' or 'right'"):
        dl.searchsorted(x1, x1, side="middle")
    with pytest.raises(TypeError, match="'left' or 'right'"):
        dl.searchsorted(x1, x1, side=None)
    with pytest.raises(IndexError, match=r"sorter\[1\] = 7"):
        dl.searchsorted(x1, x1, sorter=dl.asarray([0, 7, 1]))
    with pytest.raises(ValueError, match="x1's shape"):
        dl.searchsorted(x1, x1, sorter=dl.asarray([0, 1]))
    with pytest.raises(TypeError, match="integer dtype"):
        dl.searchsorted(x1, x1, sorter=dl.asarray([0.0, 1.0, 2.0]))
    assert dl.searchsorted(x1, dl.asarray([1.5])).tolist() == [1]  # mixed kinds promote (float64)
    with pytest.raises(TypeError, match="x1 must be"):
        dl.searchsorted([1, 2], x1)


@given(hnp.arrays(np.float64, st.integers(1, 60), elements=st.floats(allow_nan=True) | st.just(-0.0)),
       hnp.arrays(np.float64, st.integers(0, 20), elements=st.floats(allow_nan=True) | st.just(-0.0)),
       st.sampled_from(["left", "right"]))
def test_property_searchsorted_matches_numpy(x1, x2, side):
    x1 = np.sort(x1)
    np.testing.assert_array_equal(to_numpy(dl.searchsorted(dl.asarray(x1), dl.asarray(x2), side=side)),
                                  np.searchsorted(x1, x2, side=side))
