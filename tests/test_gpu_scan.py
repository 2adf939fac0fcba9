"""The vendor-library GPU scan (scan_async: CUB on CUDA, rocPRIM on ROCm, src/backends/gpu/gpu_scan.cu):
which scans take it (cumulative_sum, cumulative_prod, the running counts of nonzero and unique),
and its results against the CPU's, over the fake backend (the core's side: the outer x length x
inner layout, include_initial, dtypes, scratch memory, the elementwise fallback) and on a real GPU
(the library calls and the column kernel)."""
import numpy as np
import pytest

import dlarray as dl
from helpers.gpu_util import first_gpu_device, fresh_log_and_streams, host

SCANS = ["cumulative_sum", "cumulative_prod"]
DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
          "complex64", "complex128"]


@pytest.fixture
def log(fake):
    yield from fresh_log_and_streams(fake)


def scans_in(fake):
    return sum(1 for e in fake.log() if e[0] == "scan")


def elementwise_in(fake):
    return sum(1 for e in fake.log() if e[0] == "elementwise")


def data(shape, dtype, seed=0):
    """Small values (products stay representable for a few dozen steps), negatives where signed."""
    rng = np.random.default_rng(seed)
    if dtype.startswith("uint"):
        return rng.integers(0, 4, shape).astype(dtype)
    if dtype.startswith("int"):
        return rng.integers(-3, 4, shape).astype(dtype)
    v = rng.uniform(0.5, 1.5, shape) * rng.choice([-1, 1], shape)
    if dtype.startswith("complex"):
        v = v + 1j * rng.uniform(-0.5, 0.5, shape)
    return v.astype(dtype)


def on_both(name, a, device, **kw):
    """(GPU result on `device`, CPU result) of dl.<name>(a, **kw), both as NumPy arrays."""
    want = host(getattr(dl, name)(dl.asarray(a), **kw))
    got = getattr(dl, name)(dl.asarray(a).to_device(device), **kw)
    assert str(got.device) == device
    return host(got), want


# ---- over the fake backend ---------------------------------------------------------------------
# The fake's scan is the CPU's sequential loop in the GPU job's element types, so every result
# equals the CPU's exactly: any difference is the core's layout or dtype handling.

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", SCANS)
def test_scans_are_one_job_and_equal_the_cpu(fake, log, name, dtype):
    a = data((4, 5, 6), dtype, seed=3)
    for axis in (0, 1, 2, -1):
        for include_initial in (False, True):
            fake.clear_log()
            got, want = on_both(name, a, "rocm:0", axis=axis, include_initial=include_initial)
            assert scans_in(fake) == 1
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", SCANS)
def test_bool_and_half_inputs_are_scanned_as_the_core_promotes_them(fake, log, name):
    b = np.random.default_rng(1).integers(0, 2, (7, 9)).astype(bool)
    for axis in (0, 1):
        fake.clear_log()
        got, want = on_both(name, b, "rocm:0", axis=axis)
        assert scans_in(fake) == 1 and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    for dt in (dl.float16, dl.bfloat16):
        x = dl.astype(dl.asarray(data((5, 8), "float32")), dt)
        want = getattr(dl, name)(x, axis=1)
        fake.clear_log()
        got = getattr(dl, name)(x.to_device("rocm:0"), axis=1)
        assert scans_in(fake) == 1 and got.dtype == want.dtype
        np.testing.assert_array_equal(host(dl.astype(got, dl.float32)), host(dl.astype(want, dl.float32)))


@pytest.mark.parametrize("view", [
    lambda a: a.T, lambda a: a[::-1], lambda a: a[:, ::2], lambda a: a.transpose(2, 0, 1), lambda a: a[1:, 2:5, ::3],
], ids=["transposed", "flipped", "stepped", "moved", "sliced"])
def test_strided_inputs(fake, log, view):
    a = view(data((6, 7, 8), "float64", seed=5))
    for name in SCANS:
        for axis in range(a.ndim):
            fake.clear_log()
            got, want = on_both(name, a, "rocm:0", axis=axis)
            assert scans_in(fake) == 1
            np.testing.assert_array_equal(got, want)


