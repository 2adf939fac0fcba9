"""The linear algebra chapter's composed functions: tensordot, vecdot and matrix_transpose.

Each is one matrix product (`_core.matmul`, OpenBLAS or the integer kernel, GIL released
there) after moving axes, which is plainer here than in C++. `matmul` itself is `_core.matmul`.
The rows describing them are in src/core/linalg_ops.h.
"""
import operator as _operator

from . import _core


def _check_array(x, fname, what):
    if not isinstance(x, _core.Array):
        raise TypeError(f"{fname}: {what} must be a dlarray.Array, got {type(x).__name__}")


def _axis_index(a, fname, what):
    if isinstance(a, bool):
        raise TypeError(f"{fname}: {what} must be an int, got bool")
    try:
        return _operator.index(a)
    except TypeError:
        raise TypeError(f"{fname}: {what} must be an int, got {type(a).__name__}") from None


def matrix_transpose(x, /):
    """Transposes the last two axes of x (ndim >= 2); a view, as x.mT."""
    _check_array(x, "matrix_transpose", "x")
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose: x must have at least 2 dimensions, got {x.ndim}-d")
    return x.mT


def _contracted_axes(axes, nd, fname, which):
    out = []
    for a in axes:
        a = _axis_index(a, fname, f"an axis of {which}")
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
    _check_array(x1, "tensordot", "x1")
    _check_array(x2, "tensordot", "x2")
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
        n = _axis_index(axes, "tensordot", "axes")
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
    _check_array(x1, "vecdot", "x1")
    _check_array(x2, "vecdot", "x2")
    for x, what in ((x1, "x1"), (x2, "x2")):
        if x.dtype == _core.bool:
            raise TypeError(f"vecdot: {what} must have a numeric dtype, got bool")
    axis = _axis_index(axis, "vecdot", "axis")
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
