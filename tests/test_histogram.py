"""dlarray.bincount and dlarray.histogram (dlarray/_histogram.py) against NumPy's: counts, weights,
minlength, equal-width and explicit bins, values on the edges, ranges, density, empty input,
dtypes, the errors, and the fake GPU device."""
import numpy as np
import pytest

import dlarray as dl
from helpers.gpu_util import host


def close(got, want):
    got = host(got)
    assert got.shape == want.shape and got.dtype == want.dtype
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    else:
        np.testing.assert_array_equal(got, want)


# ---- bincount -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint32,
                                   np.uint64, np.bool_])
@pytest.mark.parametrize("n,high", [(1, 1), (10, 3), (1000, 50), (5000, 7)])
def test_bincount_counts(dtype, n, high):
    high = 2 if dtype == np.bool_ else high
    x = np.random.default_rng(n).integers(0, high, n).astype(dtype)
    close(dl.bincount(dl.asarray(x)), np.bincount(x))


@pytest.mark.parametrize("minlength", [0, 1, 5, 40])
def test_bincount_minlength(minlength):
    x = np.array([0, 3, 3, 7, 1], dtype=np.int64)
    close(dl.bincount(dl.asarray(x), minlength=minlength), np.bincount(x, minlength=minlength))


@pytest.mark.parametrize("wdtype", [np.float64, np.float32, np.int64, np.bool_])
def test_bincount_weights(wdtype):
    rng = np.random.default_rng(4)
    x = rng.integers(0, 30, 2000)
    w = (rng.standard_normal(2000) * 5).astype(wdtype)
    close(dl.bincount(dl.asarray(x), dl.asarray(w)), np.bincount(x, w))
    close(dl.bincount(dl.asarray(x), weights=dl.asarray(w), minlength=50),
          np.bincount(x, weights=w, minlength=50))


def test_bincount_large_values_and_gaps():
    x = np.array([0, 2**31 + 5 - 2**31 + 100000, 3, 100000], dtype=np.int64)
    close(dl.bincount(dl.asarray(x)), np.bincount(x))


def test_bincount_weights_with_large_values():
    # max(x) * 2**bits(n) beyond int32: the argsort path instead of the packed-key sort
    rng = np.random.default_rng(6)
    x = rng.integers(0, 3, 5000)
    x[::7] = 10**6 - 1
    w = rng.standard_normal(5000)
    close(dl.bincount(dl.asarray(x), dl.asarray(w)), np.bincount(x, w))


def test_bincount_empty():
    for minlength in (0, 4):
        close(dl.bincount(dl.asarray(np.zeros(0, np.int64)), minlength=minlength),
              np.bincount(np.zeros(0, np.int64), minlength=minlength))
        close(dl.bincount(dl.asarray(np.zeros(0, np.int64)), dl.asarray(np.zeros(0)),
                          minlength=minlength),
              np.bincount(np.zeros(0, np.int64), np.zeros(0), minlength=minlength))


def test_bincount_errors():
    x = dl.asarray(np.array([1, 2, 3]))
    with pytest.raises(TypeError, match=r"Cannot cast array data from dtype\('float64'\) to "
                                        r"dtype\('int64'\) according to the rule 'safe'"):
        dl.bincount(dl.asarray(np.array([1.0, 2.0])))
    with pytest.raises(TypeError, match="Cannot cast"):
        np.bincount(np.array([1.0, 2.0]))
    with pytest.raises(TypeError, match="Cannot cast"):
        dl.bincount(dl.asarray(np.zeros(0)))
    with pytest.raises(ValueError, match="negative"):
        dl.bincount(dl.asarray(np.array([1, -1, 3])))
    with pytest.raises(ValueError):
        np.bincount(np.array([1, -1, 3]))
    with pytest.raises(ValueError, match="1-d"):
        dl.bincount(dl.asarray(np.ones((2, 2), np.int64)))
    with pytest.raises(ValueError, match="1-d"):
        dl.bincount(dl.asarray(np.int64(3)))
    with pytest.raises(ValueError, match="minlength"):
        dl.bincount(x, minlength=-1)
    with pytest.raises(TypeError, match="minlength"):
        dl.bincount(x, minlength=1.5)
    with pytest.raises(ValueError, match="same length"):
        dl.bincount(x, dl.asarray(np.ones(2)))
    with pytest.raises(TypeError, match="complex128"):
        dl.bincount(x, dl.asarray(np.ones(3, complex)))
    with pytest.raises(TypeError, match="dlarray.Array"):
        dl.bincount([1, 2])


