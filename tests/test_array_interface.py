"""NumPy's __array_interface__ (version 3), both ways: what CPU arrays export (NumPy's typestr and
descr, data pointer and read-only flag, strides None when C-contiguous) and what asarray imports
from objects that offer only this protocol (zero-copy, producer kept alive, malformed dicts
refused with a clear error). Zero-copy is proven by writing through one side and reading the other."""
import gc
import weakref

import numpy as np
import pytest

import dlarray as dl
from helpers.gpu_util import fake_gpu_backend
from helpers.oracle import to_numpy

NUMPY_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float16", "float32", "float64", "complex64", "complex128"]


class Interface:
    """An object that speaks only __array_interface__ (no DLPack, no buffer protocol)."""

    def __init__(self, interface, keep=None):
        self.__array_interface__ = interface
        self.keep = keep  # whatever owns the memory


def values(name, shape=(2, 3)):
    return (np.arange(int(np.prod(shape))) % 5).astype(name).reshape(shape)


# ---- export ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NUMPY_DTYPES)
def test_export_matches_numpys_interface(name):
    a = values(name)
    x = dl.asarray(a)
    ours, theirs = x.__array_interface__, a.__array_interface__
    assert ours["version"] == 3
    for key in ("shape", "typestr", "descr", "strides"):
        assert ours[key] == theirs[key], key
    assert ours["data"] == (x._data_ptr, False)


@pytest.mark.parametrize("name", NUMPY_DTYPES)
def test_numpy_consumes_our_interface_zero_copy(name):
    x = dl.asarray(values(name))
    a = np.asarray(Interface(x.__array_interface__, keep=x))
    assert a.dtype == np.dtype(name) and a.ctypes.data == x._data_ptr
    np.testing.assert_array_equal(a, to_numpy(x))
    a[1, 2] = 1  # written through NumPy, read through dlarray
    assert to_numpy(x)[1, 2] == 1


@pytest.mark.parametrize("view", ["slice", "transpose", "flip", "column"])
def test_export_of_strided_views(view):
    base = np.arange(24.0).reshape(4, 6)
    x = dl.asarray(base)
    ours, theirs = {
        "slice": (x[1::2, ::3], base[1::2, ::3]),
        "transpose": (dl.permute_dims(x, (1, 0)), base.T),
        "flip": (dl.flip(x, axis=1), base[:, ::-1]),
        "column": (x[:, 2], base[:, 2]),
    }[view]
    iface = ours.__array_interface__
    assert iface["strides"] == theirs.__array_interface__["strides"]
    assert iface["data"][0] == theirs.__array_interface__["data"][0]
    a = np.asarray(Interface(iface, keep=ours))
    np.testing.assert_array_equal(a, theirs)
    a[...] = -1  # written through NumPy, read through dlarray
    assert (to_numpy(ours) == -1).all()


def test_export_strides_none_for_contiguous_and_size_one_axes():
    x = dl.zeros((3, 1, 4))
    assert x.__array_interface__["strides"] is None
    assert x[:, :, 1:2].__array_interface__["strides"] == (32, 32, 8)


def test_read_only_arrays_export_the_read_only_flag():
    a = np.arange(4.0)
    a.flags.writeable = False
    x = dl.from_dlpack(a)
    assert x.__array_interface__["data"][1] is True
    b = np.asarray(Interface(x.__array_interface__, keep=x))
    assert not b.flags.writeable


@pytest.mark.parametrize("name", ["bfloat16", "float8_e5m2"])
def test_dtypes_numpy_cannot_describe_have_no_interface(name):
    x = dl.empty(3, dtype=getattr(dl, name))
    assert not hasattr(x, "__array_interface__")
    with pytest.raises(AttributeError, match="no NumPy typestr"):
        x.__array_interface__


@pytest.fixture
def fake_gpu():
    yield from fake_gpu_backend()


def test_device_arrays_have_no_interface_and_numpy_gets_a_clear_error(fake_gpu):
    x = dl.ones(3, device="rocm:0")
    assert not hasattr(x, "__array_interface__")
    with pytest.raises(BufferError, match="rocm:0"):
        np.asarray(x)


def test_host_pinned_arrays_export_their_memory(fake_gpu):
    x = dl.asarray(np.arange(4.0), device="rocm_host:0")
    a = np.asarray(Interface(x.__array_interface__, keep=x))
    a[1] = 9
    assert np.from_dlpack(x.to_device("cpu"))[1] == 9


def test_numpy_keeps_our_memory_alive_through_the_producer():
    x = dl.asarray(np.arange(5.0))
    a = np.asarray(Interface(x.__array_interface__, keep=x))
    del x
    gc.collect()
    np.testing.assert_array_equal(a, np.arange(5.0))


# ---- import ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NUMPY_DTYPES)
def test_import_is_zero_copy_in_both_directions(name):
    a = values(name)
    x = dl.asarray(Interface(a.__array_interface__, keep=a))
    assert str(x.dtype) == name and x.shape == a.shape
    assert x._data_ptr == a.ctypes.data
    a[0, 1] = 1
    assert to_numpy(x)[0, 1] == 1
    x[1, 0] = True if name == "bool" else 1  # written through dlarray, read through NumPy
    assert a[1, 0] == 1


