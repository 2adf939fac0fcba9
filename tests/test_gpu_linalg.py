"""matmul, `@`, tensordot, vecdot (cuBLAS) and the linalg extension's LAPACK forms (cuSOLVER) on a
real CUDA device, both libraries loaded at run time, vs the CPU.

Every layout path of the core is also checked on any machine by tests/test_gpu_linalg_fake.py;
this file checks cuBLAS itself: that it loads (from the nvidia-cublas wheel, or wherever PyTorch
or CuPy got theirs), computes what OpenBLAS computes for every floating and complex dtype and
layout, runs on the current stream, from several threads, without TF32, and that a missing
cuBLAS is reported with what to install. For cuSOLVER the same: every LAPACK form and dtype,
stacks, wide and tall matrices, empty ones, LinAlgError from the info array, the composed
functions on top, loading on first use and the message of a missing library. Factors that are
unique only up to signs or phases (QR, SVD, eigenvectors) are checked by what defines them
(reconstruction, orthonormality, triangularity) and their invariants against the CPU.
Marked gpu: skipped without a CUDA device.
"""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import dlarray as dl
from helpers.gpu_util import host, needs_cuda, random_values as values, run_in_threads

pytestmark = [pytest.mark.gpu, needs_cuda]

DEV = "cuda:0"
FLOAT = ["float32", "float64", "complex64", "complex128"]
RTOL = {"float32": 1e-4, "complex64": 1e-4, "float64": 1e-11, "complex128": 1e-11}



def gpu(a):
    return dl.asarray(a).to_device(DEV)


def close(got, want, dtype):
    assert str(got.device) == DEV
    assert got.dtype == want.dtype and got.shape == want.shape
    w = host(want)
    scale = max(1.0, float(np.abs(w).max(initial=0.0)))
    np.testing.assert_allclose(host(got), w, rtol=RTOL[dtype], atol=RTOL[dtype] * scale)


SHAPES = [((64, 48), (48, 32)), ((48,), (48, 32)), ((64, 48), (48,)), ((48,), (48,)), ((7, 5, 9), (7, 9, 3)),
          ((2, 3, 4, 5), (2, 3, 5, 6)), ((4, 5), (6, 5, 3)), ((2, 1, 4, 5), (1, 3, 5, 6)), ((1, 1), (1, 1)),
          ((300, 257), (257, 129))]


@pytest.mark.parametrize("dtype", FLOAT)
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_matmul_matches_the_cpu(dtype, shapes):
    a, b = values(shapes[0], dtype, 1), values(shapes[1], dtype, 2)
    close(dl.matmul(gpu(a), gpu(b)), dl.matmul(dl.asarray(a), dl.asarray(b)), dtype)


@pytest.mark.parametrize("dtype", FLOAT)
def test_transposed_broadcast_and_strided_views(dtype):
    a, b = values((3, 40, 33), dtype, 3), values((3, 33, 20), dtype, 4)
    at, bt = values((3, 33, 40), dtype, 5), values((3, 20, 33), dtype, 6)
    cases = [lambda a, b, at, bt: (at.mT, b), lambda a, b, at, bt: (a, bt.mT), lambda a, b, at, bt: (at.mT, bt.mT),
             lambda a, b, at, bt: (a[::-1], b), lambda a, b, at, bt: (a[:, ::2, :], b),
             lambda a, b, at, bt: (a[:, :, ::-1], b[:, ::-1, :]), lambda a, b, at, bt: (a[1, 3:, 2:30], b[0, 2:30]),
             lambda a, b, at, bt: (a[:, 0, :], b), lambda a, b, at, bt: (a[0], b)]
    g = [gpu(x) for x in (a, b, at, bt)]
    c = [dl.asarray(x) for x in (a, b, at, bt)]
    for case in cases:
        close(dl.matmul(*case(*g)), dl.matmul(*case(*c)), dtype)


