"""Helpers shared by the GPU test files (tests/test_gpu_*.py): the fake backend's fixture, the
device a test body shared by the fake backend and real GPUs runs on (on(), GpuDevice, the
gpu_device fixture of tests/conftest.py), and small tools (host copies, threads, test data)."""
import gc
import os
import subprocess
import sys
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


def run_with_fake_gpu(code, preamble=""):
    """Runs `code` in a child Python that imports this dlarray and installs the fake backend as
    rocm:0 and rocm:1 (after `preamble`, e.g. a resource limit); returns the CompletedProcess."""
    child = (preamble + "import dlarray, dlarray._fake_gpu as fg\n"
             "if 'rocm' in dlarray._core._backends(): dlarray._core._uninstall_gpu_backend('rocm')\n"
             "fg.install()\n" + code)
    root = os.path.dirname(os.path.dirname(os.path.abspath(dlarray.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    return subprocess.run([sys.executable, "-c", child], env=env, capture_output=True, text=True, timeout=120)


def fresh_log_and_streams(fake):
    """Generator for an autouse fixture: an empty call log before the test, the default
    streams of rocm:0 and rocm:1 made current again after it."""
    fake.clear_log()
    yield
    _default_streams()


def _default_streams():
    for d in (0, 1):
        dlarray.rocm.set_stream(dlarray.rocm.Stream(d, handle=0))


@pytest.fixture(autouse=True)
def clean(request):
    """The autouse fixture of the files that hold fake and real-device tests (they import it):
    fresh_log_for_fake_tests."""
    yield from fresh_log_for_fake_tests(request)


@pytest.fixture(scope="module")
def real_device():
    """The first real GPU device (a skip without one), for the real-device tests of those files."""
    return first_gpu_device()


def fresh_log_for_fake_tests(request):
    """Generator for the autouse fixture of a file that holds both kinds of test: for a test that
    takes `fake`, fresh_log_and_streams; for the others nothing, so that a real-device test does
    not install the fake backend (which skips where a real ROCm device is present)."""
    if "fake" in request.fixturenames:
        yield from fresh_log_and_streams(request.getfixturevalue("fake"))
    else:
        yield


# ---- one test body on the fake backend and on real GPUs ------------------------------------------
# A check that holds on every GPU is written once and parametrised over where it runs: the fake
# backend here (and on every machine), a real device when one is visible. Cases for real devices
# are marked gpu, so `-m gpu` (scripts/gpu-test) selects them and tests/conftest.py skips them
# without a device.

FAKE = "fake"  # rocm:0 of the fake backend (dlarray._fake_gpu), installed by the `fake` fixture
GPU = "gpu"  # the first real GPU: cuda:0, else rocm:0
CUDA = "cuda"  # cuda:0 only: checks of NVIDIA's libraries (cuBLAS, cuFFT, cuSOLVER)
_MARKS = {FAKE: (), GPU: (pytest.mark.gpu,), CUDA: (pytest.mark.gpu, needs_cuda)}


def on(where, *values):
    """One case of a shared test body: pytest.param(where, *values) with the marks of `where`
    (FAKE, GPU or CUDA), for @pytest.mark.parametrize("gpu_device, ...", cases,
    indirect=["gpu_device"]) where the cases differ by device (sizes, tolerances)."""
    return pytest.param(where, *values, marks=_MARKS[where])


def cuda_only(test):
    """Decorator for a check of NVIDIA's libraries on cuda:0 alone: marked gpu, skipped without a
    CUDA device."""
    return pytest.mark.gpu(needs_cuda(test))


ON_FAKE_AND_GPU = [on(FAKE), on(GPU)]  # the gpu_device fixture's devices unless a test names others
ON_FAKE_AND_CUDA = [on(FAKE), on(CUDA)]


class GpuDevice(str):
    """The device a shared test body runs on: its name (this string) and `where` (FAKE, GPU or
    CUDA), which picks the body's sizes and tolerances for it."""

    def __new__(cls, name, where):
        self = super().__new__(cls, name)
        self.where = where
        return self


def gpu_device_for(request):
    """Generator for the gpu_device fixture: the device of request.param (FAKE, GPU or CUDA); on the
    fake one with an empty call log before the test and the default streams after it."""
    if request.param != FAKE:
        yield GpuDevice("cuda:0" if request.param == CUDA else first_gpu_device(), request.param)
        return
    fake = request.getfixturevalue("fake")
    fake.clear_log()
    yield GpuDevice("rocm:0", FAKE)
    _default_streams()


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
