"""Without a CUDA device (no driver, no GPU, or a build without CUDA): import works, the device
lists are empty, and everything that needs a device raises ValueError naming it."""
import numpy as np
import pytest

import dlarray
from dlarray import _core

pytestmark = pytest.mark.skipif(dlarray.cuda.device_count() > 0, reason="a CUDA device is visible")


def test_device_lists_are_empty():
    assert dlarray.cuda.device_count() == 0
    assert dlarray.cuda.is_available() is False
    assert not [d for d in _core._visible_devices() if d.type == "cuda"]


@pytest.mark.parametrize("device", ["cuda:0", "cuda_host:0", "cuda_managed:0", "cuda:3"])
def test_creation_raises_value_error(device):
    for make in (lambda: dlarray.zeros(3, device=device), lambda: dlarray.empty((2, 2), device=device),
                 lambda: dlarray.arange(4, device=device), lambda: dlarray.asarray([1, 2], device=device),
                 lambda: dlarray.asarray(np.ones(3)).to_device(device)):
        with pytest.raises(ValueError, match=device):
            make()


def test_stream_api_raises_value_error():
    for call in (dlarray.cuda.Stream, dlarray.cuda.current_stream, dlarray.cuda.synchronize,
                 dlarray.cuda.empty_cache, dlarray.cuda.memory_info):
        with pytest.raises(ValueError, match="cuda:0"):
            call()


def test_dlpack_to_a_missing_device():
    x = dlarray.asarray(np.arange(3))
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 0), max_version=(1, 0))
    with pytest.raises(ValueError, match="cuda:0"):
        dlarray.from_dlpack(np.arange(3), device="cuda:0")
    with pytest.raises(ValueError, match="cuda:0"):
        dlarray.from_dlpack(x, device="cuda:0")


def test_streams_are_refused_on_cpu_arrays():
    x = dlarray.asarray(np.arange(3))
    with pytest.raises(ValueError, match="None"):
        x.__dlpack__(stream=1)
    with pytest.raises(ValueError, match="CUDA or ROCm"):
        x.to_device("cuda_host:0", stream=1)  # host memory on both sides: no stream to use


@pytest.mark.skipif("cuda" not in _core._backends(), reason="built without the CUDA backend")
def test_allocator_stats_exist_for_cuda_kinds():
    for kind in ("cuda:0", "cuda_host:0", "cuda_managed:0"):
        assert set(_core._allocator_stats(kind)) == {"allocations", "frees", "bytes_in_use", "peak_bytes"}
