"""Dask arrays whose chunks are dlarray arrays (item 6 of issue 15): elementwise, sum/mean/std
along axes, matmul, x.T @ x, rechunk and compute() give NumPy's answers, on the threaded scheduler
and on a dask.distributed LocalCluster. What Dask needs from dlarray lives in
python/dlarray/_numpy_dispatch.py (np.dtype(dlarray.float64), __array_function__/__array_ufunc__,
NumPy-style methods on the meta array)."""
import numpy as np
import pytest

import dlarray

da = pytest.importorskip("dask.array")
import dask  # noqa: E402

A = np.random.default_rng(3).standard_normal((60, 8))

SCENARIOS = {
    "elementwise": lambda d: (d + 1.0) * d - d / 3.0,
    "ufunc sin": lambda d: da.sin(d) + da.exp(d * 0.1),
    "sum axis 0": lambda d: d.sum(axis=0),
    "sum axis 1": lambda d: d.sum(axis=1),
    "sum all": lambda d: d.sum(),
    "mean axis 0": lambda d: d.mean(axis=0),
    "mean axis 1": lambda d: d.mean(axis=1),
    "std axis 0": lambda d: d.std(axis=0),
    "std axis 1 ddof 1": lambda d: d.std(axis=1, ddof=1),
    "max axis 0": lambda d: d.max(axis=0),
    "matmul": lambda d: da.matmul(d, d.T),
    "x.T @ x": lambda d: d.T @ d,
    "rechunk": lambda d: d.rechunk((7, 3)) * 2.0,
    "rechunk then reduce": lambda d: d.rechunk((30, 8)).sum(axis=0),
    # Whole-array reductions: Dask finishes them with np.divide(total, np.float64(count)) and
    # friends on 0-d chunks, NumPy scalars on the left or right of a dlarray array.
    "mean": lambda d: d.mean(),
    "std": lambda d: d.std(),
    "var": lambda d: d.var(),
    "var ddof 1": lambda d: d.var(ddof=1),
    "moment 3": lambda d: da.moment(d, 3, axis=0),
    "nanmean": lambda d: da.nanmean(d),
    "nanmean axis 1": lambda d: da.nanmean(d, axis=1),
    "nanstd axis 0": lambda d: da.nanstd(d, axis=0),
    "nanvar": lambda d: da.nanvar(d),
    "mean of integers": lambda d: (d * 10.0).astype(np.int64).mean(),
    "numpy scalar on the left": lambda d: np.float64(2.0) * d - np.float32(1.0),
}


def _dask_of_dlarray(chunks=(15, 8)):
    return da.from_array(dlarray.asarray(A), chunks=chunks, asarray=False)


def test_meta_is_a_dlarray_array():
    d = _dask_of_dlarray()
    assert isinstance(d._meta, dlarray.Array)
    assert np.dtype(d.dtype) == np.float64


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_threaded_scheduler(name):
    fn = SCENARIOS[name]
    got = fn(_dask_of_dlarray()).compute(scheduler="threads")
    want = fn(da.from_array(A, chunks=(15, 8))).compute(scheduler="threads")
    assert isinstance(got, dlarray.Array), type(got)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12)


def test_local_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        for name in ("elementwise", "std axis 0", "x.T @ x", "rechunk then reduce", "mean", "std", "var",
                     "moment 3", "nanmean"):
            fn = SCENARIOS[name]
            got = fn(_dask_of_dlarray()).compute()
            want = fn(da.from_array(A, chunks=(15, 8))).compute(scheduler="threads")
            np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12, err_msg=name)
