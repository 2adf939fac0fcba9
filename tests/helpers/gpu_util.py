"""Helpers shared by the GPU test files (tests/test_gpu_*.py)."""
import gc
import threading

import numpy as np
import pytest

import dlarray
from dlarray import _core

needs_cuda = pytest.mark.skipif(dlarray.cuda.device_count() == 0, reason="no CUDA device visible")


def host(x):
    """The values of a dlarray array as a NumPy array (copied to the host)."""
    return np.from_dlpack(x.to_device("cpu"))


def first_gpu_device():
    """The first GPU device visible (cuda:0, else rocm:0), or a skip: for the real-GPU test files."""
    if dlarray.cuda.device_count() > 0:
        return "cuda:0"
    if dlarray.rocm.device_count() > 0:
        return "rocm:0"
    pytest.skip("no CUDA or ROCm device visible")


def stats(device):
    gc.collect()
    s = _core._allocator_stats(device)
    return s["allocations"], s["frees"], s["bytes_in_use"]


def torch_cuda():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("this torch has no CUDA")
    return torch


def fake_gpu_backend():
    """Generator for a pytest fixture: the host-memory fake GPU backend (dlarray._fake_gpu, see
    test_gpu_backend_fake.py) installed as rocm:0 and rocm:1 for the test, then removed."""
    real = "rocm" in _core._backends()
    if real and dlarray.rocm.device_count() > 0:
        pytest.skip("a real ROCm device is present")
    fg = pytest.importorskip("dlarray._fake_gpu", exc_type=ModuleNotFoundError)  # a broken build fails
    _core._uninstall_gpu_backend("rocm")
    fg.install()
    yield fg
    gc.collect()
    _core._uninstall_gpu_backend("rocm")
    if real:
        dlarray._rocm._install()


def fresh_log_and_streams(fake):
    """Generator for an autouse fixture: an empty call log before the test, the default
    streams of rocm:0 and rocm:1 made current again after it."""
    fake.clear_log()
    yield
    for d in (0, 1):
        dlarray.rocm.set_stream(dlarray.rocm.Stream(d, handle=0))


def random_values(shape, dtype, seed=0):
    """Standard-normal test data of a NumPy dtype name (complex: both parts random)."""
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dtype)


def run_in_threads(work, count=4):
    """work(i) for i < count, each in its own thread at once; the first exception any raised is
    raised here (an assertion in a thread would otherwise only be printed)."""
    errors = []

    def guarded(i):
        try:
            work(i)
        except Exception as e:  # noqa: BLE001 - re-raised below
            errors.append(e)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
