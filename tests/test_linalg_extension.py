"""The standard's linalg extension (dlarray.linalg) against NumPy: every function of the
extension across dtypes, stacks, broadcasting, non-contiguous and zero-size input; LinAlgError
with the failing stack index; named tuples; hypothesis properties (A @ inv(A) ~ I, Q @ R == A,
U S Vh == A). The main namespace's linear algebra functions, which the extension also names
(matmul, tensordot, vecdot, matrix_transpose), are tested in test_linear_algebra_functions.py."""
import inspect
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlarray as dl
from helpers.oracle import to_numpy

la = dl.linalg
OPS = {op["name"]: op for op in dl._core._linalg_ops()}
FLOATS = ["float32", "float64", "complex64", "complex128"]
TOL = {"float32": 1e-4, "complex64": 1e-4, "float64": 1e-10, "complex128": 1e-10}
REAL = {"float32": "float32", "float64": "float64", "complex64": "float32", "complex128": "float64"}
COMPLEX = {"float32": "complex64", "float64": "complex128", "complex64": "complex64", "complex128": "complex128"}


def rand(shape, dtype="float64", seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def hermitian_pd(shape, dtype="float64", seed=0):
    a = rand(shape, dtype, seed)
    n = shape[-1]
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


def close(got, expected, dtype=None):
    expected = np.asarray(expected)
    g = to_numpy(got)
    assert g.shape == expected.shape, (g.shape, expected.shape)
    tol = TOL[dtype or str(got.dtype)] if (dtype or str(got.dtype)) in TOL else 1e-10
    scale = max(1.0, float(np.max(np.abs(expected)))) if expected.size else 1.0
    np.testing.assert_allclose(g, expected, rtol=tol, atol=tol * scale)


def dt(x):
    return str(x.dtype)


# ---- the table and the namespace ---------------------------------------------------------------

SPEC_LINALG = ["cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv", "matmul",
               "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet",
               "solve", "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm"]


def test_table_is_the_extension():
    assert sorted(n for n, op in OPS.items() if op["space"] in ("linalg", "both")) == SPEC_LINALG


@pytest.mark.parametrize("name", SPEC_LINALG)
def test_signature_is_the_tables(name):
    sig = str(inspect.signature(getattr(la, name)))
    assert sig == "(" + OPS[name]["params"] + ")"


def test_linalg_error_is_a_value_error():
    assert issubclass(la.LinAlgError, ValueError)
    assert la.LinAlgError.__module__ == "dlarray.linalg"


# ---- LAPACK forms against NumPy ---------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(4, 4), (3, 5, 5), (2, 1, 3, 3), (1, 1)])
def test_inv_det_slogdet(dtype, shape):
    a = rand(shape, dtype, 1) + 3 * np.eye(shape[-1], dtype=dtype)
    x = dl.asarray(a)
    inv = la.inv(x)
    assert dt(inv) == dtype
    close(inv, np.linalg.inv(a))
    d = la.det(x)
    assert dt(d) == dtype and d.shape == shape[:-2]
    close(d, np.linalg.det(a))
    sign, logabs = la.slogdet(x)
    assert dt(sign) == dtype and dt(logabs) == REAL[dtype]
    esign, elog = np.linalg.slogdet(a)
    close(sign, esign)
    close(logabs, elog)


def test_singular_matrix_det_and_slogdet_are_results():
    z = dl.zeros((2, 3, 3))
    np.testing.assert_array_equal(to_numpy(la.det(z)), [0, 0])
    sign, logabs = la.slogdet(z)
    np.testing.assert_array_equal(to_numpy(sign), [0, 0])
    assert np.all(np.isneginf(to_numpy(logabs)))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(dtype, upper):
    a = hermitian_pd((3, 4, 4), dtype, 2)
    c = la.cholesky(dl.asarray(a), upper=upper)
    assert dt(c) == dtype
    close(c, np.linalg.cholesky(a, upper=upper))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("s1,s2", [((4, 4), (4, 2)), ((3, 4, 4), (4, 2)), ((3, 4, 4), (4,)), ((2, 1, 4, 4), (3, 4, 1)),
                                   ((4, 4), (2, 4, 3)), ((5, 3, 3), (3,))])
def test_solve(dtype, s1, s2):
    a = rand(s1, dtype, 3) + 3 * np.eye(s1[-1], dtype=dtype)
    b = rand(s2, dtype, 4)
    got = la.solve(dl.asarray(a), dl.asarray(b))
    assert dt(got) == dtype
    # 2025.12: a 1-D x2 is one right-hand side per matrix, giving shape x1.shape[:-1].
    expected = np.linalg.solve(a, b[:, None])[..., 0] if b.ndim == 1 else np.linalg.solve(a, b)
    close(got, expected)


def test_solve_promotes():
    a = rand((3, 3), "float32", 5) + 3 * np.eye(3, dtype="float32")
    b = rand((3,), "float64", 6)
    got = la.solve(dl.asarray(a), dl.asarray(b))
    assert dt(got) == "float64"
    close(got, np.linalg.solve(a.astype("float64"), b))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 2), (2, 2, 3)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr(dtype, shape, mode):
    a = rand(shape, dtype, 7)
    q, r = la.qr(dl.asarray(a), mode=mode)
    eq, er = np.linalg.qr(a, mode=mode)
    assert q.shape == eq.shape and r.shape == er.shape and dt(q) == dtype and dt(r) == dtype
    close(dl.matmul(q, r), a)
    qn = to_numpy(q)
    close(dl.asarray(np.conj(np.swapaxes(qn, -1, -2)) @ qn), np.broadcast_to(np.eye(qn.shape[-1]), qn.shape[:-2] +
                                                                           (qn.shape[-1],) * 2).astype(dtype))
    assert np.allclose(np.tril(to_numpy(r), -1), 0)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 2)])