@pytest.mark.parametrize("make", [lambda b: b[::2, 1:], lambda b: b.T, lambda b: b[::-1, ::-2],
                                  lambda b: b[:, 3], lambda b: b[2:2]])
def test_import_of_strided_views(make):
    base = np.arange(30.0).reshape(5, 6)
    v = make(base)
    x = dl.asarray(Interface(v.__array_interface__, keep=v))
    np.testing.assert_array_equal(to_numpy(x), v)
    if v.size:
        assert x._data_ptr == v.ctypes.data
        v[...] = -3  # written through NumPy, read through dlarray
        assert (to_numpy(x) == -3).all()


def test_offset_key_moves_the_start():
    a = np.arange(10, dtype=np.int32)
    iface = dict(a.__array_interface__, shape=(3,), offset=8)
    x = dl.asarray(Interface(iface, keep=a))
    assert x.tolist() == [2, 3, 4]


def test_read_only_flag_is_kept():
    a = np.arange(4.0)
    a.flags.writeable = False
    x = dl.asarray(Interface(a.__array_interface__, keep=a))
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 1


def test_the_producer_is_kept_alive_and_then_released():
    owner = Interface(np.arange(6.0).__array_interface__)
    owner.keep = np.arange(6.0)
    owner.__array_interface__ = owner.keep.__array_interface__
    ref = weakref.ref(owner)
    x = dl.asarray(owner)
    del owner
    gc.collect()
    assert ref() is not None  # the array holds the producer
    np.testing.assert_array_equal(to_numpy(x), np.arange(6.0))
    del x
    gc.collect()
    assert ref() is None


def test_interface_as_a_class_property():
    class Prop:
        def __init__(self):
            self.a = np.arange(3, dtype=np.uint16)

        @property
        def __array_interface__(self):
            return self.a.__array_interface__

    p = Prop()
    x = dl.asarray(p)
    p.a[2] = 9
    assert x.tolist() == [0, 1, 9]


def test_asarray_copy_and_dtype_apply():
    a = np.arange(4.0)
    x = dl.asarray(Interface(a.__array_interface__, keep=a), copy=True)
    a[0] = 7
    assert to_numpy(x)[0] == 0
    y = dl.asarray(Interface(a.__array_interface__, keep=a), dtype=dl.float32)
    assert y.dtype == dl.float32 and y.tolist() == [7, 1, 2, 3]
    with pytest.raises(ValueError):
        dl.asarray(Interface(a.__array_interface__, keep=a), dtype=dl.int64, copy=False)


def test_null_pointer_is_fine_for_an_empty_array():
    x = dl.asarray(Interface({"version": 3, "shape": (0, 2), "typestr": "<f8", "data": (0, False)}))
    assert x.shape == (0, 2) and x.dtype == dl.float64


GOOD = {"version": 3, "shape": (2,), "typestr": "<f8", "data": None, "strides": None}


@pytest.mark.parametrize("change, error, match", [
    ({"version": None}, ValueError, "lacks the required key 'version'"),
    ({"shape": None}, ValueError, "lacks the required key 'shape'"),
    ({"typestr": None}, ValueError, "lacks the required key 'typestr'"),
    ({"data": None}, ValueError, "lacks the required key 'data'"),
    ({"version": 2}, ValueError, "version 2 is not supported"),
    ({"version": "3"}, TypeError, "version must be an integer"),
    ({"shape": [2]}, TypeError, "shape must be a tuple"),
    ({"shape": (-2,)}, ValueError, "negative"),
    ({"shape": (2.0,)}, TypeError, "shape entry must be an integer"),
    ({"typestr": ">f8"}, BufferError, "big-endian"),
    ({"typestr": "|O8"}, BufferError, "has no dlarray dtype"),
    ({"typestr": "<f3"}, BufferError, "has no dlarray dtype"),
    ({"typestr": "f8"}, BufferError, "malformed"),
    ({"typestr": b"<f8"}, TypeError, "typestr must be a str"),
    ({"mask": "m"}, BufferError, "mask"),
    ({"data": "buffer"}, BufferError, r"\(pointer, read_only\) tuple"),
    ({"data": (0, False)}, ValueError, "NULL"),
    ({"strides": (8, 8)}, TypeError, "one integer per dimension"),
    ({"strides": (12,)}, BufferError, "multiples of the item size"),
])
def test_malformed_interfaces_are_refused(change, error, match):
    keep = np.zeros(4)
    iface = dict(GOOD, data=(keep.ctypes.data, False))
    for key, value in change.items():
        if value is None and key in ("version", "shape", "typestr", "data"):
            del iface[key]
        else:
            iface[key] = value
    with pytest.raises(error, match=match):
        dl.asarray(Interface(iface, keep=keep))


def test_interface_that_is_not_a_dict():
    with pytest.raises(TypeError, match="must be a dict"):
        dl.asarray(Interface([("version", 3)]))
