"""DLPack exchange with NumPy in both directions: every dtype NumPy has, every layout.

Zero-copy is proven twice: by data pointers (`x._data_ptr` against NumPy's) and by a write
through NumPy's side being visible on the other.
"""
import gc
import weakref

import numpy as np
import pytest

import dlarray as dl

NUMPY_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                "float32", "float64", "complex64", "complex128"]


def sample(dtype, shape=(3, 4)):
    n = int(np.prod(shape))
    x = (np.arange(n) % 7 - 3).astype(dtype) if dtype != "bool" else (np.arange(n) % 3 == 0)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * x[::-1]
    return x.reshape(shape)


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_numpy_to_dlarray_to_numpy_round_trip(dtype):
    x = sample(dtype)
    a = dl.from_dlpack(x)
    assert a.dtype == getattr(dl, dtype)
    assert a._data_ptr == x.ctypes.data
    y = np.from_dlpack(a)
    assert y.ctypes.data == x.ctypes.data
    assert same_bits(x, y)
    # A write through NumPy is seen by both: one buffer.
    x[0, 0] = x[1, 1]
    assert np.from_dlpack(a)[0, 0] == x[1, 1]


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_dlarray_to_numpy_of_our_own_allocation(dtype):
    a = dl.asarray(sample(dtype).tolist(), dtype=getattr(dl, dtype)) if dtype != "float16" else \
        dl.from_dlpack(sample(dtype).copy())
    y = np.from_dlpack(a)
    assert y.ctypes.data == a._data_ptr
    assert y.dtype == np.dtype(dtype)
    assert y.tolist() == a.tolist()


