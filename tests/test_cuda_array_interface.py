"""__cuda_array_interface__ (CAI v3): export on CUDA arrays, import in asarray and from_dlpack.

Without a GPU: the malformed-dictionary and no-device paths, and the whole import/export logic
against the host-memory fake GPU backend (dlarray._fake_gpu, installed as ROCm; the test hook
_core._cai_backend("rocm") points CAI at its memory kinds). With a CUDA device (@pytest.mark.gpu):
round trips with CuPy and Numba, the real pointer query and stream ordering.
"""
import ctypes
import gc
import weakref

import numpy as np
import pytest

import dlarray as dl
from dlarray import _core
from helpers.gpu_util import fake_gpu_backend

NAME = "__cuda_array_interface__"


class Producer:
    """An object offering only a CAI dictionary (as Numba device arrays do)."""

    def __init__(self, interface, keep=None):
        self.__cuda_array_interface__ = interface
        self.keep = keep


def test_cpu_arrays_have_no_cuda_interface():
    x = dl.arange(4)
    assert not hasattr(x, NAME)
    with pytest.raises(AttributeError, match="only CUDA device and managed memory"):
        getattr(x, NAME)


GOOD = {"version": 3, "shape": (2,), "typestr": "<f8", "data": (4096, False), "strides": None, "stream": None}


@pytest.mark.parametrize("change, error, match", [
    ({"version": None}, ValueError, "lacks the required key 'version'"),
    ({"shape": None}, ValueError, "lacks the required key 'shape'"),
    ({"typestr": None}, ValueError, "lacks the required key 'typestr'"),
    ({"data": None}, ValueError, "lacks the required key 'data'"),
    ({"version": 4}, ValueError, "version 4 is not supported"),
    ({"version": -1}, ValueError, "version -1 is not supported"),
    ({"version": 3.0}, TypeError, "version must be an integer"),
    ({"shape": [2]}, TypeError, "shape must be a tuple"),
    ({"shape": (-2,)}, ValueError, "negative"),
    ({"shape": (True,)}, TypeError, "shape entry must be an integer"),
    ({"typestr": ">f8"}, BufferError, "big-endian"),
    ({"typestr": "<V8"}, BufferError, "has no dlarray dtype"),
    ({"typestr": 8}, TypeError, "typestr must be a str"),
    ({"mask": (0, False)}, BufferError, "mask"),
    ({"data": [4096, False]}, TypeError, r"data must be a \(pointer"),
    ({"data": (4096,)}, TypeError, r"data must be a \(pointer"),
    ({"data": ("4096", False)}, TypeError, r"data must be a \(pointer"),
    ({"data": (0, False)}, ValueError, "NULL"),
    ({"data": (-5, False)}, ValueError, "not a valid address"),
    ({"strides": (8, 8)}, TypeError, "one integer per dimension"),
    ({"strides": (12,)}, BufferError, "multiples of the item size"),
    ({"stream": 0}, ValueError, "stream 0 is disallowed"),
    ({"stream": -3}, ValueError, "must be positive"),
    ({"stream": "1"}, TypeError, "stream must be None or an int"),
])
@pytest.mark.parametrize("entry", ["asarray", "from_dlpack"])
def test_malformed_interfaces_are_refused(entry, change, error, match):
    iface = dict(GOOD)
    for key, value in change.items():
        if value is None and key in ("version", "shape", "typestr", "data"):
            del iface[key]
        else:
            iface[key] = value
    with pytest.raises(error, match=match) as info:
        getattr(dl, entry)(Producer(iface))
    assert entry in str(info.value) and NAME in str(info.value)


def test_interface_that_is_not_a_dict():
    with pytest.raises(TypeError, match="must be a dict, got list"):
        dl.asarray(Producer([("version", 3)]))


@pytest.mark.skipif(dl.cuda.device_count() > 0, reason="a CUDA device is visible")
@pytest.mark.parametrize("entry", ["asarray", "from_dlpack"])
def test_without_a_cuda_device_a_well_formed_interface_is_a_buffer_error(entry):
    with pytest.raises(BufferError, match="no CUDA device is available"):
        getattr(dl, entry)(Producer(dict(GOOD)))


# ---- the logic, over the fake GPU ---------------------------------------------------------------

@pytest.fixture
def fake():
    gen = fake_gpu_backend()
    fg = next(gen)
    _core._cai_backend("rocm")
    try:
        yield fg
    finally:
        _core._cai_backend("cuda")
        next(gen, None)


