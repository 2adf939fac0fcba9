"""asarray on objects from other libraries: DLPack producers first, then the buffer protocol.

asarray shares memory whenever dtype and device allow (copy=None), always copies with
copy=True, and with copy=False raises dlarray.CopyError (a ValueError, as the standard
says) when a copy cannot be avoided. copy=False is passed on to DLPack producers.
"""
import array

import numpy as np
import pytest

import dlarray as dl
from helpers import dlpack_ctypes as H


def test_numpy_array_is_shared():
    x = np.arange(6.0).reshape(2, 3)
    a = dl.asarray(x)
    assert a._data_ptr == x.ctypes.data and a.dtype == dl.float64
    x[1, 2] = -1.0
    assert a.tolist()[1][2] == -1.0


def test_read_only_numpy_array_is_shared_read_only():
    x = np.arange(3)
    x.flags.writeable = False
    a = dl.asarray(x)
    assert a._readonly and a._data_ptr == x.ctypes.data


@pytest.mark.parametrize("copy", [None, False])
def test_no_copy_when_not_needed(copy):
    x = np.arange(4, dtype=np.int32)
    assert dl.asarray(x, copy=copy)._data_ptr == x.ctypes.data


def test_copy_true_copies_once():
    x = np.arange(4, dtype=np.int32)
    a = dl.asarray(x, copy=True)
    assert a._data_ptr != x.ctypes.data
    x[0] = 100
    assert a.tolist() == [0, 1, 2, 3]


def test_dtype_conversion_copies_and_casts():
    x = np.arange(4, dtype=np.int32)
    a = dl.asarray(x, dtype=dl.float64)
    assert a.dtype == dl.float64 and a.tolist() == [0.0, 1.0, 2.0, 3.0]
    a = dl.asarray(x, dtype=dl.float64, copy=True)
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert dl.asarray(x, dtype=dl.int32)._data_ptr == x.ctypes.data  # same dtype: shared


def test_copy_false_with_dtype_conversion_is_a_copy_error():
    with pytest.raises(dl.CopyError, match="copy=False") as info:
        dl.asarray(np.arange(3, dtype=np.int32), dtype=dl.float32, copy=False)
    assert isinstance(info.value, ValueError)


def test_device_cpu_keeps_sharing():
    x = np.arange(3.0)
    assert dl.asarray(x, device="cpu")._data_ptr == x.ctypes.data


def test_copy_false_is_passed_to_the_producer():
    log = H.DeleterLog()
    b = np.arange(3.0)
    p = H.Producer(lambda: H.capsule_of(H.make_tensor(log, backing=b, shape=(3,))))
    a = dl.asarray(p, copy=False)
    assert p.calls[-1]["copy"] is False and a._data_ptr == b.ctypes.data
    dl.asarray(p, copy=True)
    assert p.calls[-1]["copy"] is True
    dl.asarray(p, dtype=dl.float32, copy=True)  # the cast copies: no need to ask the producer
    assert p.calls[-1]["copy"] is None


def test_torch_tensor_is_shared():
    torch = pytest.importorskip("torch")
    t = torch.arange(5, dtype=torch.int16)
    a = dl.asarray(t)
    assert a._data_ptr == t.data_ptr() and a.dtype == dl.int16
    assert dl.asarray(t, copy=True)._data_ptr != t.data_ptr()


def test_our_own_array_is_returned_unless_copied():
    a = dl.arange(3)
    assert dl.asarray(a) is a
    assert dl.asarray(a, copy=False) is a
    b = dl.asarray(a, copy=True)
    assert b is not a and b._data_ptr != a._data_ptr and b.tolist() == [0, 1, 2]


