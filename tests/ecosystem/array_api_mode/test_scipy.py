"""SciPy in array API mode (SCIPY_ARRAY_API=1) on dlarray inputs: scipy.special, scipy.stats,
scipy.signal, scipy.ndimage and scipy.cluster give NumPy's answers and return dlarray arrays.

Calls where SciPy 1.17 has no array API path (it converts the input with np.asarray and hands
back NumPy) are strict xfails saying so: the scenario starts passing when SciPy adds the path.
"""
import numpy as np
import pytest

import dlarray as xp

scipy = pytest.importorskip("scipy")
from scipy import ndimage, signal, special, stats  # noqa: E402
from scipy.cluster import hierarchy, vq  # noqa: E402
import scipy  # noqa: E402

SCIPY_VERSION = tuple(int(p) for p in scipy.__version__.split(".")[:2])

RNG = np.random.default_rng(0)
A = RNG.standard_normal(50)
B = RNG.standard_normal(50)
POS = np.abs(A) + 0.1
UNIT = POS / (2 * POS.max())
M = RNG.standard_normal((8, 9))
MI = RNG.integers(0, 10, (8, 9)).astype(np.int64)
K3 = RNG.standard_normal((3, 3))
TAPS = np.array([0.2, 0.3, 0.2])
ONE = np.array([1.0])
SOS = signal.butter(2, 0.3, output="sos")
LABELS = (np.arange(50) % 3).astype(np.int64)
IDX = np.array([0, 1, 2], dtype=np.int64)
EYE_SCALE = np.eye(2) * 1.1
COORDS = np.full((2, 4), 1.5)
OBS = RNG.standard_normal((12, 3))


def no_array_api_path(what, added_in=None):
    """A strict xfail: SciPy converts the input with np.asarray and returns NumPy. added_in: the
    SciPy version that has the path (seen on the GPU machine's newer SciPy); from it on the
    scenario must pass."""
    missing = added_in is None or SCIPY_VERSION < added_in
    return pytest.mark.xfail(missing, strict=True, raises=AssertionError,
                             reason=f"SciPy {scipy.__version__} has no array API path for {what}: it converts "
                                    "the input with np.asarray and returns NumPy")


def _close(got, want, rtol):
    if isinstance(want, (tuple, list)) and not isinstance(want, np.ndarray):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _close(g, w, rtol)
        return
    if isinstance(want, np.ndarray) or isinstance(want, np.generic):
        assert isinstance(got, xp.Array), f"a dlarray input gave {type(got).__name__}"
        got = np.asarray(got)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-12)


def check(fn, *args, rtol=1e-9):
    """fn(*NumPy args) is the oracle for fn(*the same values as dlarray arrays)."""
    def conv(a):
        return xp.asarray(a) if isinstance(a, np.ndarray) else a
    got = fn(*[conv(a) for a in args])
    want = fn(*args)
    if hasattr(want, "_fields") or type(want).__name__.endswith("Result"):
        fields = [f for f in ("statistic", "pvalue") if hasattr(want, f)]
        got, want = [getattr(got, f) for f in fields], [getattr(want, f) for f in fields]
    _close(got, want, rtol)


SPECIAL = {
    "erf": (lambda a: special.erf(a), A), "erfc": (lambda a: special.erfc(a), A),
    "gammaln": (lambda a: special.gammaln(a), POS), "ndtr": (lambda a: special.ndtr(a), A),
    "ndtri": (lambda a: special.ndtri(a), UNIT), "expit": (lambda a: special.expit(a), A),
    "logit": (lambda a: special.logit(a), UNIT), "logsumexp": (lambda a: special.logsumexp(a), A),
    "softmax": (lambda a: special.softmax(a), A), "log_softmax": (lambda a: special.log_softmax(a), A),
    "xlogy": (lambda a: special.xlogy(a, a), POS), "xlog1py": (lambda a: special.xlog1py(a, a), POS),
    "entr": (lambda a: special.entr(a), POS), "rel_entr": (lambda a: special.rel_entr(a, a[::-1]), POS),
    "i0": (lambda a: special.i0(a), A), "i0e": (lambda a: special.i0e(a), A), "i1": (lambda a: special.i1(a), A),
    "betainc": (lambda a: special.betainc(a + 1, a + 2, a * 0 + 0.3), POS),
    "gammainc": (lambda a: special.gammainc(a, a), POS), "chdtr": (lambda a: special.chdtr(a + 1, a), POS),
    "stdtr": (lambda a: special.stdtr(a + 1, a), POS), "log_ndtr": (lambda a: special.log_ndtr(a), A),
}


@pytest.mark.parametrize("name", list(SPECIAL))
def test_special(name):
    fn, arg = SPECIAL[name]
    check(fn, arg)


