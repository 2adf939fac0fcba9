"""The standard's linear algebra functions chapter (matmul, the @ operators, tensordot, vecdot,
matrix_transpose in the main namespace) against NumPy: dtypes and promotion, the 1-D rules,
broadcasting stacks, transposed and strided operands, zero-size input, integer wrap-around, and
the errors for bad arguments. The linalg extension: test_linalg_extension.py."""
import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlarray as dl
from helpers.oracle import to_numpy

OPS = {op["name"]: op for op in dl._core._linalg_ops()}
NUMERIC = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64", "complex64", "complex128"]
TOL = {"float32": 2e-5, "complex64": 2e-5, "float64": 1e-12, "complex128": 1e-12}


def rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -50), min(info.max, 50), size=shape, endpoint=True).astype(dtype)
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def check(got, expected):
    expected = np.asarray(expected)
    assert isinstance(got, dl.Array)
    assert str(got.dtype) == expected.dtype.name
    assert got.shape == expected.shape
    g = to_numpy(got)
    if expected.dtype.kind in "fc":
        scale = max(1.0, float(np.max(np.abs(expected)))) if expected.size else 1.0
        np.testing.assert_allclose(g, expected, rtol=TOL[expected.dtype.name], atol=TOL[expected.dtype.name] * scale)
    else:
        np.testing.assert_array_equal(g, expected)


def test_table_lists_the_standard_functions():
    main = {n for n, op in OPS.items() if op["space"] in ("main", "both")}
    assert main == {"matmul", "matrix_transpose", "tensordot", "vecdot"}
    for name in main:
        assert callable(getattr(dl, name))
        assert str(inspect.signature(getattr(dl, name))).startswith("(" + OPS[name]["params"].split(",")[0])


def test_signatures_follow_the_stubs():
    assert str(inspect.signature(dl.matmul)) == "(x1, x2, /)"
    assert str(inspect.signature(dl.tensordot)) == "(x1, x2, /, *, axes=2)"
    assert str(inspect.signature(dl.vecdot)) == "(x1, x2, /, *, axis=-1)"
    assert str(inspect.signature(dl.matrix_transpose)) == "(x, /)"


@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("shapes", [((4, 5), (5, 3)), ((5,), (5, 3)), ((4, 5), (5,)), ((5,), (5,)),
                                    ((2, 3, 4, 5), (5, 6)), ((3, 1, 4, 5), (2, 5, 6)), ((1, 7), (7, 1)),
                                    ((3, 4, 5), (5,)), ((5,), (2, 5, 3))])
def test_matmul_matches_numpy(dtype, shapes):
    a, b = rand(shapes[0], dtype, 1), rand(shapes[1], dtype, 2)
    check(dl.matmul(dl.asarray(a), dl.asarray(b)), np.matmul(a, b))
    check(dl.asarray(a) @ dl.asarray(b), a @ b)


@pytest.mark.parametrize("d1,d2", [("int8", "int16"), ("uint8", "int8"), ("uint32", "int32"), ("float32", "float64"),
                                   ("float32", "complex64"), ("float64", "complex64"), ("int64", "int32")])
def test_matmul_promotes(d1, d2):
    a, b = rand((3, 4), d1, 3), rand((4, 2), d2, 4)
    got = dl.matmul(dl.asarray(a), dl.asarray(b))
    assert str(got.dtype) == str(dl.result_type(dl.asarray(a), dl.asarray(b)))
    check(got, (a.astype(str(got.dtype)) @ b.astype(str(got.dtype))))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int32"])
@pytest.mark.parametrize("layout", ["T_left", "T_right", "T_both", "strided", "negative", "broadcast_stack"])
def test_matmul_layouts(dtype, layout):
    a, b = rand((6, 5), dtype, 5), rand((5, 7), dtype, 6)
    A, B = dl.asarray(a), dl.asarray(b)
    if layout == "T_left":
        A, a = dl.asarray(np.ascontiguousarray(a.T)).mT, a
    elif layout == "T_right":
        B = dl.asarray(np.ascontiguousarray(b.T)).mT
    elif layout == "T_both":
        A, B = dl.asarray(np.ascontiguousarray(a.T)).mT, dl.asarray(np.ascontiguousarray(b.T)).mT
    elif layout == "strided":
        big = rand((12, 15), dtype, 7)
        A, a = dl.asarray(big)[::2, ::3], big[::2, ::3]
    elif layout == "negative":
        A, a = dl.asarray(a)[::-1, ::-1], a[::-1, ::-1]
    elif layout == "broadcast_stack":
        A = dl.broadcast_to(dl.asarray(a), (3, 6, 5))
        a = np.broadcast_to(a, (3, 6, 5))
    check(A @ B, a @ b)


