"""The C exchange table (DLPack 1.2/1.3), both sides.

Producer: dlarray.Array publishes its DLPackExchangeAPI as `__c_dlpack_exchange_api__` (an
int, DLPack 1.2) and `__dlpack_c_exchange_api__` (a capsule named "dlpack_exchange_api",
1.3). Each of its five functions is called here from C level (ctypes over the table's
address), success and error paths. Consumer: from_dlpack prefers a peer type's table over
__dlpack__, shown with a hand-made table whose functions count their calls, with PyTorch's
own table, and with tvm-ffi consuming ours.
"""
import ctypes
import gc

import numpy as np
import pytest

import dlarray as dl
from helpers import dlpack_ctypes as H

counters = dl._core._dlpack_counters
stats = dl._core._allocator_stats


@pytest.fixture(scope="module")
def api():
    return H.exchange_api_of(dl.Array)


class SetErrorLog:
    def __init__(self):
        self.calls = []
        self.fn = H.SetErrorFn(lambda ctx, kind, msg: self.calls.append((ctx, kind.decode(), msg.decode())))


def prototype(shape, code=2, bits=32, device=(1, 0), ndim=None, null_shape=False):
    arr = (ctypes.c_int64 * max(len(shape), 1))(*shape)
    t = H.DLTensor()
    t.ndim = len(shape) if ndim is None else ndim
    t.shape = ctypes.POINTER(ctypes.c_int64)() if null_shape else ctypes.cast(arr, ctypes.POINTER(ctypes.c_int64))
    t.dtype = H.DLDataType(code, bits, 1)
    t.device = H.DLDevice(*device)
    t._keep = arr
    return t


# ---- publication ---------------------------------------------------------------------------

def test_table_is_published_under_both_names(api):
    cap = dl.Array.__dlpack_c_exchange_api__
    assert H.capsule_name(cap) == "dlpack_exchange_api"
    address = H.capsule_pointer(cap, "dlpack_exchange_api")
    assert dl.Array.__c_dlpack_exchange_api__ == address
    assert ctypes.addressof(api) == address
    # Found on the type: instances see it too, and it is the same table for every array.
    assert dl.zeros(1).__dlpack_c_exchange_api__ is cap


def test_table_header_and_function_pointers(api):
    assert (api.header.version.major, api.header.version.minor) == (1, 3)
    assert not api.header.prev_api
    for f in ("managed_tensor_allocator", "managed_tensor_from_py_object_no_sync",
              "managed_tensor_to_py_object_no_sync", "dltensor_from_py_object_no_sync", "current_work_stream"):
        assert getattr(api, f), f


# ---- managed_tensor_allocator -------------------------------------------------------------

def test_allocator_creates_a_compact_tensor_from_our_allocator(api):
    alloc = H.call_table(api, "managed_tensor_allocator", H.AllocatorFn)
    errors = SetErrorLog()
    out = ctypes.POINTER(H.DLManagedTensorVersioned)()
    before = stats("cpu")
    proto = prototype((3, 5), code=2, bits=32)
    assert alloc(ctypes.byref(proto), ctypes.byref(out), None, errors.fn) == 0
    assert errors.calls == []
    shape, strides, data, offset, flags = H.tensor_view_of(out)
    assert (shape, strides, offset, flags) == ((3, 5), (5, 1), 0, 0)
    assert data and data % 64 == 0
    mt = out.contents
    assert (mt.version.major, mt.dl_tensor.dtype.code, mt.dl_tensor.dtype.bits) == (1, 2, 32)
    after = stats("cpu")
    assert after["allocations"] == before["allocations"] + 1
    assert after["bytes_in_use"] >= before["bytes_in_use"] + 60
    ctypes.memset(data, 0x7F, 60)  # the memory is ours to write
    mt.deleter(out)
    final = stats("cpu")
    assert final["frees"] == before["frees"] + 1 and final["bytes_in_use"] == before["bytes_in_use"]


