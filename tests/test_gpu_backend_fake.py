"""The core half of the GPU backend, run on CPU machines over dlarray._fake_gpu.

The fake is a host-memory vendor table installed as the ROCm backend with two devices
(rocm:0, rocm:1). Everything above the vendor calls runs for real: current streams,
stream-ordered allocation and free, stream lifetimes, DLPack stream rules and event
ordering, copy routing between memory kinds, strided copy and fill jobs. The fake logs each
call as (op, device, a, b) and refuses what a GPU runtime would refuse (unknown or destroyed
streams, misaligned words, dlarray's internal default-stream sentinel leaking through).
"""
import ctypes
import gc
import threading

import numpy as np
import pytest

import dlarray
from dlarray import _core
from helpers.gpu_util import fresh_log_and_streams, host

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]


@pytest.fixture(autouse=True)
def clean(fake):
    yield from fresh_log_and_streams(fake)


def ops(fake, *names):
    return [e for e in fake.log() if not names or e[0] in names]


# ---- devices and creation ----------------------------------------------------------------

def test_devices_are_listed(fake):
    assert dlarray.rocm.device_count() == 2
    assert dlarray.rocm.is_available()
    assert [str(d) for d in _core._visible_devices() if d.type == "rocm"] == ["rocm:0", "rocm:1"]


def test_missing_device_index_names_the_count(fake):
    with pytest.raises(ValueError, match="rocm:2.*2 rocm device"):
        dlarray.zeros(3, device="rocm:2")


@pytest.mark.parametrize("dtype", DTYPES)
def test_host_device_round_trip_every_dtype(fake, dtype):
    src = (np.arange(24) % 7).astype(dtype).reshape(2, 3, 4)
    x = dlarray.asarray(src, device="rocm:1")
    assert x.device == "rocm:1" and x.shape == (2, 3, 4)
    np.testing.assert_array_equal(host(x), src)


def test_zeros_use_memset_and_other_values_a_fill_kernel(fake):
    z = dlarray.zeros((3, 5), dtype=dlarray.float64, device="rocm:0")
    assert [e[0] for e in ops(fake, "memset", "strided_fill")] == ["memset"]
    fake.clear_log()
    f = dlarray.full((3, 5), 2.5, dtype=dlarray.float32, device="rocm:0")
    fills = ops(fake, "memset", "strided_fill")
    assert [e[0] for e in fills] == ["strided_fill"] and fills[0][3] == 4  # 4-byte words
    np.testing.assert_array_equal(host(z), np.zeros((3, 5)))
    np.testing.assert_array_equal(host(f), np.full((3, 5), 2.5, np.float32))


@pytest.mark.parametrize("value,dtype,word", [
    (1 + 2j, "complex128", 16), (3 - 1j, "complex64", 8), (7, "int16", 2), (-1, "int32", None),
    (True, "bool", None), (1, "uint8", None), (1.0, "float64", 8)])
def test_full_on_device(fake, value, dtype, word):
    x = dlarray.full((4, 3), value, dtype=getattr(dlarray, dtype), device="rocm:0")
    np.testing.assert_array_equal(host(x), np.full((4, 3), value, dtype=dtype))
    fills = ops(fake, "strided_fill")
    if word is None:  # every byte of the element alike: a memset
        assert not fills and ops(fake, "memset")
    else:
        assert fills[-1][3] == word


def test_ones_empty_arange_on_device(fake):
    np.testing.assert_array_equal(host(dlarray.ones(5, dtype=dlarray.int64, device="rocm:0")), np.ones(5, np.int64))
    assert dlarray.empty((2, 0), device="rocm:0").shape == (2, 0)
    np.testing.assert_array_equal(host(dlarray.arange(3, 30, 4, device="rocm:1")), np.arange(3, 30, 4))


def test_asarray_dtype_change_keeps_the_device(fake):
    x = dlarray.asarray(np.arange(6), device="rocm:0")
    y = dlarray.asarray(x, dtype=dlarray.float32)
    assert y.device == "rocm:0" and y.dtype == dlarray.float32
    np.testing.assert_array_equal(host(y), np.arange(6, dtype=np.float32))