# ---- histogram ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8, np.uint16])
@pytest.mark.parametrize("bins", [1, 3, 10, 50])
@pytest.mark.parametrize("shape", [(1,), (100,), (30, 7)])
def test_histogram_equal_bins(dtype, bins, shape):
    rng = np.random.default_rng(bins)
    a = (rng.standard_normal(shape) * 20).astype(dtype) if np.issubdtype(dtype, np.floating) \
        else rng.integers(0, 100, shape).astype(dtype)
    hist, edges = dl.histogram(dl.asarray(a), bins)
    want_hist, want_edges = np.histogram(a, bins)
    close(hist, want_hist)
    close(edges, want_edges)  # the same edges, bit for bit
    np.testing.assert_array_equal(host(edges), want_edges)


@pytest.mark.parametrize("bins", [3, 7, 10, 13, 100])
def test_values_exactly_on_edges(bins):
    # Every edge value itself, and its neighbours one ulp away, as values.
    _, edges = np.histogram(np.array([-1.3, 2.9]), bins)
    a = np.concatenate([edges, np.nextafter(edges, -np.inf), np.nextafter(edges, np.inf),
                        [-1.3, 2.9]])
    a = a[(a >= -1.3) & (a <= 2.9)]
    hist, got_edges = dl.histogram(dl.asarray(a), bins)
    want_hist, _ = np.histogram(a, bins)
    close(hist, want_hist)
    for value_range in [(-1.3, 2.9), (0.1, 0.7), (-2.0, 0.0)]:
        hist, got_edges = dl.histogram(dl.asarray(a), bins, range=value_range)
        want_hist, want_edges = np.histogram(a, bins, range=value_range)
        close(hist, want_hist)
        close(got_edges, want_edges)


def test_float32_on_edges():
    a = np.linspace(0, 1, 101, dtype=np.float32)
    for bins in (3, 10, 7):
        hist, edges = dl.histogram(dl.asarray(a), bins)
        want_hist, want_edges = np.histogram(a, bins)
        close(hist, want_hist)
        close(edges, want_edges)


def test_all_values_equal():
    for a in (np.array([5.0, 5.0, 5.0]), np.array([0.0]), np.array([-2, -2], np.int32)):
        hist, edges = dl.histogram(dl.asarray(a))
        want_hist, want_edges = np.histogram(a)
        close(hist, want_hist)
        close(edges, want_edges)


def test_range_ignores_values_outside_and_nan():
    a = np.array([-5.0, -1.0, 0.0, 0.5, 1.0, 2.0, np.nan, np.inf, -np.inf, 0.99999])
    for value_range in [(0, 1), (-1, 2), (0.25, 0.25)]:
        hist, edges = dl.histogram(dl.asarray(a), 4, range=value_range)
        want_hist, want_edges = np.histogram(a, 4, range=value_range)
        close(hist, want_hist)
        close(edges, want_edges)


@pytest.mark.parametrize("edges", [[0, 1, 2, 3], [-1.0, 0.0, 0.5, 0.5, 2.0], [0.0, 10.0],
                                   [2.5], [-np.inf, 0.0, np.inf], np.linspace(-2, 2, 51)])
def test_explicit_edges(edges):
    rng = np.random.default_rng(0)
    a = np.concatenate([rng.standard_normal(500), [0.0, 0.5, 1.0, 2.0, 3.0, np.nan, -1.0]])
    hist, got_edges = dl.histogram(dl.asarray(a), edges)
    want_hist, want_edges = np.histogram(a, edges)
    close(hist, want_hist)
    close(got_edges, want_edges)
    hist, _ = dl.histogram(dl.asarray(a), dl.asarray(np.asarray(edges)))
    close(hist, want_hist)


