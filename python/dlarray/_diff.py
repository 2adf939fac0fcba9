"""`diff`: n-th forward differences along an axis (the utility chapter, 2024.12).

Composed from slicing, `concat` and `subtract` (or `not_equal` for booleans, as NumPy), so it
runs wherever those do; there is no kernel of its own to keep in step.
"""
from . import _core
from ._args import check_array, int_arg


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    """n-th discrete difference along axis: out[i] = x[i+1] - x[i], applied n times;
    prepend/append (arrays of x's dtype) are joined to x along axis first."""
    check_array(x, "diff")
    if x.ndim == 0:
        raise ValueError("diff: x must have at least one dimension")
    axis, n = int_arg(axis, "diff", "axis"), int_arg(n, "diff", "n")
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