def test_empty_and_length_one_axes_queue_no_scan(fake, log):
    for shape, axis in (((0, 4), 0), ((0, 4), 1), ((3, 0), 0), ((3, 1), 1), ((1,), 0), ((1, 5), 0)):
        a = data(shape, "float32")
        for include_initial in (False, True):
            fake.clear_log()
            got, want = on_both("cumulative_sum", a, "rocm:0", axis=axis, include_initial=include_initial)
            assert got.shape == want.shape
            np.testing.assert_array_equal(got, want)
            # An axis of one element (or none) has nothing to scan; include_initial makes it two.
            assert scans_in(fake) == (1 if include_initial and a.size > 0 and shape[axis] == 1 else 0)


def test_nan_and_inf_propagate_as_on_the_cpu(fake, log):
    a = np.array([[1.0, np.nan, 2.0, 3.0], [np.inf, 1.0, -np.inf, 4.0], [0.0, np.inf, 2.0, -0.0],
                  [-0.0, -0.0, -0.0, -0.0]])
    for name in SCANS:
        for axis in (0, 1):
            got, want = on_both(name, a, "rocm:0", axis=axis)
            np.testing.assert_array_equal(got, want)
            assert np.array_equal(np.signbit(got), np.signbit(want))
    c = np.array([1 + 1j, complex(np.nan, 0), 2j, complex(np.inf, 1)], dtype=np.complex128)
    for name in SCANS:
        got, want = on_both(name, c, "rocm:0")
        np.testing.assert_array_equal(got, want)


def test_integer_wrap_around_as_on_the_cpu(fake, log):
    for dtype in ("int8", "uint8", "int32", "int64", "uint64"):
        a = np.full((3, 40), np.iinfo(dtype).max // 3 + 1, dtype=dtype)
        for name in SCANS:
            got, want = on_both(name, a, "rocm:0", axis=1)
            np.testing.assert_array_equal(got, want)


def test_nonzero_and_unique_count_with_the_scan(fake, log):
    a = np.array([[0, 3, 0, 1], [2, 0, 0, 5], [3, 3, 1, 0]])
    x = dl.asarray(a).to_device("rocm:0")
    fake.clear_log()
    got = dl.nonzero(x)
    assert scans_in(fake) == 1
    for g, w in zip(got, np.nonzero(a)):
        np.testing.assert_array_equal(host(g), w)
    fake.clear_log()
    np.testing.assert_array_equal(host(dl.unique_values(x)), np.unique(a))
    assert scans_in(fake) >= 1


def test_an_older_backend_keeps_the_elementwise_scan(fake, log):
    a = data((5, 33), "float64", seed=2)
    before = fake.set_scan_unsupported(True)
    try:
        for axis in (0, 1):
            fake.clear_log()
            got, want = on_both("cumulative_sum", a, "rocm:0", axis=axis, include_initial=True)
            # Hillis–Steele: ceil(log2(length)) passes along the axis (length + 1 with the initial).
            assert scans_in(fake) == 0 and elementwise_in(fake) >= np.ceil(np.log2(a.shape[axis] + 1))
            np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-13)  # other rounding, cancellations
        fake.clear_log()
        got = dl.nonzero(dl.asarray(a > 1).to_device("rocm:0"))
        np.testing.assert_array_equal(host(got[1]), np.nonzero(a > 1)[1])
    finally:
        fake.set_scan_unsupported(before)


def test_scratch_is_asked_for_then_handed_over_on_the_current_stream(fake, log):
    s = dl.rocm.Stream(0)
    with dl.rocm.stream(s):
        x = dl.asarray(data((3, 8), "float32")).to_device("rocm:0")
        fake.clear_log()
        host(dl.cumulative_sum(x, axis=1))
    entries = [e for e in fake.log() if e[0] in ("scan_scratch", "scan")]
    assert [e[0] for e in entries] == ["scan_scratch", "scan"]
    assert entries[0][2] == entries[1][2] == s.handle