def test_explicit_edges_random_cases():
    # Values on, below and above edges that repeat, infinities, with and without weights: each
    # value's bin is a search among the edges, the last bin closed on the right.
    rng = np.random.default_rng(7)
    for _ in range(150):
        n = int(rng.integers(0, 60))
        a = np.round(rng.standard_normal(n) * 2, 1)
        if n:
            a[rng.integers(0, n, size=min(n, 4))] = rng.choice([0.0, 1.0, 3.0, np.inf, -np.inf], size=min(n, 4))
        edges = np.sort(rng.choice([-1.0, 0.0, 0.5, 1.0, 1.0, 2.0, 3.0], size=int(rng.integers(1, 7))))
        w = rng.random(n)
        hist, _ = dl.histogram(dl.asarray(a), dl.asarray(edges))
        close(hist, np.histogram(a, edges)[0])
        hist, _ = dl.histogram(dl.asarray(a), dl.asarray(edges), weights=dl.asarray(w))
        close(hist, np.histogram(a, edges, weights=w)[0])


def test_integer_values_and_integer_edges():
    a = np.array([0, 1, 1, 2, 3, 3, 3, 9], dtype=np.int32)
    for edges in ([0, 1, 2, 3], [1, 3, 9], [0.5, 1.5, 3.0]):
        hist, got_edges = dl.histogram(dl.asarray(a), edges)
        want_hist, want_edges = np.histogram(a, edges)
        close(hist, want_hist)
        close(got_edges, want_edges)


