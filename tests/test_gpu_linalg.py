"""matmul, `@`, tensordot, vecdot and the linalg extension's LAPACK forms of GPU arrays against the
CPU: over dlarray._fake_gpu on every machine, and on a real CUDA device (cuBLAS and cuSOLVER,
loaded at run time) in the tests marked gpu, skipped without one.

The fake backend replaces cuBLAS's strided-batched GEMM (the table's gemm_async) by a plain
column-major loop that checks what cuBLAS checks (sizes, leading dimensions) and what a device
would trip over (operands outside device memory, an output overlapping an input), and it runs the
integer matmul element job (gpu_elementwise_kernels.h, MatmulBody) as the GPU would. So all the
core does (src/backends/gpu/gpu_linalg.cpp: the row-major to column-major swap, transposed views
passed as transposes, the stack coalesced into one strided batch or a loop of them, broadcast
stacks with stride 0, the copies of layouts BLAS cannot read, errors) is checked over it.
Floating inputs hold small integers there, so every summation order gives the exact CPU result.
The LAPACK forms (cholesky, inv, solve, det, slogdet, qr, svd, svdvals, eigh, eigvalsh, eig,
eigvals) go to the table's solver_async as one job per call; the fake runs the CPU's own LAPACK
code on it after checking that every buffer lies in device memory, so the results must equal the
CPU's exactly, and what is checked is the core's half (src/backends/gpu/gpu_linalg.cpp: the job,
its scratch and info array from the device's pool on the current stream, the info read back and
turned into LinAlgError, the library errors).

On cuda:0 the same layout and factorisation checks run against cuBLAS and cuSOLVER with random
values, within each dtype's tolerance; factors that are unique only up to signs or phases (QR,
SVD, eigenvectors) are checked by what defines them (reconstruction, orthonormality,
triangularity) and their invariants against the CPU. The tests marked gpu alone check that the
libraries load (from the nvidia-* wheels, or wherever PyTorch or CuPy got theirs) on first use,
compute what OpenBLAS and LAPACK compute for every floating and complex dtype, layout and stack
(wide and tall matrices, empty ones, LinAlgError from the info array), run on the current stream,
from several threads, without TF32, and that a missing library is reported with what to install.
"""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import dlarray as dl
from helpers.gpu_util import (CUDA, FAKE, GpuDevice, cuda_only, fresh_log_for_fake_tests, host, on,
                              random_values as normal, run_in_threads)

FLOAT = ["float32", "float64", "complex64", "complex128"]
INT = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
DLA_GPU_UNSUPPORTED, DLA_GPU_LIBRARY_MISSING, DLA_GPU_BLAS_ALLOC_FAILED = -1, -2, -1003
DLA_GPU_SOLVER_ALLOC_FAILED, DLA_GPU_SOLVER_INTERNAL_ERROR = -3002, -3007
FAKE_DEVICE, CUDA_DEVICE = GpuDevice("rocm:0", FAKE), GpuDevice("cuda:0", CUDA)
# cuBLAS against OpenBLAS on random values: the relative error allowed (of the result's magnitude)
RTOL = {"float32": 1e-4, "complex64": 1e-4, "float64": 1e-11, "complex128": 1e-11}


@pytest.fixture(autouse=True)
def clean(request):
    yield from fresh_log_for_fake_tests(request)


def values(shape, dtype, seed=0):
    """Small integers (exact in every dtype and summation order); complex ones get an imaginary part."""
    rng = np.random.default_rng(seed)
    v = rng.integers(-4, 5, shape)
    if dtype.startswith("complex"):
        v = v + 1j * rng.integers(-4, 5, shape)
    if dtype.startswith("uint"):
        v = np.abs(v)
    return v.astype(dtype)


def operands(device, shape, dtype, seed=0):
    """Test data for the products on `device`: small integers over the fake backend (every summation
    order gives the CPU's result exactly), random values on a real device (cuBLAS's rounding)."""
    return values(shape, dtype, seed) if device.where == FAKE else normal(shape, dtype, seed)


def gpu(a, device="rocm:0"):
    return dl.asarray(a).to_device(device)


def agree(got, want, device, what=""):
    """got, on `device`, against the CPU's want: the same dtype and shape; equal over the fake
    backend, within RTOL of the result's magnitude on a real device."""
    assert str(got.device) == device, what
    assert got.dtype == want.dtype and got.shape == want.shape, what
    w = host(want)
    if device.where == FAKE:
        np.testing.assert_array_equal(host(got), w, err_msg=str(what))
    else:
        tol = RTOL[str(want.dtype)]
        scale = max(1.0, float(np.abs(w).max(initial=0.0)))
        np.testing.assert_allclose(host(got), w, rtol=tol, atol=tol * scale, err_msg=str(what))


def gemm_calls(fake):
    return [e for e in fake.log() if e[0] == "gemm"]


def assert_matches_cpu(fn, *arrays, **kw):
    """fn on the GPU copies of `arrays` (NumPy, or callables of a dlarray array: views) equals fn on the CPU."""
    want = fn(*[dl.asarray(a) for a in arrays], **kw)
    got = fn(*[gpu(a) for a in arrays], **kw)
    assert str(got.device) == "rocm:0"
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(host(got), host(want))
    return got


