"""dlarray.fft on a real CUDA device (cuFFT, loaded at run time) against the CPU (pocketfft).

Everything around the library call is also checked on any machine by tests/test_gpu_fft_fake.py;
this file checks cuFFT itself: every transform, dtype and norm, lengths with large prime factors,
several axes and passes, plans reused across calls, shapes and threads, and the error when cuFFT
is missing. Marked gpu: skipped without a CUDA device.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import dlarray as dl
import dlarray.fft as F
from helpers.gpu_util import host, needs_cuda, random_values as signal, run_in_threads
from test_fft import N_D, ONE_D, REAL_INPUT, accepted as dtypes_of

pytestmark = [pytest.mark.gpu, needs_cuda]

DEV = "cuda:0"




def assert_matches_cpu(name, a, **kw):
    want = getattr(F, name)(dl.asarray(a), **kw)
    got = getattr(F, name)(dl.asarray(a).to_device(DEV), **kw)
    assert str(got.device) == DEV
    assert got.dtype == want.dtype and got.shape == want.shape, (name, kw)
    w = host(want)
    single = want.dtype in (dl.float32, dl.complex64)
    # FFT error grows like log(n) * eps * the norm of the input.
    scale = max(1.0, float(np.abs(w).max(initial=0.0)))
    np.testing.assert_allclose(host(got), w, rtol=0, atol=(1e-4 if single else 1e-11) * scale, err_msg=f"{name} {kw}")


@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_one_dimensional(name, norm):
    for dtype in dtypes_of(name):
        a = signal((5, 64, 33), dtype, seed=len(name))
        for axis in (-1, 0, 1):
            for n in (None, 1, 17, 64, 100, 1009):
                assert_matches_cpu(name, a, n=n, axis=axis, norm=norm)


@pytest.mark.parametrize("name", N_D)
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_n_dimensional(name, norm):
    for dtype in dtypes_of(name):
        a = signal((6, 20, 18), dtype, seed=len(name))
        assert_matches_cpu(name, a, norm=norm)
        for axes in ([0], [2, 0], [1, 2], [2, 1, 0]):
            assert_matches_cpu(name, a, axes=axes, norm=norm)
        assert_matches_cpu(name, a, s=[7, 30], axes=[0, 2], norm=norm)
        b = signal((3, 4, 5, 6, 7), dtype, seed=3)  # five axes: two passes
        assert_matches_cpu(name, b, norm=norm)


def test_large_transforms():
    for n, dtype in ((1 << 20, "complex64"), (1 << 18, "float64"), (3 * 5 * 7 * 11 * 13 * 17, "complex128")):
        a = signal((n,), dtype, seed=1)
        assert_matches_cpu("fft" if dtype.startswith("complex") else "rfft", a)
    assert_matches_cpu("fftn", signal((512, 512), "complex64"))


def test_plans_are_reused_and_views_work():
    a = signal((8, 256), "complex64")
    g = dl.asarray(a).to_device(DEV)
    first = host(F.fft(g))
    for _ in range(3):
        np.testing.assert_array_equal(host(F.fft(g)), first)  # the cached plan gives the same bits
    for view in (g[::2], g[:, ::-1], g.mT, g[1:5, 3:200]):
        want = F.fft(dl.asarray(host(view)), axis=0)
        np.testing.assert_allclose(host(F.fft(view, axis=0)), host(want), atol=1e-3)


def test_from_threads_and_on_a_stream():
    def work(seed):
        a = signal((16, 128 + seed), "complex64", seed)
        for _ in range(5):
            assert_matches_cpu("fft", a)
            assert_matches_cpu("irfft", a)

    run_in_threads(work)
    s = dl.cuda.Stream(0)
    a = signal((4, 1000), "float32")
    with dl.cuda.stream(s):
        got = host(F.rfft(dl.asarray(a).to_device(DEV)))
    np.testing.assert_allclose(got, np.fft.rfft(a), atol=1e-3)


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
