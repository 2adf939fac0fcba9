"""Creation functions derived from an array or from positions: *_like, eye, linspace, meshgrid,
tril, triu (against NumPy)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as npst

import dlarray as dl
from helpers.oracle import DTYPE_NAMES, assert_matches, sample

FAST = settings(max_examples=50, deadline=None)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_like_functions_keep_shape_dtype_and_device(dtype):
    x = dl.asarray(sample((2, 3), dtype))
    for f, value in [(dl.zeros_like, 0), (dl.ones_like, 1)]:
        assert_matches(f(x), np.full((2, 3), value, dtype=dtype))
    e = dl.empty_like(x)
    assert e.shape == (2, 3) and e.dtype == x.dtype and e.device == x.device
    fill = True if dtype == "bool" else 7
    assert_matches(dl.full_like(x, fill), np.full((2, 3), fill, dtype=dtype))


def test_like_functions_take_dtype_and_device():
    x = dl.zeros((3,), dtype=dl.int8)
    assert_matches(dl.ones_like(x, dtype=dl.float32), np.ones(3, dtype=np.float32))
    assert_matches(dl.full_like(x, 2.5, dtype=dl.complex64), np.full(3, 2.5, dtype=np.complex64))
    assert dl.zeros_like(x, device="cpu").device == "cpu"
    assert dl.empty_like(x, dtype=dl.uint64).dtype == dl.uint64
    assert_matches(dl.full_like(x, 1.5), np.full_like(np.zeros(3, np.int8), 1.5))  # converted, as NumPy's
    with pytest.raises(OverflowError):
        dl.full_like(x, 1000)
    with pytest.raises(TypeError):
        dl.zeros_like([1, 2])


@FAST
@given(
    rows=st.integers(0, 6),
    cols=st.none() | st.integers(0, 6),
    k=st.integers(-8, 8),
    dtype=st.sampled_from(DTYPE_NAMES),
)
def test_eye_matches_numpy(rows, cols, k, dtype):
    assert_matches(dl.eye(rows, cols, k=k, dtype=getattr(dl, dtype)), np.eye(rows, cols, k=k, dtype=dtype))


def test_eye_defaults_and_errors():
    assert_matches(dl.eye(3), np.eye(3))
    assert_matches(dl.eye(2, 4, k=10**18), np.eye(2, 4, k=100))
    assert_matches(dl.eye(3, k=-(10**30)), np.zeros((3, 3)))
    assert_matches(dl.triu(dl.ones((2, 2)), k=10**30), np.zeros((2, 2)))
    with pytest.raises(ValueError):
        dl.eye(-1)
    with pytest.raises(TypeError):
        dl.eye(2.0)


@FAST
@given(
    start=st.floats(-1e6, 1e6),
    stop=st.floats(-1e6, 1e6),
    num=st.integers(0, 20),
    endpoint=st.booleans(),
    dtype=st.sampled_from(["float32", "float64"]),
)
def test_linspace_matches_numpy(start, stop, num, endpoint, dtype):
    out = dl.linspace(start, stop, num, endpoint=endpoint, dtype=getattr(dl, dtype))
    expected = np.linspace(start, stop, num, endpoint=endpoint).astype(dtype)
    assert out.shape == (num,) and out.dtype == getattr(dl, dtype)
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-6 if dtype == "float32" else 1e-12, atol=1e-6)
    if num:
        assert out[0].tolist() == float(np.asarray(start, dtype=dtype))
    if endpoint and num > 1:
        assert out[-1].tolist() == float(np.asarray(stop, dtype=dtype))


def test_linspace_complex_integer_and_errors():
    assert_matches(dl.linspace(0, 1 + 2j, 3), np.linspace(0, 1 + 2j, 3))
    assert dl.linspace(0, 1, 5).dtype == dl.float64
    assert_matches(dl.linspace(0, 10, 4, dtype=dl.int64), np.linspace(0, 10, 4, dtype=np.int64))
    assert_matches(dl.linspace(-1, 1, 4, dtype=dl.int32), np.floor(np.linspace(-1, 1, 4)).astype(np.int32))
    # endpoint=False gives the first num values of the num + 1 point grid
    assert dl.linspace(0.1, 0.7, 6, endpoint=False).tolist() == dl.linspace(0.1, 0.7, 7)[:-1].tolist()
    with pytest.raises(ValueError):
        dl.linspace(0, 1, -1)
    with pytest.raises(TypeError):
        dl.linspace(0, 1j, 3, dtype=dl.float64)
    with pytest.raises(TypeError):
        dl.linspace(0, 1, 3, dtype=dl.bool)


@FAST
@given(
    lengths=st.lists(st.integers(0, 4), min_size=0, max_size=4),
    indexing=st.sampled_from(["xy", "ij"]),
    dtype=st.sampled_from(["int16", "float32", "complex128"]),
)
def test_meshgrid_matches_numpy(lengths, indexing, dtype):
    arrays = [sample((n,), dtype) + i for i, n in enumerate(lengths)]
    out = dl.meshgrid(*[dl.asarray(a) for a in arrays], indexing=indexing)
    expected = np.meshgrid(*arrays, indexing=indexing)
    assert isinstance(out, tuple) and len(out) == len(expected)
    for got, exp in zip(out, expected):
        assert_matches(got, exp)


def test_meshgrid_results_are_independent_and_checked():
    x, y = dl.meshgrid(dl.asarray([1, 2]), dl.asarray([3, 4, 5]))
    x[0, 0] = 100
    assert x.tolist() == [[100, 2], [1, 2], [1, 2]]
    with pytest.raises(ValueError):
        dl.meshgrid(dl.asarray([1]), indexing="ji")


@FAST
@given(
    shape=npst.array_shapes(min_dims=2, max_dims=4, min_side=0, max_side=5),
    k=st.integers(-6, 6),
    dtype=st.sampled_from(DTYPE_NAMES),
)
def test_tril_triu_match_numpy(shape, k, dtype):
    a = sample(shape, dtype)
    x = dl.asarray(a)
    assert_matches(dl.tril(x, k=k), np.tril(a, k=k))
    assert_matches(dl.triu(x, k=k), np.triu(a, k=k))


def test_tril_triu_copy_and_errors():
    a = sample((3, 3))
    x = dl.asarray(a)
    t = dl.tril(dl.permute_dims(x, (1, 0)))
    assert_matches(t, np.tril(a.T))
    t[...] = 0.0
    assert_matches(x, a)
    with pytest.raises(ValueError):
        dl.triu(dl.zeros(3))