# The shapes multiplied over the fake backend (every layout path of the core), and on cuda:0 (cuBLAS).
SHAPES = [
    ((4, 5), (5, 3)),
    ((5,), (5, 3)),  # 1-D x1: a row
    ((4, 5), (5,)),  # 1-D x2: a column
    ((5,), (5,)),  # both: a 0-d result
    ((1, 5), (5, 1)),
    ((4, 1), (1, 3)),  # K = 1
    ((7, 4, 5), (7, 5, 3)),  # a stack
    ((2, 3, 4, 5), (2, 3, 5, 2)),  # a 2-d stack that coalesces into one batch
    ((4, 5), (2, 5, 3)),  # x1 broadcast over x2's stack (stride 0)
    ((2, 4, 5), (5, 3)),
    ((2, 1, 4, 5), (3, 5, 6)),
    ((2, 1, 4, 5), (1, 3, 5, 6)),  # an outer product of stacks: a loop of batched calls
    ((3, 1, 2, 4, 5), (1, 2, 1, 5, 3)),
]
CUDA_SHAPES = [((64, 48), (48, 32)), ((48,), (48, 32)), ((64, 48), (48,)), ((48,), (48,)), ((7, 5, 9), (7, 9, 3)),
               ((2, 3, 4, 5), (2, 3, 5, 6)), ((4, 5), (6, 5, 3)), ((2, 1, 4, 5), (1, 3, 5, 6)), ((1, 1), (1, 1)),
               ((300, 257), (257, 129))]
MATMUL_CASES = ([on(FAKE, dtype, shapes) for shapes in SHAPES for dtype in FLOAT + INT]
                + [on(CUDA, dtype, shapes) for shapes in CUDA_SHAPES for dtype in FLOAT])


@pytest.mark.parametrize("gpu_device, dtype, shapes", MATMUL_CASES, indirect=["gpu_device"], ids=str)
def test_matmul_matches_the_cpu(gpu_device, dtype, shapes):
    sa, sb = shapes
    a, b = operands(gpu_device, sa, dtype, 1), operands(gpu_device, sb, dtype, 2)
    agree(dl.matmul(gpu(a, gpu_device), gpu(b, gpu_device)), dl.matmul(dl.asarray(a), dl.asarray(b)), gpu_device)


# (x1, x2) of a, b and their transposed copies at, bt (stacks of 3 matrices)
VIEWS = [
    lambda a, b, at, bt: (at.mT, b),  # x1 transposed: passed to BLAS as a transpose, no copy
    lambda a, b, at, bt: (a, bt.mT),
    lambda a, b, at, bt: (at.mT, bt.mT),
    lambda a, b, at, bt: (a[::-1], b),  # a flipped stack (negative batch stride)
    lambda a, b, at, bt: (a[:, ::2, :], b),  # rows two apart: twice the leading dimension
    lambda a, b, at, bt: (a[:, :, ::-1], b[:, ::-1, :]),  # negative strides: copied first
    lambda a, b, at, bt: (a[..., :4, 1:4], b[:, 1:4, :]),  # submatrices
    lambda a, b, at, bt: (a[1, 3:, 2:30], b[0, 2:30]),
    lambda a, b, at, bt: (dl.permute_dims(a, (1, 0, 2))[:3], b),  # a stack axis that is not outermost
    lambda a, b, at, bt: (a[1], b[2]),  # offsets into the buffers
    lambda a, b, at, bt: (a[0], b),  # a matrix broadcast over b's stack
    lambda a, b, at, bt: (a[:, 0, :], b),  # a 1-D x1 out of a 2-D view, broadcast over b's stack
]
VIEW_SHAPES = {FAKE: ((3, 6, 5), (3, 5, 4)), CUDA: ((3, 40, 33), (3, 33, 20))}  # a's and b's
VIEW_CASES = ([on(FAKE, dtype) for dtype in ["float32", "float64", "complex64", "complex128", "int32", "uint8"]]
              + [on(CUDA, dtype) for dtype in FLOAT])


@pytest.mark.parametrize("gpu_device, dtype", VIEW_CASES, indirect=["gpu_device"])
def test_transposed_and_strided_views(gpu_device, dtype):
    sa, sb = VIEW_SHAPES[gpu_device.where]
    a, b = operands(gpu_device, sa, dtype, 3), operands(gpu_device, sb, dtype, 4)
    at, bt = operands(gpu_device, sa[:1] + sa[:0:-1], dtype, 5), operands(gpu_device, sb[:1] + sb[:0:-1], dtype, 6)
    g = [gpu(x, gpu_device) for x in (a, b, at, bt)]
    c = [dl.asarray(x) for x in (a, b, at, bt)]
    for i, case in enumerate(VIEWS):
        agree(dl.matmul(*case(*g)), dl.matmul(*case(*c)), gpu_device, f"case {i}")


def test_transposes_reach_blas_without_a_copy(fake):
    a, b = values((4, 6), "float64"), values((5, 4), "float64", 1)
    ga, gb = gpu(a), gpu(b)
    fake.clear_log()
    r = dl.matmul(ga.mT, gb.mT)  # (6, 4) @ (4, 5)
    ops = [e[0] for e in fake.log()]
    assert ops.count("gemm") == 1 and "strided_copy" not in ops and "memcpy" not in ops, ops
    np.testing.assert_array_equal(host(r), a.T @ b.T)