@pytest.mark.parametrize("dtype", ["float64", "complex64", "int16"])
def test_matmul_strided_vectors(dtype):
    x, m = rand((20,), dtype, 8), rand((6, 10), dtype, 9)
    check(dl.asarray(x)[::2] @ dl.asarray(m).mT, x[::2] @ m.T)
    check(dl.asarray(m) @ dl.asarray(x)[::-2], m @ x[::-2])
    check(dl.asarray(x)[::2] @ dl.asarray(x)[1::2], x[::2] @ x[1::2])


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int64", "uint8"])
def test_matmul_batched_stack(dtype):
    a, b = rand((64, 16, 16), dtype, 10), rand((64, 16, 16), dtype, 11)
    check(dl.asarray(a) @ dl.asarray(b), a @ b)
    a, b = rand((300, 3, 2), dtype, 12), rand((2, 4), dtype, 13)
    check(dl.asarray(a) @ dl.asarray(b), a @ b)


@pytest.mark.parametrize("dtype", ["float64", "int32"])
@pytest.mark.parametrize("shapes", [((0, 5), (5, 3)), ((4, 0), (0, 3)), ((0,), (0,)), ((2, 0, 4, 5), (5, 3)),
                                    ((3, 0), (0,)), ((4, 5), (5, 0))])
def test_matmul_zero_size(dtype, shapes):
    a, b = rand(shapes[0], dtype), rand(shapes[1], dtype)
    check(dl.asarray(a) @ dl.asarray(b), a @ b)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"])
def test_integer_matmul_wraps_like_numpy(dtype):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(1)
    a = rng.integers(info.min, info.max, size=(9, 300), endpoint=True, dtype=dtype)
    b = rng.integers(info.min, info.max, size=(300, 600), endpoint=True, dtype=dtype)
    with np.errstate(over="ignore"):
        expected = a @ b
    check(dl.asarray(a) @ dl.asarray(b), expected)


def test_large_float_product_uses_all_of_k():
    a, b = rand((300, 700), "float64", 14), rand((700, 130), "float64", 15)
    check(dl.asarray(a) @ dl.asarray(b), a @ b)


def test_complex_is_not_conjugated():
    a = np.array([[1 + 2j, 3 - 1j]])
    b = np.array([[2j], [1 + 1j]])
    check(dl.asarray(a) @ dl.asarray(b), a @ b)


@pytest.mark.parametrize("a,b,exc,words", [
    ((), (3,), ValueError, "0-d"),
    ((3,), (), ValueError, "0-d"),
    ((3,), (4,), ValueError, "(3,)"),
    ((2, 3), (4, 5), ValueError, "(4, 5)"),
    ((2, 3), (4,), ValueError, "not aligned"),
    ((2, 2, 3), (3, 3, 2), ValueError, "broadcast"),
])
def test_matmul_shape_errors(a, b, exc, words):
    with pytest.raises(exc, match=words.replace("(", r"\(").replace(")", r"\)")):
        dl.matmul(dl.ones(a), dl.ones(b))
    with pytest.raises(exc):
        dl.ones(a) @ dl.ones(b)


def test_matmul_type_errors():
    with pytest.raises(TypeError, match="numeric"):
        dl.matmul(dl.ones((2, 2), dtype=dl.bool), dl.ones((2, 2), dtype=dl.bool))
    # Mixed kinds promote as NumPy's table: int64 @ float64 and int64 @ uint64 are float64.
    for a, b in [("int64", "float64"), ("int64", "uint64"), ("int32", "float32"), ("uint8", "float32")]:
        x, y = rand((2, 3), a, 5), rand((3, 2), b, 6)
        got = dl.matmul(dl.asarray(x), dl.asarray(y))
        assert str(got.dtype) == str((x @ y).dtype)
        np.testing.assert_allclose(np.asarray(got), x @ y)
    with pytest.raises(TypeError):
        dl.ones((2, 2)) @ 2.0
    with pytest.raises(TypeError):
        2.0 @ dl.ones((2, 2))
    with pytest.raises(TypeError, match="x1"):
        dl.matmul([[1.0]], dl.ones((1, 1)))