@pytest.mark.parametrize(
    "proto, kind",
    [(dict(shape=(2,), ndim=-1), "ValueError"), (dict(shape=(1,) * 65), "ValueError"),
     (dict(shape=(2, -3)), "ValueError"), (dict(shape=(2, 2), null_shape=True), "ValueError"),
     (dict(shape=(2,), device=(99, 0)), "BufferError"), (dict(shape=(2,), code=99), "BufferError"),
     (dict(shape=(2,), code=2, bits=0), "BufferError"), (dict(shape=(2,), device=(2, 0)), "ValueError")],
)
def test_allocator_reports_errors_through_set_error_once(api, proto, kind):
    if proto.get("device") == (2, 0) and any(str(d).startswith("cuda") for d in dl._core._visible_devices()):
        pytest.skip("a CUDA device is visible")
    alloc = H.call_table(api, "managed_tensor_allocator", H.AllocatorFn)
    errors = SetErrorLog()
    out = ctypes.POINTER(H.DLManagedTensorVersioned)()
    before = stats("cpu")
    p = prototype(**proto)
    assert alloc(ctypes.byref(p), ctypes.byref(out), 1234, errors.fn) == -1
    assert not out
    assert len(errors.calls) == 1
    ctx, got_kind, message = errors.calls[0]
    assert ctx == 1234 and got_kind == kind and message
    assert stats("cpu")["bytes_in_use"] == before["bytes_in_use"]


def test_allocator_table_call_is_counted(api):
    alloc = H.call_table(api, "managed_tensor_allocator", H.AllocatorFn)
    before = counters()["table_allocator"]
    out = ctypes.POINTER(H.DLManagedTensorVersioned)()
    alloc(ctypes.byref(prototype((2,))), ctypes.byref(out), None, SetErrorLog().fn)
    out.contents.deleter(out)
    assert counters()["table_allocator"] == before + 1


# ---- managed_tensor_from_py_object_no_sync -----------------------------------------------

def test_managed_from_py_object_views_the_array(api):
    fn = H.call_table(api, "managed_tensor_from_py_object_no_sync", H.ManagedFromPyFn)
    x = np.arange(24, dtype=np.float32).reshape(4, 6)[1:, ::2]
    a = dl.from_dlpack(x)
    refs = a._storage_refs
    out = ctypes.POINTER(H.DLManagedTensorVersioned)()
    before = counters()["table_managed_from_py"]
    assert fn(a, ctypes.byref(out)) == 0
    assert counters()["table_managed_from_py"] == before + 1
    shape, strides, data, offset, flags = H.tensor_view_of(out)
    assert (shape, strides, data, offset, flags) == ((3, 3), (6, 2), a._data_ptr, 0, 0)
    assert a._storage_refs == refs + 1  # the tensor owns a reference until its deleter runs
    out.contents.deleter(out)
    assert a._storage_refs == refs


def test_managed_from_py_object_keeps_memory_until_deleter(api):
    fn = H.call_table(api, "managed_tensor_from_py_object_no_sync", H.ManagedFromPyFn)
    gc.collect()  # arrays left in cycles by earlier tests must not be freed between the two counts
    base = stats("cpu")
    a = dl.arange(1000)
    out = ctypes.POINTER(H.DLManagedTensorVersioned)()
    fn(a, ctypes.byref(out))
    del a
    gc.collect()
    assert stats("cpu")["bytes_in_use"] == base["bytes_in_use"] + 8000
    assert list((ctypes.c_int64 * 3).from_address(out.contents.dl_tensor.data)) == [0, 1, 2]
    out.contents.deleter(out)
    assert stats("cpu")["bytes_in_use"] == base["bytes_in_use"]


def test_managed_from_py_object_flags_read_only(api):
    fn = H.call_table(api, "managed_tensor_from_py_object_no_sync", H.ManagedFromPyFn)
    x = np.arange(3.0)
    x.flags.writeable = False
    out = ctypes.POINTER(H.DLManagedTensorVersioned)()
    fn(dl.from_dlpack(x), ctypes.byref(out))
    assert out.contents.flags == H.READ_ONLY
    out.contents.deleter(out)