def test_a_stack_is_one_batched_call(fake):
    a, b = values((2, 3, 4, 5), "float32"), values((2, 3, 5, 6), "float32", 1)
    ga, gb = gpu(a), gpu(b)
    fake.clear_log()
    r = dl.matmul(ga, gb)
    assert [e[3] for e in gemm_calls(fake)] == [6]  # one call, batch 6
    np.testing.assert_array_equal(host(r), a @ b)
    fake.clear_log()
    r = dl.matmul(gpu(values((4, 5), "float32")), gb)  # x1 broadcast: stride 0, still one call
    assert [e[3] for e in gemm_calls(fake)] == [6]
    fake.clear_log()
    dl.matmul(gpu(values((2, 1, 4, 5), "float32")), gpu(values((1, 3, 5, 6), "float32")))
    assert [e[3] for e in gemm_calls(fake)] == [3, 3]  # an outer loop over the axis that does not coalesce


def test_integer_matmul_wraps_around_as_on_the_cpu(fake):
    for dtype in INT:
        info = np.iinfo(dtype)
        a = np.array([[info.max, info.min, 3], [info.max, info.max, -1 if info.min else 1]], dtype)
        b = np.array([[info.max, 2], [info.min, info.max], [7, info.max]], dtype)
        assert_matches_cpu(dl.matmul, a, b)
    fake.clear_log()
    dl.matmul(gpu(values((3, 4), "int64")), gpu(values((4, 2), "int64")))
    assert not gemm_calls(fake) and "elementwise" in [e[0] for e in fake.log()]


@pytest.mark.parametrize("pair", [("int8", "int32"), ("int8", "uint8"), ("float32", "float64"),
                                  ("uint16", "int64")])
def test_mixed_dtypes_promote_as_on_the_cpu(fake, pair):
    assert_matches_cpu(dl.matmul, values((3, 4), pair[0]), values((4, 2), pair[1], 1))


@pytest.mark.parametrize("dtype", ["float32", "complex128", "int16"])
@pytest.mark.parametrize("shapes", [((0, 5), (5, 3)), ((4, 0), (0, 3)), ((4, 5), (5, 0)), ((0, 4, 5), (5, 3)),
                                    ((2, 3, 0), (2, 0, 4)), ((0,), (0,))], ids=str)
def test_empty_shapes(fake, dtype, shapes):
    sa, sb = shapes
    fake.clear_log()
    r = assert_matches_cpu(dl.matmul, values(sa, dtype), values(sb, dtype, 1))
    assert not gemm_calls(fake)  # nothing to multiply; K = 0 is a fill with zeros
    if r.size:
        assert not host(r).any()


def test_operator_and_its_reflection(fake):
    a, b = values((3, 4), "float64"), values((4, 2), "float64", 1)
    ga, gb = gpu(a), gpu(b)
    np.testing.assert_array_equal(host(ga @ gb), a @ b)
    np.testing.assert_array_equal(host(gb.mT @ ga.mT), (a @ b).T)
    c = gpu(values((3, 3), "float64", 2))
    c2 = c
    c @= gpu(values((3, 3), "float64", 3))
    np.testing.assert_array_equal(host(c), values((3, 3), "float64", 2) @ values((3, 3), "float64", 3))
    assert c2 is not None


TENSORDOT = [((3, 4, 5), (4, 5, 2), 2), ((3, 4, 5), (5, 2), 1), ((3, 4), (2, 5), 0),
             ((3, 4, 5), (4, 3, 5), ([1, 0], [0, 1])), ((3, 4, 5), (4, 5, 3), ([2], [1]))]


@pytest.mark.parametrize("dtype", ["float32", "complex64", "int32"])
@pytest.mark.parametrize("case", TENSORDOT, ids=str)
def test_tensordot_matches_the_cpu(fake, dtype, case):
    sa, sb, axes = case
    assert_matches_cpu(dl.tensordot, values(sa, dtype), values(sb, dtype, 1), axes=axes)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_vecdot_matches_the_cpu(fake, dtype):
    # Complex vecdot conjugates x1 with an elementwise kernel GPUs do not have yet
    # (tests/test_gpu_linalg.py covers it on a real device once they do).
    a, b = values((3, 4, 5), dtype), values((4, 5), dtype, 1)
    for axis in (-1, -2):
        assert_matches_cpu(dl.vecdot, a, b, axis=axis)
    assert_matches_cpu(dl.vecdot, values((2, 1, 5), dtype), values((3, 5), dtype, 1))


def test_work_is_queued_on_the_current_stream(fake):
    s = dl.rocm.Stream(0)
    ga, gb = gpu(values((2, 3, 4), "float32")), gpu(values((2, 4, 5), "float32", 1))
    gi, gj = gpu(values((3, 4), "int32")), gpu(values((4, 5), "int32", 1))
    with dl.rocm.stream(s):
        fake.clear_log()
        dl.matmul(ga, gb)
        dl.matmul(gi, gj)
        log = fake.log()
    work = [e for e in log if e[0] in ("gemm", "elementwise", "malloc")]
    assert work and all(e[2] == s.handle for e in work), work


def test_second_device(fake):
    a, b = values((3, 4), "float64"), values((4, 2), "float64", 1)
    r = dl.matmul(gpu(a, "rocm:1"), gpu(b, "rocm:1"))
    assert str(r.device) == "rocm:1"
    assert gemm_calls(fake)[-1][1] == 1
    np.testing.assert_array_equal(host(r), a @ b)
    with pytest.raises(ValueError, match="different devices"):
        dl.matmul(gpu(a, "rocm:0"), gpu(b, "rocm:1"))


def test_pinned_memory_is_multiplied_by_the_cpu(fake):
    a, b = values((3, 4), "float64"), values((4, 2), "float64", 1)
    fake.clear_log()
    r = dl.matmul(dl.asarray(a).to_device("rocm_host:0"), dl.asarray(b).to_device("rocm_host:0"))
    assert not gemm_calls(fake)
    np.testing.assert_array_equal(host(r), a @ b)


