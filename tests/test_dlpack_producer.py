"""Array.__dlpack__ and Array.__dlpack_device__: what dlarray exports, checked at the C level.

Design decisions tested here (array API 2023.12+, DLPack 1.3):
- stream must be None on CPU; any other value raises ValueError;
- copy=False when a copy is needed raises dlarray.CopyError, a BufferError and a ValueError;
- a read-only array exported as a legacy capsule (max_version=None, no flags field) is copied
  when copy=None and refused with CopyError when copy=False;
- strided views of packed sub-byte data cannot be described: BufferError.
"""
import ctypes
import inspect

import numpy as np
import pytest

import dlarray as dl
from helpers import dlpack_ctypes as H


def exported(cap):
    """The DLManagedTensor(Versioned) inside an unconsumed capsule of ours. The struct view
    keeps the capsule alive: its memory is released with the capsule."""
    name = H.capsule_name(cap)
    cls = H.DLManagedTensorVersioned if name == "dltensor_versioned" else H.DLManagedTensor
    mt = cls.from_address(H.capsule_pointer(cap, name))
    mt._capsule = cap
    return mt


def fields(t):
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = tuple(t.strides[i] for i in range(t.ndim))
    return shape, strides


def readonly_array():
    x = np.arange(6.0)
    x.flags.writeable = False
    a = dl.from_dlpack(x)
    assert a._readonly
    return a


def test_dlpack_device_is_cpu_pair_of_ints():
    dev = dl.zeros(3).__dlpack_device__()
    assert dev == (1, 0)
    assert all(type(v) is int for v in dev)


def test_signature_is_keyword_only():
    sig = inspect.signature(dl.Array.__dlpack__)
    params = list(sig.parameters.values())[1:]
    assert [p.name for p in params] == ["stream", "max_version", "dl_device", "copy"]
    assert all(p.kind is p.KEYWORD_ONLY and p.default is None for p in params)
    with pytest.raises(TypeError):
        dl.zeros(2).__dlpack__(None)
    with pytest.raises(TypeError, match="unexpected keyword"):
        dl.zeros(2).__dlpack__(streams=None)


@pytest.mark.parametrize(
    "max_version, name",
    [(None, "dltensor"), ((0, 8), "dltensor"), ((1, 0), "dltensor_versioned"), ((1, 3), "dltensor_versioned"),
     ((1, 7), "dltensor_versioned"), ((2, 0), "dltensor_versioned")],
)
def test_capsule_kind_follows_max_version(max_version, name):
    cap = dl.zeros(3).__dlpack__(max_version=max_version)
    assert H.capsule_name(cap) == name
    if name == "dltensor_versioned":
        mt = exported(cap)
        # The producer's own version goes in the struct, whatever the consumer allows.
        assert (mt.version.major, mt.version.minor) == (1, 3)