@pytest.mark.parametrize("full", [True, False])
def test_svd(dtype, shape, full):
    a = rand(shape, dtype, 8)
    u, s, vh = la.svd(dl.asarray(a), full_matrices=full)
    eu, es, evh = np.linalg.svd(a, full_matrices=full)
    assert (u.shape, s.shape, vh.shape) == (eu.shape, es.shape, evh.shape)
    assert (dt(u), dt(s), dt(vh)) == (dtype, REAL[dtype], dtype)
    close(s, es)
    k = min(shape[-2:])
    un, vn = to_numpy(u)[..., :k], to_numpy(vh)[..., :k, :]
    close(dl.asarray((un * to_numpy(s)[..., None, :]) @ vn), a)
    close(la.svdvals(dl.asarray(a)), es)


@pytest.mark.parametrize("dtype", FLOATS)
def test_eigh_and_eigvalsh(dtype):
    a = hermitian_pd((3, 5, 5), dtype, 9)
    w, v = la.eigh(dl.asarray(a))
    assert dt(w) == REAL[dtype] and dt(v) == dtype
    close(w, np.linalg.eigvalsh(a))
    close(dl.matmul(dl.asarray(a), v), to_numpy(v) * to_numpy(w)[..., None, :])
    close(la.eigvalsh(dl.asarray(a)), np.linalg.eigvalsh(a))


@pytest.mark.parametrize("dtype", FLOATS)
def test_eig_and_eigvals_are_complex(dtype):
    a = rand((3, 5, 5), dtype, 10)
    w, v = la.eig(dl.asarray(a))
    assert dt(w) == COMPLEX[dtype] and dt(v) == COMPLEX[dtype]
    vn, wn = to_numpy(v), to_numpy(w)
    tol = TOL[dtype] * 10
    np.testing.assert_allclose(a.astype(COMPLEX[dtype]) @ vn, vn * wn[..., None, :], rtol=tol, atol=tol * 10)
    ev = la.eigvals(dl.asarray(a))
    assert dt(ev) == COMPLEX[dtype]
    np.testing.assert_allclose(np.sort_complex(to_numpy(ev)), np.sort_complex(np.linalg.eigvals(a)),
                               rtol=tol, atol=tol * 10)


def test_eig_of_a_rotation_has_conjugate_pairs():
    w, v = la.eig(dl.asarray([[0.0, -1.0], [1.0, 0.0]]))
    assert sorted(to_numpy(w).tolist(), key=lambda z: z.imag) == [-1j, 1j]
    np.testing.assert_allclose(np.array([[0, -1], [1, 0]]) @ to_numpy(v), to_numpy(v) * to_numpy(w)[None, :],
                               atol=1e-12)


@pytest.mark.parametrize("fn", [la.inv, la.det, la.cholesky, la.eigvalsh, la.svdvals, la.eigvals,
                                lambda x: la.qr(x).R, lambda x: la.slogdet(x).sign])
