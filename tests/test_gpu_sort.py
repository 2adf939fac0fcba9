"""sort and argsort of GPU arrays against the CPU results, bit for bit: over dlarray._fake_gpu on
every machine, and on a real GPU (cuda:0, else rocm:0) in the tests marked gpu, skipped without one.

The fake backend runs the GPU's own element bodies (order keys, row positions, the gather of
sorted elements: src/backends/gpu/gpu_elementwise_kernels.h) on the host and replaces the
vendor library's segmented sort (CUB, rocPRIM: src/backends/gpu/gpu_sort.cu) by
std::stable_sort per row, so everything the core does around the library call
(src/backends/gpu/gpu_sort.cpp: the axis moved last, strides, descending keys, NaN and -0,
batches of rows, scratch memory, streams, errors) is checked over it. On a real GPU the tests
check the library calls themselves: CUB's or rocPRIM's segmented sort for many short rows, one
device-wide radix sort per long row, every key width, stability, and the stream-ordered scratch
memory. test_every_dtype_and_axis_matches_the_cpu runs on both (the gpu_device fixture).
"""
import gc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import dlarray as dl
from helpers.cases import REAL, bits, data, on_gpu
from helpers.gpu_util import clean, host, real_device  # noqa: F401  (clean, real_device: fixtures)

def assert_same_as_cpu(x_cpu, x_gpu, **kw):
    for fn in (dl.sort, dl.argsort):
        want = host(fn(x_cpu, **kw))
        got_arr = fn(x_gpu, **kw)
        assert str(got_arr.device) == str(x_gpu.device)
        got = host(got_arr)
        assert got.dtype == want.dtype and got.shape == want.shape, (fn.__name__, kw)
        np.testing.assert_array_equal(bits(got), bits(want), err_msg=f"{fn.__name__} {kw}")


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("descending", [False, True])
def test_every_dtype_and_axis_matches_the_cpu(gpu_device, dtype, descending):
    a = data((6, 7, 33), dtype, seed=len(dtype))
    x, g = dl.asarray(a), on_gpu(a, gpu_device)
    for axis in (-1, 0, 1, 2, -3):
        for stable in (True, False):
            assert_same_as_cpu(x, g, axis=axis, descending=descending, stable=stable)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nan_payloads_and_signed_zeros_keep_their_bits(fake, dtype):
    u = f"u{np.dtype(dtype).itemsize}"
    exp_bits = np.array([np.inf], dtype).view(u)[0]
    sign = np.array([-0.0], dtype).view(u)[0]
    payloads = [exp_bits | 1, exp_bits | 5, (exp_bits | 3) | sign, np.array([np.nan], dtype).view(u)[0] | sign]
    a = np.array([1.0, -0.0, 0.0, np.nan, -1.0, 0.0, -0.0, np.inf, -np.inf, 2.0] * 3, dtype)
    raw = a.view(u)
    raw[[3, 13, 23]] = payloads[:3]
    raw[12] = payloads[3]
    x, g = dl.asarray(a), on_gpu(a)
    for descending in (False, True):
        assert_same_as_cpu(x, g, descending=descending)
    # All NaNs, whatever their sign or payload, sort together after +inf in their original order.
    got = host(dl.sort(g)).view(u)
    nan_count = int(np.isnan(a).sum())
    np.testing.assert_array_equal(got[-nan_count:], raw[np.isnan(a)])
    assert host(dl.sort(g))[-nan_count - 1] == np.inf
    # Descending: NaNs first, then +inf; equal zeros keep their order (-0.0 before 0.0 here).
    d = host(dl.sort(g, descending=True))
    assert np.isnan(d[:nan_count]).all() and d[nan_count] == np.inf
    zeros = d[d == 0]
    np.testing.assert_array_equal(np.signbit(zeros), np.signbit(a[a == 0]))


def test_strided_transposed_and_reversed_inputs(fake):
    a = data((9, 12, 10), "float64", seed=3)
    g_full = on_gpu(a)
    x_full = dl.asarray(a)
    views = [
        lambda t: t[::2, :, 1::3],
        lambda t: dl.permute_dims(t, (2, 0, 1)),
        lambda t: t[:, ::-1, :],
        lambda t: dl.matrix_transpose(t[3]),
        lambda t: t[4, 5, ::-2],
    ]
    for view in views:
        x, g = view(x_full), view(g_full)
        for axis in range(-x.ndim, x.ndim):
            for descending in (False, True):
                assert_same_as_cpu(x, g, axis=axis, descending=descending)


@pytest.mark.parametrize("shape,axis", [((0,), 0), ((3, 0), -1), ((3, 0), 0), ((0, 4), 1), ((0, 4), 0),
                                        ((5, 1), -1), ((1,), 0), ((1, 1, 1), 1), ((4, 1, 3), 1)])
def test_empty_and_one_element_rows(fake, shape, axis):
    a = data(shape, "float32", seed=1) if np.prod(shape) else np.zeros(shape, "float32")
    assert_same_as_cpu(dl.asarray(a), on_gpu(a), axis=axis)
    fake.clear_log()
    dl.argsort(on_gpu(a), axis=axis)
    assert "segmented_sort" not in [e[0] for e in fake.log()]  # nothing to sort: no library call


def test_zero_d_and_bad_arguments_raise_as_on_the_cpu(fake):
    g = on_gpu(np.float64(1.0))
    with pytest.raises(IndexError, match="0 dimensions"):
        dl.sort(g)
    with pytest.raises(IndexError, match="0 dimensions"):
        dl.argsort(g)
    v = on_gpu(np.arange(3.0))
    with pytest.raises(IndexError, match="axis 1 is out of bounds"):
        dl.sort(v, axis=1)
    with pytest.raises(TypeError, match="descending must be a bool"):
        dl.sort(v, descending=1)
    with pytest.raises(TypeError, match="storage-only"):
        dl.sort(dl.asarray(np.ones(3, "float16")).to_device("rocm:0"))


