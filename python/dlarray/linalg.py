"""dlarray.linalg: the array API's linear algebra extension (2025.12), 25 functions, and the
linear algebra chapter of the namespace (matmul, matrix_transpose, tensordot, vecdot).

The LAPACK-backed functions (cholesky det eig eigh eigvals eigvalsh inv qr slogdet solve svd
svdvals), matmul and the diagonal view are C++ (`dlarray._core._linalg`: one driver, batched
stacks, GIL released); this module gives the tuple results their named-tuple types and composes
the rest (norms, powers, ranks, pseudo-inverses, products, tensordot, vecdot's general case)
from those entries and the namespace. Which is which is the table in src/core/linalg_ops.h
(`dlarray._core._linalg_ops()`).
"""
import math as _math
from typing import NamedTuple as _NamedTuple

from . import _core
from ._args import check_array as _check, int_arg as _int
from ._core import Array as _Array
from ._core._linalg import _two_norm_by_dot, LinAlgError, cholesky, det, diagonal, eigvals, eigvalsh, inv, solve, svdvals
from ._core import matmul

__all__ = [
    "LinAlgError", "cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv", "matmul",
    "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet", "solve",
    "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm",
]


class EigResult(_NamedTuple):
    eigenvalues: _Array
    eigenvectors: _Array


class EighResult(_NamedTuple):
    eigenvalues: _Array
    eigenvectors: _Array


class QRResult(_NamedTuple):
    Q: _Array
    R: _Array


class SlogdetResult(_NamedTuple):
    sign: _Array
    logabsdet: _Array


class SVDResult(_NamedTuple):
    U: _Array
    S: _Array
    Vh: _Array


_FLOATS = (_core.float32, _core.float64, _core.complex64, _core.complex128)
_COMPLEX = (_core.complex64, _core.complex128)
_REAL_OF = {_core.complex64: _core.float32, _core.complex128: _core.float64}


def _numeric(x, fname, what="x"):
    _check(x, fname, what)
    if x.dtype == _core.bool or x.dtype not in _FLOATS and not _core.isdtype(x.dtype, "integral"):
        raise TypeError(f"{fname}: {what} must have a numeric dtype, got {x.dtype}")


def _floating(x, fname, what="x"):
    """x in its floating dtype: integer input becomes float64 (as NumPy; the standard says 'should')."""
    _numeric(x, fname, what)
    return x if x.dtype in _FLOATS else _core.astype(x, _core.float64)


def _matrices(x, fname, square=False):
    if x.ndim < 2:
        raise ValueError(f"{fname}: x must have at least 2 dimensions (a matrix or a stack of matrices), "
                         f"got shape {x.shape}")
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{fname}: x must be square in its last two dimensions, got shape {x.shape}")


def _conj_t(x):
    return _core.conj(x.mT) if x.dtype in _COMPLEX else x.mT


# ---- the linear algebra chapter of the namespace: matrix_transpose, tensordot, vecdot ---------
# Each is one matrix product (`_core.matmul`, OpenBLAS or the integer kernel, GIL released
# there) after moving axes, which is plainer here than in C++.

def matrix_transpose(x, /):
    """Transposes the last two axes of x (ndim >= 2); a view, as x.mT."""
    _check(x, "matrix_transpose", "x")
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose: x must have at least 2 dimensions, got {x.ndim}-d")
    return x.mT


def _contracted_axes(axes, nd, fname, which):
    out = []
    for a in axes:
        a = _int(a, fname, f"an axis of {which}")
        if not -nd <= a < nd:
            raise IndexError(f"{fname}: axis {a} is out of bounds for {which}, which has {nd} dimensions")
        a = a + nd if a < 0 else a
        if a in out:
            raise ValueError(f"{fname}: axis {a} of {which} is contracted twice")
        out.append(a)
    return out