def test_layouts_and_integers(fn):
    base = hermitian_pd((6, 6), "float64", 11)
    for x, ref in [(dl.asarray(base).mT, base.T), (dl.asarray(np.kron(base, np.ones((2, 2))))[::2, ::2], base),
                   (dl.broadcast_to(dl.asarray(base), (2, 6, 6)), np.broadcast_to(base, (2, 6, 6)))]:
        got, expected = fn(x), fn(dl.asarray(np.ascontiguousarray(ref)))
        np.testing.assert_allclose(to_numpy(got), to_numpy(expected), rtol=1e-12, atol=1e-12)
    ints = np.array([[4, 1], [1, 3]], dtype=np.int32)
    assert dt(fn(dl.asarray(ints))) in ("float64", "complex128")  # integers compute as float64, as NumPy


@pytest.mark.parametrize("fn,shape", [(la.inv, (0, 3, 3)), (la.inv, (0, 0)), (la.det, (2, 0, 0)), (la.cholesky, (0, 0)),
                                      (la.svdvals, (2, 0, 3)), (la.eigvalsh, (3, 0, 0)), (la.eigvals, (0, 2, 2))])
def test_zero_size(fn, shape):
    x = np.zeros(shape)
    got = fn(dl.asarray(x))
    npfn = {la.inv: np.linalg.inv, la.det: np.linalg.det, la.cholesky: np.linalg.cholesky,
            la.svdvals: np.linalg.svdvals, la.eigvalsh: np.linalg.eigvalsh, la.eigvals: np.linalg.eigvals}[fn]
    assert got.shape == npfn(x).shape
    np.testing.assert_allclose(to_numpy(got), npfn(x))


def test_zero_size_factorizations():
    q, r = la.qr(dl.zeros((3, 0)), mode="complete")
    np.testing.assert_allclose(to_numpy(q), np.eye(3))
    assert r.shape == (3, 0)
    u, s, vh = la.svd(dl.zeros((2, 0)))
    np.testing.assert_allclose(to_numpy(u), np.eye(2))
    assert s.shape == (0,) and vh.shape == (0, 0)
    assert la.pinv(dl.zeros((2, 0))).shape == (0, 2)
    assert to_numpy(la.matrix_rank(dl.zeros((4, 0, 3)))).tolist() == [0] * 4


# ---- errors -------------------------------------------------------------------------------------

@pytest.mark.parametrize("fn,x,words", [
    (la.inv, np.stack([np.eye(3), np.zeros((3, 3))]), r"inv: the matrix at stack index \(1,\) is singular"),
    (la.inv, np.zeros((2, 2)), r"inv: the matrix is singular"),
    (la.cholesky, np.stack([np.eye(2)] * 3 + [-np.eye(2)]).reshape(2, 2, 2, 2),
     r"stack index \(1, 1\) is not positive definite"),
])
def test_linalg_error_names_the_matrix(fn, x, words):
    with pytest.raises(la.LinAlgError, match=words):
        fn(dl.asarray(x))


@pytest.mark.parametrize("fn", [la.svd, la.svdvals, la.pinv, la.matrix_rank, la.eig, la.eigvals])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_non_finite_input_is_a_linalg_error_naming_the_matrix(fn, bad, dtype, capfd):
    # LAPACK's ?gesdd and ?geev reject NaN/inf as an illegal argument and print to stderr; NumPy
    # and PyTorch raise LinAlgError. Only the bad matrix of the stack is named.
    x = np.stack([np.eye(3), np.eye(3)]).astype(dtype)
    x[1, 2, 0] = bad
    if dtype.startswith("complex"):
        x[1, 2, 0] = complex(1.0, bad)  # only the imaginary part is not finite
    name = {la.pinv: "svd", la.matrix_rank: "svdvals"}.get(fn, fn.__name__)
    with pytest.raises(la.LinAlgError, match=rf"{name}: the matrix at stack index \(1,\) contains NaN or infinity"):
        fn(dl.asarray(x))
    assert capfd.readouterr().err == ""
    np.testing.assert_allclose(to_numpy(la.svdvals(dl.asarray(x[:1]))), [[1.0, 1.0, 1.0]])  # finite: unchanged


def test_solve_singular_raises():
    with pytest.raises(la.LinAlgError, match="singular"):
        la.solve(dl.zeros((2, 2)), dl.ones((2,)))


@pytest.mark.parametrize("fn", [la.inv, la.det, la.cholesky, la.eigh, la.eigvalsh, la.eig, la.eigvals, la.slogdet])
def test_square_and_rank_errors(fn):
    with pytest.raises(ValueError, match="square"):
        fn(dl.ones((2, 3)))
    with pytest.raises(ValueError, match="2 dimensions"):
        fn(dl.ones((3,)))
    with pytest.raises(TypeError, match="numeric"):
        fn(dl.ones((2, 2), dtype=dl.bool))
    with pytest.raises(TypeError):
        fn(np.eye(2))