def test_bad_operands_raise_what_the_cpu_raises(fake):
    for a, b, exc in [(values((3, 4), "float32"), values((5, 2), "float32"), ValueError),
                      (np.ones((3, 4), bool), np.ones((4, 2), bool), TypeError),
                      (values((3,), "float32"), np.float32(2), ValueError)]:
        with pytest.raises(exc):
            dl.matmul(dl.asarray(a), dl.asarray(b))
        with pytest.raises(exc):
            dl.matmul(gpu(a), gpu(b))


def test_library_errors_reach_python(fake):
    ga, gb = gpu(values((3, 4), "float32")), gpu(values((4, 2), "float32", 1))
    try:
        fake.set_gemm_error(DLA_GPU_LIBRARY_MISSING)
        with pytest.raises(RuntimeError, match=r"matmul on device 'rocm:0': .*could not be loaded.*nvidia-cublas"):
            dl.matmul(ga, gb)
        fake.set_gemm_error(DLA_GPU_UNSUPPORTED)
        with pytest.raises(NotImplementedError, match=r"matmul on device 'rocm:0' is not available yet for dtype "
                                                      r"float32 \(the rocm backend has no BLAS library\)"):
            ga @ gb
        fake.set_gemm_error(DLA_GPU_BLAS_ALLOC_FAILED)
        with pytest.raises(MemoryError, match="out of memory"):
            dl.matmul(ga, gb)
        # The integer path needs no library.
        np.testing.assert_array_equal(host(dl.matmul(gpu(values((3, 4), "int8")), gpu(values((4, 2), "int8", 1)))),
                                      values((3, 4), "int8") @ values((4, 2), "int8", 1))
    finally:
        fake.set_gemm_error(0)
    np.testing.assert_array_equal(host(dl.matmul(ga, gb)), values((3, 4), "float32") @ values((4, 2), "float32", 1))


def test_large_random_products_agree_within_rounding(fake):
    rng = np.random.default_rng(7)
    for dtype, rtol in (("float32", 2e-5), ("float64", 1e-13), ("complex64", 2e-5), ("complex128", 1e-13)):
        a = rng.standard_normal((2, 33, 70)).astype(dtype)
        b = rng.standard_normal((70, 19)).astype(dtype)
        if dtype.startswith("complex"):
            a = a + 1j * rng.standard_normal(a.shape).astype(dtype)
        got = host(dl.matmul(gpu(a), gpu(b)))
        np.testing.assert_allclose(got, a @ b, rtol=rtol, atol=rtol * 10)



# ---- the LAPACK forms (solver_async) ------------------------------------------------------------

def hermitian_pd(shape, dtype, seed=0):
    """Hermitian positive definite matrices: A A^H + n I."""
    a = normal(shape, dtype, seed)
    n = shape[-1]
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


def same_as_cpu(fn, *arrays, **kw):
    """fn on GPU copies of `arrays` gives exactly the CPU's results (the fake runs the CPU's LAPACK code)."""
    want = fn(*[dl.asarray(a) for a in arrays], **kw)
    got = fn(*[gpu(a) for a in arrays], **kw)
    wants = list(want) if isinstance(want, tuple) else [want]
    gots = list(got) if isinstance(got, tuple) else [got]
    assert len(gots) == len(wants)
    for g, w in zip(gots, wants):
        assert str(g.device) == "rocm:0"
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
        np.testing.assert_array_equal(host(g), host(w))
    return got


def solver_calls(fake):
    return [e for e in fake.log() if e[0] == "solver"]


# The shapes factorised over the fake backend, and on cuda:0, where stacks of matrices up to 32 x 32
# take the batched routines (cuSOLVER's potrfBatched, XsyevBatched, gesvdjBatched, cuBLAS's
# getrf/getrsBatched) where the libraries have them; 33 and up, and single matrices, the
# per-matrix ones.
SQUARE = [(4, 4), (1, 1), (3, 5, 5), (2, 3, 4, 4), (0, 4, 4), (3, 0, 0), (2, 0, 3, 3)]
RECT = [(5, 3), (3, 5), (4, 4), (2, 6, 4), (2, 4, 6), (0, 3, 2), (2, 0, 3), (2, 3, 0), (1, 1)]
CUDA_RECT = [(7, 4), (4, 7), (5, 5), (3, 9, 6), (3, 6, 9), (0, 3, 2), (2, 0, 3), (2, 3, 0), (70, 33), (33, 70),
             (200, 20, 12), (200, 12, 20), (2, 33, 30)]
CUDA_SQUARE = [(5, 5), (1, 1), (4, 6, 6), (2, 3, 3, 3), (0, 3, 3), (2, 0, 0), (80, 80), (500, 16, 16), (3, 32, 32),
               (2, 33, 33)]
# The error allowed where results are compared within a tolerance (cuSOLVER against LAPACK;
# reconstructions and orthonormality everywhere), times a scale of the matrix size.
LRTOL = {"float32": 2e-3, "complex64": 2e-3, "float64": 1e-9, "complex128": 1e-9}


def near(got, want, dtype, scale=1.0):
    np.testing.assert_allclose(got, want, rtol=LRTOL[dtype], atol=LRTOL[dtype] * scale)


def adj(x):
    return np.conj(np.swapaxes(x, -1, -2))