def test_rmatmul_and_imatmul():
    a, b = rand((3, 3), "float64", 16), rand((3, 3), "float64", 17)
    A, B = dl.asarray(a.copy()), dl.asarray(b)  # asarray shares NumPy's memory: @= would write into a
    check(B.__rmatmul__(A), a @ b)
    check(A.__matmul__(B), a @ b)
    before = A
    A @= B
    assert A is before
    check(A, a @ b)
    C = dl.asarray(rand((2, 3), "float64", 18))
    with pytest.raises(ValueError, match="shape"):
        C @= dl.ones((3, 4))
    F = dl.ones((3, 3), dtype=dl.float32)
    F @= dl.ones((3, 3), dtype=dl.float64)  # converted back into float32, as NumPy's same_kind
    assert F.dtype == dl.float32 and F.tolist() == [[3.0] * 3] * 3
    with pytest.raises(TypeError, match="dtype"):
        Z = dl.ones((3, 3), dtype=dl.int64)
        Z @= dl.ones((3, 3), dtype=dl.float64)


def test_matmul_releases_nothing_on_error_and_keeps_inputs():
    a = dl.asarray(rand((4, 4), "float64"))
    snapshot = to_numpy(a)
    _ = a @ a
    np.testing.assert_array_equal(to_numpy(a), snapshot)


# ---- matrix_transpose, .mT ----------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(2, 3), (4, 2, 3), (0, 3), (2, 1, 0, 5)])
def test_matrix_transpose(shape):
    x = rand(shape, "int32")
    check(dl.matrix_transpose(dl.asarray(x)), np.matrix_transpose(x))
    check(dl.asarray(x).mT, np.swapaxes(x, -1, -2))


def test_matrix_transpose_errors():
    with pytest.raises(ValueError, match="2 dimensions"):
        dl.matrix_transpose(dl.ones((3,)))
    with pytest.raises(ValueError):
        dl.ones((3,)).mT
    with pytest.raises(TypeError):
        dl.matrix_transpose(np.ones((2, 2)))


# ---- tensordot ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64", "uint16"])
@pytest.mark.parametrize("s1,s2,axes", [
    ((2, 3, 4), (3, 4, 5), 2), ((2, 3, 4), (4, 5), 1), ((2, 3), (4, 5), 0), ((3, 4), (3, 4), 2),
    ((2, 3, 4), (4, 3, 5), ([1, 2], [1, 0])), ((2, 3, 4), (5, 4, 3), ([-1, -2], [1, 2])),
    ((4, 3), (3,), ((1,), (0,))), ((2, 0, 3), (3, 0), ([1, 2], [1, 0])), ((), (), 0), ((2, 3), (), 0),
])
def test_tensordot_matches_numpy(dtype, s1, s2, axes):
    a, b = rand(s1, dtype, 20), rand(s2, dtype, 21)
    check(dl.tensordot(dl.asarray(a), dl.asarray(b), axes=axes), np.tensordot(a, b, axes=axes))


def test_tensordot_errors():
    x = dl.ones((2, 3))
    with pytest.raises(ValueError, match="nonnegative"):
        dl.tensordot(x, x, axes=-1)
    with pytest.raises(ValueError, match="match"):
        dl.tensordot(x, x, axes=1)
    with pytest.raises(ValueError, match="counts"):
        dl.tensordot(x, x, axes=([0], [0, 1]))
    with pytest.raises(IndexError, match="out of bounds"):
        dl.tensordot(x, x, axes=([2], [0]))
    with pytest.raises(ValueError, match="twice"):
        dl.tensordot(dl.ones((2, 2)), dl.ones((2, 2)), axes=([0, 0], [0, 1]))
    with pytest.raises(ValueError, match="cannot contract"):
        dl.tensordot(x, x, axes=3)
    with pytest.raises(TypeError):
        dl.tensordot(x, x, axes=1.5)
    with pytest.raises(ValueError, match="not broadcast"):
        dl.tensordot(dl.ones((2, 1)), dl.ones((3, 2)), axes=([1], [0]))


# ---- vecdot ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("s1,s2,axis", [((5,), (5,), -1), ((3, 5), (5,), -1), ((3, 2, 4), (2, 1), -2),
                                        ((4, 3), (4, 3), 0), ((2, 0, 3), (3,), -1), ((2, 3, 0), (0,), -1)])