@pytest.mark.parametrize("dtype", FLOAT)
def test_operator_and_empty_shapes(dtype):
    a, b = values((5, 4), dtype), values((4, 3), dtype, 1)
    close(gpu(a) @ gpu(b), dl.asarray(a) @ dl.asarray(b), dtype)
    for sa, sb in (((0, 4), (4, 3)), ((5, 0), (0, 3)), ((2, 0, 4), (4, 3)), ((0,), (0,))):
        r = gpu(values(sa, dtype)) @ gpu(values(sb, dtype))
        want = values(sa, dtype) @ values(sb, dtype)
        assert r.shape == want.shape and str(r.device) == DEV
        np.testing.assert_array_equal(host(r), want)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint16", "uint64"])
def test_integer_matmul_matches_the_cpu(dtype):
    rng = np.random.default_rng(3)
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, (4, 70, 33), dtype=dtype, endpoint=True)
    b = rng.integers(info.min, info.max, (33, 21), dtype=dtype, endpoint=True)
    np.testing.assert_array_equal(host(dl.matmul(gpu(a), gpu(b))), host(dl.matmul(dl.asarray(a), dl.asarray(b))))


@pytest.mark.parametrize("dtype", FLOAT)
def test_tensordot_and_vecdot(dtype):
    a, b = values((6, 7, 8), dtype), values((7, 8, 5), dtype, 1)
    for axes in (2, ([1], [0]), ([2, 1], [1, 0])):
        close(dl.tensordot(gpu(a), gpu(b), axes=axes), dl.tensordot(dl.asarray(a), dl.asarray(b), axes=axes), dtype)
    x, y = values((6, 7, 8), dtype, 2), values((7, 8), dtype, 3)
    # Complex vecdot conjugates x1 on the device: needs the GPU's complex elementwise kernels.
    for axis in (-1, -2):
        close(dl.vecdot(gpu(x), gpu(y), axis=axis), dl.vecdot(dl.asarray(x), dl.asarray(y), axis=axis), dtype)


def test_float32_is_not_computed_in_tf32():
    if os.environ.get("NVIDIA_TF32_OVERRIDE") == "1":
        pytest.skip("NVIDIA_TF32_OVERRIDE=1 forces TF32")
    a, b = values((512, 512), "float32"), values((512, 512), "float32", 1)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    err = np.abs(host(gpu(a) @ gpu(b)) - exact).max() / np.abs(exact).max()
    assert err < 1e-5, err  # TF32 (10-bit mantissa) would be ~1e-3


def test_runs_on_the_current_stream_and_from_threads():
    a, b = values((8, 128, 64), "float64"), values((8, 64, 96), "float64", 1)
    ga, gb = gpu(a), gpu(b)
    s = dl.cuda.Stream(0)
    with dl.cuda.stream(s):
        r = ga @ gb
        got = host(r)
    np.testing.assert_allclose(got, a @ b, rtol=1e-12)
    def work(seed):
        x, y = values((4, 64, 64), "float32", seed), values((64, 32), "float32", seed + 1)
        for _ in range(5):
            np.testing.assert_allclose(host(gpu(x) @ gpu(y)), x @ y, rtol=1e-4, atol=1e-4)

    run_in_threads(work)


def _run(code, **env):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), **env))


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



# ---- the LAPACK forms through cuSOLVER ----------------------------------------------------------

LRTOL = {"float32": 2e-3, "complex64": 2e-3, "float64": 1e-9, "complex128": 1e-9}


def near(got, want, dtype, scale=1.0):
    np.testing.assert_allclose(got, want, rtol=LRTOL[dtype], atol=LRTOL[dtype] * scale)


def hermitian_pd(shape, dtype, seed=0):
    a = values(shape, dtype, seed)
    n = shape[-1]
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


def adj(x):
    return np.conj(np.swapaxes(x, -1, -2))


def on_gpu(r):
    for x in (r if isinstance(r, tuple) else (r,)):
        assert str(x.device) == DEV
    return tuple(host(x) for x in r) if isinstance(r, tuple) else host(r)