def on_both(device, fn, x):
    """fn(x) on `device` and on the CPU, as tuples of NumPy arrays; the device's results are on it,
    of the CPU's dtypes and shapes, and over the fake backend (the CPU's LAPACK code) equal to them."""
    got, want = fn(gpu(x, device)), fn(dl.asarray(x))
    got, want = (got if isinstance(got, tuple) else (got,)), (want if isinstance(want, tuple) else (want,))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert str(g.device) == device
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
        if device.where == FAKE:
            np.testing.assert_array_equal(host(g), host(w))
    return tuple(host(g) for g in got), tuple(host(w) for w in want)


@pytest.mark.parametrize("dtype", FLOAT)
@pytest.mark.parametrize("shape", SQUARE, ids=str)
def test_square_lapack_forms_match_the_cpu(fake, dtype, shape):
    x, spd = normal(shape, dtype, 1), hermitian_pd(shape, dtype, 2)
    same_as_cpu(dl.linalg.cholesky, spd)
    same_as_cpu(lambda a: dl.linalg.cholesky(a, upper=True), spd)
    same_as_cpu(dl.linalg.inv, x)
    same_as_cpu(dl.linalg.det, x)
    same_as_cpu(dl.linalg.slogdet, x)
    same_as_cpu(dl.linalg.eigh, spd)
    same_as_cpu(dl.linalg.eigvalsh, spd)
    same_as_cpu(dl.linalg.eig, x)
    same_as_cpu(dl.linalg.eigvals, x)


QR_SVD_CASES = ([on(FAKE, dtype, shape) for shape in RECT for dtype in FLOAT]
                + [on(CUDA, dtype, shape) for shape in CUDA_RECT for dtype in FLOAT])


@pytest.mark.parametrize("gpu_device, dtype, shape", QR_SVD_CASES, indirect=["gpu_device"], ids=str)
def test_qr_and_svd_match_the_cpu(gpu_device, dtype, shape):
    # Over the fake backend the factors equal the CPU's; on a real device they are unique only up
    # to the signs (phases) of Q's and U's columns: checked by what defines them, everywhere.
    x = normal(shape, dtype, 5)
    m, n = shape[-2:]
    scale = max(m, n, 1)
    for mode in ("reduced", "complete"):
        (q, r), (cq, cr) = on_both(gpu_device, lambda a: dl.linalg.qr(a, mode=mode), x)
        near(q @ r, x, dtype, scale)
        near(adj(q) @ q, np.broadcast_to(np.eye(q.shape[-1]), adj(q).shape[:-1] + (q.shape[-1],)), dtype, scale)
        assert not np.triu(r.swapaxes(-1, -2), 1).any()  # R is upper triangular (zeros below, exactly)
        near(np.abs(r), np.abs(cr), dtype, scale)
    (s,), (cs,) = on_both(gpu_device, dl.linalg.svdvals, x)
    near(s, cs, dtype, scale)
    for full in (True, False):
        (u, s, vh), (cu, cs, cvh) = on_both(gpu_device, lambda a: dl.linalg.svd(a, full_matrices=full), x)
        near(s, cs, dtype, scale)
        k = min(m, n)
        near((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], x, dtype, scale)
        near(adj(u) @ u, np.broadcast_to(np.eye(u.shape[-1]), u.shape[:-2] + (u.shape[-1],) * 2), dtype, scale)
        near(vh @ adj(vh), np.broadcast_to(np.eye(vh.shape[-2]), vh.shape[:-2] + (vh.shape[-2],) * 2), dtype, scale)


SOLVE = [((4, 4), (4, 2)), ((4, 4), (4,)), ((3, 4, 4), (3, 4, 1)), ((3, 4, 4), (4,)), ((2, 1, 3, 3), (4, 3, 2)),
         ((3, 3), (2, 3, 5)), ((70, 70), (70, 3)), ((2, 70, 70), (70,)), ((0, 3, 3), (3, 2)), ((3, 3), (3, 0))]


@pytest.mark.parametrize("dtype", FLOAT)
@pytest.mark.parametrize("shapes", SOLVE, ids=str)
def test_solve_matches_the_cpu(fake, dtype, shapes):
    # n >= 64 takes the transposed path (a row-major copy solved with trans 'T').
    same_as_cpu(dl.linalg.solve, normal(shapes[0], dtype, 4), normal(shapes[1], dtype, 5))


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8"])
def test_integer_input_runs_in_float64_as_on_the_cpu(fake, dtype):
    x = np.array([[4, 1, 0], [1, 3, 1], [0, 1, 2]], dtype)
    for fn in (dl.linalg.inv, dl.linalg.det, dl.linalg.cholesky, dl.linalg.eigvalsh, dl.linalg.svdvals):
        r = same_as_cpu(fn, x)
        assert r.dtype == dl.float64


def test_the_composed_functions_run_on_the_gpu(fake):
    x = normal((3, 4, 4), "float64", 6)
    for fn in (dl.linalg.matrix_rank, dl.linalg.pinv, lambda a: dl.linalg.matrix_power(a, -2),
               lambda a: dl.linalg.matrix_norm(a, ord=2), lambda a: dl.linalg.matrix_norm(a, ord="nuc")):
        want = fn(dl.asarray(x))
        got = fn(gpu(x))
        assert str(got.device) == "rocm:0" and got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(host(got), host(want), rtol=1e-12, atol=1e-12)


