"""NumPy's protocols on dlarray objects (python/dlarray/_numpy_dispatch.py): NumPy dtype
conversion, __array_function__ / __array_ufunc__ dispatch to dlarray's functions, NumPy-style methods."""
import numpy as np
import pytest

import dlarray as xp

A = np.arange(12.0).reshape(3, 4) - 5.5


@pytest.mark.parametrize("name", ["bool", "int8", "uint16", "int64", "float32", "float64", "complex128"])
def test_numpy_dtype_of_a_dlarray_dtype(name):
    ours = getattr(xp, name)
    assert np.dtype(ours) == np.dtype(name)
    assert ours == np.dtype(name) and not (ours != np.dtype(name))  # compares through NumPy
    assert ours.type is np.dtype(name).type and ours.kind == np.dtype(name).kind


def test_dtype_numpy_lacks_raises_type_error_and_foreign_objects_stay_unequal():
    try:  # NumPy knows bfloat16 only once ml_dtypes (JAX's dtypes) has registered it
        theirs = np.dtype("bfloat16")
    except TypeError:
        with pytest.raises(TypeError, match="bfloat16"):
            np.dtype(xp.bfloat16)
    else:
        assert np.dtype(xp.bfloat16) == theirs
    assert xp.float64 != "float64" and not (xp.float64 == 1.0) and xp.float64 != np.float32


@pytest.mark.parametrize("call", [
    lambda m, a: m.sum(a, axis=0), lambda m, a: m.sum(a, 1, keepdims=True), lambda m, a: m.mean(a, axis=1),
    lambda m, a: m.std(a, axis=0, ddof=1), lambda m, a: m.concatenate([a, a], axis=1),
    lambda m, a: m.transpose(a), lambda m, a: m.matmul(a, m.transpose(a)), lambda m, a: m.clip(a, -1.0, 2.0),
    lambda m, a: m.max(a, axis=0),
], ids=["sum", "sum-positional-axis", "mean", "std-ddof", "concatenate", "transpose", "matmul", "clip", "max"])
def test_numpy_function_runs_dlarray_function(call):
    got = call(np, xp.asarray(A))
    assert isinstance(got, xp.Array)
    np.testing.assert_allclose(np.asarray(got), call(np, A))


def test_numpy_function_without_dlarray_equivalent_runs_numpy_on_a_view():
    got = np.hstack([xp.asarray(A), xp.asarray(A)])
    assert isinstance(got, np.ndarray)
    np.testing.assert_array_equal(got, np.hstack([A, A]))
    got = np.sum(xp.asarray(A), where=A > 0)  # where= has no dlarray equivalent
    assert got == np.sum(A, where=A > 0)


def test_ufunc_runs_dlarray_function_with_numpy_promotion():
    x = xp.asarray(A)
    assert isinstance(np.sin(x), xp.Array)
    np.testing.assert_allclose(np.asarray(np.sin(x)), np.sin(A))
    counts = np.full(4, 3, dtype=np.int64)  # Dask's mean: float64 sums / int64 counts
    got = np.divide(x, counts)
    assert isinstance(got, xp.Array) and got.dtype == xp.float64
    np.testing.assert_allclose(np.asarray(got), A / counts)
    ints = xp.asarray([1, 2, 3])
    np.testing.assert_allclose(np.asarray(np.true_divide(ints, ints)), [1.0, 1.0, 1.0])  # NumPy's loop
    np.testing.assert_allclose(np.asarray(np.add(x, x, dtype=np.float32)), (A + A).astype(np.float32))
    assert np.add(x, x, dtype=np.float32).dtype == xp.float32
    np.testing.assert_allclose(np.asarray(np.add.reduce(x)), A.sum(axis=0))


def test_ufunc_out_argument_runs_numpy_loop_on_views():
    """out= has no dlarray equivalent: NumPy's loop writes through zero-copy views (CPU arrays)."""
    out = np.empty_like(A)
    assert np.add(xp.asarray(A), 1.0, out=out) is out
    np.testing.assert_array_equal(out, A + 1.0)
    target = xp.zeros(A.shape)
    assert np.multiply(xp.asarray(A), 2.0, out=(target,)) is target
    np.testing.assert_array_equal(np.asarray(target), A * 2.0)


def test_numpy_style_methods():
    x = xp.asarray(A)
    np.testing.assert_allclose(np.asarray(x.sum(axis=0)), A.sum(axis=0))
    np.testing.assert_allclose(np.asarray(x.std(1, ddof=1)), A.std(1, ddof=1))
    assert x.astype(np.float32).dtype == xp.float32 and x.astype(xp.int64).dtype == xp.int64
    for foreign in ([], [("a", "f8")], object, "U3", "M8[s]"):  # NumPy dtypes without an equivalent
        with pytest.raises(TypeError, match="no dlarray equivalent"):
            x.astype(foreign)
    assert x.reshape(4, 3).shape == (4, 3) and x.reshape((2, 6)).shape == (2, 6)
    assert x[:1].squeeze(0).shape == (4,)
    with pytest.raises(TypeError, match="no dlarray equivalent"):
        x.sum(out=np.empty(4))
