"""GPU memory: moves between every pair of memory kinds, fills, strided copies, lifetimes."""
import gc

import numpy as np
import pytest

import dlarray
from helpers.gpu_util import host, needs_cuda, stats, torch_cuda

pytestmark = [pytest.mark.gpu, needs_cuda]

KINDS = ["cpu", "cuda:0", "cuda_host:0", "cuda_managed:0"]
if dlarray.cuda.device_count() > 1:
    KINDS.append("cuda:1")
if dlarray.rocm.device_count() > 0:
    KINDS += ["rocm:0", "rocm_host:0"]
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("src", KINDS)
@pytest.mark.parametrize("dst", KINDS)
def test_moves_between_memory_kinds(src, dst):
    a = (np.arange(48) * 1.25).reshape(4, 12)
    x = dlarray.asarray(a, device=src)
    y = x.to_device(dst)
    assert y.device == dst
    np.testing.assert_array_equal(host(y), a)
    np.testing.assert_array_equal(host(y.T.to_device(src)), a.T)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("device", ["cuda:0", "cuda_managed:0", "cuda_host:0"])
def test_fills(dtype, device):
    dt = getattr(dlarray, dtype)
    for x, want in [(dlarray.zeros((3, 7), dtype=dt, device=device), np.zeros((3, 7), dtype)),
                    (dlarray.ones((3, 7), dtype=dt, device=device), np.ones((3, 7), dtype)),
                    (dlarray.full((3, 7), 1 if dtype == "bool" else 5, dtype=dt, device=device),
                     np.full((3, 7), 1 if dtype == "bool" else 5, dtype))]:
        assert x.device == device
        np.testing.assert_array_equal(host(x), want)


def test_arange_and_asarray_on_device():
    np.testing.assert_array_equal(host(dlarray.arange(2, 50, 3, device="cuda:0")), np.arange(2, 50, 3))
    np.testing.assert_array_equal(host(dlarray.asarray([[1, 2], [3, 4]], device="cuda:0")), [[1, 2], [3, 4]])


@pytest.mark.parametrize("dtype", DTYPES + ["float16"])
def test_strided_device_copies(dtype):
    a = (np.arange(6 * 10) % 9).astype(dtype).reshape(6, 10)
    x = dlarray.asarray(a, device="cuda:0")
    np.testing.assert_array_equal(host(x.T), a.T)
    np.testing.assert_array_equal(host(dlarray.asarray(x.T, copy=True)), a.T)


def test_no_leak_across_many_exchanges():
    torch = torch_cuda()
    x = dlarray.arange(1024, dtype=dlarray.float32, device="cuda:0")
    dlarray.cuda.synchronize()
    a0, f0, b0 = stats("cuda:0")
    used0 = dlarray.cuda.memory_info()["used_bytes"]
    for i in range(100_000):
        t = torch.from_dlpack(x)
        y = dlarray.from_dlpack(t)
        del t, y
        if i % 1000 == 0:
            z = dlarray.from_dlpack(x, copy=True)
            del z
    dlarray.cuda.synchronize()
    a1, f1, b1 = stats("cuda:0")
    assert b1 == b0 and a1 - a0 == f1 - f0 == 100
    assert dlarray.cuda.memory_info()["used_bytes"] == used0


def test_allocator_stats_and_pool():
    a0, f0, b0 = stats("cuda:0")
    xs = [dlarray.empty(1 << 20, dtype=dlarray.uint8, device="cuda:0") for _ in range(8)]
    assert stats("cuda:0")[2] == b0 + 8 * (1 << 20)
    assert dlarray.cuda.memory_info()["used_bytes"] >= 8 * (1 << 20)
    del xs
    gc.collect()
    assert stats("cuda:0") == (a0 + 8, f0 + 8, b0)
    dlarray.cuda.empty_cache()
    info = dlarray.cuda.memory_info()
    assert info["reserved_bytes"] >= info["used_bytes"]
    # Pinned blocks come in power-of-two classes of at least 4 KiB (the cache's unit); managed
    # memory is counted as asked for.
    for kind, held in (("cuda_host:0", 4096), ("cuda_managed:0", 1000)):
        a0, f0, b0 = stats(kind)
        y = dlarray.zeros(1000, dtype=dlarray.uint8, device=kind)
        assert stats(kind)[2] == b0 + held
        del y
        assert stats(kind) == (a0 + 1, f0 + 1, b0)


def test_out_of_memory_is_memory_error():
    with pytest.raises(MemoryError, match="cuda:0"):
        dlarray.empty(1 << 50, dtype=dlarray.uint8, device="cuda:0")
    # The failed allocation must not be reported again by the next kernel launch.
    np.testing.assert_array_equal(host(dlarray.full(5, 2.0, device="cuda:0")), np.full(5, 2.0))