STATS = {
    "describe": (lambda a: tuple(stats.describe(a))[2:], A), "skew": (stats.skew, A),
    "kurtosis": (stats.kurtosis, A), "moment": (lambda a: stats.moment(a, order=3), A),
    "zscore": (stats.zscore, A), "ttest_1samp": (lambda a: stats.ttest_1samp(a, 0.0), A),
    "ttest_ind": (stats.ttest_ind, A, B), "ttest_rel": (stats.ttest_rel, A, B),
    "pearsonr": (stats.pearsonr, A, B), "gmean": (stats.gmean, POS), "hmean": (stats.hmean, POS),
    "pmean": (lambda a: stats.pmean(a, 2.0), POS), "variation": (stats.variation, A),
    "sem": (stats.sem, A), "tmean": (lambda a: stats.tmean(a, (-1, 1)), A), "tvar": (stats.tvar, A),
    "tstd": (stats.tstd, A), "tmin": (stats.tmin, A), "tmax": (stats.tmax, A),
    "entropy": (stats.entropy, POS), "differential_entropy": (stats.differential_entropy, A),
    "skewtest": (stats.skewtest, A), "kurtosistest": (stats.kurtosistest, A),
    "normaltest": (stats.normaltest, A), "jarque_bera": (stats.jarque_bera, A),
    "shapiro": pytest.param((stats.shapiro, A), marks=no_array_api_path("stats.shapiro", added_in=(1, 18))), "f_oneway": (stats.f_oneway, A, B), "bartlett": (stats.bartlett, A, B),
    "levene": (stats.levene, A, B), "alexandergovern": (stats.alexandergovern, A, B),
    "chisquare": (stats.chisquare, POS), "power_divergence": (stats.power_divergence, POS),
    "linregress": pytest.param((lambda a, b: tuple(stats.linregress(a, b))[:2], A, B), marks=no_array_api_path("stats.linregress", added_in=(1, 18))),
    "circmean": (stats.circmean, A), "circvar": (stats.circvar, A), "circstd": (stats.circstd, A),
    "sigmaclip": (lambda a: stats.sigmaclip(a)[1:], A), "trim_mean": (lambda a: stats.trim_mean(a, 0.1), A),
    "rankdata": (stats.rankdata, A), "spearmanr": pytest.param((stats.spearmanr, A, B), marks=no_array_api_path("stats.spearmanr")), "kendalltau": pytest.param((stats.kendalltau, A, B), marks=no_array_api_path("stats.kendalltau", added_in=(1, 18))),
    "quantile": (lambda a: stats.quantile(a, 0.3), A), "iqr": (stats.iqr, A),
    "mode": (lambda m: stats.mode(m, axis=None), MI), "median_abs_deviation": (stats.median_abs_deviation, A),
    "boxcox_llf": (lambda a: stats.boxcox_llf(0.5, a), POS), "yeojohnson_llf": (lambda a: stats.yeojohnson_llf(0.5, a), A),
    "lmoment": (stats.lmoment, A), "wilcoxon": (stats.wilcoxon, A), "mannwhitneyu": (stats.mannwhitneyu, A, B),
    "ks_2samp": pytest.param((stats.ks_2samp, A, B), marks=no_array_api_path("stats.ks_2samp", added_in=(1, 18))), "chatterjeexi": (stats.chatterjeexi, A, B),
    "expectile": pytest.param((lambda a: stats.expectile(a, 0.3), A), marks=no_array_api_path("stats.expectile", added_in=(1, 18))),
    "Normal.pdf": pytest.param((lambda a: stats.Normal().pdf(a), A),
                               marks=no_array_api_path("the random-variable classes (stats.Normal)")),
}


@pytest.mark.parametrize("case", list(STATS.values()), ids=list(STATS))
def test_stats(case):
    check(*case)


