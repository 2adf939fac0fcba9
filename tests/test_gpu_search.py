"""argmax/argmin, searchsorted, nonzero and unique_* on a real GPU (cuda:0, else rocm:0) against the CPU.

tests/test_gpu_search_fake.py checks the logic over the fake backend; these run the same
element bodies as nvcc/hipcc kernels (src/backends/gpu/gpu_elementwise_kernels.h: 32-bit and
64-bit index paths, many threads writing distinct slots) and the vendor sort unique uses.
Skipped without a device.
"""
import numpy as np
import pytest

import dlarray as dl
from helpers.gpu_util import first_gpu_device, host
from test_gpu_sort import REAL, bits, data

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def device():
    return first_gpu_device()


def same(got, want):
    g, w = host(got), host(want)
    assert g.dtype == w.dtype and g.shape == w.shape
    np.testing.assert_array_equal(bits(g), bits(w))


@pytest.mark.parametrize("dtype", REAL)
def test_all_four_every_dtype(device, dtype):
    a = data((40, 33, 7), dtype, seed=len(dtype))
    x, g = dl.asarray(a), dl.asarray(a).to_device(device)
    for fn in (dl.argmax, dl.argmin):
        same(fn(g), fn(x))
        for axis in (0, 1, 2):
            same(fn(g, axis=axis), fn(x, axis=axis))
    s = np.sort(a.ravel())
    for side in ("left", "right"):
        same(dl.searchsorted(dl.asarray(s).to_device(device), g, side=side), dl.searchsorted(dl.asarray(s), x, side=side))
    for gd, cd in zip(dl.nonzero(g), dl.nonzero(x)):
        same(gd, cd)
    for gv, cv in zip(dl.unique_all(g), dl.unique_all(x)):
        same(gv, cv)
    same(dl.unique_values(g), dl.unique_values(x))


def test_long_inputs(device):
    a = data((3_000_000,), "float32", seed=5)
    x, g = dl.asarray(a), dl.asarray(a).to_device(device)
    same(dl.argmax(g), dl.argmax(x))
    same(dl.argmin(g), dl.argmin(x))
    for gd, cd in zip(dl.nonzero(g), dl.nonzero(x)):
        same(gd, cd)
    for gv, cv in zip(dl.unique_counts(g), dl.unique_counts(x)):
        same(gv, cv)
