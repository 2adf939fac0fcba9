"""Property tests: hypothesis.extra.array_api generates dlarray arrays directly (any conforming
namespace works), NumPy computes the expected values from a copy.

Covers broadcasting elementwise functions over every dtype pair the promotion table
defines, basic and boolean-mask indexing, manipulation and the statistical reductions.
"""
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.array_api import make_strategies_namespace

import dlarray as dl
from helpers.oracle import to_numpy

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # hypothesis notes that it has not been tested against this namespace
    xps = make_strategies_namespace(dl)

SETTINGS = settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])  # profile: conftest.py

BINARY = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "maximum": np.maximum,
    "minimum": np.minimum, "equal": np.equal, "less": np.less, "greater_equal": np.greater_equal,
}
INTEGER_BINARY = {"bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor}


def assert_same_values(got, want, tol=False):
    g = to_numpy(got)
    assert g.shape == want.shape, (g.shape, want.shape)
    if tol and want.dtype.kind in "fc":
        rtol = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
        np.testing.assert_allclose(g, want, rtol=rtol, atol=rtol, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, want)


@st.composite
def promotable_pair(draw, dtypes):
    """Two arrays with mutually broadcastable shapes whose dtypes promote under the standard."""
    d1 = draw(dtypes)
    d2 = draw(dtypes.filter(lambda d: _promotes(d1, d)))
    s1, s2 = draw(xps.mutually_broadcastable_shapes(2, max_dims=3, max_side=4)).input_shapes
    return draw(xps.arrays(d1, s1)), draw(xps.arrays(d2, s2))


def _promotes(a, b):
    try:
        dl.result_type(a, b)
        return True
    except TypeError:
        return False


@pytest.mark.parametrize("name", sorted(BINARY))
@SETTINGS
@given(data=st.data())
def test_binary_broadcasting_matches_numpy(name, data):
    dtypes = xps.real_dtypes() if name in ("maximum", "minimum", "less", "greater_equal") else xps.numeric_dtypes()
    x1, x2 = data.draw(promotable_pair(dtypes))
    out = getattr(dl, name)(x1, x2)
    a1, a2 = to_numpy(x1), to_numpy(x2)
    rt = np.dtype(str(dl.result_type(x1, x2)))
    with np.errstate(all="ignore"):
        want = BINARY[name](a1.astype(rt), a2.astype(rt))
    assert str(out.dtype) == want.dtype.name
    if name == "multiply" and want.dtype.kind == "c":
        # Complex products follow C99 Annex G (infinities recovered) and round differently from
        # NumPy's formula near overflow: compare finite, non-overflowing products with a tolerance.
        assume(np.all(np.isfinite(a1)) and np.all(np.isfinite(a2)))
        assume(np.all(np.isfinite(want)) and np.all(np.abs(want.astype(np.complex128)) < 1e300))
        assert_same_values(out, want, tol=True)
        return
    assert_same_values(out, want)


@pytest.mark.parametrize("name", sorted(INTEGER_BINARY))
@SETTINGS
@given(data=st.data())
def test_bitwise_matches_numpy(name, data):
    x1, x2 = data.draw(promotable_pair(xps.integer_dtypes() | xps.boolean_dtypes()))
    assume((x1.dtype == dl.bool) == (x2.dtype == dl.bool))
    out = getattr(dl, name)(x1, x2)
    rt = np.dtype(str(dl.result_type(x1, x2)))
    assert_same_values(out, INTEGER_BINARY[name](to_numpy(x1).astype(rt), to_numpy(x2).astype(rt)))


@SETTINGS
@given(data=st.data())
def test_basic_indexing_matches_numpy(data):
    x = data.draw(xps.arrays(xps.scalar_dtypes(), xps.array_shapes(min_dims=1, max_dims=4, max_side=5)))
    key = data.draw(xps.indices(x.shape, allow_newaxis=True))
    got = x[key]
    assert_same_values(got, to_numpy(x)[key])


@SETTINGS
@given(data=st.data())
def test_boolean_mask_get_and_set_match_numpy(data):
    x = data.draw(xps.arrays(xps.real_dtypes(), xps.array_shapes(min_dims=1, max_dims=3, max_side=5)))
    mask = data.draw(xps.arrays(dl.bool, x.shape))
    a, m = to_numpy(x), to_numpy(mask)
    assert_same_values(x[mask], a[m])
    x[mask] = 0
    a[m] = 0
    assert_same_values(x, a)


@SETTINGS
@given(data=st.data())
def test_manipulation_matches_numpy(data):
    x = data.draw(xps.arrays(xps.scalar_dtypes(), xps.array_shapes(min_dims=1, max_dims=4, max_side=4)))
    a = to_numpy(x)
    perm = tuple(data.draw(st.permutations(range(x.ndim))))
    assert_same_values(dl.permute_dims(x, perm), np.transpose(a, perm))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    assert_same_values(dl.flip(x, axis=axis), np.flip(a, axis=axis))
    shift = data.draw(st.integers(-7, 7))
    assert_same_values(dl.roll(x, shift, axis=axis), np.roll(a, shift, axis=axis))
    assert_same_values(dl.reshape(x, (-1,)), a.reshape(-1))
    assert_same_values(dl.expand_dims(x, axis=axis), np.expand_dims(a, axis))
    assert_same_values(dl.concat([x, x], axis=axis), np.concatenate([a, a], axis=axis))


REDUCE = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min, "mean": np.mean, "var": np.var,
          "std": np.std}


@pytest.mark.parametrize("name", sorted(REDUCE))
@SETTINGS
@given(data=st.data())
def test_reductions_match_numpy(name, data):
    floats = st.sampled_from([dl.float32, dl.float64])
    dtype = data.draw(floats if name in ("mean", "var", "std") else xps.real_dtypes())
    bound = 2 if name == "prod" else 100  # products of <= 125 factors stay finite in any order
    elements = ({"allow_nan": False, "allow_infinity": False, "min_value": -bound, "max_value": bound}
                if dtype in (dl.float32, dl.float64) else None)
    x = data.draw(xps.arrays(dtype, xps.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5),
                             elements=elements))
    axes = data.draw(st.none() | st.lists(st.integers(0, x.ndim - 1), unique=True).map(tuple))
    keepdims = data.draw(st.booleans())
    out = getattr(dl, name)(x, axis=axes, keepdims=keepdims)
    a = to_numpy(x)
    kw = {"dtype": str(out.dtype)} if name in ("sum", "prod") else {}
    with np.errstate(all="ignore"):
        want = np.asarray(REDUCE[name](a, axis=axes, keepdims=keepdims, **kw))
    assert str(out.dtype) == want.dtype.name
    assert_same_values(out, want, tol=True)