@pytest.mark.parametrize("obj", [np.zeros(2), None, 3, "x"])
def test_managed_from_py_object_of_another_type_is_a_type_error(api, obj):
    fn = H.call_table(api, "managed_tensor_from_py_object_no_sync", H.ManagedFromPyFn)
    out = ctypes.POINTER(H.DLManagedTensorVersioned)()
    with pytest.raises(TypeError, match="not a dlarray.Array"):
        fn(obj, ctypes.byref(out))
    assert not out


def test_managed_from_py_object_refuses_strided_sub_byte_view(api):
    fn = H.call_table(api, "managed_tensor_from_py_object_no_sync", H.ManagedFromPyFn)
    out = ctypes.POINTER(H.DLManagedTensorVersioned)()
    with pytest.raises(BufferError, match="packed"):
        fn(dl.empty((2, 4), dtype=dl.float4_e2m1fn).T, ctypes.byref(out))


# ---- managed_tensor_to_py_object_no_sync --------------------------------------------------

def test_managed_to_py_object_wraps_and_owns_the_tensor(api):
    fn = H.call_table(api, "managed_tensor_to_py_object_no_sync", H.ManagedToPyFn)
    log = H.DeleterLog()
    b = np.arange(6.0).reshape(2, 3)
    mt = H.make_tensor(log, backing=b, shape=(2, 3))
    out = ctypes.c_void_p()
    before = counters()["table_managed_to_py"]
    assert fn(ctypes.pointer(mt), ctypes.byref(out)) == 0
    assert counters()["table_managed_to_py"] == before + 1
    a = H.steal_object(out.value)
    assert type(a) is dl.Array
    assert a.tolist() == b.tolist() and a._data_ptr == b.ctypes.data
    assert log.calls == 0
    del a
    assert log.calls == 1


def test_managed_to_py_object_of_bad_tensor_raises_and_releases_once(api):
    fn = H.call_table(api, "managed_tensor_to_py_object_no_sync", H.ManagedToPyFn)
    log = H.DeleterLog()
    mt = H.make_tensor(log, backing=np.zeros(2), shape=(2,), version=(2, 0))
    out = ctypes.c_void_p()
    with pytest.raises(BufferError, match="major version 2"):
        fn(ctypes.pointer(mt), ctypes.byref(out))
    assert not out.value and log.calls == 1


def test_table_round_trip_through_both_managed_functions(api):
    to_c = H.call_table(api, "managed_tensor_from_py_object_no_sync", H.ManagedFromPyFn)
    to_py = H.call_table(api, "managed_tensor_to_py_object_no_sync", H.ManagedToPyFn)
    a = dl.arange(4)
    out = ctypes.POINTER(H.DLManagedTensorVersioned)()
    to_c(a, ctypes.byref(out))
    obj = ctypes.c_void_p()
    to_py(out, ctypes.byref(obj))
    b = H.steal_object(obj.value)
    assert b is not a and b._data_ptr == a._data_ptr and b.tolist() == [0, 1, 2, 3]


# ---- dltensor_from_py_object_no_sync ------------------------------------------------------

def test_dltensor_from_py_object_is_borrowed_with_no_allocation(api):
    fn = H.call_table(api, "dltensor_from_py_object_no_sync", H.DLTensorFromPyFn)
    x = np.arange(12, dtype=np.int16).reshape(3, 4)[::-1, 1:]
    a = dl.from_dlpack(x)
    refs = a._storage_refs
    before = stats("cpu")
    t = H.DLTensor()
    assert fn(a, ctypes.byref(t)) == 0
    assert stats("cpu") == before
    assert a._storage_refs == refs  # borrowed: no reference taken
    assert t.data == a._data_ptr and t.byte_offset == 0 and t.ndim == 2
    assert (t.dtype.code, t.dtype.bits) == (0, 16)
    assert [t.shape[i] for i in range(2)] == [3, 3]
    assert [t.strides[i] for i in range(2)] == [-4, 1]
    assert ctypes.c_int16.from_address(t.data).value == x[0, 0]