def test_singular_and_not_positive_definite_raise_linalgerror(fake):
    sing = np.array([[1.0, 2.0], [2.0, 4.0]])
    for dtype in FLOAT:
        a = sing.astype(dtype)
        for fn in (dl.linalg.inv, lambda m: dl.linalg.solve(m, dl.ones(2, dtype=m.dtype, device=m.device))):
            with pytest.raises(dl.linalg.LinAlgError) as cpu:
                fn(dl.asarray(a))
            with pytest.raises(dl.linalg.LinAlgError) as dev:
                fn(gpu(a))
            assert str(dev.value) == str(cpu.value) and "singular" in str(dev.value)
        with pytest.raises(dl.linalg.LinAlgError, match="not positive definite"):
            dl.linalg.cholesky(gpu(-np.eye(3, dtype=dtype)))
    # A singular matrix is a result for det and slogdet.
    assert float(host(dl.linalg.det(gpu(sing)))) == 0.0
    sign, logabs = dl.linalg.slogdet(gpu(sing))
    assert float(host(sign)) == 0.0 and host(logabs) == -np.inf
    assert issubclass(dl.linalg.LinAlgError, ValueError)


def test_the_failing_matrix_of_a_stack_is_named(fake):
    x = np.stack([np.eye(3), np.eye(3), -np.eye(3), np.eye(3)]).reshape(2, 2, 3, 3)
    with pytest.raises(dl.linalg.LinAlgError, match=r"stack index \(1, 0\) is not positive definite"):
        dl.linalg.cholesky(gpu(x))
    x = np.stack([np.eye(2), np.zeros((2, 2))])
    with pytest.raises(dl.linalg.LinAlgError, match=r"stack index \(1,\) is singular"):
        dl.linalg.inv(gpu(x))


def test_one_job_per_call_on_the_current_stream(fake):
    x = gpu(normal((5, 4, 4), "float64", 7))
    s = dl.rocm.Stream(0)
    with dl.rocm.stream(s):
        fake.clear_log()
        dl.linalg.inv(x)
        log = fake.log()
    calls = [e for e in log if e[0] == "solver"]
    assert len(calls) == 1 and calls[0][3] == 5, log  # the whole stack in one job
    work = [e for e in log if e[0] in ("solver", "solver_scratch", "malloc", "memcpy")]
    assert all(e[2] == s.handle for e in work), work
    # The info array comes back with one copy and one wait.
    assert [e[0] for e in log].count("sync") == 1, log


def test_nothing_reaches_the_solver_for_an_empty_stack(fake):
    fake.clear_log()
    for fn in (dl.linalg.inv, dl.linalg.eigh, dl.linalg.svd):
        r = fn(gpu(np.zeros((0, 3, 3))))
    assert not solver_calls(fake)
    assert r[0].shape == (0, 3, 3)


def test_second_device_and_pinned_memory(fake):
    x = hermitian_pd((3, 3), "float64", 8)
    r = dl.linalg.cholesky(gpu(x, "rocm:1"))
    assert str(r.device) == "rocm:1" and solver_calls(fake)[-1][1] == 1
    np.testing.assert_array_equal(host(r), host(dl.linalg.cholesky(dl.asarray(x))))
    fake.clear_log()
    r = dl.linalg.inv(dl.asarray(x).to_device("rocm_host:0"))  # host-accessible: the CPU computes
    assert not solver_calls(fake)
    np.testing.assert_array_equal(host(r), host(dl.linalg.inv(dl.asarray(x))))


def test_solver_library_errors_reach_python(fake):
    x = gpu(hermitian_pd((3, 3), "float32", 9))
    try:
        fake.set_solver_error(DLA_GPU_LIBRARY_MISSING)
        with pytest.raises(RuntimeError, match=r"cholesky on device 'rocm:0': .*could not be loaded"):
            dl.linalg.cholesky(x)
        fake.set_solver_error(DLA_GPU_UNSUPPORTED)
        with pytest.raises(NotImplementedError, match=r"eigh on device 'rocm:0' is not available yet \(the rocm "
                                                      r"backend has no dense solver library for it: eig and "
                                                      r"eigvals need hipSOLVER's geev"):
            dl.linalg.eigh(x)
        fake.set_solver_error(DLA_GPU_SOLVER_ALLOC_FAILED)
        with pytest.raises(MemoryError, match="out of memory"):
            dl.linalg.inv(x)
        fake.set_solver_error(DLA_GPU_SOLVER_INTERNAL_ERROR)
        with pytest.raises(RuntimeError, match="svd.*internal error"):
            dl.linalg.svd(x)
    finally:
        fake.set_solver_error(0)
    np.testing.assert_array_equal(host(dl.linalg.inv(x)), host(dl.linalg.inv(x.to_device("cpu"))))


# ---- on a CUDA device: cuBLAS alone ---------------------------------------------------------------

def cuda(a):
    return gpu(a, CUDA_DEVICE)


@cuda_only
@pytest.mark.parametrize("dtype", FLOAT)
def test_operator_and_empty_shapes(dtype):
    a, b = normal((5, 4), dtype), normal((4, 3), dtype, 1)
    agree(cuda(a) @ cuda(b), dl.asarray(a) @ dl.asarray(b), CUDA_DEVICE)
    for sa, sb in (((0, 4), (4, 3)), ((5, 0), (0, 3)), ((2, 0, 4), (4, 3)), ((0,), (0,))):
        r = cuda(normal(sa, dtype)) @ cuda(normal(sb, dtype))
        want = normal(sa, dtype) @ normal(sb, dtype)
        assert r.shape == want.shape and str(r.device) == CUDA_DEVICE
        np.testing.assert_array_equal(host(r), want)