@pytest.mark.parametrize(
    "obj, dtype, values",
    [(bytearray(b"\x01\x02\x03"), dl.uint8, [1, 2, 3]),
     (array.array("d", [1.5, 2.5]), dl.float64, [1.5, 2.5]),
     (array.array("i", [7, -7]), dl.int32, [7, -7]),
     (memoryview(np.arange(4, dtype=np.int16)), dl.int16, [0, 1, 2, 3])],
)
def test_buffer_protocol_objects_are_shared(obj, dtype, values):
    a = dl.asarray(obj)
    assert a.dtype == dtype and a.tolist() == values
    assert a._data_ptr == np.frombuffer(obj, dtype=np.uint8).ctypes.data  # zero-copy
    assert not a._readonly


def test_buffer_protocol_write_is_visible():
    buf = bytearray(4)
    a = dl.asarray(buf)
    buf[2] = 9
    assert a.tolist() == [0, 0, 9, 0]


def test_read_only_buffer_gives_read_only_array():
    a = dl.asarray(b"\x05\x06")
    assert a._readonly and a.tolist() == [5, 6]


def test_byte_swapped_numpy_array_is_refused_clearly():
    # NumPy's __dlpack__ refuses non-native byte order; the buffer protocol says big-endian.
    with pytest.raises(BufferError, match="big-endian"):
        dl.asarray(np.arange(3, dtype=">f8"))


def test_strings_are_refused():
    with pytest.raises(TypeError, match="strings"):
        dl.asarray("123")


# ---- NumPy scalars: values with a dtype -------------------------------------------------

@pytest.mark.parametrize("value", [np.float32(1.5), np.int8(-3), np.uint64(2**64 - 1), np.complex64(1 - 2j),
                                   np.bool_(True), np.float16(0.25)])
def test_numpy_scalar_becomes_a_fresh_writable_array_of_its_dtype(value):
    x = dl.asarray(value)
    ref = np.asarray(value)
    assert x.shape == () and str(x.dtype) == str(ref.dtype)
    assert x.tolist() == ref.tolist()
    x[()] = x  # writable: NumPy's np.asarray(np.float32(1.5)) is writable too


def test_numpy_scalar_with_copy_false_is_refused():
    with pytest.raises(ValueError, match="copy=False"):
        dl.asarray(np.float32(1.5), copy=False)


@pytest.mark.parametrize("seq", [
    [np.int32(1)], [np.int32(1), 2], [np.int32(1), np.int16(2)], [np.float32(1), 2.0],
    [np.int32(1), 2.5], [[np.complex64(1j)], [np.complex64(2)]], [np.uint8(1), np.int8(-1)],
    [np.float32(1), np.float64(2)], [np.uint64(2**64 - 1)],
])
def test_sequences_of_numpy_scalars_take_numpy_dtypes(seq):
    x = dl.asarray(seq)
    ref = np.asarray(seq)
    assert str(x.dtype) == str(ref.dtype)
    assert x.tolist() == ref.tolist()


def test_list_and_tuple_subclasses_keep_their_protocols():
    # Plain lists and tuples go straight to the sequence reader; a subclass may carry DLPack of
    # its own, which is still asked first.
    backing = np.arange(4.0)

    class ListWithDLPack(list):
        def __dlpack__(self, **kw):
            return backing.__dlpack__(**kw)

        def __dlpack_device__(self):
            return backing.__dlpack_device__()

    class TupleWithDLPack(tuple):
        __dlpack__ = ListWithDLPack.__dlpack__
        __dlpack_device__ = ListWithDLPack.__dlpack_device__

    via_list = dl.asarray(ListWithDLPack([9.0]))
    via_tuple = dl.asarray(TupleWithDLPack((9.0,)))
    assert via_list.tolist() == via_tuple.tolist() == [0.0, 1.0, 2.0, 3.0]
    backing[0] = 5.0  # both share the memory (zero-copy), unlike a read of the elements
    assert via_list[0] == 5.0 and via_tuple[0] == 5.0
    assert dl.asarray([9.0, 8.0]).tolist() == [9.0, 8.0] and dl.asarray((1, 2)).tolist() == [1, 2]