def tensordot(x1, x2, /, *, axes=2):
    """Sum of products over axes: the last `axes` axes of x1 with the first `axes` of x2 (an
    int), or the listed axis pairs (a pair of sequences); computed through matmul."""
    _check(x1, "tensordot", "x1")
    _check(x2, "tensordot", "x2")
    if isinstance(axes, tuple | list) and len(axes) == 2 and not isinstance(axes[0], int):
        try:
            a1, a2 = list(axes[0]), list(axes[1])
        except TypeError:
            raise TypeError("tensordot: axes must be an int or a pair of sequences of ints") from None
        if len(a1) != len(a2):
            raise ValueError(f"tensordot: axes pairs {len(a1)} axes of x1 with {len(a2)} of x2; the counts must match")
        a1 = _contracted_axes(a1, x1.ndim, "tensordot", "x1")
        a2 = _contracted_axes(a2, x2.ndim, "tensordot", "x2")
    else:
        n = _int(axes, "tensordot", "axes")
        if n < 0:
            raise ValueError(f"tensordot: an integer axes must be nonnegative, got {n}")
        if n > x1.ndim or n > x2.ndim:
            raise ValueError(
                f"tensordot: cannot contract {n} axes of arrays with {x1.ndim} and {x2.ndim} dimensions")
        a1 = list(range(x1.ndim - n, x1.ndim))
        a2 = list(range(n))
    for i, j in zip(a1, a2):
        if x1.shape[i] != x2.shape[j]:
            raise ValueError(
                f"tensordot: axis {i} of x1 (shape {x1.shape}) has {x1.shape[i]} elements but axis {j} of x2 "
                f"(shape {x2.shape}) has {x2.shape[j]}; contracted axes must match (they are not broadcast)")
    free1 = [d for d in range(x1.ndim) if d not in a1]
    free2 = [d for d in range(x2.ndim) if d not in a2]
    k = 1
    for i in a1:
        k *= x1.shape[i]
    m = 1
    for i in free1:
        m *= x1.shape[i]
    n2 = 1
    for i in free2:
        n2 *= x2.shape[i]
    # One product of an (m, k) by a (k, n) matrix; reshape copies only what cannot be a view.
    p1 = _core.reshape(_core.permute_dims(x1, tuple(free1 + a1)), (m, k))
    p2 = _core.reshape(_core.permute_dims(x2, tuple(a2 + free2)), (k, n2))
    out = _core.matmul(p1, p2)
    return _core.reshape(out, tuple(x1.shape[i] for i in free1) + tuple(x2.shape[i] for i in free2))


# vecdot(x1, x2, /, *, axis=-1) is _core.vecdot: two real vectors with the default axis go
# straight to matmul in C++ (the checks below all pass for them), every other call comes here.
vecdot = _core.vecdot


def _vecdot_composed(x1, x2, /, *, axis=-1):
    """Dot product along axis of broadcast x1 and x2: sum(conj(x1) * x2, axis=axis)."""
    _check(x1, "vecdot", "x1")
    _check(x2, "vecdot", "x2")
    for x, what in ((x1, "x1"), (x2, "x2")):
        if x.dtype == _core.bool:
            raise TypeError(f"vecdot: {what} must have a numeric dtype, got bool")
    axis = _int(axis, "vecdot", "axis")
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("vecdot: x1 and x2 must have at least one dimension")
    nmin = min(x1.ndim, x2.ndim)
    if axis >= 0 and x1.ndim == x2.ndim and axis < x1.ndim:
        axis -= x1.ndim  # unambiguous when both have the same rank
    if not -nmin <= axis < 0:
        raise ValueError(
            f"vecdot: axis must be in [-{nmin}, -1] (counted from the last axis, as the standard asks), got {axis}")
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(
            f"vecdot: axis {axis} has {x1.shape[axis]} elements in x1 (shape {x1.shape}) but {x2.shape[axis]} in x2 "
            f"(shape {x2.shape}); the contracted axis is not broadcast")
    if x1.dtype in (_core.complex64, _core.complex128):
        x1 = _core.conj(x1)
    if x1.ndim == 1 and x2.ndim == 1:  # two vectors: one dot product, a 0-d result
        return _core.matmul(x1, x2)
    # (..., 1, n) @ (..., n, 1): one batched product (gemv per vector pair), stacks broadcast.
    v1 = _core.expand_dims(_core.moveaxis(x1, axis, -1), axis=-2)
    v2 = _core.expand_dims(_core.moveaxis(x2, axis, -1), axis=-1)
    return _core.matmul(v1, v2)[..., 0, 0]


_vecdot_composed.__name__ = _vecdot_composed.__qualname__ = "vecdot"  # what its errors are about


# ---- the LAPACK forms with tuple results -------------------------------------------------------

def eig(x, /):
    return EigResult(*_core._linalg._eig(x))


def eigh(x, /):
    return EighResult(*_core._linalg._eigh(x))


def qr(x, /, *, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced' or 'complete', got {mode!r}")
    return QRResult(*_core._linalg._qr(x, mode == "complete"))


def slogdet(x, /):
    return SlogdetResult(*_core._linalg._slogdet(x))


def svd(x, /, *, full_matrices=True):
    if not isinstance(full_matrices, bool):
        raise TypeError(f"svd: full_matrices must be True or False, got {type(full_matrices).__name__}")
    return SVDResult(*_core._linalg._svd(x, full_matrices))


# ---- composed ---------------------------------------------------------------------------------

def cross(x1, x2, /, *, axis=-1):
    _numeric(x1, "cross", "x1")
    _numeric(x2, "cross", "x2")
    axis = _int(axis, "cross", "axis")
    nmin = min(x1.ndim, x2.ndim)
    if nmin == 0:
        raise ValueError("cross: x1 and x2 must have at least one dimension")
    if axis >= 0 and x1.ndim == x2.ndim and axis < x1.ndim:
        axis -= x1.ndim
    if not -nmin <= axis < 0:
        raise ValueError(f"cross: axis must be in [-{nmin}, -1] (counted from the last axis), got {axis}")
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"cross: axis {axis} must have 3 elements in both x1 (shape {x1.shape}) and x2 "
                         f"(shape {x2.shape}); it is not broadcast")
    a = _core.moveaxis(x1, axis, -1)
    b = _core.moveaxis(x2, axis, -1)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    out = _core.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return _core.moveaxis(out, -1, axis)


