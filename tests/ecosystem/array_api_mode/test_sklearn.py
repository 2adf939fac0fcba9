"""scikit-learn with array_api_dispatch=True on dlarray inputs: estimators and the metrics that
scikit-learn lists as array API capable give NumPy's answers (NumPy inputs are the oracle).

Failures that are scikit-learn's (code that steps outside the array API standard) are strict
xfails naming the bug, so that a fix on either side is noticed.
"""
import numpy as np
import pytest

import dlarray as xp

sklearn = pytest.importorskip("sklearn")
from sklearn import metrics  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.linear_model import Ridge  # noqa: E402
from sklearn.metrics import pairwise  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import LabelEncoder, MinMaxScaler, StandardScaler  # noqa: E402


@pytest.fixture(autouse=True)
def array_api_dispatch():
    with sklearn.config_context(array_api_dispatch=True):
        yield


RNG = np.random.default_rng(0)
X = RNG.standard_normal((40, 5))
Y_CLASS = (X[:, 0] + 0.3 * RNG.standard_normal(40) > 0).astype(np.int64)
Y_PRED = (X[:, 1] > 0).astype(np.int64)
PROB = 1.0 / (1.0 + np.exp(-X[:, 2]))
POS = np.abs(X) + 0.1


def to_numpy(result):
    if isinstance(result, tuple):
        return tuple(to_numpy(r) for r in result)
    if isinstance(result, xp.Array):
        return np.asarray(result)
    assert not isinstance(result, np.ndarray), "a dlarray input gave a NumPy result"
    return result


def assert_same_as_numpy(fn, *args, rtol=1e-10):
    got = to_numpy(fn(*[xp.asarray(a) for a in args]))
    want = fn(*args)
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-12)
    else:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-12)


ESTIMATORS = {
    "LinearDiscriminantAnalysis.predict": lambda X, y: LinearDiscriminantAnalysis().fit(X, y).predict(X),
    "LinearDiscriminantAnalysis.transform": lambda X, y: LinearDiscriminantAnalysis().fit(X, y).transform(X),
    "LinearDiscriminantAnalysis.predict_proba": lambda X, y: LinearDiscriminantAnalysis().fit(X, y).predict_proba(X),
    "PCA(svd_solver='full')": lambda X, y: PCA(n_components=3, svd_solver="full").fit_transform(X),
    "PCA.inverse_transform": lambda X, y: PCA(n_components=3, svd_solver="full").fit(X).inverse_transform(
        PCA(n_components=3, svd_solver="full").fit(X).transform(X)),
    "Ridge(solver='svd')": lambda X, y: Ridge(solver="svd", alpha=0.5).fit(X, X[:, 1]).predict(X),
    "StandardScaler": lambda X, y: StandardScaler().fit_transform(X),
    "MinMaxScaler": lambda X, y: MinMaxScaler().fit_transform(X),
    "LabelEncoder": lambda X, y: LabelEncoder().fit_transform(y),
    "Pipeline(StandardScaler, PCA, LinearDiscriminantAnalysis).predict_proba": lambda X, y: make_pipeline(
        StandardScaler(), PCA(n_components=3, svd_solver="full"), LinearDiscriminantAnalysis()).fit(X, y).predict_proba(X),
}


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_estimator(name):
    assert_same_as_numpy(ESTIMATORS[name], X, Y_CLASS, rtol=1e-9)


SKLEARN_DIFF_POSITIONAL = pytest.mark.xfail(
    strict=True, raises=TypeError,
    reason="scikit-learn bug: sklearn/metrics/_ranking.py calls xp.diff(a, 2); the standard's "
           "diff takes n as keyword only (diff(x, /, *, axis=-1, n=1, ...))")
SKLEARN_NUMPY_DTYPE_TO_XP = pytest.mark.xfail(
    strict=True, raises=TypeError,
    reason="scikit-learn bug: matthews_corrcoef fits its LabelEncoder on np.hstack(...) and "
           "passes the NumPy dtype to xp.isdtype of the input's namespace")

CLASSIFICATION = ("accuracy_score cohen_kappa_score confusion_matrix fbeta_score jaccard_score "
                  "multilabel_confusion_matrix precision_score recall_score zero_one_loss "
                  "hamming_loss f1_score").split()
PROBABILISTIC = ("average_precision_score det_curve precision_recall_curve brier_score_loss "
                 "log_loss").split()
REGRESSION = ("mean_tweedie_deviance explained_variance_score mean_absolute_error mean_pinball_loss "
              "mean_squared_error mean_squared_log_error median_absolute_error mean_poisson_deviance "
              "mean_gamma_deviance max_error mean_absolute_percentage_error root_mean_squared_error "
              "root_mean_squared_log_error r2_score d2_tweedie_score").split()
PAIRWISE = ("cosine_similarity paired_cosine_distances paired_euclidean_distances "
            "paired_manhattan_distances cosine_distances euclidean_distances manhattan_distances "
            "linear_kernel laplacian_kernel polynomial_kernel rbf_kernel sigmoid_kernel pairwise_kernels "
            "pairwise_distances pairwise_distances_argmin chi2_kernel additive_chi2_kernel").split()


def _metric(name):
    fn = getattr(metrics, name)
    return (lambda a, b: fn(a, b, beta=0.5)) if name == "fbeta_score" else fn


@pytest.mark.parametrize("name", CLASSIFICATION + [
    # divides an integer confusion-matrix diagonal by integer row sums: float64, as NumPy's
    "balanced_accuracy_score",
    pytest.param("matthews_corrcoef", marks=SKLEARN_NUMPY_DTYPE_TO_XP),
])
def test_classification_metric(name):
    assert_same_as_numpy(_metric(name), Y_CLASS, Y_PRED)


@pytest.mark.parametrize("name", PROBABILISTIC + [
    pytest.param("roc_curve", marks=SKLEARN_DIFF_POSITIONAL),
    pytest.param("roc_auc_score", marks=SKLEARN_DIFF_POSITIONAL),
])
def test_probabilistic_metric(name):
    assert_same_as_numpy(_metric(name), Y_CLASS, PROB)


@pytest.mark.parametrize("name", REGRESSION)
def test_regression_metric(name):
    assert_same_as_numpy(_metric(name), POS[:, 0], POS[:, 1])


@pytest.mark.parametrize("name", PAIRWISE)
def test_pairwise(name):
    assert_same_as_numpy(getattr(pairwise, name), POS[:10], POS[10:20])