# Stacks of matrices up to 32 x 32 take the batched routines (cuSOLVER's potrfBatched,
# XsyevBatched, gesvdjBatched, cuBLAS's getrf/getrsBatched) where the libraries have them; 33 and
# up, and single matrices, the per-matrix ones.
SQ = [(5, 5), (1, 1), (4, 6, 6), (2, 3, 3, 3), (0, 3, 3), (2, 0, 0), (80, 80), (500, 16, 16), (3, 32, 32),
      (2, 33, 33)]
RECT_SHAPES = [(7, 4), (4, 7), (5, 5), (3, 9, 6), (3, 6, 9), (0, 3, 2), (2, 0, 3), (2, 3, 0), (70, 33), (33, 70),
               (200, 20, 12), (200, 12, 20), (2, 33, 30)]


@pytest.mark.parametrize("dtype", FLOAT)
@pytest.mark.parametrize("shape", SQ, ids=str)
def test_cholesky_inv_det_slogdet_solve(dtype, shape):
    x, spd = values(shape, dtype, 1), hermitian_pd(shape, dtype, 2)
    n = shape[-1]
    for upper in (False, True):
        got = on_gpu(dl.linalg.cholesky(gpu(spd), upper=upper))
        near(got, host(dl.linalg.cholesky(dl.asarray(spd), upper=upper)), dtype, n)
    near(on_gpu(dl.linalg.inv(gpu(x))), host(dl.linalg.inv(dl.asarray(x))), dtype, 10 * n)
    near(on_gpu(dl.linalg.det(gpu(x))), host(dl.linalg.det(dl.asarray(x))), dtype, 10.0 ** min(n, 30))
    sign, logabs = on_gpu(dl.linalg.slogdet(gpu(x)))
    csign, clog = (host(v) for v in dl.linalg.slogdet(dl.asarray(x)))
    near(sign, csign, dtype)
    near(logabs, clog, dtype, n)
    for rhs in (values(shape[:-1] + (3,), dtype, 3), values((n,), dtype, 4)):
        near(on_gpu(dl.linalg.solve(gpu(x), gpu(rhs))), host(dl.linalg.solve(dl.asarray(x), dl.asarray(rhs))),
             dtype, 10 * n)


@pytest.mark.parametrize("dtype", FLOAT)
@pytest.mark.parametrize("shape", RECT_SHAPES, ids=str)
def test_qr_and_svd(dtype, shape):
    x = values(shape, dtype, 5)
    m, n = shape[-2:]
    scale = max(m, n, 1)
    for mode in ("reduced", "complete"):
        q, r = on_gpu(dl.linalg.qr(gpu(x), mode=mode))
        cq, cr = (host(v) for v in dl.linalg.qr(dl.asarray(x), mode=mode))
        assert q.shape == cq.shape and r.shape == cr.shape
        near(q @ r, x, dtype, scale)
        near(adj(q) @ q, np.broadcast_to(np.eye(q.shape[-1]), adj(q).shape[:-1] + (q.shape[-1],)), dtype, scale)
        assert not np.triu(r.swapaxes(-1, -2), 1).any()  # R is upper triangular (zeros below, exactly)
        near(np.abs(r), np.abs(cr), dtype, scale)  # unique up to the signs (phases) of Q's columns
    near(on_gpu(dl.linalg.svdvals(gpu(x))), host(dl.linalg.svdvals(dl.asarray(x))), dtype, scale)
    for full in (True, False):
        u, s, vh = on_gpu(dl.linalg.svd(gpu(x), full_matrices=full))
        cu, cs, cvh = (host(v) for v in dl.linalg.svd(dl.asarray(x), full_matrices=full))
        assert (u.shape, s.shape, vh.shape) == (cu.shape, cs.shape, cvh.shape)
        near(s, cs, dtype, scale)
        k = min(m, n)
        near((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], x, dtype, scale)
        near(adj(u) @ u, np.broadcast_to(np.eye(u.shape[-1]), u.shape[:-2] + (u.shape[-1],) * 2), dtype, scale)
        near(vh @ adj(vh), np.broadcast_to(np.eye(vh.shape[-2]), vh.shape[:-2] + (vh.shape[-2],) * 2), dtype, scale)