# ---- on a real GPU -----------------------------------------------------------------------------
# CUB's and rocPRIM's scans round differently from the CPU's sequential loop (gpu_scan.cu says
# how); the column kernel rounds the same. Float results are checked against an exact-enough
# reference, within the sequential bound k * eps * (running sum of |x|), integers exactly.

SIZES_1D = [2, 3, 255, 256, 4097, 65537, 2**20 + 3, 2**23 + 11]
# (rows, columns) shapes and the axis: one row, many short rows, few long rows, few columns
# (by-key over the column-major view), many columns (the column kernel).
SHAPES_2D = [((1, 100000), 1), ((100000, 7), 1), ((3, 2**20 + 5), 1), ((5000, 3), 0), ((17, 17), 0),
             ((1000, 5000), 0), ((64, 4096), 0), ((2**16 + 1, 2), 0)]


def check_real(name, a, dev, axis, include_initial=False):
    got, want = on_both(name, a, dev, axis=axis, include_initial=include_initial)
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind not in "fc":
        np.testing.assert_array_equal(got, want)
        return
    eps = np.finfo(want.dtype).eps
    if include_initial:
        a = np.concatenate([np.full_like(np.take(a, [0], axis=axis), 0 if name == "cumulative_sum" else 1), a],
                           axis=axis)
    k = np.arange(1, a.shape[axis] + 1).reshape([-1 if d == axis else 1 for d in range(a.ndim)])
    if name == "cumulative_sum":
        exact = np.cumsum(a.astype(np.clongdouble if want.dtype.kind == "c" else np.longdouble), axis=axis)
        scale = np.cumsum(np.abs(a).astype(np.longdouble), axis=axis)
        ok = np.abs(got - exact) <= 2 * k * eps * scale + np.finfo(want.dtype).tiny
    else:
        exact = np.cumprod(a.astype(np.clongdouble if want.dtype.kind == "c" else np.longdouble), axis=axis)
        ok = np.abs(got - exact) <= 4 * k * eps * np.abs(exact) + np.finfo(want.dtype).tiny
    assert np.all(ok | (np.isnan(got) & np.isnan(exact))), name


@pytest.mark.gpu
@pytest.mark.parametrize("n", SIZES_1D)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8", "int64", "complex64"])
def test_gpu_whole_array_scans(n, dtype):
    dev = first_gpu_device()
    a = data(n, dtype, seed=n)
    check_real("cumulative_sum", a, dev, 0)
    p = (1 + (a.real if dtype.startswith("complex") else a) / n).astype(dtype) if dtype[0] in "fc" else a
    check_real("cumulative_prod", p, dev, 0, include_initial=True)


@pytest.mark.gpu
@pytest.mark.parametrize("shape,axis", SHAPES_2D, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int16", "complex128"])
def test_gpu_matrix_scans(shape, axis, dtype):
    dev = first_gpu_device()
    a = data(shape, dtype, seed=11)
    check_real("cumulative_sum", a, dev, axis)
    check_real("cumulative_sum", a.T, dev, 1 - axis, include_initial=True)
    if dtype[0] in "fc":
        a = (1 + a / shape[axis]).astype(dtype)
    check_real("cumulative_prod", a, dev, axis)


@pytest.mark.gpu
def test_gpu_scan_nan_inf_and_counts():
    dev = first_gpu_device()
    a = np.random.default_rng(3).uniform(0, 1, (300, 5001))
    a[100, 4000] = np.nan
    a[200, 10] = np.inf
    for axis in (0, 1):
        got, want = on_both("cumulative_sum", a, dev, axis=axis)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    m = np.random.default_rng(4).uniform(0, 1, 2**22 + 7) > 0.5
    got = dl.nonzero(dl.asarray(m).to_device(dev))[0]
    np.testing.assert_array_equal(host(got), np.nonzero(m)[0])
    v = np.full(2**24 + 3, 1, dtype=np.int64)
    np.testing.assert_array_equal(host(dl.cumulative_sum(dl.asarray(v).to_device(dev))), np.arange(1, 2**24 + 4))