def test_out_of_memory_is_memory_error(fake):
    with pytest.raises(MemoryError, match="rocm:0"):
        dlarray.empty(2**37, dtype=dlarray.uint8, device="rocm:0")


def test_host_memory_running_out_under_the_fakes_capacity_is_memory_error():
    # The fake's blocks are host memory: where the host cannot give one (here an address-space
    # limit, in a child), the fake answers out of memory, as a GPU would (it returned NULL, and
    # the fill that followed crashed).
    import os
    from helpers.gpu_util import run_with_fake_gpu
    pytest.importorskip("dlarray._fake_gpu", exc_type=ModuleNotFoundError)
    if "asan" in os.environ.get("LD_PRELOAD", ""):
        pytest.skip("AddressSanitizer reserves more address space than the limit allows")
    out = run_with_fake_gpu(
        "for make in (lambda: dlarray.zeros(2**30, device='rocm:0'), lambda: dlarray.ones(2**30, device='rocm_host:0')):\n"
        "    try:\n"
        "        make()\n"
        "    except MemoryError as e:\n"
        "        print('MemoryError', e)\n",
        preamble="import resource; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n")
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.count("MemoryError") == 2 and "rocm:0" in out.stdout, out.stdout


# ---- strided copies -----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["int8", "int16", "float32", "float64", "complex128"])
def test_transposed_device_array_to_host(fake, dtype):
    a = np.arange(35).astype(dtype).reshape(5, 7)
    x = dlarray.asarray(a, device="rocm:0")
    fake.clear_log()
    np.testing.assert_array_equal(host(x.T), a.T)
    copies = ops(fake, "strided_copy")
    assert len(copies) == 1 and copies[0][3] == np.dtype(dtype).itemsize


@pytest.mark.parametrize("device", ["rocm:1", "rocm_host:0"])
def test_pickle_and_copy_of_a_device_array_come_back_on_its_device(fake, device):
    import copy
    import pickle

    host = np.arange(12.0).reshape(3, 4)
    x = dlarray.asarray(host, device=device).T
    for y in (pickle.loads(pickle.dumps(x)), pickle.loads(pickle.dumps(x, protocol=2)), copy.deepcopy(x)):
        assert str(y.device) == device and y.shape == (4, 3)
        np.testing.assert_array_equal(np.from_dlpack(y.to_device("cpu")), host.T)


def test_strided_copy_on_one_device_and_across_devices(fake):
    a = np.arange(24.0).reshape(4, 6)
    x = dlarray.asarray(a, device="rocm:0")
    same = dlarray.asarray(x.T, copy=True)
    other = x.T.to_device("rocm:1")
    assert same.device == "rocm:0" and other.device == "rocm:1"
    np.testing.assert_array_equal(host(same), a.T)
    np.testing.assert_array_equal(host(other), a.T)


def test_strided_host_source_to_device(fake):
    a = np.arange(60, dtype=np.int32).reshape(6, 10)[::2, ::3]
    x = dlarray.asarray(a, device="rocm:0")
    np.testing.assert_array_equal(host(x), a)


# ---- moves between every pair of memory kinds ----------------------------------------------

KINDS = ["cpu", "rocm:0", "rocm:1", "rocm_host:0"]


@pytest.mark.parametrize("src", KINDS)
@pytest.mark.parametrize("dst", KINDS)
def test_moves_between_memory_kinds(fake, src, dst):
    a = np.arange(12, dtype=np.float32).reshape(3, 4) * 1.5
    x = dlarray.asarray(a, device=src)
    y = x.to_device(dst)
    assert y.device == dst
    np.testing.assert_array_equal(host(y), a)
    np.testing.assert_array_equal(host(y.T.to_device(src)), a.T)


def test_pinned_memory_is_synchronised_before_host_reads(fake):
    x = dlarray.asarray(np.arange(4), device="rocm:0")
    p = x.to_device("rocm_host:0")
    fake.clear_log()
    assert p.tolist() == [0, 1, 2, 3]
    assert ops(fake, "sync"), "host read of pinned memory without waiting for the stream"


# ---- streams -----------------------------------------------------------------------------------