def test_export_describes_device_memory(fake):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = dl.asarray(a, device="rocm:0")
    d = getattr(x, NAME)
    assert d["version"] == 3 and d["shape"] == (2, 3) and d["typestr"] == "<f4"
    assert d["data"] == (x._data_ptr, False) and d["strides"] is None
    assert d["stream"] == 1  # our default stream is the legacy default stream
    # Read the device memory where the dictionary says it is (the host cannot: the fake reads it).
    assert np.array_equal(np.frombuffer(fake.read_device(d["data"][0], 24), np.float32).reshape(2, 3), a)


def test_export_of_views_gives_byte_strides_and_zero_for_empty(fake):
    x = dl.asarray(np.arange(12.0).reshape(3, 4), device="rocm:0")
    t = x.mT
    d = getattr(t, NAME)
    assert d["shape"] == (4, 3) and d["strides"] == (8, 32)
    e = dl.asarray(np.zeros((0, 3)), device="rocm:0")
    assert getattr(e, NAME)["data"] == (0, False)


def test_export_names_the_current_stream(fake):
    s = dl.rocm.Stream()
    x = dl.zeros(4, device="rocm:0")
    with dl.rocm.stream(s):
        assert getattr(x, NAME)["stream"] == s.handle


def test_pinned_host_memory_has_array_interface_instead(fake):
    x = dl.asarray(np.arange(3.0), device="rocm_host")
    assert not hasattr(x, NAME) and hasattr(x, "__array_interface__")


@pytest.mark.parametrize("entry", ["asarray", "from_dlpack"])
def test_round_trip_is_zero_copy_and_writes_show_through(fake, entry):
    a = np.arange(8, dtype=np.int32)
    x = dl.asarray(a, device="rocm:1")
    y = getattr(dl, entry)(Producer(getattr(x, NAME), keep=x))
    assert y.device == dl.Device("rocm", 1) and y.dtype == dl.int32 and y._data_ptr == x._data_ptr
    fake.write_device(x._data_ptr + 3 * 4, np.int32(-7).tobytes())  # as another library's kernel would
    assert np.from_dlpack(y.to_device("cpu"))[3] == -7


def test_import_of_a_strided_view_and_read_only_flag(fake):
    x = dl.asarray(np.arange(12.0).reshape(3, 4), device="rocm:0")
    iface = dict(getattr(x, NAME), strides=(8, 32), shape=(4, 3))
    iface["data"] = (iface["data"][0], True)
    y = dl.asarray(Producer(iface, keep=x))
    assert y._strides == (1, 4) and y._readonly
    assert np.array_equal(np.from_dlpack(y.to_device("cpu")), np.arange(12.0).reshape(3, 4).T)


def test_import_waits_on_the_producers_stream(fake):
    s = dl.rocm.Stream()
    x = dl.zeros(4, device="rocm:0")
    fake.clear_log()
    dl.asarray(Producer(dict(getattr(x, NAME), stream=s.handle), keep=x))
    log = [(e[0], e[2]) for e in fake.log() if e[0] in ("record", "wait", "sync")]
    assert log == [("record", s.handle), ("wait", 0)]  # an event, no synchronisation
    fake.clear_log()
    dl.asarray(Producer(dict(getattr(x, NAME), stream=None), keep=x))
    assert not [e for e in fake.log() if e[0] in ("record", "wait", "sync")]


def test_a_version_2_interface_has_no_stream_to_honour(fake):
    x = dl.zeros(4, device="rocm:0")
    iface = dict(getattr(x, NAME), version=2, stream=0)  # v2 has no stream key: ignored
    assert dl.asarray(Producer(iface, keep=x)).shape == (4,)


def test_the_producer_is_kept_alive_and_then_released(fake):
    x = dl.asarray(np.arange(4.0), device="rocm:0")
    p = Producer(getattr(x, NAME), keep=x)
    ref = weakref.ref(p)
    y = dl.asarray(p)
    del p, x
    gc.collect()
    assert ref() is not None
    assert np.from_dlpack(y.to_device("cpu")).tolist() == [0, 1, 2, 3]
    del y
    gc.collect()
    assert ref() is None


def test_unknown_pointer_is_refused(fake):
    host = np.zeros(4)
    iface = dict(GOOD, shape=(4,), data=(host.ctypes.data, False))
    with pytest.raises(BufferError, match="not memory the CUDA runtime knows"):
        dl.asarray(Producer(iface, keep=host))


