"""NumPy's selection functions beyond the array API standard: partition and argpartition (C++
kernels, rows of src/core/search_sort_ops.h) and median, quantile and percentile composed over
partition, so that they run on every device partition and the elementwise functions run on.

The statistics select order statistics instead of sorting: one partition at the positions a
method needs (for 'linear' the floor and the ceiling of (n - 1) q) and at the last position,
where the partition puts any NaN (NaN sorts after every number), so that the last element
tells which slices hold a NaN. Interpolation follows NumPy's formulas step by step (the same
float64 index arithmetic, the same lerp), so results equal NumPy's bit for bit where NumPy's
own arithmetic is exact.

Deliberate differences from NumPy: results are arrays (0-d for a full reduction), never NumPy
scalars; integer inputs are converted to float64 before 'linear'/'midpoint' interpolate (NumPy
subtracts in the integer dtype, which wraps for extreme int8 values); q is read as float64
whatever its dtype; an empty kth sequence is accepted (a copy in the original order).
"""
from __future__ import annotations

import math
import operator
from typing import Any, Literal

from . import _core
from ._args import check_array

partition = _core.partition
argpartition = _core.argpartition

Method = Literal["linear", "lower", "higher", "nearest", "midpoint"]
_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")
_INTERPOLATING = ("linear", "midpoint")


def _reduction_layout(x, axis, fname):
    """x with the reduced axes moved last and flattened into one, the result's shape without
    them and its shape with keepdims."""
    if axis is None:
        return _core.reshape(x, (-1,)), (), (1,) * x.ndim
    axes = axis if isinstance(axis, tuple) else (axis,)
    normalized = []
    for a in axes:
        if isinstance(a, bool):
            raise TypeError(f"{fname}: axis must be an int or a tuple of ints, got bool")
        try:
            a = operator.index(a)
        except TypeError:
            raise TypeError(f"{fname}: axis must be an int or a tuple of ints, got {type(a).__name__}") from None
        if not -x.ndim <= a < x.ndim:
            raise IndexError(f"{fname}: axis {a} is out of bounds for an array of {x.ndim} dimensions")
        normalized.append(a % x.ndim)
    if len(set(normalized)) != len(normalized):
        raise ValueError(f"{fname}: repeated axis in {axis!r}")
    kept = [d for d in range(x.ndim) if d not in normalized]
    order = kept + normalized
    y = x if order == list(range(x.ndim)) else _core.permute_dims(x, tuple(order))
    out_shape = tuple(x.shape[d] for d in kept)
    n = math.prod(x.shape[d] for d in normalized)
    keep_shape = tuple(1 if d in normalized else x.shape[d] for d in range(x.ndim))
    return _core.reshape(y, out_shape + (n,)), out_shape, keep_shape


def _q_values(q, fname, scale):
    """q as Python floats divided by scale, its shape, whether it was a Python int or float
    (NumPy's weak q: the result keeps a float32 x's dtype: None) or else its dtype, and
    whether it holds integers (which NumPy's 'linear' turns into positions, as 'lower')."""
    integral = type(q) is int
    if type(q) in (int, float):
        values, shape, q_dtype = [q / scale], (), None
    else:
        if not isinstance(q, _core.Array):
            q = _core.asarray(q)
        if q.ndim > 1:
            raise ValueError(f"{fname}: q must be a scalar or 1-d, got {q.ndim} dimensions")
        integral = _core.isdtype(q.dtype, "integral")
        if q.dtype in (_core.complex64, _core.complex128):
            raise TypeError(f"{fname}: q must be real, got {q.dtype}")
        host = q.to_device("cpu") if str(q.device) != "cpu" else q
        flat = _core.reshape(host, (-1,))
        values = [float(flat[i]) / scale for i in range(flat.shape[0])]
        shape = tuple(q.shape)
        q_dtype = q.dtype if q.dtype in (_core.float32, _core.float64) else _core.float64
    if not all(0.0 <= v <= 1.0 for v in values):
        bounds = "[0, 1]" if scale == 1 else "[0, 100]"
        raise ValueError(f"{fname}: q must be in the range {bounds}")
    return values, shape, q_dtype, integral and scale == 1


def _plan(n, qs, method):
    """For each q: the positions of the two order statistics, the weight of the second, and
    whether NumPy's lerp takes its t >= 0.5 form; NumPy's index rules, in float64."""
    plan = []
    last = n - 1
    for q in qs:
        v = last * q
        if method == "lower":
            plan.append((math.floor(v), math.floor(v), 0.0))
            continue
        if method == "higher":
            plan.append((math.ceil(v), math.ceil(v), 0.0))
            continue
        if method == "nearest":
            k = round(v)  # half to even, as NumPy's around
            plan.append((k, k, 0.0))
            continue
        if method == "midpoint":
            v = 0.5 * (math.floor(v) + math.ceil(v))
        previous = float(math.floor(v))
        if v >= last:  # NumPy takes the last element, and weighs it from index -1
            lo = hi = last
            previous = -1.0
        else:
            lo, hi = int(previous), int(previous) + 1
        if method == "midpoint":
            gamma = 0.0 if v % 1 == 0 else 0.5
        else:
            gamma = v - previous
        plan.append((lo, hi, gamma))
    return plan


def _result_float_dtype(x, q_dtype):
    if x.dtype in (_core.float32, _core.float64):
        return x.dtype if q_dtype is None else _core.result_type(x.dtype, q_dtype)
    return _core.float64


