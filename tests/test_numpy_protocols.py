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


def test_ufuncs_without_a_dlarray_kernel_run_numpy_loop_on_cpu_arrays():
    """scipy.special's ufuncs and np.frompyfunc's: NumPy's loop over zero-copy views, a dlarray result."""
    special = pytest.importorskip("scipy.special")
    got = special.erf(xp.asarray(A))
    assert isinstance(got, xp.Array) and got.shape == A.shape
    np.testing.assert_array_equal(np.asarray(got), special.erf(A))
    gamma = special.gamma(xp.asarray([1.0, 5.0])[1])
    assert isinstance(gamma, xp.Array) and gamma.shape == () and float(gamma) == 24.0
    twice = np.frompyfunc(lambda v: 2 * v, 1, 1)
    got = twice(xp.asarray([1.0, 2.5]))
    assert isinstance(got, xp.Array) and np.asarray(got).tolist() == [2.0, 5.0]
    assert np.add.accumulate(xp.asarray([1, 2, 3])).tolist() == [1, 3, 6]


def test_numpy_scalars_on_either_side_of_every_operator():
    """A NumPy scalar counts as a 0-d array of its dtype (NumPy 2, NEP 50), on the left or right:
    the result is a dlarray array with NumPy's dtype and values."""
    import operator as op

    ops = [op.add, op.sub, op.mul, op.truediv, op.floordiv, op.mod, op.pow, op.and_, op.or_, op.xor,
           op.lshift, op.rshift, op.lt, op.le, op.eq, op.ne, op.gt, op.ge]
    arrays = {"float32": np.array([1.5, 2.0, 3.0], np.float32), "int16": np.array([1, 2, 3], np.int16),
              "bool": np.array([True, False, True]), "float64": np.array([0.5, 2.0, 4.0])}
    scalars = [np.float64(2.0), np.float32(2.0), np.int32(2), np.int8(2), np.uint8(2), np.int64(2), np.bool_(True),
               np.complex64(2.0), 2, 2.0, True]
    checked = 0
    for name, a in arrays.items():
        for s in scalars:
            for f in ops:
                for left, right in ((a, s), (s, a)):
                    with np.errstate(all="ignore"):
                        try:
                            want = f(left, right)
                        except (TypeError, ValueError, ZeroDivisionError):
                            continue
                    both_bool = a.dtype == bool and isinstance(s, (bool, np.bool_))
                    if f is op.pow and a.dtype == bool and left is a:
                        continue  # NumPy's x ** 2 fast path squares a bool array as int8, unlike its add
                    ordering = f in (op.lt, op.le, op.gt, op.ge)
                    try:
                        got = f(xp.asarray(left) if left is a else left, xp.asarray(right) if right is a else right)
                    except TypeError:
                        # Ordering complex numbers (NumPy: lexicographic) stays refused, as the standard's.
                        if ordering and (isinstance(s, np.complexfloating) or a.dtype == bool and both_bool):
                            continue
                        # Arithmetic of two booleans (NumPy: True + True is True, True // True is
                        # int8 1) stays refused: the standard's arithmetic is numeric-only.
                        if both_bool and f in (op.add, op.sub, op.mul, op.floordiv, op.mod, op.pow, op.lshift, op.rshift):
                            continue
                        raise
                    assert isinstance(got, xp.Array), (name, s, f, type(got))
                    assert str(got.dtype) == str(want.dtype), (name, repr(s), f.__name__, left is a)
                    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6, err_msg=f"{name} {s!r} {f.__name__}")
                    checked += 1
    assert checked > 600


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