def test_stream_objects(fake):
    s = dlarray.rocm.Stream()
    assert s.device == "rocm:0" and s.handle != 0 and s.ptr == s.handle
    assert s == dlarray.rocm.Stream(handle=s.handle) and hash(s) == hash(dlarray.rocm.Stream(handle=s.handle))
    assert s != dlarray.rocm.Stream()
    assert "rocm:0" in repr(s)
    assert s.query() is True
    s1 = dlarray.rocm.Stream("rocm:1", non_blocking=True)
    assert s1.device == dlarray.Device("rocm", 1)
    assert dlarray.rocm.current_stream().handle == 0


def test_device_arguments(fake):
    for d in (1, "rocm:1", dlarray.Device("rocm", 1)):
        assert dlarray.rocm.current_stream(d).device == "rocm:1"
    with pytest.raises(ValueError, match="rocm"):
        dlarray.rocm.current_stream("cuda:0")
    with pytest.raises(ValueError, match="does not exist"):
        dlarray.rocm.current_stream(5)


def test_set_stream_and_context_manager(fake):
    s = dlarray.rocm.Stream()
    with dlarray.rocm.stream(s):
        assert dlarray.rocm.current_stream() == s
        assert dlarray.rocm.current_stream(1).handle == 0  # per device
        with pytest.raises(RuntimeError):
            with dlarray.rocm.stream(dlarray.rocm.Stream()):
                raise RuntimeError("inner")
        assert dlarray.rocm.current_stream() == s
    assert dlarray.rocm.current_stream().handle == 0
    dlarray.rocm.set_stream(s)
    assert dlarray.rocm.current_stream() == s


def test_current_stream_is_per_thread(fake):
    s = dlarray.rocm.Stream()
    dlarray.rocm.set_stream(s)
    seen = []
    t = threading.Thread(target=lambda: seen.append(dlarray.rocm.current_stream().handle))
    t.start()
    t.join()
    assert seen == [0] and dlarray.rocm.current_stream() == s


def test_work_is_queued_on_the_current_stream(fake):
    s = dlarray.rocm.Stream()
    with dlarray.rocm.stream(s):
        x = dlarray.full(8, 3.0, device="rocm:0")
        y = dlarray.asarray(np.arange(8.0), device="rocm:0")
    for op in ("malloc", "strided_fill", "memcpy"):
        assert {e[2] for e in ops(fake, op)} == {s.handle}, op
    fake.clear_log()
    del x, y
    gc.collect()
    frees = ops(fake, "free")
    assert len(frees) == 2 and {e[2] for e in frees} == {s.handle}  # freed in the order they were used


def test_a_stream_outlives_its_python_object_while_memory_uses_it(fake):
    before = fake.live_streams()
    s = dlarray.rocm.Stream()
    with dlarray.rocm.stream(s):
        x = dlarray.zeros(16, device="rocm:0")
    handle = s.handle
    del s
    gc.collect()
    assert fake.live_streams() == before + 1
    del x
    gc.collect()
    assert fake.live_streams() == before
    assert [e[0] for e in ops(fake, "free", "stream_destroy", "free_bad_stream")] == ["free", "stream_destroy"]
    assert ops(fake, "free")[0][2] == handle


def test_bad_stream_handles(fake):
    with pytest.raises(ValueError, match=">= 0"):
        dlarray.rocm.Stream(handle=-5)
    with pytest.raises(TypeError):
        dlarray.rocm.Stream(handle="7")
    with pytest.raises(TypeError):
        dlarray.rocm.set_stream(42)


def test_wrapped_streams_are_not_destroyed(fake):
    s = dlarray.rocm.Stream()
    before = fake.live_streams()
    w = dlarray.rocm.Stream(handle=s.handle)
    del w
    gc.collect()
    assert fake.live_streams() == before


def test_synchronize_is_per_stream(fake):
    s = dlarray.rocm.Stream()
    with dlarray.rocm.stream(s):
        dlarray.rocm.synchronize()
    s.synchronize()
    assert [e[2] for e in ops(fake, "sync")] == [s.handle, s.handle]