def _quantile(x, q, axis, method, keepdims, fname, scale):
    check_array(x, fname)
    if method not in _METHODS:
        raise ValueError(f"{fname}: {method!r} is not a valid method; use one of {', '.join(_METHODS)}")
    if x.dtype in (_core.complex64, _core.complex128):
        raise TypeError(f"{fname}: x must have a real dtype, got {x.dtype}")
    if x.dtype == _core.bool and method in _INTERPOLATING:
        raise TypeError(f"{fname}: method {method!r} interpolates, which bool does not allow; "
                        "convert x with astype, or use 'lower', 'higher' or 'nearest'")
    qs, q_shape, q_dtype, integral_q = _q_values(q, fname, scale)
    if integral_q and method == "linear":
        method = "lower"  # (q is 0 or 1: NumPy takes the element, in x's dtype)
    y, out_shape, keep_shape = _reduction_layout(x, axis, fname)
    n = y.shape[-1]
    if n == 0:
        raise IndexError(f"{fname}: the reduced axes of x have no elements to take a quantile of")
    plan = _plan(n, qs, method)
    floating = x.dtype in (_core.float32, _core.float64)
    kth = sorted({k for lo, hi, _ in plan for k in (lo, hi)} | ({n - 1} if floating else set()))
    part = partition(y, kth, axis=-1)
    device = x.device
    lo_at = _core.asarray([p[0] for p in plan], dtype=_core.int64, device=device)
    a = _core.take(part, lo_at, axis=-1)  # (..., len(qs))
    if method in _INTERPOLATING:
        hi_at = _core.asarray([p[1] for p in plan], dtype=_core.int64, device=device)
        b = _core.take(part, hi_at, axis=-1)
        if not floating:
            a, b = _core.astype(a, _core.float64), _core.astype(b, _core.float64)
        diff = b - a  # in x's dtype first, as NumPy subtracts before it promotes
        dtype = _result_float_dtype(x, q_dtype)
        if dtype != a.dtype:
            a, b, diff = _core.astype(a, dtype), _core.astype(b, dtype), _core.astype(diff, dtype)
        t = _core.asarray([p[2] for p in plan], dtype=dtype, device=device)
        one_minus_t = _core.asarray([1.0 - p[2] for p in plan], dtype=dtype, device=device)
        upper_form = _core.asarray([p[2] >= 0.5 for p in plan], dtype=_core.bool, device=device)
        a = _core.where(upper_form, b - diff * one_minus_t, a + diff * t)
    if floating:
        has_nan = _core.isnan(part[..., n - 1 : n])
        a = _core.where(has_nan, _core.asarray(math.nan, dtype=a.dtype, device=device), a)
    # (..., len(qs)) -> q's shape, then the reduced shape
    a = _core.permute_dims(a, (a.ndim - 1,) + tuple(range(a.ndim - 1)))
    return _core.reshape(a, q_shape + (keep_shape if keepdims else out_shape))


def quantile(x: _core.Array, q: Any, /, *, axis: int | tuple[int, ...] | None = None,
             method: Method = "linear", keepdims: bool = False) -> _core.Array:
    """q-th quantiles of x along axis (None: all elements), as ``numpy.quantile``.

    Parameters
    ----------
    x : Array
        Real-valued input (bool only with a method that does not interpolate).
    q : float or array
        Quantiles in [0, 1]; a scalar or 1-d. The result has q's shape first.
    axis : int, tuple of ints or None
        The axes reduced.
    method : {'linear', 'lower', 'higher', 'nearest', 'midpoint'}
        NumPy's methods of the same names ('nearest' rounds half to even).
    keepdims : bool
        Keep the reduced axes with length one.

    Returns
    -------
    Array
        float64 for integer x with 'linear'/'midpoint', x's dtype otherwise (a float32 x
        promotes with an array q's dtype, as in NumPy). A slice holding a NaN gives NaN.
    """
    return _quantile(x, q, axis, method, keepdims, "quantile", 1)


def percentile(x: _core.Array, q: Any, /, *, axis: int | tuple[int, ...] | None = None,
               method: Method = "linear", keepdims: bool = False) -> _core.Array:
    """q-th percentiles of x along axis, as ``numpy.percentile``: quantile(x, q / 100, ...)
    with q in [0, 100]; see `quantile`."""
    return _quantile(x, q, axis, method, keepdims, "percentile", 100)


def median(x: _core.Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> _core.Array:
    """Median of x along axis (None: all elements), as ``numpy.median``: the middle order
    statistic, or the mean of the two middle ones.

    Returns
    -------
    Array
        float64 for bool and integer x, x's dtype for floating and complex x; NaN for a slice
        holding a NaN and for an empty slice.
    """
    check_array(x, "median")
    y, out_shape, keep_shape = _reduction_layout(x, axis, "median")
    n = y.shape[-1]
    shape = keep_shape if keepdims else out_shape
    inexact = x.dtype in (_core.float32, _core.float64, _core.complex64, _core.complex128)
    dtype = x.dtype if inexact else _core.float64
    if n == 0:
        return _core.full(shape, math.nan, dtype=dtype, device=x.device)
    middle = [n // 2 - 1, n // 2] if n % 2 == 0 else [n // 2]
    real_float = x.dtype in (_core.float32, _core.float64)
    part = partition(y, middle + ([n - 1] if real_float else []), axis=-1)
    a = part[..., middle[0]]
    if not inexact:
        a = _core.astype(a, _core.float64)
    if n % 2 == 0:
        b = part[..., middle[1]]
        if not inexact:
            b = _core.astype(b, _core.float64)
        a = (a + b) / 2  # NumPy's mean of the two: their sum, then the division
    if real_float:
        a = _core.where(_core.isnan(part[..., n - 1]), _core.asarray(math.nan, dtype=dtype, device=x.device), a)
    elif inexact:  # (complex: a NaN part need not sort last)
        a = _core.where(_core.any(_core.isnan(y), axis=-1), _core.asarray(complex(math.nan, 0), dtype=dtype,
                                                                            device=x.device), a)
    return _core.reshape(a, shape)