@pytest.mark.parametrize("dtype", ["float32", "int64", "uint16", "bool"])
def test_long_rows(fake, dtype):
    a = data((3, 40000), dtype, seed=7)
    x, g = dl.asarray(a), on_gpu(a)
    for descending in (False, True):
        assert_same_as_cpu(x, g, descending=descending)
        assert_same_as_cpu(x, g, axis=0, descending=descending)


def test_batches_of_rows_and_rows_too_long(fake):
    a = data((7, 50), "float64", seed=11)
    x, g = dl.asarray(a), on_gpu(a)
    before = fake.set_sort_max_items(120)  # two rows per library call
    try:
        fake.clear_log()
        assert_same_as_cpu(x, g)
        sorts = [e for e in fake.log() if e[0] == "segmented_sort"]
        assert [e[3] for e in sorts] == [2, 2, 2, 1] * 2  # rows per call, for sort then argsort
        fake.set_sort_max_items(50)  # one row per call
        assert_same_as_cpu(x, g, axis=-1, descending=True)
        fake.set_sort_max_items(49)
        with pytest.raises(NotImplementedError, match="rows of 50 elements are longer than the rocm sort takes"):
            dl.sort(g)
        assert_same_as_cpu(x, g, axis=0)  # rows of 7 still fit
    finally:
        fake.set_sort_max_items(before)


def test_work_is_queued_on_the_current_stream_and_scratch_returned(fake):
    s = dl.rocm.Stream(0)
    a = data((4, 100), "int32", seed=5)
    g = on_gpu(a)
    gc.collect()
    blocks = fake.live_device_blocks()
    with dl.rocm.stream(s):
        fake.clear_log()
        r = dl.argsort(g, axis=0)
        log = fake.log()
    work = [e for e in log if e[0] in ("malloc", "free", "elementwise", "sort_scratch", "segmented_sort",
                                        "strided_copy", "memcpy")]
    assert work and all(e[2] == s.handle for e in work), work
    assert [e[0] for e in log].count("segmented_sort") == 1
    del r
    gc.collect()
    assert fake.live_device_blocks() == blocks  # keys, positions and scratch freed (stream-ordered)


def test_pinned_memory_is_sorted_by_the_cpu(fake):
    a = data((5, 6), "float32", seed=2)
    p = dl.asarray(a).to_device("rocm_host:0")
    fake.clear_log()
    assert_same_as_cpu(dl.asarray(a), p, axis=0)
    assert "segmented_sort" not in [e[0] for e in fake.log()]


def test_count_nonzero_runs_on_the_device(fake):
    # Composed from a cast to bool and the GPU's int64 sum, so it works once the table exists.
    a = data((4, 5, 6), "float64", seed=4)
    x, g = dl.asarray(a), on_gpu(a)
    for kw in ({}, {"axis": 1}, {"axis": (0, 2), "keepdims": True}):
        got = dl.count_nonzero(g, **kw)
        assert str(got.device) == "rocm:0"
        np.testing.assert_array_equal(host(got), host(dl.count_nonzero(x, **kw)))


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hnp.arrays(np.float32, hnp.array_shapes(min_dims=1, max_dims=3, max_side=12),
                  elements=st.floats(allow_nan=True, allow_infinity=True, width=32)
                  | st.sampled_from([0.0, -0.0, 1.0])),
       st.integers(0, 2), st.booleans())
def test_random_float_arrays(fake, a, axis, descending):
    axis = axis % a.ndim
    assert_same_as_cpu(dl.asarray(a), on_gpu(a), axis=axis, descending=descending)


# ---- on a real GPU: the library calls ------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(1000, 37), (64, 5000), (3, 40000), (2, (1 << 20) + 3), ((1 << 22) + 1,)],
                         ids=["many-short", "medium", "few-long", "rows-alone", "one-row"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint16", "int64"])
def test_segment_sizes(real_device, shape, dtype):
    a = data(shape, dtype, seed=sum(shape))
    x, g = dl.asarray(a), on_gpu(a, real_device)
    assert_same_as_cpu(x, g, descending=False)
    assert_same_as_cpu(x, g, descending=True)


@pytest.mark.gpu
def test_transposed_input_and_nan_payloads(real_device):
    a = data((300, 200), "float64", seed=9)
    raw = a.view("u8")
    raw[::7, ::5] = np.array([np.nan]).view("u8")[0] | 0x8000000000000003  # negative NaN with payload
    g = on_gpu(a, real_device)
    for axis in (0, 1):
        got = host(dl.sort(dl.matrix_transpose(g), axis=axis, descending=axis == 1))
        want = host(dl.sort(dl.matrix_transpose(dl.asarray(a)), axis=axis, descending=axis == 1))
        np.testing.assert_array_equal(bits(got), bits(want))


@pytest.mark.gpu
def test_on_a_side_stream(real_device):
    mod = dl.cuda if real_device.startswith("cuda") else dl.rocm
    s = mod.Stream(0)
    a = data((50, 3000), "float32", seed=1)
    with mod.stream(s):
        g = on_gpu(a, real_device)
        r = dl.argsort(g, axis=0, descending=True)
        s.synchronize()
    np.testing.assert_array_equal(host(r), host(dl.argsort(dl.asarray(a), axis=0, descending=True)))