LAYOUTS = {
    "0-d": lambda x: x[1:2, 1:2].reshape(()),
    "zero-size": lambda x: x[:0],
    "zero-size inner": lambda x: x[:, :0],
    "non-contiguous": lambda x: x[:, ::2],
    "negative strides": lambda x: x[::-1, ::-2],
    "offset view": lambda x: x[1:, 1:],
    "transposed": lambda x: x.T,
    "fortran": lambda x: np.asfortranarray(x),
    "size-1 dims": lambda x: x[:, None, :1],
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_layouts_survive_both_directions(layout):
    base = np.arange(12.0).reshape(3, 4)
    x = LAYOUTS[layout](base)
    a = dl.from_dlpack(x)
    assert a.shape == x.shape
    if x.size:
        assert a._data_ptr == x.ctypes.data
        assert a._strides == tuple(s // x.itemsize for s in x.strides)
    assert a.tolist() == x.tolist()
    y = np.from_dlpack(a)
    assert y.shape == x.shape and y.tolist() == x.tolist()
    if x.size:
        assert y.ctypes.data == x.ctypes.data and y.strides == x.strides


def test_broadcast_zero_strides_import_read_only():
    x = np.broadcast_to(np.arange(3.0), (4, 3))  # NumPy marks broadcasts read-only
    a = dl.from_dlpack(x)
    assert a._strides == (0, 1) and a._readonly
    assert a.tolist() == x.tolist()


def test_read_only_numpy_becomes_read_only_and_stays_read_only_back():
    x = np.arange(5.0)
    x.flags.writeable = False
    a = dl.from_dlpack(x)
    assert a._readonly and a._data_ptr == x.ctypes.data
    y = np.from_dlpack(a)
    assert not y.flags.writeable
    assert y.ctypes.data == x.ctypes.data
    assert not np.asarray(a).flags.writeable  # __array__ goes through DLPack too


def test_writable_numpy_stays_writable_back():
    x = np.arange(5.0)
    a = dl.from_dlpack(x)
    assert not a._readonly
    assert np.from_dlpack(a).flags.writeable


@pytest.mark.parametrize("copy", [None, False, True])
def test_copy_semantics_dlarray_importing_numpy(copy):
    x = np.arange(4.0)
    a = dl.from_dlpack(x, copy=copy)
    assert (a._data_ptr != x.ctypes.data) == bool(copy)
    x[0] = 9.0
    assert a.tolist()[0] == (0.0 if copy else 9.0)


def test_numpys_copy_is_not_copied_again():
    # copy=True is passed to NumPy, which copies and sets IS_COPIED: dlarray adopts that copy
    # rather than making a second one (no allocation from dlarray's allocator).
    x = np.arange(4.0)
    before = dl._core._allocator_stats("cpu")["allocations"]
    a = dl.from_dlpack(x, copy=True)
    assert dl._core._allocator_stats("cpu")["allocations"] == before
    assert a._data_ptr != x.ctypes.data and a.tolist() == [0.0, 1.0, 2.0, 3.0]


@pytest.mark.parametrize("copy", [None, False, True])
def test_copy_semantics_numpy_importing_dlarray(copy):
    a = dl.from_dlpack(np.arange(4.0))
    y = np.from_dlpack(a, copy=copy)
    assert (y.ctypes.data != a._data_ptr) == bool(copy)
    assert y.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_numpy_passes_dl_device_cpu():
    a = dl.arange(3)
    y = np.from_dlpack(a, device="cpu")
    assert y.ctypes.data == a._data_ptr


def test_numpy_copy_false_on_read_only_versioned_export_shares_memory():
    x = np.arange(3.0)
    x.flags.writeable = False
    y = np.from_dlpack(dl.from_dlpack(x), copy=False)
    assert y.ctypes.data == x.ctypes.data and not y.flags.writeable


class LegacyView:
    """Presents our legacy capsule (max_version=None) to NumPy, as an old producer would."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, stream=None):
        return self.a.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def test_numpy_consumes_our_legacy_capsule():
    a = dl.arange(4)
    y = np.from_dlpack(LegacyView(a))
    assert y.ctypes.data == a._data_ptr and y.tolist() == [0, 1, 2, 3]


def test_numpy_consumes_our_legacy_capsule_of_read_only_array_as_a_copy():
    x = np.arange(4.0)
    x.flags.writeable = False
    a = dl.from_dlpack(x)
    y = np.from_dlpack(LegacyView(a))
    # The legacy struct cannot carry READ_ONLY, so dlarray handed over a private copy.
    assert y.ctypes.data != x.ctypes.data and y.tolist() == x.tolist()


def test_numpy_legacy_capsule_is_imported_by_dlarray():
    class NumpyLegacy:
        def __init__(self, x):
            self.x = x

        def __dlpack__(self, stream=None):
            return self.x.__dlpack__(stream=stream)

    x = np.arange(3.0)
    a = dl.from_dlpack(NumpyLegacy(x))
    assert a._data_ptr == x.ctypes.data


def test_byte_swapped_numpy_array_is_a_buffer_error():
    x = np.arange(3, dtype=">i4")
    with pytest.raises(BufferError):
        dl.from_dlpack(x)


def test_numpy_object_arrays_are_refused():
    with pytest.raises(BufferError):
        dl.from_dlpack(np.array([1, "a"], dtype=object))


# bfloat16 and float8 are NumPy dtypes through ml_dtypes (JAX's dtypes); NumPy exports them through
# neither DLPack nor the buffer protocol, so they travel as bytes.
@pytest.mark.parametrize("name", ["bfloat16", "float8_e4m3fn", "float8_e5m2"])
def test_ml_dtypes_arrays_both_ways(name):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    theirs = np.array([[0.5, -448.0, 3.0], [-0.0, 1.5, 0.25]], dtype=getattr(ml_dtypes, name))
    ours = dl.asarray(theirs, copy=False)  # zero-copy: NumPy's memory, our dtype of the same name
    assert ours.dtype == getattr(dl, name) and ours.shape == (2, 3)
    assert ours._data_ptr == theirs.ctypes.data
    view = dl.asarray(theirs.T[::-1])  # strides and offset survive the relabelling
    back = np.asarray(view)
    assert back.dtype == theirs.dtype and back.flags.writeable
    assert back.view(np.uint8 if theirs.itemsize == 1 else np.uint16).tolist() == \
        theirs.T[::-1].view(np.uint8 if theirs.itemsize == 1 else np.uint16).tolist()  # the same bits
    copied = dl.asarray(theirs, copy=True)
    theirs[0, 0] = 1.0
    assert float(np.asarray(copied)[0, 0]) == 0.5 and float(np.asarray(ours)[0, 0]) == 1.0
    with pytest.raises(ValueError, match="copy=False"):
        np.asarray(ours, copy=False)


def test_dtypes_numpy_cannot_carry_are_type_errors_that_say_so():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    with pytest.raises(TypeError, match="int4 .*neither DLPack nor the buffer protocol"):
        dl.asarray(np.array([1, 2], dtype=ml_dtypes.int4))
    with pytest.raises(TypeError, match="float4_e2m1fn is packed here"):
        np.asarray(dl.empty(3, dtype=dl.float4_e2m1fn))
    np.testing.assert_array_equal(np.asarray(dl.asarray([1.5, -2.0]).astype(dl.bfloat16)).astype(np.float32),
                                  [1.5, -2.0])


# from_dlpack(x) with no keywords takes a shorter path (one __dlpack__(max_version=...) call,
# no stream, device or copy handling): it must give what the general path gives.
@pytest.mark.parametrize("make", [
    lambda: np.array(3.5, dtype=np.float32),  # 0-d
    lambda: np.zeros((0, 3), dtype=np.int16),  # no elements
    lambda: np.arange(24.0).reshape(2, 3, 4)[:, ::-1, ::2],  # negative and non-unit strides
    lambda: np.arange(2 * 3 ** 7, dtype=np.int8).reshape((2,) + (3,) * 7),  # rank 8
    lambda: np.broadcast_to(np.arange(3, dtype=np.uint32), (2, 3)),  # zero strides, read-only
])
def test_plain_from_dlpack_of_numpy_matches_the_keyword_path(make):
    x = make()
    plain = dl.from_dlpack(x)
    general = dl.from_dlpack(x, copy=None, device=None)
    for a in (plain, general):
        assert a.shape == x.shape and a._readonly == (not x.flags.writeable)
        assert a._strides == tuple(s // x.itemsize for s in x.strides)
        if x.size:
            assert a._data_ptr == x.__array_interface__["data"][0]
        assert np.array_equal(np.from_dlpack(a), x)


def test_plain_from_dlpack_keeps_numpy_memory_alive_and_releases_it():
    x = np.arange(6.0)
    ref = weakref.ref(x)
    a = dl.from_dlpack(x)
    del x
    gc.collect()
    assert ref() is not None  # NumPy's deleter holds the array until ours is gone
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    b = a[1:]  # a view shares the storage
    del a
    gc.collect()
    assert ref() is not None and b.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0]
    del b
    gc.collect()
    assert ref() is None