@pytest.mark.parametrize("wdtype", [np.float64, np.float32, np.int64, np.complex128])
@pytest.mark.parametrize("bins", [6, [-3.0, -1.0, 0.0, 0.1, 2.0]])
def test_weights(wdtype, bins):
    rng = np.random.default_rng(2)
    a = rng.standard_normal((40, 5))
    w = (rng.standard_normal((40, 5)) * 10).astype(wdtype)
    if wdtype == np.complex128:
        w = w + 1j * rng.standard_normal((40, 5))
    hist, _ = dl.histogram(dl.asarray(a), bins, weights=dl.asarray(w))
    want, _ = np.histogram(a, bins, weights=w)
    assert host(hist).dtype == want.dtype
    np.testing.assert_allclose(host(hist), want, rtol=1e-5 if wdtype == np.float32 else 1e-12,
                               atol=1e-4 if wdtype == np.float32 else 1e-12)
    hist, _ = dl.histogram(dl.asarray(a), bins, range=(-1, 1), weights=dl.asarray(w)) \
        if isinstance(bins, int) else (None, None)
    if hist is not None:
        want, _ = np.histogram(a, bins, range=(-1, 1), weights=w)
        np.testing.assert_allclose(host(hist), want, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("bins", [5, [-2.0, -0.5, 0.0, 3.0]])
@pytest.mark.parametrize("weighted", [False, True])
def test_density(bins, weighted):
    rng = np.random.default_rng(9)
    a = rng.standard_normal(300)
    w = rng.random(300) if weighted else None
    hist, _ = dl.histogram(dl.asarray(a), bins, weights=None if w is None else dl.asarray(w),
                           density=True)
    want, _ = np.histogram(a, bins, weights=w, density=True)
    close(hist, want)


def test_empty_input():
    for bins in (4, [0.0, 1.0, 3.0]):
        hist, edges = dl.histogram(dl.asarray(np.zeros(0)), bins)
        want_hist, want_edges = np.histogram(np.zeros(0), bins)
        close(hist, want_hist)
        close(edges, want_edges)


def test_histogram_errors():
    a = dl.asarray(np.array([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="`bins` must increase monotonically"):
        dl.histogram(a, [0.0, 2.0, 1.0])
    with pytest.raises(ValueError, match="`bins` must increase monotonically"):
        np.histogram(np.array([1.0]), [0.0, 2.0, 1.0])
    with pytest.raises(ValueError, match="1d"):
        dl.histogram(a, [[0.0, 1.0]])
    with pytest.raises(ValueError, match="positive"):
        dl.histogram(a, 0)
    with pytest.raises(TypeError, match="bins"):
        dl.histogram(a, 2.5)
    with pytest.raises(ValueError, match="'auto' is not supported"):
        dl.histogram(a, "auto")
    with pytest.raises(ValueError, match=r"autodetected range of \[nan, nan\] is not finite"):
        dl.histogram(dl.asarray(np.array([1.0, np.nan])))
    with pytest.raises(ValueError, match="autodetected range"):
        dl.histogram(dl.asarray(np.array([1.0, np.inf])))
    with pytest.raises(ValueError, match="max must be larger than min"):
        dl.histogram(a, range=(2, 1))
    with pytest.raises(ValueError, match="not finite"):
        dl.histogram(a, range=(1, np.inf))
    with pytest.raises(ValueError, match="same shape"):
        dl.histogram(a, weights=dl.asarray(np.ones(2)))
    with pytest.raises(TypeError, match="complex"):
        dl.histogram(dl.asarray(np.ones(2, complex)))
    with pytest.raises(TypeError, match="dlarray.Array"):
        dl.histogram([1.0, 2.0])


# ---- on the fake GPU device ---------------------------------------------------------------------

def test_bincount_on_the_fake_gpu(fake):
    x = np.random.default_rng(1).integers(0, 12, 300)
    w = np.random.default_rng(2).random(300)
    got = dl.bincount(dl.asarray(x, device="rocm:0"), minlength=15)
    assert str(got.device) == "rocm:0"
    close(got, np.bincount(x, minlength=15))
    got = dl.bincount(dl.asarray(x, device="rocm:0"), dl.asarray(w, device="rocm:0"))
    assert str(got.device) == "rocm:0"
    close(got, np.bincount(x, w))
    got = dl.bincount(dl.asarray(np.zeros(0, np.int64), device="rocm:0"), minlength=3)
    assert str(got.device) == "rocm:0"
    close(got, np.zeros(3, np.int64))


@pytest.mark.parametrize("bins,value_range", [(8, None), (5, (-1, 1)),
                                               ([-2.0, 0.0, 0.3, 4.0], None)])
def test_histogram_on_the_fake_gpu(fake, bins, value_range):
    a = np.random.default_rng(3).standard_normal(400)
    w = np.random.default_rng(4).random(400)
    for weights in (None, w):
        on_device = None if weights is None else dl.asarray(weights, device="rocm:0")
        hist, edges = dl.histogram(dl.asarray(a, device="rocm:0"), bins, range=value_range,
                                   weights=on_device)
        assert str(hist.device) == "rocm:0" and str(edges.device) == "rocm:0"
        want_hist, want_edges = np.histogram(a, bins, range=value_range, weights=weights)
        close(hist, want_hist)
        close(edges, want_edges)


def test_tally_kernel_checks_its_arguments():
    # The CPU's one-pass tally under bincount/histogram: wrong dtypes, lengths and ranges raise.
    x = dl.asarray(np.array([0, 2, 2, 5]))
    np.testing.assert_array_equal(np.from_dlpack(dl._core._tally(x, None, 6)), [1, 0, 2, 0, 0, 1])
    with pytest.raises(TypeError, match="int32 or int64"):
        dl._core._tally(dl.asarray([0.0, 1.0]), None, 2)
    with pytest.raises(TypeError, match="weights"):
        dl._core._tally(x, dl.asarray([1.0, 2.0]), 6)
    with pytest.raises(ValueError, match="outside"):
        dl._core._tally(x, None, 5)
    with pytest.raises(ValueError, match="outside"):
        dl._core._tally(dl.asarray(np.array([-1, 0], dtype=np.int32)), None, 3)
