"""dlarray.linalg: the array API's linear algebra extension (2025.12), 25 functions.

The LAPACK-backed functions (cholesky det eig eigh eigvals eigvalsh inv qr slogdet solve svd
svdvals) and the diagonal view are C++ (`dlarray._core._linalg`: one driver, batched stacks,
GIL released); this module gives the tuple results their named-tuple types and composes the
rest (norms, powers, ranks, pseudo-inverses, products) from those entries and the namespace.
Which is which is the table in src/core/linalg_ops.h (`dlarray._core._linalg_ops()`).
"""
import math as _math
import operator as _operator
from typing import NamedTuple as _NamedTuple

from . import _core
from ._core import Array as _Array
from ._core._linalg import _two_norm_by_dot, LinAlgError, cholesky, det, diagonal, eigvals, eigvalsh, inv, solve, svdvals
from ._core import matmul
from ._linear_algebra import matrix_transpose, tensordot, vecdot

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


def _check(x, fname, what="x"):
    if not isinstance(x, _Array):
        raise TypeError(f"{fname}: {what} must be a dlarray.Array, got {type(x).__name__}")


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


def _int(n, fname, what):
    if isinstance(n, bool):
        raise TypeError(f"{fname}: {what} must be an int, got bool")
    try:
        return _operator.index(n)
    except TypeError:
        raise TypeError(f"{fname}: {what} must be an int, got {type(n).__name__}") from None


def _conj_t(x):
    return _core.conj(x.mT) if x.dtype in _COMPLEX else x.mT


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
    if type(ord) is int and ord == 2 and axis is None and not keepdims and type(x) is _Array:
        # The common call, first and in one C++ call (a whole real float CPU array, whose
        # squares neither overflow nor underflow); None sends every other case on below.
        r = _two_norm_by_dot(x)
        if r is not None:
            return r
    x = _floating(x, "vector_norm")
    if isinstance(ord, bool) or not isinstance(ord, int | float):
        raise TypeError(f"vector_norm: ord must be an int or a float, got {type(ord).__name__}")
    if ord == 2 and x.__dlpack_device__() == _CPU and x.size > 0:
        axes = _norm_axes(axis, x.ndim)
        if axes is not None:
            return _two_norm_on_host(x, axes, keepdims)
    a = _core.abs(x)  # real, of x's precision
    if ord == _math.inf:
        return _core.max(a, axis=axis, keepdims=keepdims)
    if ord == -_math.inf:
        return _core.min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return _core.astype(_core.sum(_core.astype(a != 0, a.dtype), axis=axis, keepdims=keepdims), a.dtype)
    if ord == 1:
        return _core.sum(a, axis=axis, keepdims=keepdims)
    if ord == 2:
        return _core.sqrt(_core.sum(a * a, axis=axis, keepdims=keepdims))
    if _math.isnan(ord):
        raise ValueError("vector_norm: ord must not be NaN")
    return _core.pow(_core.sum(_core.pow(a, float(ord)), axis=axis, keepdims=keepdims), 1.0 / ord)


_CPU = (1, 0)  # __dlpack_device__() of a CPU array
# Per real dtype: the smallest normal number over the unit roundoff, and the largest finite.
_SQUARES_LIMITS = {_core.float32: (2.0 ** -126 / 2.0 ** -24, 3.4028234663852886e38),
                   _core.float64: (2.0 ** -1022 / 2.0 ** -53, 1.7976931348623157e308)}


def _norm_axes(axis, ndim):
    """axis as a sorted tuple of distinct non-negative axes, or None where it is not valid (the
    general path then raises the reduction's own error)."""
    if axis is None:
        return tuple(range(ndim))
    items = (axis,) if type(axis) is int else axis
    if type(items) is not tuple:
        return None
    out = []
    for a in items:
        if type(a) is not int or not -ndim <= a < ndim:
            return None
        out.append(a + ndim if a < 0 else a)
    out.sort()
    for k in range(1, len(out)):
        if out[k] == out[k - 1]:
            return None
    return tuple(out)


def _two_norm_on_host(x, axes, keepdims):
    """sqrt(sum |x|^2) over axes as one BLAS dot per norm (NumPy's way: 12x faster than squaring
    into a temporary and summing). A sum of squares that overflows, or is so small that squares
    underflowed by more than a rounding error, is redone on x scaled by its largest magnitude;
    NaN and infinities also take that path, which gives them their standard results."""
    ndim = x.ndim
    if len(axes) == ndim:  # one norm of everything
        kept, m = (), x.size
        rows = x if ndim == 1 else _core.reshape(x, (m,))
    else:
        kept = tuple(d for d in range(ndim) if d not in axes)
        m = 1
        for d in axes:
            m *= x.shape[d]
        rows = _core.reshape(_core.permute_dims(x, kept + axes), tuple(x.shape[d] for d in kept) + (m,))
    if not kept and x.dtype not in _COMPLEX:
        # One real norm: one C++ call, the same dot and range test as below (None: out of range).
        r = _two_norm_by_dot(rows)
        in_range = r is not None
    else:
        left = _core.conj(rows) if x.dtype in _COMPLEX else rows
        if kept:  # a stack of (1, m) @ (m, 1) products, one ?dot each
            sq = _core.matmul(_core.expand_dims(left, axis=-2), _core.expand_dims(rows, axis=-1))[..., 0, 0]
        else:
            sq = _core.matmul(left, rows)  # 0-d
        if x.dtype in _COMPLEX:
            sq = _core.real(sq)
        tiny_over_eps, largest = _SQUARES_LIMITS[sq.dtype]
        if kept:
            lo, hi = float(_core.min(sq)), float(_core.max(sq))
        else:
            lo = hi = float(sq)
        in_range = lo >= tiny_over_eps * m and hi <= largest
        if in_range:
            r = _core.sqrt(sq)
    if not in_range:
        a = _core.abs(rows)
        scale = _core.max(a, axis=-1, keepdims=True)
        safe = _core.where((scale > 0) & _core.isfinite(scale), scale, _core.ones_like(scale))
        scaled = a / safe
        r = _core.sqrt(_core.sum(scaled * scaled, axis=-1, keepdims=True)) * safe
        r = _core.where(_core.isinf(scale), scale, r)[..., 0]  # an infinite element: the norm is inf
    if keepdims:
        r = _core.reshape(r, tuple(1 if d in axes else x.shape[d] for d in range(ndim)))
    return r


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