def test_wait_stream_records_and_waits(fake):
    a, b = dlarray.rocm.Stream(), dlarray.rocm.Stream()
    b.wait_stream(a)
    assert [(e[0], e[2], e[3]) for e in ops(fake, "record", "wait")] == [("record", a.handle, 0),
                                                                           ("wait", b.handle, a.handle)]
    fake.clear_log()
    a.wait_stream(a)
    assert not ops(fake, "record", "wait")


def test_cross_device_copy_waits_for_the_source_stream(fake):
    s0 = dlarray.rocm.Stream(0)
    with dlarray.rocm.stream(s0):  # device 0's current stream; device 1 keeps its default
        x = dlarray.asarray(np.arange(5), device="rocm:0")
        fake.clear_log()
        y = x.to_device("rocm:1")
    rec, wait = ops(fake, "record", "wait")
    assert rec[:3] == ("record", 0, s0.handle) and wait[:4] == ("wait", 1, 0, s0.handle)
    assert ops(fake, "memcpy")[0][1] == 1
    np.testing.assert_array_equal(host(y), np.arange(5))


def test_to_device_with_stream(fake):
    s = dlarray.rocm.Stream()
    y = dlarray.asarray(np.arange(4.0)).to_device("rocm:0", stream=s)
    assert {e[2] for e in ops(fake, "memcpy", "malloc")} == {s.handle}
    assert dlarray.rocm.current_stream().handle == 0
    with pytest.raises(ValueError, match="not valid on ROCm"):
        dlarray.asarray(np.arange(4.0)).to_device("rocm:0", stream=1)
    with pytest.raises(ValueError, match="device 1"):
        dlarray.asarray(np.arange(4.0)).to_device("rocm:0", stream=dlarray.rocm.Stream(1))
    s.synchronize()  # y was written on s: a read on another stream waits for it first
    np.testing.assert_array_equal(host(y.to_device("cpu", stream=-1)), np.arange(4.0))


def test_memory_info_and_empty_cache(fake):
    x = dlarray.zeros(10, device="rocm:0")
    info = dlarray.rocm.memory_info()
    assert info["used_bytes"] >= 1 and info["reserved_bytes"] >= info["used_bytes"]
    dlarray.rocm.empty_cache()
    del x


# ---- DLPack with streams ---------------------------------------------------------------------

def test_dlpack_stream_values_on_rocm(fake):
    x = dlarray.zeros(3, device="rocm:0")
    assert x.__dlpack_device__() == (10, 0)
    for bad in (1, 2):
        with pytest.raises(ValueError, match="ROCm"):
            x.__dlpack__(stream=bad)
    with pytest.raises(ValueError):
        x.__dlpack__(stream=-2)
    with pytest.raises(TypeError):
        x.__dlpack__(stream="0")
    fake.clear_log()
    x.__dlpack__(stream=None)
    x.__dlpack__(stream=0)
    x.__dlpack__(stream=-1)
    assert not ops(fake, "record", "wait", "sync")  # our current stream is the default stream


def test_producer_orders_the_consumer_stream_after_ours(fake):
    x = dlarray.zeros(3, device="rocm:0")
    ours, theirs = dlarray.rocm.Stream(), dlarray.rocm.Stream()
    with dlarray.rocm.stream(ours):
        x.__dlpack__(stream=theirs.handle, max_version=(1, 0))
        x.__dlpack__(stream=0)
        x.__dlpack__(stream=-1)
    events = [(e[0], e[2], e[3]) for e in ops(fake, "record", "wait", "sync")]
    assert events == [("record", ours.handle, 0), ("wait", theirs.handle, ours.handle),
                      ("record", ours.handle, 0), ("wait", 0, ours.handle)]


class Producer:
    """A third-party producer wrapping one of our arrays; remembers the keywords it got."""

    def __init__(self, a):
        self.a, self.kw = a, None

    def __dlpack__(self, **kw):
        self.kw = kw
        return self.a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def test_consumer_passes_its_current_stream(fake):
    p = Producer(dlarray.arange(4, device="rocm:0"))
    assert dlarray.from_dlpack(p).device == "rocm:0"
    assert p.kw["stream"] == 0
    s = dlarray.rocm.Stream()
    with dlarray.rocm.stream(s):
        dlarray.from_dlpack(p)
    assert p.kw["stream"] == s.handle