@pytest.mark.parametrize("dtype", FLOAT)
@pytest.mark.parametrize("shape", SQ, ids=str)
def test_eigh_and_eig(dtype, shape):
    h, x = hermitian_pd(shape, dtype, 6), values(shape, dtype, 7)
    n = shape[-1]
    w, v = on_gpu(dl.linalg.eigh(gpu(h)))
    near(w, host(dl.linalg.eigvalsh(dl.asarray(h))), dtype, 10 * n)
    near(on_gpu(dl.linalg.eigvalsh(gpu(h))), w, dtype, 10 * n)
    near(h @ v, v * w[..., None, :], dtype, 10 * n)
    w, v = on_gpu(dl.linalg.eig(gpu(x)))
    assert w.dtype == np.result_type(dtype, np.complex64) and v.dtype == w.dtype
    near(x @ v, v * w[..., None, :], dtype, 10 * n)
    cw = host(dl.linalg.eigvals(dl.asarray(x)))
    near(np.sort_complex(on_gpu(dl.linalg.eigvals(gpu(x)))), np.sort_complex(cw), dtype, 10 * n)


@pytest.mark.parametrize("dtype", FLOAT)
@pytest.mark.parametrize("shape", [(500, 16, 16), (2, 2, 1, 1)], ids=str)
def test_linalgerror_from_a_member_of_a_batched_stack(dtype, shape):
    # Stacks up to 32 x 32 go through the batched routines (SQ and RECT_SHAPES hold such stacks for
    # the results); their info arrays must still name the failing member.
    n = shape[-1]
    last = (-1,) * (len(shape) - 2)
    bad = hermitian_pd(shape, dtype, 8)
    bad[last] = -np.eye(n, dtype=dtype)
    index = str(tuple(int(i) - 1 for i in shape[:-2]))
    with pytest.raises(dl.linalg.LinAlgError, match=re.escape(f"stack index {index}")):
        dl.linalg.cholesky(gpu(bad))
    sing = values(shape, dtype, 11)
    sing[last] = 0
    with pytest.raises(dl.linalg.LinAlgError, match="singular"):
        dl.linalg.inv(gpu(sing))
    assert on_gpu(dl.linalg.det(gpu(sing)))[last] == 0


def test_linalgerror_from_the_info_array():
    sing = np.array([[1.0, 2.0], [2.0, 4.0]])
    for dtype in FLOAT:
        with pytest.raises(dl.linalg.LinAlgError, match="singular"):
            dl.linalg.inv(gpu(sing.astype(dtype)))
        with pytest.raises(dl.linalg.LinAlgError, match="singular"):
            dl.linalg.solve(gpu(sing.astype(dtype)), gpu(np.ones(2, dtype)))
        with pytest.raises(dl.linalg.LinAlgError, match=r"stack index \(1,\) is not positive definite"):
            dl.linalg.cholesky(gpu(np.stack([np.eye(3), -np.eye(3)]).astype(dtype)))
        assert on_gpu(dl.linalg.det(gpu(sing.astype(dtype)))) == 0
        sign, logabs = on_gpu(dl.linalg.slogdet(gpu(sing.astype(dtype))))
        assert sign == 0 and logabs == -np.inf


def test_composed_functions_and_threads():
    x = values((3, 6, 6), "float64", 8)
    for fn in (dl.linalg.matrix_rank, dl.linalg.pinv, lambda a: dl.linalg.matrix_power(a, -3),
               lambda a: dl.linalg.matrix_norm(a, ord="nuc"), lambda a: dl.linalg.matrix_norm(a, ord=-2)):
        np.testing.assert_allclose(on_gpu(fn(gpu(x))), host(fn(dl.asarray(x))), rtol=1e-9, atol=1e-9)

    def work(seed):
        a = hermitian_pd((4, 32, 32), "float32", seed)
        for _ in range(3):
            np.testing.assert_allclose(host(dl.linalg.inv(gpu(a))), np.linalg.inv(a), rtol=1e-3, atol=1e-4)

    run_in_threads(work)


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
