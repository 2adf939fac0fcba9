"""all(), any() and diff(): the utility chapter, NumPy as the oracle."""
import math

import numpy as np
import pytest

import dlarray as dl


@pytest.mark.parametrize("fname", ["all", "any"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (2, 0, 1), ()])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_match_numpy(fname, axis, keepdims):
    rng = np.random.default_rng(3)
    a = rng.random((3, 4, 5)) < (0.9 if fname == "all" else 0.05)
    for view in (a, a.transpose(2, 0, 1)[::-1]):
        got = getattr(dl, fname)(dl.asarray(view), axis=axis, keepdims=keepdims)
        want = getattr(np, fname)(view, axis=axis, keepdims=keepdims)
        assert got.dtype == dl.bool and got.shape == want.shape
        np.testing.assert_array_equal(np.asarray(got), want)


def test_nonbool_inputs_and_empty_arrays():
    assert bool(dl.all(dl.asarray([1.0, math.nan, -2.0])))
    assert not bool(dl.any(dl.asarray([0j, -0.0 + 0j])))
    assert bool(dl.all(dl.zeros((0, 3)))) and not bool(dl.any(dl.zeros((0, 3))))
    assert dl.all(dl.zeros((0, 3)), axis=0).tolist() == [True, True, True]
    assert dl.any(dl.asarray(5)).shape == ()


def test_axis_errors():
    x = dl.ones((2, 3))
    with pytest.raises(IndexError):
        dl.all(x, axis=2)
    with pytest.raises(ValueError):
        dl.any(x, axis=(0, -2))
    with pytest.raises(TypeError):
        dl.all(x, axis=1.0)


# ---- diff ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 2, 5, 9])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_diff_matches_numpy(n, axis):
    x = (np.arange(42).reshape(6, 7) ** 2 % 17).astype(np.int32)
    got = dl.diff(dl.asarray(x), axis=axis, n=n)
    want = np.diff(x, axis=axis, n=n)
    assert got.dtype == dl.int32 and got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)


def test_diff_with_prepend_append_and_booleans():
    x = np.array([1.0, 4.0, 9.0])
    got = dl.diff(dl.asarray(x), prepend=dl.asarray([0.0, 0.5]), append=dl.asarray([16.0]))
    np.testing.assert_array_equal(np.asarray(got), np.diff(x, prepend=[0.0, 0.5], append=[16.0]))
    b = np.array([True, True, False, True])
    np.testing.assert_array_equal(np.asarray(dl.diff(dl.asarray(b))), np.diff(b))


@pytest.mark.parametrize("dtype", ["int16", "float32", "bool"])
def test_diff_with_n_beyond_the_axis_is_empty_at_once(dtype):
    # NumPy loops n times; the axis is empty after its length, so a huge n returns at once.
    x = np.arange(12).reshape(3, 4).astype(dtype)
    for n in (4, 5, 2**62):
        got = dl.diff(dl.asarray(x), axis=1, n=n)
        want = np.diff(x, axis=1, n=min(n, 9))
        assert got.shape == want.shape == (3, 0) and got.dtype == getattr(dl, dtype)
    empty = dl.zeros((2, 0), dtype=getattr(dl, dtype))
    got = dl.diff(empty, n=2**62)
    assert got.shape == (2, 0) and got is not empty


def test_diff_errors():
    with pytest.raises(ValueError, match="at least one dimension"):
        dl.diff(dl.asarray(1.0))
    with pytest.raises(IndexError, match="out of bounds"):
        dl.diff(dl.ones((2, 2)), axis=2)
    with pytest.raises(ValueError, match="non-negative"):
        dl.diff(dl.ones(3), n=-1)
    with pytest.raises(TypeError):
        dl.diff(dl.ones(3), n=1.0)
    with pytest.raises(TypeError):
        dl.diff([1, 2])