def outer(x1, x2, /):
    _numeric(x1, "outer", "x1")
    _numeric(x2, "outer", "x2")
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"outer: x1 and x2 must be 1-d, got shapes {x1.shape} and {x2.shape}")
    return _core.multiply(_core.expand_dims(x1, axis=1), _core.expand_dims(x2, axis=0))


def trace(x, /, *, offset=0, dtype=None):
    _numeric(x, "trace")
    _matrices(x, "trace")
    return _core.sum(diagonal(x, offset=_int(offset, "trace", "offset")), axis=-1, dtype=dtype)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    # Wholly in C++ (src/core/norms.cpp): the 2-norm as BLAS dots on the CPU, the other orders
    # composed from reductions on any device.
    return _core._linalg.vector_norm(x, axis, keepdims, ord)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    if type(x) is _Array and x.ndim == 2 and not keepdims and type(ord) is str and ord == "fro":
        r = _two_norm_by_dot(x)  # one matrix: vector_norm's one call (None: the general path)
        if r is not None:
            return r
    x = _floating(x, "matrix_norm")
    _matrices(x, "matrix_norm")
    if isinstance(ord, str):
        if ord == "fro":
            r = vector_norm(x, axis=(-2, -1), ord=2)
        elif ord == "nuc":
            r = _core.sum(svdvals(x), axis=-1)
        else:
            raise ValueError(f"matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, got {ord!r}")
    elif ord in (2, -2) and not isinstance(ord, bool):
        s = svdvals(x)
        if s.shape[-1] == 0:  # no singular values: the norm of an empty matrix is 0
            r = _core.zeros(s.shape[:-1], dtype=s.dtype)
        else:
            r = _core.max(s, axis=-1) if ord == 2 else _core.min(s, axis=-1)
    elif ord in (1, -1, _math.inf, -_math.inf) and not isinstance(ord, bool):
        # 1: largest absolute column sum; inf: largest absolute row sum (min for the negatives).
        sums = _core.sum(_core.abs(x), axis=-2 if abs(ord) == 1 else -1)
        if sums.shape[-1] == 0:
            r = _core.zeros(sums.shape[:-1], dtype=sums.dtype)
        else:
            r = _core.max(sums, axis=-1) if ord > 0 else _core.min(sums, axis=-1)
    else:
        raise ValueError(f"matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, got {ord!r}")
    return _core.expand_dims(r, axis=(-2, -1)) if keepdims else r


def matrix_power(x, n, /):
    x = _floating(x, "matrix_power")
    _matrices(x, "matrix_power", square=True)
    n = _int(n, "matrix_power", "n")
    if n == 0:
        return _core.zeros_like(x) + _core.eye(x.shape[-1], dtype=x.dtype)
    if n < 0:
        x, n = inv(x), -n
    result = None
    base = x
    while True:  # binary powering: about log2(n) squarings
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if not n:
            break
        base = matmul(base, base)
    return result if result is not x else _core.asarray(x, copy=True)


def _tolerance(s, x, rtol, fname):
    """rtol * largest singular value, per matrix, shaped (..., 1) to compare with s."""
    m, n = x.shape[-2], x.shape[-1]
    if rtol is None:
        rtol = max(m, n) * _core.finfo(s.dtype).eps
    elif isinstance(rtol, _Array):
        if rtol.dtype not in (_core.float32, _core.float64):
            raise TypeError(f"{fname}: rtol must have a real floating-point dtype, got {rtol.dtype}")
        rtol = _core.expand_dims(rtol, axis=-1)
    elif isinstance(rtol, bool) or not isinstance(rtol, int | float):
        raise TypeError(f"{fname}: rtol must be a float, an array or None, got {type(rtol).__name__}")
    return _core.max(s, axis=-1, keepdims=True) * rtol


def matrix_rank(x, /, *, rtol=None):
    x = _floating(x, "matrix_rank")
    _matrices(x, "matrix_rank")
    s = svdvals(x)
    if s.shape[-1] == 0:
        return _core.zeros(s.shape[:-1], dtype=_core.int64)
    return _core.sum(_core.astype(s > _tolerance(s, x, rtol, "matrix_rank"), _core.int64), axis=-1)


def pinv(x, /, *, rtol=None):
    x = _floating(x, "pinv")
    _matrices(x, "pinv")
    if min(x.shape[-2:]) == 0:
        return _core.zeros(x.shape[:-2] + (x.shape[-1], x.shape[-2]), dtype=x.dtype)
    u, s, vh = svd(x, full_matrices=False)
    keep = s > _tolerance(s, x, rtol, "pinv")
    s_inv = _core.where(keep, 1.0 / _core.where(keep, s, 1.0), 0.0)
    # x+ = V diag(1/s) U^H, with the small singular values dropped.
    v_scaled = _conj_t(vh) * _core.astype(_core.expand_dims(s_inv, axis=-2), x.dtype)
    return matmul(v_scaled, _conj_t(u))