@cuda_only
@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint16", "uint64"])
def test_integer_matmul_matches_the_cpu(dtype):
    rng = np.random.default_rng(3)
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, (4, 70, 33), dtype=dtype, endpoint=True)
    b = rng.integers(info.min, info.max, (33, 21), dtype=dtype, endpoint=True)
    np.testing.assert_array_equal(host(dl.matmul(cuda(a), cuda(b))), host(dl.matmul(dl.asarray(a), dl.asarray(b))))


@cuda_only
@pytest.mark.parametrize("dtype", FLOAT)
def test_tensordot_and_vecdot(dtype):
    a, b = normal((6, 7, 8), dtype), normal((7, 8, 5), dtype, 1)
    for axes in (2, ([1], [0]), ([2, 1], [1, 0])):
        agree(dl.tensordot(cuda(a), cuda(b), axes=axes), dl.tensordot(dl.asarray(a), dl.asarray(b), axes=axes),
              CUDA_DEVICE)
    x, y = normal((6, 7, 8), dtype, 2), normal((7, 8), dtype, 3)
    # Complex vecdot conjugates x1 on the device: needs the GPU's complex elementwise kernels.
    for axis in (-1, -2):
        agree(dl.vecdot(cuda(x), cuda(y), axis=axis), dl.vecdot(dl.asarray(x), dl.asarray(y), axis=axis), CUDA_DEVICE)


@cuda_only
def test_float32_is_not_computed_in_tf32():
    if os.environ.get("NVIDIA_TF32_OVERRIDE") == "1":
        pytest.skip("NVIDIA_TF32_OVERRIDE=1 forces TF32")
    a, b = normal((512, 512), "float32"), normal((512, 512), "float32", 1)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    err = np.abs(host(cuda(a) @ cuda(b)) - exact).max() / np.abs(exact).max()
    assert err < 1e-5, err  # TF32 (10-bit mantissa) would be ~1e-3


@cuda_only
def test_runs_on_the_current_stream_and_from_threads():
    a, b = normal((8, 128, 64), "float64"), normal((8, 64, 96), "float64", 1)
    ga, gb = cuda(a), cuda(b)
    s = dl.cuda.Stream(0)
    with dl.cuda.stream(s):
        r = ga @ gb
        got = host(r)
    np.testing.assert_allclose(got, a @ b, rtol=1e-12)

    def work(seed):
        x, y = normal((4, 64, 64), "float32", seed), normal((64, 32), "float32", seed + 1)
        for _ in range(5):
            np.testing.assert_allclose(host(cuda(x) @ cuda(y)), x @ y, rtol=1e-4, atol=1e-4)

    run_in_threads(work)


def _run(code, **env):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), **env))


@cuda_only
def test_cublas_is_loaded_on_first_use_only():
    code = ("import dlarray as dl\n"
            "maps = lambda: open('/proc/self/maps').read()\n"
            "a = dl.ones((4, 4), device='cuda:0')\n"
            "print('before', 'libcublas' in maps())\n"
            "(a @ a).to_device('cpu')\n"
            "print('after', 'libcublas' in maps())\n")
    r = _run(code)
    assert r.returncode == 0, r.stderr
    assert "before False" in r.stdout and "after True" in r.stdout, r.stdout


