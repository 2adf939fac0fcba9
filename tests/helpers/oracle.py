"""NumPy as the value oracle: conversions and comparisons shared by the test files."""
import numpy as np

import dlarray as dl

DTYPE_NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "float32", "float64", "complex64", "complex128"]


def to_numpy(x):
    """A NumPy copy of a dlarray array, read through the buffer protocol."""
    assert isinstance(x, dl.Array), f"expected a dlarray.Array, got {type(x).__name__}"
    return np.array(memoryview(x), copy=True)


def assert_matches(x, expected):
    """x is a dlarray.Array with the dtype, shape and values (NaNs included) of the NumPy array."""
    expected = np.asarray(expected)
    got = to_numpy(x)
    assert str(x.dtype) == expected.dtype.name, f"dtype {x.dtype} != {expected.dtype}"
    assert got.shape == expected.shape, f"shape {got.shape} != {expected.shape}"
    np.testing.assert_array_equal(got, expected)


def sample(shape, dtype="float64"):
    """A NumPy array of the given shape and dtype with varied, exactly representable values."""
    n = int(np.prod(shape, dtype=np.int64))
    k = np.arange(n)
    if dtype == "bool":
        return (k % 3 == 1).reshape(shape)
    if dtype.startswith("complex"):
        return ((k % 97) + 1j * (k % 7)).astype(dtype).reshape(shape)
    return (k % 120).astype(dtype).reshape(shape)