SIGNAL = {
    "convolve": (signal.convolve, A, B), "correlate": (signal.correlate, A, B),
    "fftconvolve": (signal.fftconvolve, A, B), "oaconvolve": (signal.oaconvolve, A, B),
    "convolve2d": (signal.convolve2d, M, K3), "correlate2d": (signal.correlate2d, M, K3),
    "lfilter": (signal.lfilter, TAPS, ONE, A), "filtfilt": (signal.filtfilt, TAPS, ONE, A),
    "sosfilt": (signal.sosfilt, SOS, A), "sosfiltfilt": (signal.sosfiltfilt, SOS, A),
    "detrend": (signal.detrend, A), "hilbert": (signal.hilbert, A),
    "welch": pytest.param((lambda a: signal.welch(a, nperseg=16), A), marks=no_array_api_path("signal.welch")), "periodogram": pytest.param((signal.periodogram, A), marks=no_array_api_path("signal.periodogram")),
    "csd": pytest.param((lambda a, b: signal.csd(a, b, nperseg=16), A, B), marks=no_array_api_path("signal.csd")),
    "coherence": pytest.param((lambda a, b: signal.coherence(a, b, nperseg=16), A, B), marks=no_array_api_path("signal.coherence")),
    "medfilt": (signal.medfilt, A), "wiener": (signal.wiener, A), "resample": (lambda a: signal.resample(a, 30), A),
    "resample_poly": (lambda a: signal.resample_poly(a, 2, 3), A), "savgol_filter": (lambda a: signal.savgol_filter(a, 7, 2), A),
    "upfirdn": (lambda h, a: signal.upfirdn(h, a, 3), TAPS, A), "freqz": (lambda b: signal.freqz(b)[1], TAPS),
    "get_window": (lambda: signal.get_window("hann", 16, xp=xp), ),
    "decimate": pytest.param((lambda a: signal.decimate(a, 2), A), marks=no_array_api_path("signal.decimate")),
    "stft": pytest.param((lambda a: signal.stft(a, nperseg=16)[2], A), marks=no_array_api_path("signal.stft")),
    "spectrogram": pytest.param((lambda a: signal.spectrogram(a, nperseg=16)[2], A),
                                marks=no_array_api_path("signal.spectrogram")),
}


@pytest.mark.parametrize("case", list(SIGNAL.values()), ids=list(SIGNAL))
def test_signal(case):
    if not case[1:]:  # takes xp itself: compare with the NumPy window
        np.testing.assert_allclose(np.asarray(case[0]()), signal.get_window("hann", 16))
        return
    check(*case)


NDIMAGE = {
    "gaussian_filter": (lambda m: ndimage.gaussian_filter(m, 1.0), M),
    "gaussian_filter(int64)": (lambda m: ndimage.gaussian_filter(m, 1.0), MI),
    "uniform_filter": (lambda m: ndimage.uniform_filter(m, 3), M), "median_filter": (lambda m: ndimage.median_filter(m, 3), M),
    "sobel": (ndimage.sobel, M), "laplace": (ndimage.laplace, M), "maximum_filter": (lambda m: ndimage.maximum_filter(m, 3), M),
    "minimum_filter": (lambda m: ndimage.minimum_filter(m, 3), MI), "convolve": (ndimage.convolve, M, K3),
    "correlate1d": (ndimage.correlate1d, M, TAPS), "zoom": (lambda m: ndimage.zoom(m, 2), M),
    "rotate": (lambda m: ndimage.rotate(m, 30), M), "shift": (lambda m: ndimage.shift(m, 1.5), M),
    "affine_transform": (ndimage.affine_transform, M, EYE_SCALE), "map_coordinates": (ndimage.map_coordinates, M, COORDS),
    "label": (lambda m: ndimage.label(m > 5)[0], MI), "binary_erosion": (lambda m: ndimage.binary_erosion(m > 3), MI),
    "binary_dilation": (lambda m: ndimage.binary_dilation(m > 3), MI),
    "distance_transform_edt": (lambda m: ndimage.distance_transform_edt(m > 3), MI),
    "sum_labels": (ndimage.sum_labels, A, LABELS, IDX), "mean": (ndimage.mean, MI),
    "center_of_mass": (lambda m: ndimage.center_of_mass(m * m), M), "grey_erosion": (lambda m: ndimage.grey_erosion(m, size=(3, 3)), MI),
    "spline_filter": (ndimage.spline_filter, M), "fourier_gaussian": (lambda m: ndimage.fourier_gaussian(m, 1.0), M),
    "maximum_position": (ndimage.maximum_position, M),
}


@pytest.mark.parametrize("case", list(NDIMAGE.values()), ids=list(NDIMAGE))
def test_ndimage(case):
    check(*case)


CLUSTER = {
    "vq.whiten": (vq.whiten, OBS), "vq.vq": (lambda o: vq.vq(o, o[:3])[0], OBS),
    "vq.kmeans2": (lambda o: vq.kmeans2(o, o[:3], iter=5, minit="matrix")[1], OBS),
    "hierarchy.linkage": (lambda o: hierarchy.linkage(o, "ward"), OBS),
    "hierarchy.fcluster": (lambda o: hierarchy.fcluster(hierarchy.linkage(o, "single"), 3, "maxclust"), OBS),
    "hierarchy.cophenet": (lambda o: hierarchy.cophenet(hierarchy.linkage(o, "average")), OBS),
    "hierarchy.leaves_list": (lambda o: hierarchy.leaves_list(hierarchy.linkage(o)), OBS),
    "hierarchy.inconsistent": (lambda o: hierarchy.inconsistent(hierarchy.linkage(o)), OBS),
    "hierarchy.maxdists": (lambda o: hierarchy.maxdists(hierarchy.linkage(o)), OBS),
}


@pytest.mark.parametrize("case", list(CLUSTER.values()), ids=list(CLUSTER))
def test_cluster(case):
    check(*case)