@cuda_only
def test_a_missing_cublas_says_what_to_install(tmp_path):
    code = ("import dlarray as dl\n"
            "a = dl.ones((4, 4), device='cuda:0')\n"
            "try:\n"
            "    a @ a\n"
            "except RuntimeError as e:\n"
            "    print('ERROR', e)\n"
            "print('int', int((dl.ones((2, 2), dtype=dl.int32, device='cuda:0') @ "
            "dl.ones((2, 2), dtype=dl.int32, device='cuda:0')).to_device('cpu')[0, 0]))\n")
    r = _run(code, DLARRAY_GPU_LIBRARY_PATH=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "ERROR matmul on device 'cuda:0': cuBLAS" in r.stdout, r.stdout
    assert "pip install dlarray[cuda]" in r.stdout and "nvidia-cublas" in r.stdout, r.stdout
    assert "int 2" in r.stdout, r.stdout  # the integer kernel needs no library


# ---- on a CUDA device: cuSOLVER alone -------------------------------------------------------------

def on_cuda(r):
    for x in (r if isinstance(r, tuple) else (r,)):
        assert str(x.device) == CUDA_DEVICE
    return tuple(host(x) for x in r) if isinstance(r, tuple) else host(r)


@cuda_only
@pytest.mark.parametrize("dtype", FLOAT)
@pytest.mark.parametrize("shape", CUDA_SQUARE, ids=str)
def test_cholesky_inv_det_slogdet_solve(dtype, shape):
    x, spd = normal(shape, dtype, 1), hermitian_pd(shape, dtype, 2)
    n = shape[-1]
    for upper in (False, True):
        got = on_cuda(dl.linalg.cholesky(cuda(spd), upper=upper))
        near(got, host(dl.linalg.cholesky(dl.asarray(spd), upper=upper)), dtype, n)
    near(on_cuda(dl.linalg.inv(cuda(x))), host(dl.linalg.inv(dl.asarray(x))), dtype, 10 * n)
    near(on_cuda(dl.linalg.det(cuda(x))), host(dl.linalg.det(dl.asarray(x))), dtype, 10.0 ** min(n, 30))
    sign, logabs = on_cuda(dl.linalg.slogdet(cuda(x)))
    csign, clog = (host(v) for v in dl.linalg.slogdet(dl.asarray(x)))
    near(sign, csign, dtype)
    near(logabs, clog, dtype, n)
    for rhs in (normal(shape[:-1] + (3,), dtype, 3), normal((n,), dtype, 4)):
        near(on_cuda(dl.linalg.solve(cuda(x), cuda(rhs))), host(dl.linalg.solve(dl.asarray(x), dl.asarray(rhs))),
             dtype, 10 * n)


@cuda_only
@pytest.mark.parametrize("dtype", FLOAT)
@pytest.mark.parametrize("shape", CUDA_SQUARE, ids=str)
def test_eigh_and_eig(dtype, shape):
    h, x = hermitian_pd(shape, dtype, 6), normal(shape, dtype, 7)
    n = shape[-1]
    w, v = on_cuda(dl.linalg.eigh(cuda(h)))
    near(w, host(dl.linalg.eigvalsh(dl.asarray(h))), dtype, 10 * n)
    near(on_cuda(dl.linalg.eigvalsh(cuda(h))), w, dtype, 10 * n)
    near(h @ v, v * w[..., None, :], dtype, 10 * n)
    w, v = on_cuda(dl.linalg.eig(cuda(x)))
    assert w.dtype == np.result_type(dtype, np.complex64) and v.dtype == w.dtype
    near(x @ v, v * w[..., None, :], dtype, 10 * n)
    cw = host(dl.linalg.eigvals(dl.asarray(x)))
    near(np.sort_complex(on_cuda(dl.linalg.eigvals(cuda(x)))), np.sort_complex(cw), dtype, 10 * n)


@cuda_only
@pytest.mark.parametrize("dtype", FLOAT)
@pytest.mark.parametrize("shape", [(500, 16, 16), (2, 2, 1, 1)], ids=str)
def test_linalgerror_from_a_member_of_a_batched_stack(dtype, shape):
    # Stacks up to 32 x 32 go through the batched routines (CUDA_SQUARE and CUDA_RECT hold such
    # stacks for the results); their info arrays must still name the failing member.
    n = shape[-1]
    last = (-1,) * (len(shape) - 2)
    bad = hermitian_pd(shape, dtype, 8)
    bad[last] = -np.eye(n, dtype=dtype)
    index = str(tuple(int(i) - 1 for i in shape[:-2]))
    with pytest.raises(dl.linalg.LinAlgError, match=re.escape(f"stack index {index}")):
        dl.linalg.cholesky(cuda(bad))
    sing = normal(shape, dtype, 11)
    sing[last] = 0
    with pytest.raises(dl.linalg.LinAlgError, match="singular"):
        dl.linalg.inv(cuda(sing))
    assert on_cuda(dl.linalg.det(cuda(sing)))[last] == 0


@cuda_only
def test_linalgerror_from_the_info_array():
    sing = np.array([[1.0, 2.0], [2.0, 4.0]])
    for dtype in FLOAT:
        with pytest.raises(dl.linalg.LinAlgError, match="singular"):
            dl.linalg.inv(cuda(sing.astype(dtype)))
        with pytest.raises(dl.linalg.LinAlgError, match="singular"):
            dl.linalg.solve(cuda(sing.astype(dtype)), cuda(np.ones(2, dtype)))
        with pytest.raises(dl.linalg.LinAlgError, match=r"stack index \(1,\) is not positive definite"):
            dl.linalg.cholesky(cuda(np.stack([np.eye(3), -np.eye(3)]).astype(dtype)))
        assert on_cuda(dl.linalg.det(cuda(sing.astype(dtype)))) == 0
        sign, logabs = on_cuda(dl.linalg.slogdet(cuda(sing.astype(dtype))))
        assert sign == 0 and logabs == -np.inf


@cuda_only
def test_composed_functions_and_threads():
    x = normal((3, 6, 6), "float64", 8)
    for fn in (dl.linalg.matrix_rank, dl.linalg.pinv, lambda a: dl.linalg.matrix_power(a, -3),
               lambda a: dl.linalg.matrix_norm(a, ord="nuc"), lambda a: dl.linalg.matrix_norm(a, ord=-2)):
        np.testing.assert_allclose(on_cuda(fn(cuda(x))), host(fn(dl.asarray(x))), rtol=1e-9, atol=1e-9)

    def work(seed):
        a = hermitian_pd((4, 32, 32), "float32", seed)
        for _ in range(3):
            np.testing.assert_allclose(host(dl.linalg.inv(cuda(a))), np.linalg.inv(a), rtol=1e-3, atol=1e-4)

    run_in_threads(work)


@cuda_only
def test_cusolver_is_loaded_on_first_use_only():
    code = ("import dlarray as dl\n"
            "maps = lambda: open('/proc/self/maps').read()\n"
            "a = dl.eye(4, device='cuda:0')\n"
            "print('before', 'libcusolver' in maps())\n"
            "dl.linalg.inv(a).to_device('cpu')\n"
            "print('after', 'libcusolver' in maps())\n")
    r = _run(code)
    assert r.returncode == 0, r.stderr
    assert "before False" in r.stdout and "after True" in r.stdout, r.stdout


@cuda_only
def test_a_missing_cusolver_says_what_to_install(tmp_path):
    code = ("import dlarray as dl\n"
            "a = dl.eye(4, device='cuda:0')\n"
            "try:\n"
            "    dl.linalg.cholesky(a)\n"
            "except RuntimeError as e:\n"
            "    print('ERROR', e)\n")
    r = _run(code, DLARRAY_GPU_LIBRARY_PATH=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "ERROR cholesky on device 'cuda:0': cuSOLVER" in r.stdout, r.stdout
    assert "pip install dlarray[cuda]" in r.stdout and "nvidia-cusolver" in r.stdout, r.stdout
