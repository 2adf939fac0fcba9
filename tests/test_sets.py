"""isin and unique_* (src/core/search_sort_ops.h) against NumPy: every dtype, NaNs distinct,
-0 and +0 one value, first indices, inverse indices shaped like x, counts, the named tuples,
the table and sort paths of isin, scalars, empty and 0-d inputs, and the errors."""
import inspect

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import dlarray as dl
from helpers.oracle import DTYPE_NAMES, assert_matches, to_numpy


def data(shape, dtype, seed=0, span=6):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    v = rng.integers(0 if dtype.startswith("uint") else -span, span, n)
    if dtype.startswith("complex"):
        return (v + 1j * rng.integers(-2, 2, n)).astype(dtype).reshape(shape)
    return v.astype(dtype).reshape(shape)


def np_unique(x):
    """NumPy's sorted unique with NaNs distinct (equal_nan=False), as the standard asks."""
    return np.unique(x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_unique_all_every_dtype(dtype):
    x = data((5, 7, 3), dtype)
    values, index, inverse, counts = np_unique(x)
    r = dl.unique_all(dl.asarray(x))
    assert type(r).__name__ == "UniqueAllResult" and r._fields == ("values", "indices", "inverse_indices", "counts")
    assert_matches(r.values, values)
    assert_matches(r.indices, index.astype(np.int64))
    assert_matches(r.inverse_indices, inverse.reshape(x.shape).astype(np.int64))
    assert_matches(r.counts, counts.astype(np.int64))
    c = dl.unique_counts(dl.asarray(x))
    assert c._fields == ("values", "counts")
    assert_matches(c.values, values)
    assert_matches(c.counts, counts.astype(np.int64))
    i = dl.unique_inverse(dl.asarray(x))
    assert i._fields == ("values", "inverse_indices")
    assert_matches(i.inverse_indices, inverse.reshape(x.shape).astype(np.int64))
    assert_matches(dl.unique_values(dl.asarray(x)), values)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_nans_distinct_signed_zeros_one(dtype):
    x = np.array([np.nan, 0.0, -0.0, 1.0, np.nan, 0.0, np.inf, -np.inf, 1.0], dtype=dtype)
    r = dl.unique_all(dl.asarray(x))
    values = to_numpy(r.values)
    assert np.isnan(values).sum() == 2
    assert (values == 0).sum() == 1
    np.testing.assert_array_equal(to_numpy(r.counts)[values == 0], [3])
    np.testing.assert_array_equal(to_numpy(r.counts)[np.isnan(values)], [1, 1])
    np.testing.assert_array_equal(to_numpy(r.indices), np_unique(x)[1])
    inv = to_numpy(r.inverse_indices)
    np.testing.assert_array_equal(values[inv], x)  # NaN == NaN here: assert_array_equal treats them so
    for f in (dl.unique_values, lambda a: dl.unique_counts(a).values):
        assert np.isnan(to_numpy(f(dl.asarray(x)))).sum() == 2


def test_zero_value_is_the_first_occurrence():
    x = np.array([-0.0, 1.0, 0.0])
    r = dl.unique_all(dl.asarray(x))
    assert np.signbit(to_numpy(r.values)[0])  # -0 came first
    assert int(r.indices[0]) == 0 and int(r.counts[0]) == 2


def test_complex_nan_parts_are_distinct():
    x = np.array([complex(np.nan, 1), complex(np.nan, 1), complex(1, np.nan), 1 + 1j, 1 + 1j])
    c = dl.unique_counts(dl.asarray(x))
    np.testing.assert_array_equal(np.sort(to_numpy(c.counts)), [1, 1, 1, 2])


@pytest.mark.parametrize("dtype", ["float64", "int64", "int8", "uint16"])
def test_large_input(dtype):
    x = data((400_001,), dtype, seed=2, span=100 if dtype == "int8" else 5000)
    values, index, inverse, counts = np_unique(x)
    r = dl.unique_all(dl.asarray(x))
    np.testing.assert_array_equal(to_numpy(r.values), values)
    np.testing.assert_array_equal(to_numpy(r.indices), index)
    np.testing.assert_array_equal(to_numpy(r.inverse_indices), inverse)
    np.testing.assert_array_equal(to_numpy(r.counts), counts)
    np.testing.assert_array_equal(to_numpy(dl.unique_values(dl.asarray(x))), values)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint32", "int32"])
def test_unique_values_runs_across_vector_boundaries(dtype):
    # unique_values alone compacts the sorted keys 8 or 16 at a time: runs that start and end
    # at every offset of a vector, NaNs (each its own value) and -0/+0 (one value)
    rng = np.random.default_rng(3)
    for n in [1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 100, 1000, 4099]:
        x = rng.integers(0, max(2, n // 3), n).astype(dtype)
        if dtype.startswith("float"):
            x[rng.integers(0, 4, n) == 0] = np.nan
            x[rng.integers(0, 5, n) == 0] = -0.0
        got = to_numpy(dl.unique_values(dl.asarray(x)))
        finite = np.unique(x[~np.isnan(x)]) if dtype.startswith("float") else np.unique(x)
        nans = int(np.isnan(x).sum()) if dtype.startswith("float") else 0
        assert got.shape == (finite.size + nans,), (n, got.size, finite.size, nans)
        np.testing.assert_array_equal(got[: finite.size], finite)
        if nans:
            assert np.isnan(got[finite.size:]).all()


def test_views_empty_and_zero_dim():
    x = data((6, 8), "int32")
    xa = dl.asarray(x)
    for v, vn in ((xa[::-1, ::2], x[::-1, ::2]), (dl.permute_dims(xa, (1, 0)), x.T)):
        r = dl.unique_inverse(v)
        np.testing.assert_array_equal(to_numpy(r.values)[to_numpy(r.inverse_indices)], vn)
        np.testing.assert_array_equal(to_numpy(dl.unique_all(v).indices), np_unique(vn)[1])
    e = dl.unique_all(dl.asarray(np.zeros((2, 0), "float32")))
    assert e.values.shape == (0,) and e.indices.shape == (0,) and e.counts.shape == (0,)
    assert e.inverse_indices.shape == (2, 0) and e.values.dtype == dl.float32
    z = dl.unique_all(dl.asarray(7))
    assert z.values.shape == (1,) and z.inverse_indices.shape == () and int(z.counts[0]) == 1


@pytest.mark.parametrize("name", ["unique_all", "unique_counts", "unique_inverse", "unique_values"])
def test_unique_signature_and_errors(name):
    f = getattr(dl, name)
    assert str(inspect.signature(f)) == "(x, /)"
    with pytest.raises(TypeError, match=name + ": x"):
        f([1, 2])
    with pytest.raises(TypeError, match="storage-only"):
        f(dl.asarray(np.ones(2, "float16")))


# ---- isin -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("invert", [False, True])
@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_isin_every_dtype(dtype, invert):
    x1 = data((4, 9), dtype, seed=1)
    x2 = data((5,), dtype, seed=2)
    assert_matches(dl.isin(dl.asarray(x1), dl.asarray(x2), invert=invert), np.isin(x1, x2, invert=invert))


@pytest.mark.parametrize("invert", [False, True])
def test_isin_table_and_sort_paths(invert):
    rng = np.random.default_rng(3)
    x1 = rng.integers(-(2**40), 2**40, 50_000)
    x2 = np.concatenate([rng.integers(-(2**40), 2**40, 1000), x1[::97]])  # wide span: sorted keys
    assert_matches(dl.isin(dl.asarray(x1), dl.asarray(x2), invert=invert), np.isin(x1, x2, invert=invert))
    y1, y2 = x1 % 5000, (x2 % 3000)[::3]  # narrow span: a table of flags
    assert_matches(dl.isin(dl.asarray(y1), dl.asarray(y2), invert=invert), np.isin(y1, y2, invert=invert))
    u1 = np.array([0, 2**64 - 1, 5], dtype="uint64")  # the full unsigned range
    u2 = np.array([2**64 - 1, 3], dtype="uint64")
    assert_matches(dl.isin(dl.asarray(u1), dl.asarray(u2), invert=invert), np.isin(u1, u2, invert=invert))


def test_isin_floats_nan_and_zero():
    x1 = np.array([np.nan, -0.0, 1.0, 2.0, np.inf])
    x2 = np.array([0.0, np.nan, np.inf, 1.0])
    assert_matches(dl.isin(dl.asarray(x1), dl.asarray(x2)), [False, True, True, False, True])
    assert_matches(dl.isin(dl.asarray(x1), dl.asarray(x2), invert=True), [True, False, False, True, False])


def test_isin_promotion_and_scalars():
    a = dl.asarray([1, 2, 300], dtype=dl.int16)
    assert_matches(dl.isin(a, dl.asarray([2, 7], dtype=dl.int8)), [False, True, False])
    assert_matches(dl.isin(a, 300), [False, False, True])
    out = dl.isin(2, a)
    assert out.shape == () and out.dtype == dl.bool and bool(out)
    assert not bool(dl.isin(5, a))
    assert bool(dl.isin(5, a, invert=True))
    assert dl.isin(dl.asarray(np.zeros((0, 3), "int32")), a).shape == (0, 3)
    assert_matches(dl.isin(a, dl.asarray(np.zeros(0, "int16"))), [False, False, False])


def test_isin_errors():
    a = dl.asarray([1, 2, 3])
    with pytest.raises(TypeError, match="at least one of x1 and x2"):
        dl.isin(1, 2)
    assert dl.isin(a, 1.5).tolist() == [False] * 3 and dl.isin(a, 2.0).tolist() == [False, True, False]
    assert dl.isin(a, dl.asarray([1.0, 3.5])).tolist() == np.isin([1, 2, 3], [1.0, 3.5]).tolist()
    with pytest.raises(TypeError, match="invert must be a bool"):
        dl.isin(a, a, invert=None)
    with pytest.raises(TypeError, match="x2 must be an array"):
        dl.isin(a, [1, 2])
    assert str(inspect.signature(dl.isin)) == "(x1, x2, /, *, invert=False)"


@given(hnp.arrays(np.int64, hnp.array_shapes(max_dims=2, max_side=30), elements=st.integers(-50, 50)),
       hnp.arrays(np.int64, st.integers(0, 40), elements=st.integers(-50, 50)),
       st.booleans())
def test_property_isin(x1, x2, invert):
    assert_matches(dl.isin(dl.asarray(x1), dl.asarray(x2), invert=invert), np.isin(x1, x2, invert=invert))


@given(hnp.arrays(np.float32, hnp.array_shapes(max_dims=3, max_side=12),
                  elements=st.floats(width=32, allow_nan=True) | st.sampled_from([0.0, -0.0, 1.0])))
def test_property_unique(x):
    values, index, inverse, counts = np_unique(x)
    r = dl.unique_all(dl.asarray(x))
    np.testing.assert_array_equal(to_numpy(r.values), values)
    np.testing.assert_array_equal(to_numpy(r.indices), index)
    np.testing.assert_array_equal(to_numpy(r.inverse_indices), inverse.reshape(x.shape))
    np.testing.assert_array_equal(to_numpy(r.counts), counts)