def test_dltensor_from_py_object_of_another_type_is_a_type_error(api):
    fn = H.call_table(api, "dltensor_from_py_object_no_sync", H.DLTensorFromPyFn)
    with pytest.raises(TypeError, match="not a dlarray.Array"):
        fn([1, 2], ctypes.byref(H.DLTensor()))


# ---- current_work_stream -----------------------------------------------------------------

def test_current_work_stream_is_null_on_cpu(api):
    fn = H.call_table(api, "current_work_stream", H.StreamFn)
    stream = ctypes.c_void_p(0xDEAD)
    assert fn(H.kDLCPU, 0, ctypes.byref(stream)) == 0
    assert stream.value is None


def test_current_work_stream_of_unknown_device_is_an_error(api):
    fn = H.call_table(api, "current_work_stream", H.StreamFn)
    with pytest.raises(BufferError):
        fn(99, 0, ctypes.byref(ctypes.c_void_p()))


# ---- consumer side: peers' tables ---------------------------------------------------------

class TableProducer:
    """A hand-made peer type: its table's functions are Python callbacks that count calls."""

    def __init__(self, backing, log):
        self.backing = backing
        self.log = log
        self.dlpack_calls = 0

    def __dlpack__(self, **kwargs):
        self.dlpack_calls += 1
        return H.capsule_of(H.make_tensor(self.log, backing=self.backing, shape=self.backing.shape))

    def __dlpack_device__(self):
        return (1, 0)


def make_table_type(major=1, prev=None, fail=False):
    """A new TableProducer subclass publishing a table (header major `major`, prev_api `prev`)."""
    calls = {"managed_from": 0, "stream": 0}

    def managed_from(obj_ptr, out):
        calls["managed_from"] += 1
        obj = ctypes.cast(obj_ptr, ctypes.py_object).value
        if fail:
            return -1
        mt = H.make_tensor(obj.log, backing=obj.backing, shape=obj.backing.shape)
        out[0] = ctypes.pointer(mt)
        return 0

    def stream(dev_type, dev_id, out):
        calls["stream"] += 1
        out[0] = None
        return 0

    cbs = [H.ManagedFromPyCb(managed_from), H.StreamCb(stream), H.ManagedToPyCb(lambda t, o: -1),
           H.AllocatorCb(lambda *a: -1)]
    table = H.DLPackExchangeAPI()
    table.header.version = H.DLPackVersion(major, 0)
    if prev is not None:
        table.header.prev_api = ctypes.cast(ctypes.pointer(prev), ctypes.POINTER(H.DLPackExchangeAPIHeader))
    table.managed_tensor_from_py_object_no_sync = ctypes.cast(cbs[0], ctypes.c_void_p)
    table.current_work_stream = ctypes.cast(cbs[1], ctypes.c_void_p)
    table.managed_tensor_to_py_object_no_sync = ctypes.cast(cbs[2], ctypes.c_void_p)
    table.managed_tensor_allocator = ctypes.cast(cbs[3], ctypes.c_void_p)
    cls = type("Peer", (TableProducer,), {
        "__dlpack_c_exchange_api__": H._api.PyCapsule_New(ctypes.addressof(table), H.API_NAME, None),
        "_keep": (table, cbs, prev),
    })
    return cls, calls, table


def test_from_dlpack_prefers_a_peer_table_over_dunder_dlpack():
    log = H.DeleterLog()
    cls, calls, _ = make_table_type()
    b = np.arange(5.0)
    x = cls(b, log)
    before = counters()
    a = dl.from_dlpack(x)
    assert calls["managed_from"] == 1 and x.dlpack_calls == 0
    assert counters()["imports_via_peer_table"] == before["imports_via_peer_table"] + 1
    assert counters()["imports_via_protocol"] == before["imports_via_protocol"]
    assert a._data_ptr == b.ctypes.data and a.tolist() == b.tolist()
    dl.asarray(x)  # asarray imports the same way
    assert calls["managed_from"] == 2 and x.dlpack_calls == 0
    del a
    gc.collect()
    assert log.calls == 2