def test_export_to_host_copies_and_flags_it(fake):
    x = dlarray.asarray(np.arange(6.0), device="rocm:0")
    fake.clear_log()
    y = np.from_dlpack(x, device="cpu")
    np.testing.assert_array_equal(y, np.arange(6.0))
    assert ops(fake, "sync"), "the host read the copy before the stream finished it"
    cap = x.__dlpack__(dl_device=(1, 0), max_version=(1, 0))
    m = _Versioned.from_address(_capsule_pointer(cap))
    assert (m.t.device_type, m.flags & 2) == (1, 2)  # on the CPU, flagged IS_COPIED
    assert not _Versioned.from_address(_capsule_pointer(x.__dlpack__(max_version=(1, 0)))).flags & 2
    with pytest.raises(dlarray.CopyError):
        x.__dlpack__(dl_device=(1, 0), copy=False, max_version=(1, 0))
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 0), max_version=(1, 0))  # CUDA: no device here


def test_from_dlpack_to_and_from_device(fake):
    a = np.arange(10, dtype=np.int16)
    x = dlarray.from_dlpack(a, device="rocm:1")  # NumPy cannot move it: we copy
    assert x.device == "rocm:1"
    np.testing.assert_array_equal(host(x), a)
    with pytest.raises(dlarray.CopyError):
        dlarray.from_dlpack(a, device="rocm:0", copy=False)
    back = dlarray.from_dlpack(Producer(x), device="cpu")
    assert back.device == "cpu"
    np.testing.assert_array_equal(np.from_dlpack(back), a)
    with pytest.raises(ValueError):
        dlarray.from_dlpack(x, device="cpu", copy=False)


# ---- lifetimes ---------------------------------------------------------------------------------

def stats(device):
    s = _core._allocator_stats(device)
    return s["allocations"], s["frees"], s["bytes_in_use"]


def test_no_leak_across_many_exchanges(fake):
    x = dlarray.arange(256, dtype=dlarray.float32, device="rocm:0")
    gc.collect()
    a0, f0, b0 = stats("rocm:0")
    blocks = fake.live_device_blocks()
    p = Producer(x)
    for i in range(10_000):
        y = dlarray.from_dlpack(p)
        cap = x.__dlpack__(max_version=(1, 0))
        del y, cap
        if i % 1000 == 0:
            z = dlarray.from_dlpack(p, copy=True)
            del z
    gc.collect()
    a1, f1, b1 = stats("rocm:0")
    assert b1 == b0 and a1 - a0 == f1 - f0 == 10
    assert fake.live_device_blocks() == blocks


def test_pinned_memory_stats(fake):
    a0, f0, b0 = stats("rocm_host:0")
    x = dlarray.zeros(1000, dtype=dlarray.uint8, device="rocm_host:0")
    assert stats("rocm_host:0")[2] == b0 + 4096  # pinned blocks come in power-of-two classes of >= 4 KiB
    del x
    gc.collect()
    assert stats("rocm_host:0") == (a0 + 1, f0 + 1, b0)
    dlarray.rocm.empty_cache(0)
    assert fake.live_host_blocks() == 0


def test_pinned_blocks_are_cached_and_reused_once_their_work_is_done(fake):
    dlarray.rocm.empty_cache(0)
    n0 = fake.host_allocations()
    x = dlarray.zeros(3000, dtype=dlarray.uint8, device="rocm_host:0")
    on_device = x.to_device("rocm:0")  # a copy from it: the device's stream has used host memory
    del x
    gc.collect()
    assert fake.live_host_blocks() == 1  # cached, not freed
    assert ("record", 0, 0, 0) in ops(fake)  # an event on the stream that used it marks its last use
    y = dlarray.zeros(4000, dtype=dlarray.uint8, device="rocm_host:0")  # same 4 KiB class: reused
    assert fake.host_allocations() == n0 + 1
    np.testing.assert_array_equal(np.from_dlpack(y), np.zeros(4000, np.uint8))
    on_device = y.to_device("rocm:0")
    del y, on_device
    gc.collect()
    fake.set_events_pending(True)  # the device has not finished with the cached block yet
    try:
        z = dlarray.zeros(4000, dtype=dlarray.uint8, device="rocm_host:0")
        assert fake.host_allocations() == n0 + 2  # so a new one is page-locked
        dlarray.rocm.empty_cache(0)
        assert fake.live_host_blocks() == 2  # a block still in use by the device is kept
    finally:
        fake.set_events_pending(False)
    del z
    gc.collect()
    w = dlarray.zeros(5000, dtype=dlarray.uint8, device="rocm_host:0")  # 8 KiB: another class
    assert fake.host_allocations() == n0 + 3
    del w
    gc.collect()
    dlarray.rocm.empty_cache(0)
    assert fake.live_host_blocks() == 0


