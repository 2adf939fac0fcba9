"""dlarray.fft on GPU arrays against the CPU transforms: over dlarray._fake_gpu on every machine,
and on a real CUDA device (cuFFT, loaded at run time) in the tests marked gpu, skipped without one.

The fake backend replaces cuFFT (the table's fft_async) by separable DFTs in double precision
over the same job, with cuFFT's contract: scratch memory asked for and checked, C2R's input
overwritten afterwards. So everything around the library call is checked over it: fft.py's GPU
branch (n, s, axes and norm resolved as on the CPU), and src/backends/gpu/gpu_fft.cpp (axes
moved last, cutting and zero-padding, real input placed in complex buffers without a complex
kernel, hfft/ihfft's conjugation by reading at -t, more than three axes in several passes, the
norm factor, empty batches, streams, errors). On a CUDA device the same transforms check cuFFT
itself (lengths with large prime factors, several axes and passes), and the tests marked gpu
alone: large transforms, plans reused across calls, shapes and threads, and the error when
cuFFT is missing.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import dlarray as dl
import dlarray.fft as F
from helpers.gpu_util import (CUDA, FAKE, ON_FAKE_AND_CUDA, GpuDevice, cuda_only, fresh_log_for_fake_tests, host,
                              random_values as signal, run_in_threads)
from helpers.cases import N_D, ONE_D, REAL_INPUT, accepted as dtypes_of

DLA_GPU_UNSUPPORTED, DLA_GPU_LIBRARY_MISSING = -1, -2
FAKE_DEVICE, CUDA_DEVICE = GpuDevice("rocm:0", FAKE), GpuDevice("cuda:0", CUDA)
# Per device: the absolute error allowed, relative to the result's largest magnitude, in single
# and double precision (FFT error grows like log(n) * eps * the norm of the input; the fake's
# DFT runs in double precision), and the 1-D tests' signal shape and lengths n (the fake's DFT
# costs n^2 per row; cuFFT gets lengths with large prime factors).
ATOL = {FAKE: (2e-5, 1e-12), CUDA: (1e-4, 1e-11)}
ONE_D_SIGNAL = {FAKE: ((3, 10, 7), (None, 1, 4, 7, 12, 16)), CUDA: ((5, 64, 33), (None, 1, 17, 64, 100, 1009))}
N_D_SIGNAL = {FAKE: ((4, 5, 6), [3, 8]), CUDA: ((6, 20, 18), [7, 30])}  # the shape, s for axes [0, 2]


@pytest.fixture(autouse=True)
def clean(request):
    yield from fresh_log_for_fake_tests(request)


def gpu(a, device="rocm:0"):
    return dl.asarray(a).to_device(device)


def assert_matches_cpu(device, name, a, **kw):
    want = getattr(F, name)(dl.asarray(a), **kw)
    got = getattr(F, name)(gpu(a, device), **kw)
    assert str(got.device) == device
    assert got.dtype == want.dtype and got.shape == want.shape, (name, kw)
    single = want.dtype in (dl.float32, dl.complex64)
    w = host(want)
    tol = ATOL[device.where][0 if single else 1] * max(1.0, float(np.abs(w).max(initial=0.0)))
    np.testing.assert_allclose(host(got), w, rtol=0, atol=tol, err_msg=f"{name} {kw}")


@pytest.mark.parametrize("gpu_device", ON_FAKE_AND_CUDA, indirect=True)
@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward", None])
def test_one_dimensional_transforms_match_the_cpu(gpu_device, name, norm):
    shape, lengths = ONE_D_SIGNAL[gpu_device.where]
    for dtype in dtypes_of(name):
        a = signal(shape, dtype, seed=len(name))
        for axis in (-1, 0, 1):
            for n in lengths:
                assert_matches_cpu(gpu_device, name, a, n=n, axis=axis, norm=norm)


@pytest.mark.parametrize("gpu_device", ON_FAKE_AND_CUDA, indirect=True)
@pytest.mark.parametrize("name", N_D)
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_n_dimensional_transforms_match_the_cpu(gpu_device, name, norm):
    shape, s = N_D_SIGNAL[gpu_device.where]
    for dtype in dtypes_of(name):
        a = signal(shape, dtype, seed=len(name))
        assert_matches_cpu(gpu_device, name, a, norm=norm)
        for axes in ([0], [2, 0], [1, 2], [2, 1, 0], [-1, -3]):
            assert_matches_cpu(gpu_device, name, a, axes=axes, norm=norm)
        assert_matches_cpu(gpu_device, name, a, s=s, axes=[0, 2], norm=norm)
        assert_matches_cpu(gpu_device, name, a, s=[-1, 5], axes=[1, 2], norm=norm)
        b = signal((3, 4, 5, 6, 7), dtype, seed=3)  # five axes: two passes
        assert_matches_cpu(gpu_device, name, b, norm=norm)


@pytest.mark.parametrize("name", N_D)
def test_more_than_three_axes_take_several_passes(fake, name):
    a = signal((3, 2, 4, 5, 3), "complex128" if name not in REAL_INPUT else "float64", seed=4)
    fake.clear_log()
    assert_matches_cpu(FAKE_DEVICE, name, a)
    assert [e[0] for e in fake.log()].count("fft") == 2  # three axes, then the other two
    assert_matches_cpu(FAKE_DEVICE, name, a, axes=[4, 0, 3, 1], s=[4, 2, 6, 2])


def test_views_and_strided_input(fake):
    a = signal((6, 9, 8), "complex64", seed=2)
    g, c = gpu(a), dl.asarray(a)
    for view in (lambda x: x[::2], lambda x: x[:, ::-1], lambda x: x.mT, lambda x: x[1, 2:7, 1:]):
        for name, kw in (("fft", {"axis": 0}), ("ifftn", {"axes": [0, 1]}), ("irfft", {}), ("hfft", {"n": 9})):
            want = getattr(F, name)(view(c), **kw)
            got = getattr(F, name)(view(g), **kw)
            np.testing.assert_allclose(host(got), host(want), atol=1e-4, err_msg=f"{name} {kw}")


def test_inputs_are_not_modified(fake):
    # cuFFT's C2R overwrites its input (the fake does too): irfft must give it a copy.
    for name in ("irfft", "irfftn", "hfft", "fft", "rfft"):
        a = signal((4, 6), "float64" if name == "rfft" else "complex128", seed=9)
        g = gpu(a)
        getattr(F, name)(g)
        np.testing.assert_array_equal(host(g), a, err_msg=name)


def test_zero_length_batches_and_no_axes(fake):
    for name in ("fft", "rfft", "irfft"):
        a = signal((0, 8), "float32", seed=1)
        fake.clear_log()
        r = getattr(F, name)(gpu(a))
        assert r.shape == getattr(F, name)(dl.asarray(a)).shape
        assert "fft" not in [e[0] for e in fake.log()]
    for dtype in ("float32", "complex128"):
        a = signal((3, 4), dtype)
        for norm in ("backward", "ortho"):
            r = F.fftn(gpu(a), axes=[], norm=norm)  # nothing to transform: a copy in the complex dtype
            want = F.fftn(dl.asarray(a), axes=[], norm=norm)
            assert r.dtype == want.dtype
            np.testing.assert_array_equal(host(r), host(want))
    x = gpu(np.float64(3.0))
    np.testing.assert_array_equal(host(F.fftn(x)), host(F.fftn(dl.asarray(np.float64(3.0)))))


@pytest.mark.parametrize("name", ONE_D + N_D)
def test_errors_are_the_cpus(fake, name):
    def raises(a, **kw):
        with pytest.raises(Exception) as cpu:
            getattr(F, name)(dl.asarray(a), **kw)
        with pytest.raises(cpu.type):
            getattr(F, name)(gpu(a), **kw)

    good = signal((2, 4), "float32")
    raises(np.ones((2, 4), np.float16))
    if name in REAL_INPUT:
        raises(signal((2, 4), "complex64"))
    raises(good, norm="sideways")
    if name in ONE_D:
        raises(good, n=0)
        raises(good, axis=2)
        raises(good, n=2.5)
    else:
        raises(good, s=[4], axes=None)
        raises(good, axes=[0, 0])
        raises(good, s=[4, 4], axes=[1])
    if name in ("irfft", "hfft"):
        raises(signal((2, 1), "complex64"))  # default n = 2*(1-1) = 0 points


def test_work_is_queued_on_the_current_stream_and_scratch_returned(fake):
    import gc

    s = dl.rocm.Stream(0)
    g = gpu(signal((4, 16), "complex64"))
    gc.collect()
    blocks = fake.live_device_blocks()
    with dl.rocm.stream(s):
        fake.clear_log()
        r = F.fft(g, n=20)
        log = fake.log()
    work = [e for e in log if e[0] in ("fft", "fft_scratch", "malloc", "free", "strided_copy", "memcpy", "memset")]
    assert work and all(e[2] == s.handle for e in work), work
    assert [e[0] for e in log].count("fft") == 1
    del r
    gc.collect()
    assert fake.live_device_blocks() == blocks


def test_library_errors_reach_python(fake):
    g = gpu(signal((2, 8), "float32"))
    try:
        fake.set_fft_error(DLA_GPU_LIBRARY_MISSING)
        with pytest.raises(RuntimeError, match=r"fft.rfft on device 'rocm:0': .*could not be loaded"):
            F.rfft(g)
        fake.set_fft_error(DLA_GPU_UNSUPPORTED)
        with pytest.raises(NotImplementedError, match=r"fft.ifftn on device 'rocm:0' is not available yet"):
            F.ifftn(g)
    finally:
        fake.set_fft_error(0)
    assert F.rfft(g).shape == (2, 5)


def test_pinned_memory_keeps_the_cpu_error(fake):
    x = dl.asarray(signal((2, 8), "float32")).to_device("rocm_host:0")
    with pytest.raises(NotImplementedError, match="fft.fft on device 'rocm_host:0'"):
        F.fft(x)


# ---- on a CUDA device: cuFFT alone ------------------------------------------------------------------

@cuda_only
def test_large_transforms():
    for n, dtype in ((1 << 20, "complex64"), (1 << 18, "float64"), (3 * 5 * 7 * 11 * 13 * 17, "complex128")):
        a = signal((n,), dtype, seed=1)
        assert_matches_cpu(CUDA_DEVICE, "fft" if dtype.startswith("complex") else "rfft", a)
    assert_matches_cpu(CUDA_DEVICE, "fftn", signal((512, 512), "complex64"))


@cuda_only
def test_plans_are_reused_and_views_work():
    a = signal((8, 256), "complex64")
    g = gpu(a, CUDA_DEVICE)
    first = host(F.fft(g))
    for _ in range(3):
        np.testing.assert_array_equal(host(F.fft(g)), first)  # the cached plan gives the same bits
    for view in (g[::2], g[:, ::-1], g.mT, g[1:5, 3:200]):
        want = F.fft(dl.asarray(host(view)), axis=0)
        np.testing.assert_allclose(host(F.fft(view, axis=0)), host(want), atol=1e-3)


@cuda_only
def test_from_threads_and_on_a_stream():
    def work(seed):
        a = signal((16, 128 + seed), "complex64", seed)
        for _ in range(5):
            assert_matches_cpu(CUDA_DEVICE, "fft", a)
            assert_matches_cpu(CUDA_DEVICE, "irfft", a)

    run_in_threads(work)
    s = dl.cuda.Stream(0)
    a = signal((4, 1000), "float32")
    with dl.cuda.stream(s):
        got = host(F.rfft(gpu(a, CUDA_DEVICE)))
    np.testing.assert_allclose(got, np.fft.rfft(a), atol=1e-3)


@cuda_only
def test_a_missing_cufft_says_what_to_install(tmp_path):
    code = ("import dlarray as dl, dlarray.fft as F\n"
            "a = dl.ones((4, 4), device='cuda:0')\n"
            "try:\n"
            "    F.fft(a)\n"
            "except RuntimeError as e:\n"
            "    print('ERROR', e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path),
                                DLARRAY_GPU_LIBRARY_PATH=str(tmp_path)))
    assert r.returncode == 0, r.stderr
    assert "ERROR fft.fft on device 'cuda:0': cuFFT" in r.stdout, r.stdout
    assert "pip install dlarray[cuda]" in r.stdout and "nvidia-cufft" in r.stdout, r.stdout