def test_argument_errors():
    with pytest.raises(ValueError, match="mode"):
        la.qr(dl.ones((2, 2)), mode="r")
    with pytest.raises(TypeError):
        la.svd(dl.ones((2, 2)), full_matrices=1)
    with pytest.raises(TypeError, match="upper"):
        la.cholesky(dl.eye(2), upper=None)
    with pytest.raises(ValueError, match="rows"):
        la.solve(dl.eye(3), dl.ones((2,)))
    with pytest.raises(ValueError, match="broadcast"):
        la.solve(dl.ones((2, 3, 3)), dl.ones((4, 3, 1)))
    with pytest.raises(ValueError, match="ord"):
        la.matrix_norm(dl.eye(2), ord=3)
    with pytest.raises(TypeError):
        la.vector_norm(dl.ones(3), ord="fro")
    with pytest.raises(ValueError, match="3 elements"):
        la.cross(dl.ones((2,)), dl.ones((2,)))
    with pytest.raises(ValueError, match="1-d"):
        la.outer(dl.ones((2, 2)), dl.ones((2,)))
    with pytest.raises(TypeError, match="int"):
        la.matrix_power(dl.eye(2), 1.5)


# ---- composed functions ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm(dtype, ord, keepdims):
    a = rand((3, 4, 5), dtype, 12)
    got = la.matrix_norm(dl.asarray(a), ord=ord, keepdims=keepdims)
    assert dt(got) == REAL[dtype]
    close(got, np.linalg.matrix_norm(a, ord=ord, keepdims=keepdims))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("ord", [2, 1, 0, -1, -2, math.inf, -math.inf, 3, 0.5, -3.5])
@pytest.mark.parametrize("axis", [None, -1, (0, 2), 1])
def test_vector_norm(dtype, ord, axis):
    a = rand((3, 4, 5), dtype, 13)
    got = la.vector_norm(dl.asarray(a), ord=ord, axis=axis)
    assert dt(got) == REAL[dtype]
    close(got, np.linalg.vector_norm(a, ord=ord, axis=axis))
    assert la.vector_norm(dl.asarray(a), axis=axis, keepdims=True).shape == \
        np.linalg.vector_norm(a, axis=axis, keepdims=True).shape


@pytest.mark.parametrize("n", [-3, -1, 0, 1, 2, 5, 8])
def test_matrix_power(n):
    a = rand((2, 4, 4), "float64", 14) + 2 * np.eye(4)
    close(la.matrix_power(dl.asarray(a), n), np.linalg.matrix_power(a, n))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_pinv_and_matrix_rank(dtype):
    a = rand((2, 5, 3), dtype, 15)
    a[1, :, 2] = a[1, :, 0]  # rank 2
    close(la.pinv(dl.asarray(a)), np.linalg.pinv(a), dtype)
    assert to_numpy(la.matrix_rank(dl.asarray(a))).tolist() == np.linalg.matrix_rank(a).tolist() == [3, 2]
    assert dt(la.matrix_rank(dl.asarray(a))) == "int64"
    rtol = dl.asarray(np.array([0.5, 1e-3], dtype=REAL[dtype]))
    assert to_numpy(la.matrix_rank(dl.asarray(a), rtol=rtol)).tolist() == \
        np.linalg.matrix_rank(a, rtol=np.array([0.5, 1e-3])).tolist()
    close(la.pinv(dl.asarray(a), rtol=0.9), np.linalg.pinv(a, rtol=0.9), dtype)


@pytest.mark.parametrize("dtype", ["int16", "float64", "complex64"])
def test_cross_outer_trace_diagonal(dtype):
    a, b = (rand((4, 3, 2), "float64", 16) * 10).astype(dtype), (rand((3, 1), "float64", 17) * 10).astype(dtype)
    close(la.cross(dl.asarray(a), dl.asarray(b), axis=-2), np.cross(a, b, axis=-2))
    v, w = a[0, :, 0], b[:, 0]
    close(la.outer(dl.asarray(v), dl.asarray(w)), np.outer(v, w))
    m = (rand((2, 3, 4), "float64", 18) * 10).astype(dtype)
    for off in (-2, 0, 1, 5):
        d = la.diagonal(dl.asarray(m), offset=off)
        np.testing.assert_array_equal(to_numpy(d), np.diagonal(m, offset=off, axis1=-2, axis2=-1))
        t = la.trace(dl.asarray(m), offset=off)
        expected = np.trace(m, offset=off, axis1=-2, axis2=-1, dtype="int64" if dtype == "int16" else None)
        assert dt(t) == expected.dtype.name
        close(t, expected)


