"""all() and any(): boolean reductions over axes, NumPy as the oracle."""
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
