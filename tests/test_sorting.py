"""sort and argsort (src/core/search_sort_ops.h) against NumPy's stable sort: every dtype, every
axis, strided and reversed views, NaN/-0/+0/inf, stability with duplicates, descending order,
the radix and threaded paths, empty and 0-d inputs, and the errors for bad arguments."""
import inspect

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import dlarray as dl
from helpers.oracle import DTYPE_NAMES, to_numpy

REAL = [d for d in DTYPE_NAMES if not d.startswith("complex")]


def data(shape, dtype, seed=0):
    """Values with many duplicates (stability is visible) spanning negative and positive."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if dtype.startswith("uint"):
        v = rng.integers(0, 9, n)
    else:
        v = rng.integers(-9, 9, n)
    if dtype.startswith("complex"):
        return (v + 1j * rng.integers(-2, 2, n)).astype(dtype).reshape(shape)
    return v.astype(dtype).reshape(shape)


def special(dtype):
    """NaN, signed zeros, infinities and duplicates in a row longer than the small-sort cutoff."""
    base = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1.5, -1.5, 0.0, -0.0, np.nan, 2.0, -np.inf, 1.5])
    return np.tile(base, 40).astype(dtype)


def argsort_oracle(x, axis=-1, descending=False):
    """The order this library documents: NumPy's stable order, and for descending the exact
    reverse order of values (NaN first) with equal elements still in their original order."""
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    n = x.shape[axis]
    return np.flip(n - 1 - np.argsort(np.flip(x, axis=axis), axis=axis, kind="stable"), axis=axis)


def assert_sort_matches(x_np, axis=-1, descending=False, x=None):
    x = dl.asarray(x_np) if x is None else x
    want_idx = argsort_oracle(x_np, axis, descending)
    got_idx = dl.argsort(x, axis=axis, descending=descending)
    assert got_idx.dtype == dl.int64
    np.testing.assert_array_equal(to_numpy(got_idx), want_idx)
    got = to_numpy(dl.sort(x, axis=axis, descending=descending))
    want = np.take_along_axis(x_np, want_idx, axis=axis)
    assert got.dtype == x_np.dtype and got.shape == x_np.shape
    np.testing.assert_array_equal(got, want)
    if x_np.dtype.kind == "f":  # the exact elements move, signed zeros included
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_every_dtype_every_axis(dtype, descending):
    x = data((4, 5, 70), dtype)
    for axis in (0, 1, 2, -1, -3):
        assert_sort_matches(x, axis, descending)


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nan_signed_zero_inf(dtype, descending):
    x = special(dtype)
    assert_sort_matches(x, descending=descending)
    short = x[:13]  # the comparison-sort path
    assert_sort_matches(short, descending=descending)


def test_nan_last_ascending_first_descending():
    x = dl.asarray([1.0, float("nan"), -1.0])
    assert np.isnan(to_numpy(dl.sort(x))[-1])
    assert np.isnan(to_numpy(dl.sort(x, descending=True))[0])
    np.testing.assert_array_equal(to_numpy(dl.argsort(x, descending=True)), [1, 0, 2])


def test_unusual_nans_keep_their_bits():
    bits = np.array([0x7FC00001, 0xFFC00000, 0x3F800000, 0x80000000], dtype=np.uint32)
    x = bits.view(np.float32)
    got = to_numpy(dl.sort(dl.asarray(x))).view(np.uint32)
    np.testing.assert_array_equal(got, [0x80000000, 0x3F800000, 0x7FC00001, 0xFFC00000])


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_lexicographic_nan_parts_last(dtype):
    x = np.array([1 + 2j, complex(np.nan, 0), 1 + 1j, complex(0, np.nan), -1 + 5j, 1 + 1j], dtype=dtype)
    got = to_numpy(dl.argsort(dl.asarray(x)))
    # real part first, then imaginary part; a NaN part orders after every number
    key = [(np.isnan(v.real), 0 if np.isnan(v.real) else v.real, np.isnan(v.imag), 0 if np.isnan(v.imag) else v.imag)
           for v in x]
    np.testing.assert_array_equal(got, sorted(range(len(x)), key=key.__getitem__))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint32", "int16", "complex64"])
@pytest.mark.parametrize("n", [100_000, 600_000])
def test_long_rows_radix_and_threads(dtype, n):
    x = data((n,), dtype, seed=n)
    if dtype.startswith("float"):
        x[::1001] = np.nan
        x[::997] = -0.0
    assert_sort_matches(x)
    assert_sort_matches(x, descending=True)


# The vector quicksort (keys without indices: rows with no -0 and no unusual NaN) at the sizes
# where it changes strategy (one register, the 16-register network, partitions and the keys
# past their last whole vector, threads) and on the inputs that break quicksorts: equal keys,
# few distinct keys, the largest key (a pivot at the maximum), sorted and reversed runs.
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint32", "int32", "uint64", "complex64"])
def test_vector_quicksort_sizes_and_patterns(dtype):
    rng = np.random.default_rng(7)
    sizes = [2, 15, 16, 17, 33, 64, 65, 66, 67, 127, 128, 129, 130, 135, 255, 256, 257, 300, 1000, 4096, 4097, 70_000, 300_001]
    for n in sizes:
        if dtype[0] in "fc":
            base = rng.standard_normal(n).astype(dtype)
        else:
            info = np.iinfo(dtype)
            base = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        top = np.inf if dtype[0] in "fc" else np.iinfo(dtype).max
        patterns = {
            "random": base,
            "few": base[rng.integers(0, min(3, n), n)],
            "equal": np.full(n, base[0]),
            "sorted": np.sort(base),
            "reversed": np.sort(base)[::-1].copy(),
            "top": np.where(rng.integers(0, 2, n) == 1, np.asarray(top).astype(dtype), base),
            "top only": np.full(n, np.asarray(top).astype(dtype)),
            "few and top": np.where(rng.integers(0, 4, n) == 0, np.asarray(top).astype(dtype), base[rng.integers(0, min(5, n), n)]),
        }
        if dtype[0] in "fc":
            patterns["nan"] = np.where(rng.integers(0, 5, n) == 0, np.nan, base).astype(dtype)
        for name, x in patterns.items():
            x = np.ascontiguousarray(x, dtype=dtype)
            got = to_numpy(dl.sort(dl.asarray(x)))
            assert np.array_equal(got, np.sort(x, kind="stable"), equal_nan=True), (dtype, n, name)
            got = to_numpy(dl.sort(dl.asarray(x), descending=True))
            assert np.array_equal(got, np.sort(x, kind="stable")[::-1], equal_nan=True), (dtype, n, name)
            # argsort: (key, position) pairs for 32-bit keys, keys carrying positions for 64-bit
            # ones; stable both ways (descending: the stable ascending order of the reversed
            # array, reversed)
            got = to_numpy(dl.argsort(dl.asarray(x)))
            assert np.array_equal(got, np.argsort(x, kind="stable")), (dtype, n, name, "argsort")
            got = to_numpy(dl.argsort(dl.asarray(x), descending=True))
            want = n - 1 - np.argsort(x[::-1], kind="stable")[::-1]
            assert np.array_equal(got, want), (dtype, n, name, "argsort descending")


def test_many_rows_on_threads():
    x = np.random.default_rng(1).standard_normal((300, 400)).astype("float32")
    x[::7, ::3] = 0.5
    assert_sort_matches(x, axis=1)
    assert_sort_matches(x, axis=0)


@pytest.mark.parametrize("view", ["reversed", "strided", "transposed"])
def test_views_sort_without_copy_differences(view):
    base = data((6, 300), "float64")
    xa = dl.asarray(base)
    if view == "reversed":
        x, xn = xa[:, ::-1], base[:, ::-1]
    elif view == "strided":
        x, xn = xa[::2, ::3], base[::2, ::3]
    else:
        x, xn = dl.permute_dims(xa, (1, 0)), base.T
    for axis in (0, 1):
        assert_sort_matches(np.ascontiguousarray(xn), axis, x=x)
        assert_sort_matches(np.ascontiguousarray(xn), axis, descending=True, x=x)


def test_stable_false_still_sorts():
    x = data((500,), "int32")
    got = to_numpy(dl.sort(dl.asarray(x), stable=False))
    np.testing.assert_array_equal(got, np.sort(x))


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 4)])
def test_empty(shape):
    x = dl.asarray(np.zeros(shape, "float32"))
    assert dl.sort(x).shape == shape and dl.argsort(x, axis=0).shape == shape
    assert dl.argsort(x).dtype == dl.int64


def test_errors():
    x = dl.asarray([3, 1, 2])
    with pytest.raises(IndexError, match="axis 1 is out of bounds"):
        dl.sort(x, axis=1)
    with pytest.raises(IndexError, match="0 dimensions"):
        dl.argsort(dl.asarray(1.0))
    with pytest.raises(TypeError, match="axis must be an integer"):
        dl.sort(x, axis=None)
    with pytest.raises(TypeError, match="descending must be a bool"):
        dl.sort(x, descending=1)
    with pytest.raises(TypeError, match="stable must be a bool"):
        dl.argsort(x, stable=None)
    with pytest.raises(TypeError, match="sort: x"):
        dl.sort([3, 1, 2])
    with pytest.raises(TypeError, match="storage-only"):
        dl.sort(dl.asarray(np.ones(3, "float16")))
    with pytest.raises(TypeError):
        dl.sort(x, -1)  # axis is keyword-only


@pytest.mark.parametrize("name", ["sort", "argsort"])
def test_signature(name):
    assert str(inspect.signature(getattr(dl, name))) == "(x, /, *, axis=-1, descending=False, stable=True)"


@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=40),
                  elements=st.floats(allow_nan=True, allow_infinity=True, width=64)
                  | st.sampled_from([0.0, -0.0, 1.0])),
       st.booleans(), st.data())
def test_property_float64(x, descending, draw):
    axis = draw.draw(st.integers(-x.ndim, x.ndim - 1))
    assert_sort_matches(x, axis, descending)


@given(hnp.arrays(st.sampled_from([np.int8, np.uint16, np.int64, np.float32]), hnp.array_shapes(max_dims=2, max_side=600)),
       st.booleans())
def test_property_small_types(x, descending):
    assert_sort_matches(x, -1, descending)
