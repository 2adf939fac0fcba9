"""Shared pytest setup: GPU tests are skipped unless a CUDA or ROCm device is visible, and
hypothesis runs the same examples on every run (CI must not turn red by chance; a failure
found by exploring is fixed and then kept as a test).

HYPOTHESIS_PROFILE=explore draws new examples each run.
DLARRAY_GPU_TESTS_OVER_FAKE=1 with `-m gpu` runs the GPU test files over the fake backend
(dlarray._fake_gpu as rocm:0): it checks the tests' own logic on a machine without a GPU (the
kernels they test are the GPU's; CUDA-only tests still skip).
"""
import os
import sys

# dpnp's OpenCL CPU device (pip install dpnp intel-opencl-rt) needs the ICD loader pointed at
# Intel's CPU runtime before anything starts SYCL; the oneapi tests skip without it.
_intelocl = os.path.join(sys.prefix, "lib", "libintelocl.so")
if "OCL_ICD_FILENAMES" not in os.environ and os.path.exists(_intelocl):
    os.environ["OCL_ICD_FILENAMES"] = _intelocl

import pytest
from hypothesis import settings

import dlarray
from helpers.gpu_util import ON_FAKE_AND_GPU, fake_gpu_backend, gpu_device_for

if os.environ.get("DLARRAY_GPU_TESTS_OVER_FAKE"):
    import dlarray._fake_gpu

    if "rocm" in dlarray._core._backends():
        dlarray._core._uninstall_gpu_backend("rocm")
    dlarray._fake_gpu.install()

settings.register_profile("deterministic", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))


@pytest.fixture(scope="module")
def fake():
    """The host-memory fake GPU backend installed as rocm:0 and rocm:1 for a test module."""
    yield from fake_gpu_backend()


@pytest.fixture(params=ON_FAKE_AND_GPU)
def gpu_device(request):
    """The device of a test body shared by the fake backend and real GPUs (helpers/gpu_util.py):
    rocm:0 of the fake backend, then the first real GPU (marked gpu: skipped without one). A test
    names other devices, or cases that differ by device, with
    @pytest.mark.parametrize("gpu_device", [...], indirect=True) and helpers.gpu_util.on()."""
    yield from gpu_device_for(request)


def _gpu_visible():
    return any(str(d) != "cpu" for d in dlarray._core._visible_devices())


def pytest_collection_modifyitems(config, items):
    if _gpu_visible():
        return
    skip = pytest.mark.skip(reason="no CUDA or ROCm device visible")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