def test_vecdot_matches_numpy(dtype, s1, s2, axis):
    a, b = rand(s1, dtype, 22), rand(s2, dtype, 23)
    check(dl.vecdot(dl.asarray(a), dl.asarray(b), axis=axis), np.vecdot(a, b, axis=axis))


def test_vecdot_conjugates_x1():
    assert complex(dl.vecdot(dl.asarray([1j, 2j, 3j]), dl.asarray([1, 2j, 3]))) == 4 - 10j


def test_vecdot_errors():
    with pytest.raises(ValueError, match="not broadcast"):
        dl.vecdot(dl.ones((3, 1)), dl.ones((3, 4)))
    with pytest.raises(ValueError, match="axis"):
        dl.vecdot(dl.ones((3, 4)), dl.ones((4,)), axis=0)
    with pytest.raises(ValueError, match="axis"):
        dl.vecdot(dl.ones((3, 4)), dl.ones((3, 4)), axis=-3)
    with pytest.raises(ValueError):
        dl.vecdot(dl.ones(()), dl.ones(()))
    with pytest.raises(TypeError, match="vecdot: x1 must have a numeric dtype"):
        dl.vecdot(dl.ones((2,), dtype=dl.bool), dl.ones((2,), dtype=dl.bool))
    with pytest.raises(TypeError, match="vecdot: x2 must be a dlarray.Array"):
        dl.vecdot(dl.ones(2), [1.0, 2.0])
    # vecdot is a C++ entry whose every call but two real vectors goes to the Python
    # composition: its argument errors still name vecdot.
    with pytest.raises(TypeError, match=r"vecdot\(\) missing 1 required positional argument"):
        dl.vecdot(dl.ones(2))
    with pytest.raises(TypeError, match=r"vecdot\(\) got an unexpected keyword argument 'axes'"):
        dl.vecdot(dl.ones(2), dl.ones(2), axes=0)


@pytest.mark.parametrize("d1,d2", [("float64", "float64"), ("float32", "float32"), ("int8", "int64"),
                                   ("uint16", "int32"), ("complex64", "complex64"), ("float32", "complex128")])
@pytest.mark.parametrize("how", ["plain", "axis=-1", "axis=0", "strided"])
def test_vecdot_of_two_vectors_every_way_in(d1, d2, how):
    # Two vectors without keywords take the C++ shortcut (straight to matmul); keywords, complex
    # and strided operands the Python composition: the same values and dtypes either way.
    a, b = rand((12,), d1, 31), rand((12,), d2, 32)
    x, y = dl.asarray(a), dl.asarray(b)
    if how == "strided":
        a, b, x, y = a[::3], b[1::3], x[::3], y[1::3]
    kw = {"axis": int(how[5:])} if how.startswith("axis") else {}
    check(dl.vecdot(x, y, **kw), np.vecdot(a, b))
    assert inspect.signature(dl.vecdot) == inspect.signature(lambda x1, x2, /, *, axis=-1: None)


# ---- properties ---------------------------------------------------------------------------------

@settings(max_examples=60)
@given(m=st.integers(0, 9), k=st.integers(1, 9), n=st.integers(0, 9), batch=st.integers(0, 3),
       ta=st.booleans(), tb=st.booleans(), dtype=st.sampled_from(["float64", "int64", "complex128"]))
def test_property_matmul_equals_numpy(m, k, n, batch, ta, tb, dtype):
    a, b = rand((batch, m, k), dtype, m * 7 + k), rand((k, n), dtype, n)
    A = dl.asarray(np.ascontiguousarray(np.swapaxes(a, -1, -2))).mT if ta else dl.asarray(a)
    B = dl.asarray(np.ascontiguousarray(b.T)).mT if tb else dl.asarray(b)
    check(A @ B, a @ b)


@settings(max_examples=40)
@given(n=st.integers(1, 8), dtype=st.sampled_from(["float64", "complex128"]))
def test_property_associativity(n, dtype):
    a, b, c = (rand((n, n), dtype, s) for s in (1, 2, 3))
    A, B, C = dl.asarray(a), dl.asarray(b), dl.asarray(c)
    np.testing.assert_allclose(to_numpy((A @ B) @ C), to_numpy(A @ (B @ C)), rtol=1e-10, atol=1e-10)
