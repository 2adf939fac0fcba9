"""`pad`: NumPy's numpy.pad for the modes constant, edge, reflect, symmetric and wrap.

One allocation of the padded shape, the input copied into its middle, then each axis in turn
fills its two pad areas from the part already written (every earlier axis already padded, as
NumPy does, so the corners match NumPy's). A non-constant pad area is one `take` along the axis
with an index list worked out here on the host, which covers pad widths larger than the axis
(the reflection or period repeats) in one step. Runs wherever empty/take/setitem do.
"""
from __future__ import annotations

import operator
from typing import Any

from . import _core
from ._args import check_array

__all__ = ["pad"]

_MODES = ("constant", "edge", "reflect", "symmetric", "wrap")


def _nested(value, what, as_number):
    """value (a number or nested sequences of them, or an object with tolist) as nested lists
    and its shape."""
    if hasattr(value, "tolist") and not isinstance(value, _core.Array):
        value = value.tolist()
    if isinstance(value, _core.Array):
        if value.ndim == 0:
            return as_number(value), ()
        value = _core.unstack(value)
    if isinstance(value, (list, tuple)):
        parts = [_nested(v, what, as_number) for v in value]
        shapes = {shape for _, shape in parts}
        if len(shapes) > 1:
            raise ValueError(f"pad: {what} must be rectangular, got {value!r}")
        inner = shapes.pop() if shapes else ()
        return [v for v, _ in parts], (len(parts),) + inner
    return as_number(value), ()


def _per_axis_pairs(value, ndim, what, as_number):
    """value broadcast to ndim (before, after) pairs, by NumPy's broadcasting to (ndim, 2)."""
    items, shape = _nested(value, what, as_number)
    if len(shape) > 2 or (len(shape) == 2 and shape[0] not in (1, ndim)) or \
            (shape and shape[-1] not in (1, 2)):
        raise ValueError(f"pad: {what} of shape {shape} cannot be broadcast to ({ndim}, 2)")
    if len(shape) == 0:
        rows = [[items]]
    elif len(shape) == 1:
        rows = [items]
    else:
        rows = items
    rows = [[r[0], r[-1]] for r in rows]
    return [tuple(rows[0] if len(rows) == 1 else rows[i]) for i in range(ndim)]


def _pad_width_int(v):
    if isinstance(v, bool) or isinstance(v, float) or isinstance(v, complex):
        raise TypeError("pad: pad_width must be of integral type")
    try:
        v = operator.index(v)
    except TypeError:
        raise TypeError(f"pad: pad_width must be of integral type, got {type(v).__name__}") \
            from None
    if v < 0:
        raise ValueError("pad: pad_width can't contain negative values")
    return v


def _constant_number(v):
    if isinstance(v, _core.Array):
        v = v.to_device("cpu")
        return complex(v) if _core.isdtype(v.dtype, "complex floating") else float(v) \
            if _core.isdtype(v.dtype, "real floating") else int(v)
    if not isinstance(v, (int, float, complex)):
        raise TypeError(f"pad: constant_values must be numbers, got {type(v).__name__}")
    return v


def _source_index(j, before, n, mode):
    """The position along the original axis (0..n-1) that padded position j copies."""
    k = j - before
    if mode == "edge":
        return min(max(k, 0), n - 1)
    if mode == "wrap":
        return k % n
    if mode == "reflect":
        if n == 1:
            return 0
        k %= 2 * n - 2
        return k if k < n else 2 * n - 2 - k
    k %= 2 * n  # symmetric: the edge element repeated at each turn
    return k if k < n else 2 * n - 1 - k


