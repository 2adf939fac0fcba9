"""matmul, `@`, tensordot and vecdot on a real CUDA device (cuBLAS, loaded at run time) vs the CPU.

Every layout path of the core is also checked on any machine by tests/test_gpu_linalg_fake.py;
this file checks cuBLAS itself: that it loads (from the nvidia-cublas wheel, or wherever PyTorch
or CuPy got theirs), computes what OpenBLAS computes for every floating and complex dtype and
layout, runs on the current stream, from several threads, without TF32, and that a missing
cuBLAS is reported with what to install. Marked gpu: skipped without a CUDA device.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import dlarray as dl
from gpu_util import host, needs_cuda, random_values as values, run_in_threads

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
