"""partition, argpartition (src/core/search_sort_ops.h, src/backends/cpu/partition_cpu.cpp) and
median, quantile, percentile (python/dlarray/_selection.py) against NumPy: the partition property
for every dtype, axis and kth list, NaN last, the errors; the statistics for every method, q
scalar and 1-d, axes None/int/tuple, keepdims, NaN slices; all of it over the fake GPU too (where
partition falls back to the sort primitive)."""
import inspect
import math

import numpy as np
import pytest

import dlarray as dl
from helpers.oracle import DTYPE_NAMES, to_numpy

METHODS = ["linear", "lower", "higher", "nearest", "midpoint"]
OPS = {op["name"]: op for op in dl._core._search_sort_ops()}


def host(x):
    return np.from_dlpack(x.to_device("cpu"))


def data(shape, dtype, seed=0, nan=False):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if dtype.startswith("complex"):
        v = rng.integers(-4, 4, n) + 1j * rng.integers(-3, 3, n)
    elif dtype.startswith("float"):
        v = rng.standard_normal(n) * 10
        v[rng.integers(0, n, max(n // 7, 1)) if n else []] = 1.5  # ties
        if nan and n:
            v[rng.integers(0, n, max(n // 9, 1))] = np.nan
    else:
        info = np.iinfo(dtype)
        v = rng.integers(max(info.min, -50), min(info.max, 50), n, endpoint=True)
    return v.astype(dtype).reshape(shape)


def sort_key(a, axis):
    """np.sort's order as dlarray sorts: NaN last, -0 equal to +0 (a copy with -0 made +0)."""
    return np.sort(a + 0 if a.dtype.kind in "fc" else a, axis=axis)


def check_partition(a, kth, axis, got_values, got_indices):
    """The partition property along axis for every k in kth: of partition's values, and of x
    taken in argpartition's order (a permutation of each row)."""
    if axis is None:
        a, axis = a.reshape(-1), 0
    n = a.shape[axis]
    src = np.moveaxis(a, axis, -1)
    ref = np.moveaxis(sort_key(a, axis), axis, -1)
    indices = np.moveaxis(got_indices, axis, -1)
    assert (np.sort(indices, axis=-1) == np.arange(n)).all()
    for values in (np.moveaxis(got_values, axis, -1), np.take_along_axis(src, indices, axis=-1)):
        check_rows(values, ref, [k % n for k in np.atleast_1d(kth)])


def check_rows(values, ref, ks):
    """values (rows along the last axis) is a partition at ks of the rows sorted as ref."""
    np.testing.assert_array_equal(sort_key(values, -1), ref)  # the same elements
    for k in ks:
        np.testing.assert_array_equal(values[..., k], ref[..., k])
        pivot = ref[..., k : k + 1]
        left, right = values[..., :k], values[..., k + 1 :]
        if values.dtype.kind == "c":
            continue  # (complex order: checked through the elements and the kth values)
        if values.dtype.kind == "f":
            # NaN is the largest: left of a number no NaN, right of it anything not smaller
            piv_nan = np.isnan(pivot)
            assert (np.isnan(left) <= piv_nan).all()
            with np.errstate(invalid="ignore"):
                assert ((left <= pivot) | np.isnan(left) | piv_nan).all()
                assert ((right >= pivot) | np.isnan(right)).all()
            assert (~piv_nan | np.isnan(right)).all()
        else:
            assert (left <= pivot).all()
            assert (right >= pivot).all()


def run_both(a, kth, axis, device="cpu"):
    x = dl.asarray(a, device=device)
    pv = dl.partition(x, kth, axis=axis)
    pi = dl.argpartition(x, kth, axis=axis)
    assert str(pv.device) == device and str(pi.device) == device
    assert str(pi.dtype) == "int64" and str(pv.dtype) == str(a.dtype)
    v, i = host(pv), host(pi)
    expect_shape = (a.size,) if axis is None else a.shape
    assert v.shape == expect_shape and i.shape == expect_shape
    check_partition(a, kth, axis, v, i)


# ---- the declaration table -----------------------------------------------------------------------

def test_table_rows_and_signatures():
    for name in ("partition", "argpartition"):
        assert OPS[name]["chapter"] == "selection"
        assert OPS[name]["params"] == "x, kth, /, *, axis=-1"
        assert str(inspect.signature(getattr(dl, name))) == "(x, kth, /, *, axis=-1)"
    for name in ("median", "quantile", "percentile"):
        assert callable(getattr(dl, name))


# ---- partition / argpartition --------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_partition_every_dtype(dtype):
    a = data((3, 257), dtype, nan=True)
    for kth in (0, 128, 256, -1, [3, 100, 200], (-5, 0, 17, 17)):
        run_both(a, kth, -1)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "uint8", "int16", "complex64"])
@pytest.mark.parametrize("n", [1, 2, 5, 63, 64, 65, 129, 1000, 5000, 70001])
def test_partition_lengths(dtype, n):
    # around the vector quickselect's network sizes, and long enough to take partition steps
    a = data((n,), dtype, seed=n, nan=True)
    ks = sorted({0, n // 2, n - 1, n // 3, (2 * n) // 3})
    for kth in [[k] for k in ks] + [ks]:
        run_both(a, kth, 0)


@pytest.mark.parametrize("shape,axis", [((4, 5, 6), 0), ((4, 5, 6), 1), ((4, 5, 6), 2), ((4, 5, 6), -2),
                                        ((7, 3), 0), ((2, 3, 4), None), ((9,), None), ((300, 200), 0),
                                        ((300, 200), 1), ((40, 3000), 1)])
@pytest.mark.parametrize("dtype", ["float64", "int32", "bool"])
def test_partition_axes(shape, axis, dtype):
    a = data(shape, dtype, nan=True)
    n = a.size if axis is None else shape[axis]
    for kth in (0, n // 2, -1, [0, n - 1], sorted({1 % n, n // 2, n - 1})):
        run_both(a, kth, axis)


def test_partition_strided_views_and_threads():
    a = data((64, 2048), "float64", nan=True)  # many rows: the thread pool
    x = dl.asarray(a)
    for view, ref in ((x[:, ::3], a[:, ::3]), (x[::2, 5:], a[::2, 5:]), (dl.permute_dims(x, (1, 0)), a.T)):
        for axis in (0, 1):
            kth = [0, ref.shape[axis] // 2, ref.shape[axis] - 1]
            check_partition(ref, kth, axis, to_numpy(dl.partition(view, kth, axis=axis)),
                            to_numpy(dl.argpartition(view, kth, axis=axis)))


def test_nan_goes_last_and_negative_zero_keeps_its_bits():
    a = np.array([np.nan, 3.0, -0.0, 0.0, -np.inf, np.inf, -np.nan, 1.0, -0.0])
    got = to_numpy(dl.partition(dl.asarray(a), [0, 4, 6]))
    assert np.isnan(got[-2:]).all()
    np.testing.assert_array_equal(np.sort(np.abs(got[1:4])), [0.0, 0.0, 0.0])
    assert sorted(np.signbit(got[np.nonzero(got == 0)]).tolist()) == [False, True, True]  # -0 kept
    assert got[0] == -np.inf and got[6] == np.inf


def test_partition_of_all_equal_and_sorted_rows():
    for a in (np.full(10000, 7.0), np.arange(10000.0), np.arange(10000.0)[::-1].copy(), np.tile([1.0, 2.0], 5000)):
        for kth in (0, 1, 4999, 5000, 9999, [10, 5000, 9998]):
            run_both(a, kth, 0)


def test_kth_forms():
    a = data((20,), "float64")
    x = dl.asarray(a)
    for kth in (3, np.int64(3), np.array(3), [3, 7], (3, 7), np.array([3, 7]), range(2, 5), dl.asarray([3, 7])):
        check_partition(a, list(np.atleast_1d(np.asarray(kth if not isinstance(kth, dl.Array) else to_numpy(kth)))),
                        0, to_numpy(dl.partition(x, kth)), to_numpy(dl.argpartition(x, kth)))
    # no kth at all: a copy in the original order
    np.testing.assert_array_equal(to_numpy(dl.partition(x, [])), a)
    np.testing.assert_array_equal(to_numpy(dl.argpartition(x, [])), np.arange(20))


def test_kth_and_axis_errors():
    x = dl.asarray(np.arange(5.0))
    for kth, k in ((5, 5), (-6, -1), ([1, 7], 7)):
        with pytest.raises(ValueError, match=rf"kth\(={k}\) out of bounds \(5\)"):
            dl.partition(x, kth)
        with pytest.raises(ValueError, match=rf"kth\(={k}\) out of bounds \(5\)"):
            dl.argpartition(x, kth)
    with pytest.raises(ValueError, match="kth"):
        dl.partition(x, True)
    with pytest.raises(ValueError, match="kth"):
        dl.partition(x, [1, False])
    with pytest.raises(TypeError, match="kth"):
        dl.partition(x, 1.0)
    with pytest.raises(TypeError, match="kth"):
        dl.partition(x, [1.5])
    with pytest.raises(TypeError, match="kth"):
        dl.partition(x, None)
    with pytest.raises(IndexError, match="axis"):
        dl.partition(x, 0, axis=1)
    with pytest.raises(IndexError, match="axis"):
        dl.argpartition(dl.asarray(3.0), 0)
    with pytest.raises(TypeError):
        dl.partition(np.arange(3.0), 0)
    # empty axes: any kth is out of bounds there, as in NumPy
    with pytest.raises(ValueError, match=r"kth\(=0\) out of bounds \(0\)"):
        dl.partition(dl.asarray(np.empty(0)), 0)


def test_empty_and_zero_d():
    # an empty array along another axis: nothing to do, the shape kept
    e = dl.partition(dl.asarray(np.empty((0, 3))), 1, axis=1)
    assert e.shape == (0, 3)
    assert dl.argpartition(dl.asarray(np.empty((4, 0))), 2, axis=0).shape == (4, 0)
    # a 0-d array flattened (axis=None) is one element
    np.testing.assert_array_equal(to_numpy(dl.partition(dl.asarray(3.0), 0, axis=None)), [3.0])
    np.testing.assert_array_equal(to_numpy(dl.argpartition(dl.asarray(3.0), 0, axis=None)), [0])


# ---- median / quantile / percentile ----------------------------------------------------------

def np_quantile(a, q, **kw):
    with np.errstate(all="ignore"):
        return np.asarray(np.quantile(a, q, **kw))


def assert_same(got, want, exact):
    want = np.asarray(want)
    g = host(got)
    assert g.shape == want.shape, (g.shape, want.shape)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    if exact:
        np.testing.assert_array_equal(g, want)
    else:
        np.testing.assert_allclose(g, want, rtol=1e-12 if want.dtype == np.float64 else 1e-6, atol=0)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int8", "uint16"])
@pytest.mark.parametrize("q", [0.5, 0.0, 1.0, 0.1, 0.37, [0.1, 0.5, 0.9], [1.0, 0.0, 0.25, 0.75], 1, 0])
def test_quantile_methods(method, dtype, q):
    a = data((6, 7, 11), dtype)
    for axis in (None, 0, 1, -1, (0, 2), (2, 0), (0, 1, 2)):
        for keepdims in (False, True):
            got = dl.quantile(dl.asarray(a), q, axis=axis, method=method, keepdims=keepdims)
            want = np_quantile(a, q, axis=axis, method=method, keepdims=keepdims)
            assert_same(got, want, exact=True)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n", [1, 2, 3, 10, 101, 1000, 4096])
def test_quantile_lengths_bit_equal(method, n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n) * 1e3
    qs = rng.random(17)
    qs[:3] = [0.0, 1.0, 0.5]
    got = dl.quantile(dl.asarray(a), dl.asarray(qs), method=method)
    assert_same(got, np_quantile(a, qs, method=method), exact=True)
    for q in qs[:6]:
        assert_same(dl.quantile(dl.asarray(a), float(q), method=method), np_quantile(a, float(q), method=method),
                    exact=True)


@pytest.mark.parametrize("method", METHODS)
def test_percentile(method):
    a = data((50, 40), "float64")
    for q in (50, 0, 100, 12.5, [10, 50, 90], np.array([33.3, 66.6])):
        for axis in (None, 0, 1):
            got = dl.percentile(dl.asarray(a), q, axis=axis, method=method)
            with np.errstate(all="ignore"):
                want = np.percentile(a, q, axis=axis, method=method)
            assert_same(got, want, exact=method != "linear")
            if method == "linear":
                assert_same(got, want, exact=False)


def test_float32_q_promotion():
    a = data((30,), "float32")
    assert str(dl.quantile(dl.asarray(a), 0.3).dtype) == "float32"
    assert str(dl.quantile(dl.asarray(a), [0.3]).dtype) == "float64"
    assert str(dl.quantile(dl.asarray(a), np.float64(0.3)).dtype) == "float64"
    for q in (0.3, [0.3, 0.8]):
        assert_same(dl.quantile(dl.asarray(a), q), np_quantile(a, q), exact=False)


@pytest.mark.parametrize("method", METHODS)
def test_nan_slices(method):
    a = data((5, 40), "float64")
    a[1, 3] = np.nan
    a[4, :] = np.nan
    for axis in (None, 0, 1):
        for q in (0.5, [0.0, 0.3, 1.0]):
            got = dl.quantile(dl.asarray(a), q, axis=axis, method=method)
            want = np_quantile(a, q, axis=axis, method=method)
            assert_same(got, want, exact=True)
    got = host(dl.quantile(dl.asarray(a), 0.5, axis=1, method=method))
    assert np.isnan(got[[1, 4]]).all() and not np.isnan(got[[0, 2, 3]]).any()


def test_bool_input():
    a = data((40,), "bool")
    for method in ("lower", "higher", "nearest"):
        assert_same(dl.quantile(dl.asarray(a), [0.2, 0.7], method=method),
                    np.quantile(a, [0.2, 0.7], method=method), exact=True)
    with pytest.raises(TypeError, match="quantile"):
        dl.quantile(dl.asarray(a), 0.5)
    assert_same(dl.median(dl.asarray(a)), np.median(a), exact=True)


def test_quantile_errors():
    x = dl.asarray(np.arange(5.0))
    for q in (1.5, -0.1, [0.5, 2.0], math.nan):
        with pytest.raises(ValueError, match="range \\[0, 1\\]"):
            dl.quantile(x, q)
    for q in (101, -1, [50, 100.5]):
        with pytest.raises(ValueError, match="range \\[0, 100\\]"):
            dl.percentile(x, q)
    with pytest.raises(ValueError, match="method"):
        dl.quantile(x, 0.5, method="foo")
    with pytest.raises(ValueError, match="q"):
        dl.quantile(x, [[0.5]])
    with pytest.raises(TypeError, match="real"):
        dl.quantile(dl.asarray(np.array([1 + 1j, 2])), 0.5)
    with pytest.raises(IndexError, match="axis"):
        dl.quantile(x, 0.5, axis=1)
    with pytest.raises(IndexError, match="axis"):
        dl.median(x, axis=-2)
    with pytest.raises(ValueError, match="repeated"):
        dl.quantile(dl.asarray(np.ones((2, 3))), 0.5, axis=(0, -2))
    with pytest.raises(TypeError, match="axis"):
        dl.median(x, axis=0.5)
    with pytest.raises(IndexError):
        dl.quantile(dl.asarray(np.empty(0)), 0.5)
    with pytest.raises(TypeError):
        dl.median(np.arange(3.0))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int8", "uint32", "bool", "complex128"])
def test_median(dtype):
    for shape in ((7,), (8,), (1,), (5, 6), (4, 3, 5)):
        a = data(shape, dtype)
        axes = [None] + list(range(len(shape))) + ([(0, len(shape) - 1)] if len(shape) > 1 else [])
        for axis in axes:
            for keepdims in (False, True):
                got = dl.median(dl.asarray(a), axis=axis, keepdims=keepdims)
                assert_same(got, np.asarray(np.median(a, axis=axis, keepdims=keepdims)), exact=True)


def test_median_nan_and_empty():
    a = data((4, 9), "float64")
    a[2, 5] = np.nan
    assert_same(dl.median(dl.asarray(a), axis=1), np.median(a, axis=1), exact=True)
    assert np.isnan(host(dl.median(dl.asarray(a))))
    c = np.array([[1 + 1j, complex(2, np.nan), 3], [1, 2, 3]], dtype=np.complex128)
    got = host(dl.median(dl.asarray(c), axis=1))
    assert np.isnan(got[0]) and got[1] == 2
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        want = np.median(np.empty((0, 3)), axis=0)
    assert_same(dl.median(dl.asarray(np.empty((0, 3))), axis=0), want, exact=True)
    assert np.isnan(host(dl.median(dl.asarray(np.empty(0)))))
    assert_same(dl.median(dl.asarray(np.empty((3, 0))), axis=0), np.empty(0), exact=True)
    assert_same(dl.median(dl.asarray(5.0)), np.median(5.0), exact=True)


def test_long_rows_match_numpy():
    rng = np.random.default_rng(7)
    a = rng.standard_normal(200001)
    assert_same(dl.median(dl.asarray(a)), np.median(a), exact=True)
    q = [0.1, 0.5, 0.9]
    assert_same(dl.quantile(dl.asarray(a), q), np.quantile(a, q), exact=True)
    assert_same(dl.percentile(dl.asarray(a), 50), np.percentile(a, 50), exact=True)
    b = rng.integers(-1000, 1000, (300, 700))
    assert_same(dl.median(dl.asarray(b), axis=1), np.median(b, axis=1), exact=True)
    assert_same(dl.quantile(dl.asarray(b), q, axis=0), np.quantile(b, q, axis=0), exact=True)


# ---- the fake GPU device ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float64", "int32", "float32"])
def test_on_the_fake_gpu(fake, dtype):
    a = data((6, 301), dtype, nan=True)
    for axis in (0, 1, None):
        n = a.size if axis is None else a.shape[axis]
        run_both(a, [0, n // 2, n - 1], axis, device="rocm:0")
    b = data((6, 301), dtype)
    x = dl.asarray(b, device="rocm:0")
    for method in METHODS:
        for q in (0.5, [0.1, 0.9]):
            r = dl.quantile(x, q, axis=1, method=method)
            assert str(r.device) == "rocm:0"
            assert_same(r, np_quantile(b, q, axis=1, method=method), exact=True)
    r = dl.percentile(x, [25, 75], axis=0, keepdims=True)
    assert str(r.device) == "rocm:0"
    assert_same(r, np.percentile(b, [25, 75], axis=0, keepdims=True), exact=True)
    r = dl.median(x, axis=(0, 1))
    assert str(r.device) == "rocm:0"
    assert_same(r, np.median(b), exact=True)
    nan_row = a.copy()
    if dtype.startswith("float"):
        nan_row[2, 4] = np.nan
        got = host(dl.quantile(dl.asarray(nan_row, device="rocm:0"), 0.5, axis=1))
        assert np.isnan(got[2])


def test_fake_gpu_partition_runs_the_sort_primitive(fake):
    fake.clear_log()
    x = dl.asarray(data((4, 100), "float64"), device="rocm:0")
    fake.clear_log()
    dl.partition(x, 50)
    assert any("sort" in str(e[0]) for e in fake.log())


def test_without_vector_instructions():
    """DLARRAY_CPU_LOOPS=baseline: the CPU taken for one without AVX2, where std::nth_element
    selects instead of the vector quickselect (a child process: the level is read once)."""
    import os
    import subprocess
    import sys
    code = (
        "import numpy as np, dlarray as dl\n"
        "rng = np.random.default_rng(3)\n"
        "for dt in ('float64', 'float32', 'int64', 'int32', 'complex64'):\n"
        "    a = (rng.standard_normal(20000) * 100).astype(dt)\n"
        "    a[::97] = a[5]\n"
        "    ks = [0, 1, 777, 10000, 19998, 19999]\n"
        "    v = np.asarray(memoryview(dl.partition(dl.asarray(a), ks)))\n"
        "    i = np.asarray(memoryview(dl.argpartition(dl.asarray(a), ks)))\n"
        "    s = np.sort(a)\n"
        "    assert (v[ks] == s[ks]).all() and (a[i][ks] == s[ks]).all() and (np.sort(i) == np.arange(a.size)).all()\n"
        "    if dt[0] != 'c':\n"
        "        assert (v[:10000] <= s[10000]).all() and (a[i][10001:] >= s[10000]).all()\n"
        "print('ok')\n"
    )
    env = dict(os.environ, DLARRAY_CPU_LOOPS="baseline")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
