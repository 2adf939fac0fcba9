"""The buffer protocol: the formats we export are NumPy's, character for character, for every
dtype NumPy has (int64 is 'l' on 64-bit Linux, as scipy.ndimage expects), and every spelling of
the same type imports as that dtype, zero-copy."""
import array
import ctypes

import numpy as np
import pytest

import dlarray as dl

NUMPY_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float16", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("name", NUMPY_DTYPES)
def test_format_and_itemsize_are_numpys(name):
    ours = memoryview(dl.zeros((2, 3), dtype=getattr(dl, name)))
    theirs = memoryview(np.zeros((2, 3), dtype=name))
    assert (ours.format, ours.itemsize, ours.shape, ours.strides) == \
        (theirs.format, theirs.itemsize, theirs.shape, theirs.strides)


@pytest.mark.parametrize("name", NUMPY_DTYPES)
def test_numpy_reads_our_buffer_as_the_same_dtype_without_a_copy(name):
    x = dl.asarray(np.arange(6).astype(name))
    a = np.asarray(memoryview(x))
    assert a.dtype == np.dtype(name)
    assert a.ctypes.data == x._data_ptr


@pytest.mark.parametrize("name", ["bfloat16", "float8_e4m3fn"])
def test_dtypes_numpy_cannot_name_have_no_buffer(name):
    with pytest.raises(BufferError):
        memoryview(dl.empty(2, dtype=getattr(dl, name)))


@pytest.mark.parametrize("code, dtype", [
    ("b", "int8"), ("h", "int16"), ("i", "int32"), ("l", "int64"), ("q", "int64"),
    ("B", "uint8"), ("H", "uint16"), ("I", "uint32"), ("L", "uint64"), ("Q", "uint64"),
    ("f", "float32"), ("d", "float64"),
])
def test_every_spelling_imports_as_its_dtype_zero_copy(code, dtype):
    src = array.array(code, [1, 2, 3])
    x = dl.asarray(src)
    assert x.dtype == getattr(dl, dtype)
    src[1] = 7  # written through the producer, read through dlarray
    assert x.tolist() == [1, 7, 3]


@pytest.mark.parametrize("ctype, fmt, dtype", [
    (ctypes.c_int64, "<q", "int64"), (ctypes.c_bool, "<?", "bool"), (ctypes.c_float, "<f", "float32"),
    (ctypes.c_uint16, "<H", "uint16"),
])
def test_byte_order_prefixed_formats(ctype, fmt, dtype):
    src = (ctype * 3)()
    assert memoryview(src).format == fmt  # ctypes spells formats with an explicit byte order
    x = dl.asarray(src)
    assert x.dtype == getattr(dl, dtype) and x.shape == (3,)
    src[2] = 1
    assert x.tolist()[2] == 1  # zero-copy


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float16"])
def test_complex_and_half_formats_import(dtype):
    src = np.zeros(2, dtype)
    x = dl.asarray(memoryview(src))
    assert x.dtype == getattr(dl, dtype) and x._data_ptr == src.ctypes.data


def test_mismatched_item_size_is_a_buffer_error():
    class Odd(ctypes.Structure):  # a 3-byte record: no dtype has that format
        _fields_ = [("a", ctypes.c_uint8), ("b", ctypes.c_uint16)]
        _pack_ = 1

    with pytest.raises(BufferError, match="asarray: buffer format"):
        dl.asarray(memoryview((Odd * 2)()))