def pad(x: _core.Array, /, pad_width: Any, mode: str = "constant", *,
        constant_values: Any = 0) -> _core.Array:
    """Pad an array (numpy.pad).

    Parameters
    ----------
    x : Array
    pad_width : int, (before, after) or ((before_0, after_0), ...)
        Elements added before and after each axis; broadcast to (ndim, 2) as NumPy does.
    mode : {'constant', 'edge', 'reflect', 'symmetric', 'wrap'}
        NumPy's other modes (and callables) raise ValueError.
    constant_values : number or per-axis pairs of the forms of pad_width
        For 'constant': cast to x's dtype (as NumPy's assignment does). Any other mode raises
        ValueError when it is not the default 0, as NumPy does for keywords a mode does not take.

    Returns
    -------
    Array
        A new array on x's device.
    """
    check_array(x, "pad")
    if not isinstance(mode, str):
        raise ValueError(f"pad: mode {mode!r} is not supported; use one of {', '.join(_MODES)}")
    if mode not in _MODES:
        raise ValueError(f"pad: mode '{mode}' is not supported; use one of {', '.join(_MODES)}")
    widths = _per_axis_pairs(pad_width, x.ndim, "pad_width", _pad_width_int)
    if mode != "constant" and not (isinstance(constant_values, int) and constant_values == 0):
        raise ValueError(f"pad: unsupported keyword argument for mode '{mode}': constant_values")
    shape = tuple(n + b + a for n, (b, a) in zip(x.shape, widths))
    middle = tuple(slice(b, b + n) for n, (b, _) in zip(x.shape, widths))

    if mode == "constant":
        values = _per_axis_pairs(constant_values, x.ndim, "constant_values", _constant_number)
        # The pads alone are written (NumPy's order: a later axis overwrites the corners), not
        # the whole array first and then the middle again.
        out = _core.empty(shape, dtype=x.dtype, device=x.device)
        out[middle] = x
        for axis, ((b, a), (vb, va)) in enumerate(zip(widths, values)):
            head = (slice(None),) * axis
            if b:
                out[head + (slice(0, b),)] = _fill_value(vb, x)
            if a:
                out[head + (slice(shape[axis] - a, None),)] = _fill_value(va, x)
        return out

    for axis, (n, (b, a)) in enumerate(zip(x.shape, widths)):
        if n == 0 and (b or a):
            raise ValueError(f"pad: can't extend empty axis {axis} using modes other than "
                             "'constant'")
    out = _core.empty(shape, dtype=x.dtype, device=x.device)
    out[middle] = x
    for axis, (n, (b, a)) in enumerate(zip(x.shape, widths)):
        head = (slice(None),) * axis
        for lo, hi in ((0, b), (b + n, b + n + a)):
            if lo == hi:
                continue
            index = [b + _source_index(j, b, n, mode) for j in range(lo, hi)]
            out[head + (slice(lo, hi),)] = _take_run(out, index, axis)
    return out


def _fill_value(value, x):
    """value as a Python scalar of x's kind: NumPy casts constant_values unsafely into x's dtype
    (floats truncated toward zero for integers, the imaginary part dropped for real dtypes)."""
    if isinstance(value, complex) and not _core.isdtype(x.dtype, "complex floating"):
        value = value.real
    if x.dtype == _core.bool:
        return bool(value)
    if _core.isdtype(x.dtype, "integral"):
        return int(value)
    if _core.isdtype(x.dtype, "real floating"):
        return float(value)
    return complex(value)


def _take_run(out, index, axis):
    """out's slices at `index` along axis: a plain (or reversed) slice when the positions are
    consecutive, as they are unless a pad is wider than its axis; else one take."""
    if all(index[i + 1] - index[i] == 1 for i in range(len(index) - 1)):
        return out[(slice(None),) * axis + (slice(index[0], index[-1] + 1),)]
    if all(i == index[0] for i in index):  # edge: one slice, broadcast by the assignment
        return out[(slice(None),) * axis + (slice(index[0], index[0] + 1),)]
    if all(index[i + 1] - index[i] == -1 for i in range(len(index) - 1)):
        stop = index[-1] - 1 if index[-1] >= 1 else None
        return out[(slice(None),) * axis + (slice(index[0], stop, -1),)]
    positions = _core.asarray(index, dtype=_core.int64, device=out.device)
    return _core.take(out, positions, axis=axis)