def test_diagonal_is_a_view():
    x = dl.zeros((3, 3))
    d = la.diagonal(x)
    x[...] = dl.eye(3)
    np.testing.assert_array_equal(to_numpy(d), [1, 1, 1])


def test_aliases_are_the_namespace_functions():
    assert la.matmul is dl.matmul and la.tensordot is dl.tensordot
    assert la.vecdot is dl.vecdot and la.matrix_transpose is dl.matrix_transpose


# ---- properties ---------------------------------------------------------------------------------

@settings(max_examples=50)
@given(n=st.integers(1, 12), batch=st.integers(1, 4), seed=st.integers(0, 10**6),
       dtype=st.sampled_from(["float64", "complex128"]))
def test_property_inverse(n, batch, seed, dtype):
    a = rand((batch, n, n), dtype, seed) + 2 * n * np.eye(n)
    x = dl.asarray(a)
    close(x @ la.inv(x), np.broadcast_to(np.eye(n, dtype=dtype), (batch, n, n)))


@settings(max_examples=50)
@given(m=st.integers(1, 10), n=st.integers(1, 10), seed=st.integers(0, 10**6),
       mode=st.sampled_from(["reduced", "complete"]), dtype=st.sampled_from(["float64", "complex128"]))
def test_property_qr_reconstructs(m, n, seed, mode, dtype):
    a = rand((m, n), dtype, seed)
    q, r = la.qr(dl.asarray(a), mode=mode)
    close(q @ r, a)


@settings(max_examples=50)
@given(m=st.integers(1, 10), n=st.integers(1, 10), seed=st.integers(0, 10**6), full=st.booleans())
def test_property_svd_reconstructs(m, n, seed, full):
    a = rand((m, n), "float64", seed)
    u, s, vh = la.svd(dl.asarray(a), full_matrices=full)
    k = min(m, n)
    close(dl.asarray((to_numpy(u)[:, :k] * to_numpy(s)) @ to_numpy(vh)[:k]), a)


def test_batched_small_matrices_match_numpy():
    a = hermitian_pd((1000, 8, 8), "float64", 19)
    close(la.inv(dl.asarray(a)), np.linalg.inv(a))
    close(la.cholesky(dl.asarray(a)), np.linalg.cholesky(a))
    close(la.eigvalsh(dl.asarray(a)), np.linalg.eigvalsh(a))
    close(la.svdvals(dl.asarray(a)), np.linalg.svdvals(a))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_two_norm_of_everything_in_one_call_matches_the_general_path(dtype):
    # vector_norm(x) and the 2-D matrix_norm(x) take one C++ call (sqrt of one BLAS dot) where the
    # squares are in range; it must give the same bits as sqrt(x . x) composed in Python, hand
    # back out-of-range sums (overflow, underflow, NaN, inf) to the scaled path, and leave
    # everything else (empty, integers, complex, keepdims, a float ord) to the general path.
    rng = np.random.default_rng(21)
    for shape in [(1,), (10,), (1000,), (7, 9), (3, 4, 5)]:
        a = rng.standard_normal(shape).astype(dtype)
        x = dl.asarray(a)
        flat = dl.reshape(x, (-1,))
        want = dl.sqrt(dl.matmul(flat, flat))
        for got in (la.vector_norm(x), la.vector_norm(x, ord=2.0), la.vector_norm(x, axis=tuple(range(len(shape))))):
            assert dt(got) == dtype and got.shape == () and float(got) == float(want)
        if len(shape) == 2:
            assert float(la.matrix_norm(x)) == float(want)
            assert la.matrix_norm(x, keepdims=True).shape == (1, 1)
        strided = dl.asarray(np.repeat(a.reshape(-1), 2))[::2]  # BLAS sums a strided dot in another order
        assert float(la.vector_norm(strided)) == pytest.approx(float(want), rel=1e-6 if dtype == "float32" else 1e-14)
    big = np.finfo(dtype).max / 4
    for values, expected in [([big, big], np.hypot(np.float64(big), np.float64(big))),
                             ([1e-30 if dtype == "float32" else 1e-170, 0.0], 1e-30 if dtype == "float32" else 1e-170),
                             ([np.inf, 1.0], np.inf), ([np.nan, 1.0], np.nan), ([-np.inf, np.nan], np.nan)]:
        got = float(la.vector_norm(dl.asarray(np.array(values, dtype=dtype))))
        assert got == pytest.approx(float(np.asarray(expected, dtype=dtype)), rel=1e-6, nan_ok=True), values
    assert float(la.vector_norm(dl.asarray(np.zeros(0, dtype=dtype)))) == 0.0
    assert la.vector_norm(dl.asarray(np.ones(4, dtype=dtype)), keepdims=True).shape == (1,)
    assert float(la.vector_norm(dl.asarray([3, 4]))) == 5.0
    assert float(la.vector_norm(dl.asarray(np.array([3 + 4j], dtype="complex64" if dtype == "float32" else "complex128")))) == 5.0


