"""The single-read GPU fold (fold_async, src/backends/gpu/gpu_fold.cu): which reductions take it,
and its results against the CPU's, over the fake backend (the core's side: collapsing axes,
strides of views, scratch memory) and on a real GPU (the kernels: row and column passes, the
multi-pass trees, tails)."""
import math

import numpy as np
import pytest

import dlarray as dl
from helpers.gpu_util import first_gpu_device, fresh_log_and_streams, host

FOLDS = ["sum", "prod", "max", "min"]


@pytest.fixture
def log(fake):
    yield from fresh_log_and_streams(fake)


def folds_in(fake):
    return sum(1 for e in fake.log() if e[0] == "fold")


def check_against_cpu(name, x_host, device, axis, keepdims=False):
    """dl.<name> of x on `device` against the CPU: exact for integers, max and min; for float sums
    and products within the error bound of a balanced tree (both sides are trees, of different
    shapes), relative to the sum of magnitudes."""
    x = dl.asarray(x_host)
    want = host(getattr(dl, name)(x, axis=axis, keepdims=keepdims))
    got = getattr(dl, name)(x.to_device(device), axis=axis, keepdims=keepdims)
    assert str(got.device) == device
    got = host(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind != "f" or name in ("max", "min"):
        np.testing.assert_array_equal(got, want)
        return
    # Against an exact-enough reference (long double), not the CPU's float result: the CPU's
    # float32 product is a sequential one, whose error can exceed a tree's bound.
    n = max(1, x_host.size // max(1, want.size))
    eps = np.finfo(want.dtype).eps
    ref_fn = np.sum if name == "sum" else np.prod
    exact = ref_fn(x_host.astype(np.longdouble), axis=axis, keepdims=keepdims)
    bound = 2 * (math.log2(n) + 2) * eps
    if name == "sum":
        scale = np.sum(np.abs(x_host.astype(np.longdouble)), axis=axis, keepdims=keepdims)
        ok = np.abs(got - exact) <= bound * scale + np.finfo(want.dtype).tiny
    else:  # a product's rounding errors add up over all n - 1 multiplications, whatever the tree
        ok = np.abs(got - exact) <= n * eps * np.abs(exact)
    assert np.all(ok | (np.isnan(got) & np.isnan(exact))), name


# ---- over the fake backend ---------------------------------------------------------------------

@pytest.mark.parametrize("view,axis", [
    (lambda a: a, None), (lambda a: a, 0), (lambda a: a, 1), (lambda a: a, 2), (lambda a: a, (1, 2)),
    (lambda a: a, (0, 1)), (lambda a: a[::-1], 0), (lambda a: a[:, ::2], 1), (lambda a: a.T, None),
    (lambda a: a.transpose(1, 0, 2), (0, 1)), (lambda a: a.transpose(1, 0, 2), 2), (lambda a: a.mT, 1),
], ids=["all", "axis0", "axis1", "axis2", "inner2", "outer2", "flipped", "stepped", "transposed-all",
        "swapped-reduced", "two-kept-groups", "transposed-middle"])
@pytest.mark.parametrize("name", FOLDS)
def test_collapsible_folds_are_one_job(fake, log, name, view, axis):
    rng = np.random.default_rng(1)
    a = view(rng.uniform(0.5, 1.5, (6, 5, 7)))
    x = dl.asarray(a).to_device("rocm:0")
    fake.clear_log()
    got = host(getattr(dl, name)(x, axis=axis))
    assert folds_in(fake) >= 1
    want = getattr(np, {"sum": "sum", "prod": "prod", "max": "max", "min": "min"}[name])(a, axis=axis)
    np.testing.assert_allclose(got, want, rtol=1e-13)


def test_axes_that_do_not_collapse_keep_the_elementwise_tree(fake, log):
    a = np.arange(3 * 3 * 4, dtype=np.float64).reshape(3, 3, 4)
    x = dl.asarray(a).to_device("rocm:0")
    fake.clear_log()
    got = host(dl.sum(x, axis=(0, 2)))  # reduced axes 0 and 2 are not one strided axis
    np.testing.assert_array_equal(got, a.sum(axis=(0, 2)))
    assert any(e[0] == "elementwise" for e in fake.log())  # (the region x[0, :, 1:] is one fold)
    b = np.arange(120.0).reshape(2, 3, 4, 5)
    y = dl.asarray(b).to_device("rocm:0")
    fake.clear_log()
    # three kept axes whose order in memory is the reverse of the output's: three groups
    got = host(dl.sum(dl.permute_dims(y, (2, 1, 0, 3)), axis=3))
    np.testing.assert_array_equal(got, b.transpose(2, 1, 0, 3).sum(axis=3))
    assert folds_in(fake) == 0


@pytest.mark.parametrize("dtype", [dl.int8, dl.uint16, dl.int64, dl.uint64, dl.float32, dl.float64])
@pytest.mark.parametrize("name", FOLDS)
def test_fold_dtypes_match_the_cpu(fake, log, name, dtype):
    rng = np.random.default_rng(2)
    d = np.dtype(str(dtype))
    a = rng.integers(0, 5, (9, 33)).astype(d) if d.kind in "iu" else rng.uniform(-2, 2, (9, 33)).astype(d)
    for axis in (None, 0, 1):
        check_against_cpu(name, a, "rocm:0", axis)


@pytest.mark.parametrize("view,axis", [(lambda a: a, None), (lambda a: a, 1), (lambda a: a.mT, 0),
                                       (lambda a: a[:, ::2], (0, 1)), (lambda a: a.transpose(1, 0, 2), (0, 2))])
@pytest.mark.parametrize("name", ["max", "min"])
def test_bool_max_and_min_as_on_the_cpu(fake, log, name, view, axis):
    # The fold table has no bool entries: they fold the same 0/1 bytes as uint8, in one job where
    # the axes collapse, else the elementwise tree (the last case). Were an error on GPUs.
    rng = np.random.default_rng(3)
    a = view(rng.random((4, 3, 6)) < 0.3)
    a[..., 0] = False
    check_against_cpu(name, a, "rocm:0", axis)
    check_against_cpu(name, a, "rocm:0", axis, keepdims=True)


def test_signed_zero_and_nan_as_on_the_cpu(fake, log):
    z = dl.asarray(np.full((4, 3), -0.0)).to_device("rocm:0")
    assert np.signbit(host(dl.sum(z))) and np.all(np.signbit(host(dl.sum(z, axis=0))))
    a = np.arange(12.0).reshape(4, 3)
    a[2, 1] = np.nan
    g = dl.asarray(a).to_device("rocm:0")
    for f in (dl.max, dl.min, dl.sum):
        np.testing.assert_array_equal(host(f(g, axis=0)), host(f(dl.asarray(a), axis=0)))
        assert np.isnan(host(f(g)))


# ---- on a real GPU -----------------------------------------------------------------------------

SIZES_1D = [1, 2, 15, 16, 17, 255, 4096, 4097, 65537, 2**20 + 3, 2**23 + 11]
SHAPES_2D = [(3, 5000), (5000, 3), (17, 17), (1000, 129), (129, 1000), (4, 2**20 + 1), (2**15 + 3, 40), (300, 4097)]


@pytest.mark.gpu
@pytest.mark.parametrize("n", SIZES_1D)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8"])
def test_gpu_whole_array_folds(n, dtype):
    dev = first_gpu_device()
    rng = np.random.default_rng(n)
    a = rng.uniform(-1, 1, n).astype(dtype) if dtype.startswith("float") else rng.integers(0, 3, n).astype(dtype)
    for name in FOLDS:
        if name == "prod" and dtype.startswith("float"):
            a_ = (1 + a / n).astype(dtype)  # a product that stays finite
            check_against_cpu(name, a_, dev, None)
        else:
            check_against_cpu(name, a, dev, None)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES_2D, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_gpu_matrix_folds(shape, dtype):
    dev = first_gpu_device()
    rng = np.random.default_rng(7)
    a = rng.uniform(-1, 1, shape).astype(dtype) if dtype.startswith("float") else rng.integers(-9, 9, shape)
    for view in (a, a.T, a[::-1, ::2]):
        for axis in (0, 1, None):
            for name in ("sum", "max", "min"):
                check_against_cpu(name, view, dev, axis)
            check_against_cpu("sum", view, dev, axis, keepdims=True)


@pytest.mark.gpu
def test_gpu_fold_nan_zero_and_accuracy():
    dev = first_gpu_device()
    a = np.full((1000, 1000), -0.0)
    x = dl.asarray(a).to_device(dev)
    assert np.all(np.signbit(host(dl.sum(x, axis=0)))) and np.all(np.signbit(host(dl.sum(x, axis=1))))
    a = np.random.default_rng(3).uniform(0, 1, (777, 5001))
    a[500, 4000] = np.nan
    x = dl.asarray(a).to_device(dev)
    for axis in (None, 0, 1):
        for f in (dl.max, dl.min):
            np.testing.assert_array_equal(host(f(x, axis=axis)), host(f(dl.asarray(a), axis=axis)))
        check_against_cpu("sum", a, dev, axis)
    # 2^24 + 3 values of 0.1 in float32: a sequential sum drifts by about 1e-2 relative; a tree
    # stays within a few ulp per level.
    v = np.full(2**24 + 3, 0.1, dtype=np.float32)
    got = float(host(dl.sum(dl.asarray(v).to_device(dev))))
    exact = float(np.sum(v.astype(np.float64)))
    assert abs(got - exact) <= 2 * 26 * np.finfo(np.float32).eps * exact