def test_protocol_switch_skips_the_peer_table():
    log = H.DeleterLog()
    cls, calls, _ = make_table_type()
    x = cls(np.arange(3.0), log)
    assert dl._core._from_dlpack_protocol(x).tolist() == [0.0, 1.0, 2.0]
    assert calls["managed_from"] == 0 and x.dlpack_calls == 1


def test_table_of_a_newer_major_is_walked_back_through_prev_api():
    log = H.DeleterLog()
    _, old_calls, old_table = make_table_type(major=1)
    cls, new_calls, _ = make_table_type(major=2, prev=old_table)
    x = cls(np.arange(3.0), log)
    assert dl.from_dlpack(x).tolist() == [0.0, 1.0, 2.0]
    assert old_calls["managed_from"] == 1 and new_calls["managed_from"] == 0 and x.dlpack_calls == 0


def test_table_of_an_unknown_major_without_prev_is_not_used():
    log = H.DeleterLog()
    cls, calls, _ = make_table_type(major=2)
    x = cls(np.arange(3.0), log)
    assert dl.from_dlpack(x).tolist() == [0.0, 1.0, 2.0]
    assert calls["managed_from"] == 0 and x.dlpack_calls == 1


def test_failing_peer_table_falls_back_to_dunder_dlpack():
    log = H.DeleterLog()
    cls, calls, _ = make_table_type(fail=True)
    x = cls(np.arange(3.0), log)
    assert dl.from_dlpack(x).tolist() == [0.0, 1.0, 2.0]
    assert calls["managed_from"] == 1 and x.dlpack_calls == 1


def test_torch_tensors_import_through_torchs_table():
    torch = pytest.importorskip("torch")
    cap = torch.Tensor.__dlpack_c_exchange_api__
    assert H.capsule_name(cap) == "dlpack_exchange_api"
    t = torch.arange(6, dtype=torch.float32)
    before = counters()
    a = dl.from_dlpack(t)
    assert counters()["imports_via_peer_table"] == before["imports_via_peer_table"] + 1
    assert counters()["imports_via_protocol"] == before["imports_via_protocol"]
    assert a._data_ptr == t.data_ptr()

    class NoProtocol(torch.Tensor):
        def __dlpack__(self, *args, **kwargs):
            raise AssertionError("__dlpack__ must not be called: the C table is used")

    sub = t.as_subclass(NoProtocol)
    assert dl.from_dlpack(sub)._data_ptr == t.data_ptr()


def test_tvm_ffi_imports_ours_through_our_table():
    tvm_ffi = pytest.importorskip("tvm_ffi")
    a = dl.arange(6)
    before = counters()
    t = tvm_ffi.from_dlpack(a)
    after = counters()
    assert after["table_managed_from_py"] == before["table_managed_from_py"] + 1
    assert after["dlpack_exports"] == before["dlpack_exports"]
    # (tvm-ffi 0.1.12's Tensor has no data_ptr(): the address is read through NumPy's view.)
    assert np.from_dlpack(t).__array_interface__["data"][0] == a._data_ptr and tuple(t.shape) == (6,)
    # Writes through the tvm-ffi tensor's memory are visible in ours: same bytes.
    np.from_dlpack(t)[0] = 100
    assert a.tolist()[0] == 100


def test_table_set_on_a_type_after_its_first_import_is_seen():
    # The per-type cache follows type modifications (tvm-ffi patches older PyTorch so).
    log = H.DeleterLog()
    cls, calls, table = make_table_type()
    capsule = cls.__dlpack_c_exchange_api__
    plain = type("LatePeer", (TableProducer,), {})
    x = plain(np.arange(3.0), log)
    assert dl.from_dlpack(x).tolist() == [0.0, 1.0, 2.0]
    assert x.dlpack_calls == 1 and calls["managed_from"] == 0
    plain.__dlpack_c_exchange_api__ = capsule
    plain._keep = cls._keep
    assert dl.from_dlpack(x).tolist() == [0.0, 1.0, 2.0]
    assert x.dlpack_calls == 1 and calls["managed_from"] == 1
    del plain.__dlpack_c_exchange_api__
    dl.from_dlpack(x)
    assert x.dlpack_calls == 2 and calls["managed_from"] == 1