def test_vector_norm_edges_and_argument_errors():
    # Over no elements the inf-norm is 0 (NumPy's answer; max alone has no identity), -inf raises.
    empty = dl.ones((0, 3))
    assert to_numpy(la.vector_norm(empty, ord=math.inf, axis=0)).tolist() == [0.0, 0.0, 0.0]
    assert la.vector_norm(empty, ord=math.inf, keepdims=True).shape == (1, 1)
    with pytest.raises(ValueError, match="no elements"):
        la.vector_norm(empty, ord=-math.inf)
    # axis=() keeps every element: the norm of each is its magnitude, for every ord.
    x = dl.asarray([[-3.0, 4.0], [0.0, -1.5]])
    for ord in (2, 1, math.inf):
        assert to_numpy(la.vector_norm(x, axis=(), ord=ord)).tolist() == [[3.0, 4.0], [0.0, 1.5]]
    assert to_numpy(la.vector_norm(x, axis=(), ord=3.0)).ravel().tolist() == pytest.approx([3.0, 4.0, 0.0, 1.5], rel=1e-15)
    assert to_numpy(la.vector_norm(x, axis=(), ord=0)).tolist() == [[1.0, 1.0], [0.0, 1.0]]
    with pytest.raises(TypeError, match="numeric dtype, got bool"):
        la.vector_norm(dl.ones(3, dtype=dl.bool))
    with pytest.raises(TypeError, match="ord must be an int or a float, got bool"):
        la.vector_norm(dl.ones(3), ord=True)
    with pytest.raises(ValueError, match="NaN"):
        la.vector_norm(dl.ones(3), ord=math.nan)
    with pytest.raises(IndexError, match="axis 3"):
        la.vector_norm(dl.ones(3), axis=3)
    with pytest.raises(ValueError, match="repeated axis"):
        la.vector_norm(dl.ones((2, 2)), axis=(0, -2))
    with pytest.raises(TypeError, match="keepdims"):
        la.vector_norm(dl.ones(3), keepdims=1)
    with pytest.raises(TypeError, match="dlarray.Array"):
        la.vector_norm([3.0, 4.0])


def test_stacks_of_small_matrices_leave_other_threads_blas_alone():
    # The stack's matrices are spread over dlarray's threads. That once switched OpenBLAS's
    # process-wide pool to one thread around the loop, for any size: a dot or a product running
    # in another Python thread at that moment was rounded as one thread rounds, so its bits
    # depended on what else ran. Small matrices no longer switch it (OpenBLAS keeps their calls
    # on one thread anyway); the concurrent results must equal the solo ones bit for bit.
    import threading
    saved = dl._core._num_threads()
    dl._core._set_num_threads(2)
    try:
        rng = np.random.default_rng(7)
        v = dl.asarray(rng.standard_normal(300_000))
        m = dl.asarray(rng.standard_normal((300, 300)))
        stack = dl.asarray(rng.standard_normal((400, 8, 8)) + 8 * np.eye(8))
        solo = (to_numpy(la.vector_norm(v)), to_numpy(m @ m))
        stop = threading.Event()

        def small_stacks():
            while not stop.is_set():
                la.inv(stack)
                la.svdvals(stack)

        side = threading.Thread(target=small_stacks)
        side.start()
        try:
            for _ in range(150):
                assert to_numpy(la.vector_norm(v)).tobytes() == solo[0].tobytes()
                assert to_numpy(m @ m).tobytes() == solo[1].tobytes()
        finally:
            stop.set()
            side.join()
    finally:
        dl._core._set_num_threads(saved)