def test_versioned_export_describes_the_array_exactly():
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)[:, ::2, 1:]
    a = dl.from_dlpack(x)
    cap = a.__dlpack__(max_version=(1, 3))
    mt = exported(cap)
    t = mt.dl_tensor
    assert mt.flags == 0
    assert t.data == a._data_ptr and t.byte_offset == 0
    assert (t.device.device_type, t.device.device_id) == (1, 0)
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (0, 32, 1)
    assert fields(t) == ((2, 2, 3), tuple(s // 4 for s in x.strides))


def test_strides_of_size_one_dimensions_are_not_rewritten():
    # Pitfall 7: a consumer's contiguity check must see the strides the array really has.
    x = np.zeros((4, 1, 6))[:, :, ::2]
    a = dl.from_dlpack(x)
    mt = exported(a.__dlpack__(max_version=(1, 0)))
    assert fields(mt.dl_tensor)[1] == tuple(s // 8 for s in x.strides)


def test_zero_dimensional_and_zero_size_exports():
    mt = exported(dl.asarray(5.0).__dlpack__(max_version=(1, 0)))
    assert mt.dl_tensor.ndim == 0
    mt = exported(dl.zeros((0, 3)).__dlpack__(max_version=(1, 0)))
    assert fields(mt.dl_tensor)[0] == (0, 3)


@pytest.mark.parametrize("stream", [-1, 0, 1, 2, 3, 2**40, "default", 1.0])
def test_stream_other_than_none_is_refused_on_cpu(stream):
    a = dl.zeros(3)
    with pytest.raises(ValueError, match="stream must be None"):
        a.__dlpack__(stream=stream)
    with pytest.raises(ValueError, match="stream must be None"):
        a.__dlpack__(stream=stream, max_version=(1, 0), dl_device=(1, 0))


def test_copy_none_and_false_share_memory():
    a = dl.arange(5)
    for copy in (None, False):
        mt = exported(a.__dlpack__(max_version=(1, 0), copy=copy))
        assert mt.dl_tensor.data == a._data_ptr
        assert mt.flags & H.IS_COPIED == 0


def test_copy_true_copies_and_sets_is_copied():
    a = dl.arange(5)
    cap = a.__dlpack__(max_version=(1, 0), copy=True)
    mt = exported(cap)
    assert mt.dl_tensor.data != a._data_ptr
    assert mt.flags & H.IS_COPIED
    assert np.from_dlpack(_CapsuleHolder(cap)).tolist() == [0, 1, 2, 3, 4]


def test_copy_must_be_a_bool_or_none():
    with pytest.raises(TypeError, match="copy must be True, False or None"):
        dl.zeros(2).__dlpack__(copy=1)


def test_dl_device_cpu_is_served_without_copy():
    a = dl.arange(4)
    mt = exported(a.__dlpack__(max_version=(1, 0), dl_device=(1, 0)))
    assert mt.dl_tensor.data == a._data_ptr and mt.flags == 0
    mt = exported(a.__dlpack__(max_version=(1, 0), dl_device=(1, 0), copy=True))
    assert mt.dl_tensor.data != a._data_ptr and mt.flags & H.IS_COPIED


@pytest.mark.parametrize("dl_device", [(2, 0), (10, 0), (4, 0), (99, 0), (1, 1), (1, -1), (1, 2**40), (2**40, 0)])
def test_dl_device_the_build_cannot_serve_is_a_buffer_error(dl_device):
    visible = {str(d).split(":")[0] for d in dl._core._visible_devices()}
    if (dl_device[0] == 2 and "cuda" in visible) or (dl_device[0] == 10 and "rocm" in visible):
        pytest.skip("a GPU of that kind is visible")
    with pytest.raises(BufferError):
        dl.zeros(2).__dlpack__(max_version=(1, 0), dl_device=dl_device)


@pytest.mark.parametrize("bad", ["cpu", (1,), (1, 0, 0), ("1", 0), 1])
def test_malformed_dl_device_and_max_version_are_type_errors(bad):
    with pytest.raises(TypeError, match="dl_device"):
        dl.zeros(2).__dlpack__(dl_device=bad)
    with pytest.raises(TypeError, match="max_version"):
        dl.zeros(2).__dlpack__(max_version=bad)


def test_read_only_array_exports_read_only_flag():
    a = readonly_array()
    mt = exported(a.__dlpack__(max_version=(1, 0)))
    assert mt.flags & H.READ_ONLY
    assert mt.dl_tensor.data == a._data_ptr


def test_read_only_array_legacy_export_copies_when_allowed():
    a = readonly_array()
    cap = a.__dlpack__()  # legacy: the struct cannot say "read-only"
    assert H.capsule_name(cap) == "dltensor"
    mt = exported(cap)
    assert mt.dl_tensor.data != a._data_ptr
    values = (ctypes.c_double * 6).from_address(mt.dl_tensor.data)
    assert list(values) == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_read_only_array_legacy_export_with_copy_false_is_a_copy_error():
    a = readonly_array()
    with pytest.raises(dl.CopyError, match="read-only") as info:
        a.__dlpack__(copy=False)
    assert isinstance(info.value, BufferError) and isinstance(info.value, ValueError)


def test_copy_error_is_buffer_and_value_error():
    assert issubclass(dl.CopyError, BufferError) and issubclass(dl.CopyError, ValueError)


def test_packed_sub_byte_export_and_strided_view_refusal():
    f = dl.empty((2, 4), dtype=dl.float4_e2m1fn)
    mt = exported(f.__dlpack__(max_version=(1, 1)))
    t = mt.dl_tensor
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (17, 4, 1)
    assert mt.flags & H.IS_SUBBYTE_TYPE_PADDED == 0  # dlarray always sends packed data
    with pytest.raises(BufferError, match="packed float4_e2m1fn"):
        f.T.__dlpack__(max_version=(1, 1))


@pytest.mark.parametrize("name", ["float16", "bfloat16", "float8_e4m3fn", "float8_e8m0fnu", "float6_e3m2fn"])
def test_storage_dtypes_export_their_dlpack_type(name):
    dt = getattr(dl, name)
    mt = exported(dl.empty(4, dtype=dt).__dlpack__(max_version=(1, 1)))
    t = mt.dl_tensor
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == dt.dlpack


def test_each_export_is_counted():
    before = dl._core._dlpack_counters()["dlpack_exports"]
    a = dl.zeros(2)
    a.__dlpack__()
    a.__dlpack__(max_version=(1, 0))
    assert dl._core._dlpack_counters()["dlpack_exports"] == before + 2


class _CapsuleHolder:
    """Hands a prepared capsule to a consumer (NumPy) as if it came from __dlpack__."""

    def __init__(self, cap):
        self.cap = cap

    def __dlpack__(self, **kwargs):
        return self.cap

    def __dlpack_device__(self):
        return (1, 0)