def test_copy_and_device_requests_apply_after_import(fake):
    x = dl.asarray(np.arange(4.0), device="rocm:0")
    y = dl.asarray(Producer(getattr(x, NAME), keep=x), device="cpu")
    assert y.device == dl.Device("cpu") and y.tolist() == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="copy=False"):
        dl.asarray(Producer(getattr(x, NAME), keep=x), device="cpu", copy=False)
    z = dl.from_dlpack(Producer(getattr(x, NAME), keep=x), device="cpu")
    assert z.tolist() == [0, 1, 2, 3]


# ---- real CUDA (device machine) ----------------------------------------------------------------

def _cupy():
    cp = pytest.importorskip("cupy")
    if cp.cuda.runtime.getDeviceCount() == 0:
        pytest.skip("no CUDA device for CuPy")
    return cp


@pytest.mark.gpu
def test_cupy_consumes_our_interface_zero_copy():
    cp = _cupy()
    x = dl.asarray(np.arange(6.0).reshape(2, 3), device="cuda")
    c = cp.asarray(x)  # CuPy prefers CAI for non-CuPy objects
    assert c.data.ptr == x._data_ptr
    c[0, 0] = 42.0
    assert np.from_dlpack(x.to_device("cpu"))[0, 0] == 42.0


@pytest.mark.gpu
def test_we_consume_cupys_interface_zero_copy_with_its_stream():
    cp = _cupy()
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        c = cp.arange(10, dtype=cp.float32)[::2]
        iface = c.__cuda_array_interface__
        assert iface["stream"] == s.ptr
        y = dl.asarray(Producer(iface, keep=c))
    assert y._data_ptr == c.data.ptr and y._strides == (2,)
    assert np.from_dlpack(y.to_device("cpu")).tolist() == [0, 2, 4, 6, 8]
    c[0] = 5
    cp.cuda.runtime.deviceSynchronize()
    assert np.from_dlpack(y.to_device("cpu"))[0] == 5


@pytest.mark.gpu
def test_numba_round_trip():
    numba_cuda = pytest.importorskip("numba.cuda")
    if not numba_cuda.is_available():
        pytest.skip("numba sees no CUDA device")
    x = dl.asarray(np.arange(5, dtype=np.int64), device="cuda")
    d = numba_cuda.as_cuda_array(x)
    assert d.__cuda_array_interface__["data"][0] == x._data_ptr
    d2 = numba_cuda.to_device(np.arange(3.0))
    y = dl.from_dlpack(d2)  # Numba arrays have no __dlpack__: CAI is the way in
    assert y.device == dl.Device("cuda", 0) and y._data_ptr == d2.__cuda_array_interface__["data"][0]
    assert np.from_dlpack(y.to_device("cpu")).tolist() == [0, 1, 2]


@pytest.mark.gpu
def test_managed_memory_exports_and_host_memory_does_not():
    if dl.cuda.device_count() == 0:
        pytest.skip("no CUDA device")
    m = dl.asarray(np.arange(3.0), device="cuda_managed")
    assert getattr(m, NAME)["data"][0] == m._data_ptr
    y = dl.asarray(Producer(getattr(m, NAME), keep=m))
    assert y.device == dl.Device("cuda_managed", 0)
    assert not hasattr(dl.asarray(np.arange(3.0), device="cuda_host"), NAME)


@pytest.mark.gpu
def test_real_cuda_round_trip_through_our_own_interface():
    if dl.cuda.device_count() == 0:
        pytest.skip("no CUDA device")
    s = dl.cuda.Stream()
    with dl.cuda.stream(s):
        x = dl.asarray(np.arange(6.0).reshape(2, 3), device="cuda:0")
        d = getattr(x, NAME)
        assert d["stream"] == s.handle
    y = dl.asarray(Producer(d, keep=x))  # pointer_device finds cuda:0; our stream waits on s
    assert y.device == dl.Device("cuda", 0) and y._data_ptr == x._data_ptr
    assert np.from_dlpack(y.mT.to_device("cpu")).tolist() == [[0, 3], [1, 4], [2, 5]]
    host = np.zeros(3)
    with pytest.raises(BufferError, match="not memory the CUDA runtime knows"):
        dl.asarray(Producer(dict(d, shape=(3,), data=(host.ctypes.data, False)), keep=host))