def test_device_to_host_copies_reuse_pinned_staging(fake):
    x = dlarray.asarray(np.arange(100000.0), device="rocm:0")
    for _ in range(3):
        y = x.to_device("rocm_host:0")
        np.testing.assert_array_equal(np.from_dlpack(y), np.arange(100000.0))
        del y
        gc.collect()
    n = fake.host_allocations()
    for _ in range(5):
        y = x.to_device("rocm_host:0")
        del y
        gc.collect()
    assert fake.host_allocations() == n


# ---- a misaligned strided view: elements wider than the widest usable word -------------------

class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
                ("ndim", ctypes.c_int32), ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _Versioned(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64), ("t", _DLTensor)]


class _CapsuleProducer:
    def __init__(self, cap, device):
        self.cap, self.device = cap, device

    def __dlpack__(self, **kw):
        return self.cap

    def __dlpack_device__(self):
        return self.device


def _capsule_pointer(cap):
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return get(cap, b"dltensor_versioned")


def test_misaligned_strided_copy_splits_elements_into_words(fake):
    raw = np.arange(64, dtype=np.float64)
    x = dlarray.asarray(raw, device="rocm:0")
    cap = x.__dlpack__(max_version=(1, 0))
    m = _Versioned.from_address(_capsule_pointer(cap))
    # Every other complex128 starting at byte 8: 8-byte aligned, 16-byte elements, 32-byte steps.
    m.t.code, m.t.bits, m.t.byte_offset = 5, 128, 8
    m.t.shape[0], m.t.strides[0] = 15, 2
    view = dlarray.from_dlpack(_CapsuleProducer(cap, (10, 0)))
    assert view.dtype == dlarray.complex128 and view.shape == (15,)
    fake.clear_log()
    got = host(view)
    expect = np.frombuffer(raw.tobytes()[8:8 + 16 * 30], dtype=np.complex128)[::2]
    np.testing.assert_array_equal(got, expect)
    assert [e[3] for e in ops(fake, "strided_copy")] == [8]


def test_pinned_memory_of_another_index_is_ordered(fake):
    s1 = dlarray.rocm.Stream(1)
    with dlarray.rocm.stream(s1):
        x = dlarray.asarray(np.arange(6), device="rocm:1")
        fake.clear_log()
        p = x.to_device("rocm_host:0")  # copied on device 1's stream, tagged with index 0
        assert ("sync", 1, s1.handle) in [e[:3] for e in ops(fake, "sync")]
        fake.clear_log()
        y = p.to_device("rocm:1")  # the pinned source's index-0 stream is waited for
        assert [e[:4] for e in ops(fake, "record", "wait")] == [("record", 0, 0, 0), ("wait", 1, s1.handle, 0)]
    np.testing.assert_array_equal(host(y), np.arange(6))


# ---- functions without GPU kernels yet ---------------------------------------------------------

# (sort, argsort and count_nonzero run on GPUs: tests/test_gpu_sort.py; argmax, argmin,
# searchsorted, isin, nonzero and unique_*: tests/test_gpu_search.py; complex sort, nonzero
# and unique_*: tests/test_gpu_complex.py; searches over complex keys not yet)
@pytest.mark.parametrize("call", [lambda x: dlarray.isin(x, x), lambda x: dlarray.isin(x, 1.0), dlarray.argmax])
def test_search_sort_functions_refuse_complex_device_arrays_cleanly(fake, call):
    x = dlarray.asarray(np.array([3.0, 1.0, 2.0j]), device="rocm:0")
    with pytest.raises(NotImplementedError, match="rocm:0"):
        call(x)
