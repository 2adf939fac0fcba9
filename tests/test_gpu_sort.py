"""sort and argsort on a real GPU (cuda:0, else rocm:0) against the CPU, bit for bit.

tests/test_gpu_sort_fake.py checks everything around the vendor library over the fake backend;
these tests check the library calls themselves (src/backends/gpu/gpu_sort.cu): CUB's or
rocPRIM's segmented sort for many short rows, one device-wide radix sort per long row, every
key width, stability, and the stream-ordered scratch memory. Skipped without a device.
"""
import numpy as np
import pytest

import dlarray as dl
from helpers.gpu_util import first_gpu_device, host
from test_gpu_sort_fake import REAL, bits, data

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def device():
    return first_gpu_device()


def check(a, device, **kw):
    x, g = dl.asarray(a), dl.asarray(a).to_device(device)
    for fn in (dl.sort, dl.argsort):
        got, want = host(fn(g, **kw)), host(fn(x, **kw))
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(bits(got), bits(want), err_msg=f"{fn.__name__} {kw}")


@pytest.mark.parametrize("dtype", REAL)
def test_every_dtype_axis_and_order(device, dtype):
    a = data((6, 7, 33), dtype, seed=len(dtype))
    for axis in (-1, 0, 1):
        for descending in (False, True):
            check(a, device, axis=axis, descending=descending)


@pytest.mark.parametrize("shape", [(1000, 37), (64, 5000), (3, 40000), (2, (1 << 20) + 3), ((1 << 22) + 1,)],
                         ids=["many-short", "medium", "few-long", "rows-alone", "one-row"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint16", "int64"])
def test_segment_sizes(device, shape, dtype):
    a = data(shape, dtype, seed=sum(shape))
    check(a, device, descending=False)
    check(a, device, descending=True)


def test_transposed_input_and_nan_payloads(device):
    a = data((300, 200), "float64", seed=9)
    raw = a.view("u8")
    raw[::7, ::5] = np.array([np.nan]).view("u8")[0] | 0x8000000000000003  # negative NaN with payload
    g = dl.asarray(a).to_device(device)
    for axis in (0, 1):
        got = host(dl.sort(dl.matrix_transpose(g), axis=axis, descending=axis == 1))
        want = host(dl.sort(dl.matrix_transpose(dl.asarray(a)), axis=axis, descending=axis == 1))
        np.testing.assert_array_equal(bits(got), bits(want))


def test_on_a_side_stream(device):
    mod = dl.cuda if device.startswith("cuda") else dl.rocm
    s = mod.Stream(0)
    a = data((50, 3000), "float32", seed=1)
    with mod.stream(s):
        g = dl.asarray(a).to_device(device)
        r = dl.argsort(g, axis=0, descending=True)
        s.synchronize()
    np.testing.assert_array_equal(host(r), host(dl.argsort(dl.asarray(a), axis=0, descending=True)))
