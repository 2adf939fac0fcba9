"""`diff`: n-th forward differences along an axis (the utility chapter, 2024.12).

Composed from slicing, `concat` and `subtract` (or `not_equal` for booleans, as NumPy), so it
runs wherever those do; there is no kernel of its own to keep in step.
"""
import operator

from . import _core


def _int(value, what):
    if isinstance(value, bool):
        raise TypeError(f"diff: {what} must be an int, got bool")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"diff: {what} must be an int, got {type(value).__name__}") from None


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    """n-th discrete difference along axis: out[i] = x[i+1] - x[i], applied n times;
    prepend/append (arrays of x's dtype) are joined to x along axis first."""
    if not isinstance(x, _core.Array):
        raise TypeError(f"diff: x must be a dlarray.Array, got {type(x).__name__}")
    if x.ndim == 0:
        raise ValueError("diff: x must have at least one dimension")
    axis, n = _int(axis, "axis"), _int(n, "n")
    if not -x.ndim <= axis < x.ndim:
        raise IndexError(f"diff: axis {axis} is out of bounds for an array of {x.ndim} dimensions")
    if n < 0:
        raise ValueError(f"diff: n must be non-negative, got {n}")
    axis %= x.ndim
    parts = [p for p in (prepend, x, append) if p is not None]
    for p in parts:
        if not isinstance(p, _core.Array):
            raise TypeError(f"diff: prepend and append must be arrays, got {type(p).__name__}")
    if len(parts) > 1:
        x = _core.concat(parts, axis=axis)
    step = _core.not_equal if x.dtype == _core.bool else _core.subtract
    head = (slice(None),) * axis
    # Each step shortens the axis by one; once it is empty further steps change nothing, so a
    # huge n costs no more than the axis's length (NumPy loops n times).
    for _ in range(min(n, max(x.shape[axis], 1))):
        x = step(x[head + (slice(1, None),)], x[head + (slice(None, -1),)])
    return x
