"""NaN-aware reductions: nansum, nanprod, nanmean, nanvar, nanstd, nanmax, nanmin, nanargmax,
nanargmin and nancumsum, with NumPy's semantics.

Composed from isnan, where, count_nonzero and the plain reductions, so they run on every device.
Each float function first asks whether x holds a NaN at all (one boolean pass and an `any`; for
nanmax and nanmin, whose plain reductions propagate NaN, the plain result itself): when it does
not, the plain reduction runs on x itself and the NaN-filling copy is skipped. nanmax and nanmin
of real floating x run as one NaN-skipping fold in C++ where the device's backend has it (the
CPU's); elsewhere they are composed as the others are.
Integer and boolean input cannot hold NaN: it goes to the plain function, as in NumPy.
Complex input: an element is NaN when either part is (isnan's rule, as NumPy's).
"""
from __future__ import annotations

import math
import warnings
from typing import Optional, Sequence, Union

from . import _core
from ._args import check_array, int_arg

Axis = Union[int, Sequence[int], None]

__all__ = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin",
           "nanargmax", "nanargmin", "nancumsum"]


def _is_inexact(x) -> bool:
    return _core.isdtype(x.dtype, ("real floating", "complex floating"))


def _axes(x, axis, fname):
    """axis as a sorted tuple of non-negative axes (all axes for None), checked as dl.sum does."""
    if axis is None:
        return tuple(range(x.ndim))
    items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for a in items:
        a = int_arg(a, fname, "axis")
        if not -x.ndim <= a < x.ndim:
            raise IndexError(f"{fname}: axis {a} is out of bounds for an array of {x.ndim} "
                             "dimensions")
        a %= x.ndim
        if a in out:
            raise ValueError(f"{fname}: repeated axis {a}")
        out.append(a)
    return tuple(sorted(out))


def _slice_size(x, axes):
    return math.prod(x.shape[a] for a in axes)


def _scalar(value, x):
    """value as a 0-d array of x's dtype on x's device (where() then needs no promotion)."""
    return _core.asarray(value, dtype=x.dtype, device=x.device)


def _nan_mask(x):
    """(isnan(x), whether any element is NaN); the mask is None for integer/boolean x."""
    if not _is_inexact(x):
        return None, False
    mask = _core.isnan(x)
    return mask, bool(_core.any(mask))


def _filled(x, mask, any_nan, value):
    return _core.where(mask, _scalar(value, x), x) if any_nan else x


def _real_dtype(dtype):
    return {_core.complex64: _core.float32, _core.complex128: _core.float64}.get(dtype, dtype)


def _valid_counts(x, mask, any_nan, axes, keepdims):
    """The number of non-NaN elements of each slice, in x's real dtype (or a Python int for a full
    reduction without NaN)."""
    size = _slice_size(x, axes)
    if not any_nan:
        return size
    nans = _core.count_nonzero(mask, axis=axes, keepdims=keepdims)
    return _core.astype(size - nans, _real_dtype(x.dtype))


def _has_zero(counts) -> bool:
    if isinstance(counts, int):
        return counts <= 0
    return bool(_core.any(counts <= 0))


def nansum(x: _core.Array, /, *, axis: Axis = None, dtype: Optional[_core.DType] = None,
           keepdims: bool = False) -> _core.Array:
    """Sum of the elements along axis, NaN counted as zero (numpy.nansum).

    dtype and the result's dtype follow dlarray.sum (the array API's: integer sums in the default
    integer dtype of their signedness, as NumPy on 64-bit Linux).
    """
    check_array(x, "nansum")
    axes = _axes(x, axis, "nansum")
    mask, any_nan = _nan_mask(x)
    return _core.sum(_filled(x, mask, any_nan, 0), axis=axes, dtype=dtype, keepdims=keepdims)


def nanprod(x: _core.Array, /, *, axis: Axis = None, dtype: Optional[_core.DType] = None,
            keepdims: bool = False) -> _core.Array:
    """Product of the elements along axis, NaN counted as one (numpy.nanprod)."""
    check_array(x, "nanprod")
    axes = _axes(x, axis, "nanprod")
    mask, any_nan = _nan_mask(x)
    return _core.prod(_filled(x, mask, any_nan, 1), axis=axes, dtype=dtype, keepdims=keepdims)


def nanmean(x: _core.Array, /, *, axis: Axis = None, keepdims: bool = False) -> _core.Array:
    """Mean of the non-NaN elements along axis (numpy.nanmean).

    A slice without any (an all-NaN or empty slice) gives NaN and a RuntimeWarning
    "Mean of empty slice". Integer and boolean input: dlarray.mean (a float64 result).
    """
    check_array(x, "nanmean")
    axes = _axes(x, axis, "nanmean")
    mask, any_nan = _nan_mask(x)
    if mask is None:
        if _slice_size(x, axes) == 0:
            warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
        return _core.mean(x, axis=axes, keepdims=keepdims)
    counts = _valid_counts(x, mask, any_nan, axes, keepdims)
    if _has_zero(counts):
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
    if not any_nan:
        return _core.mean(x, axis=axes, keepdims=keepdims)
    total = _core.sum(_filled(x, mask, any_nan, 0), axis=axes, keepdims=keepdims)
    return total / counts


def _correction(correction, ddof, fname):
    if ddof is not None:
        if correction != 0:
            raise TypeError(f"{fname}: give correction or its alias ddof, not both")
        correction = ddof
    if isinstance(correction, bool) or not isinstance(correction, (int, float)):
        raise TypeError(f"{fname}: correction must be a real number, got "
                        f"{type(correction).__name__}")
    return correction


def nanvar(x: _core.Array, /, *, axis: Axis = None, correction: Union[int, float] = 0,
           keepdims: bool = False, ddof: Union[int, float, None] = None) -> _core.Array:
    """Variance of the non-NaN elements along axis (numpy.nanvar).

    correction is the array API's name of NumPy's ddof (ddof is accepted as an alias). A slice
    whose non-NaN count minus correction is not positive gives NaN and a RuntimeWarning
    "Degrees of freedom <= 0 for slice.". Complex input gives a real result, as NumPy's.
    """
    check_array(x, "nanvar")
    return _nanvar(x, axis, _correction(correction, ddof, "nanvar"), keepdims, "nanvar")


def nanstd(x: _core.Array, /, *, axis: Axis = None, correction: Union[int, float] = 0,
           keepdims: bool = False, ddof: Union[int, float, None] = None) -> _core.Array:
    """Standard deviation of the non-NaN elements along axis (numpy.nanstd): sqrt(nanvar)."""
    check_array(x, "nanstd")
    return _core.sqrt(_nanvar(x, axis, _correction(correction, ddof, "nanstd"), keepdims, "nanstd"))


def _nanvar(x, axis, correction, keepdims, fname):
    axes = _axes(x, axis, fname)
    mask, any_nan = _nan_mask(x)
    counts = _valid_counts(x, mask, any_nan, axes, keepdims) if mask is not None else \
        _slice_size(x, axes)
    dof = counts - correction
    if _has_zero(dof):
        warnings.warn("Degrees of freedom <= 0 for slice.", RuntimeWarning, stacklevel=3)
    elif not any_nan:  # every slice is full and has positive degrees of freedom: the plain var
        return _core.var(x, axis=axes, correction=correction, keepdims=keepdims)
    if mask is None:
        x = _core.astype(x, _core.float64)
    total = _core.sum(_filled(x, mask, any_nan, 0), axis=axes, keepdims=True)
    full_counts = _valid_counts(x, mask, any_nan, axes, True) if any_nan else counts
    deviation = x - total / full_counts
    if any_nan:
        deviation = _core.where(mask, _scalar(0, deviation), deviation)
    if _core.isdtype(deviation.dtype, "complex floating"):
        squares = _core.real(deviation) ** 2 + _core.imag(deviation) ** 2
    else:
        squares = deviation * deviation
    result = _core.sum(squares, axis=axes, keepdims=keepdims)
    if isinstance(dof, (int, float)):  # no NaN: every slice has the same count
        return result / dof if dof > 0 else _core.full_like(result, math.nan)
    return _core.where(dof > 0, result / dof, _scalar(math.nan, result))


def _nan_extreme(x, axis, keepdims, fname, reduce, fill):
    check_array(x, fname)
    axes = _axes(x, axis, fname)
    if _core.isdtype(x.dtype, "real floating"):
        try:  # one NaN-skipping pass where the device's backend has it (the CPU's)
            result = _core._nan_extreme(x, axes, keepdims, fname == "nanmax")
        except NotImplementedError:
            pass
        else:
            if bool(_core.any(_core.isnan(result))):  # a slice is NaN only when all of it is
                warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
            return result
    # max and min propagate NaN: a result without NaN is already the answer; dlarray.max's own
    # errors for empty and complex input come from here too.
    result = reduce(x, axis=axes, keepdims=keepdims)
    if not _is_inexact(x) or not bool(_core.any(_core.isnan(result))):
        return result
    mask = _core.isnan(x)
    result = reduce(_core.where(mask, _scalar(fill, x), x), axis=axes, keepdims=keepdims)
    # Only a slice whose answer is the fill (an infinity) can be all NaN: the pass over the mask
    # is needed for those alone.
    if not bool(_core.any(_core.equal(result, _scalar(fill, result)))):
        return result
    all_nan = _core.all(mask, axis=axes, keepdims=keepdims)
    if bool(_core.any(all_nan)):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
        result = _core.where(all_nan, _scalar(math.nan, result), result)
    return result


def nanmax(x: _core.Array, /, *, axis: Axis = None, keepdims: bool = False) -> _core.Array:
    """Maximum of the non-NaN elements along axis (numpy.nanmax).

    An all-NaN slice gives NaN and a RuntimeWarning "All-NaN slice encountered". Complex input
    raises TypeError, as dlarray.max (NumPy orders complex numbers lexicographically).
    """
    return _nan_extreme(x, axis, keepdims, "nanmax", _core.max, -math.inf)


def nanmin(x: _core.Array, /, *, axis: Axis = None, keepdims: bool = False) -> _core.Array:
    """Minimum of the non-NaN elements along axis (numpy.nanmin); see nanmax."""
    return _nan_extreme(x, axis, keepdims, "nanmin", _core.min, math.inf)


def _nan_arg_extreme(x, axis, keepdims, fname, reduce, fill):
    check_array(x, fname)
    if axis is not None:
        axis = _axes(x, int_arg(axis, fname, "axis"), fname)[0]
    mask, any_nan = _nan_mask(x)
    if any_nan:
        if bool(_core.any(_core.all(mask, axis=axis))):
            raise ValueError("All-NaN slice encountered")
        x = _core.where(mask, _scalar(fill, x), x)
    return reduce(x, axis=axis, keepdims=keepdims)


def nanargmax(x: _core.Array, /, *, axis: Optional[int] = None,
              keepdims: bool = False) -> _core.Array:
    """Index of the maximum non-NaN element along axis, of the flattened x for None
    (numpy.nanargmax). An all-NaN slice raises ValueError("All-NaN slice encountered")."""
    return _nan_arg_extreme(x, axis, keepdims, "nanargmax", _core.argmax, -math.inf)


def nanargmin(x: _core.Array, /, *, axis: Optional[int] = None,
              keepdims: bool = False) -> _core.Array:
    """Index of the minimum non-NaN element along axis (numpy.nanargmin); see nanargmax."""
    return _nan_arg_extreme(x, axis, keepdims, "nanargmin", _core.argmin, math.inf)


def nancumsum(x: _core.Array, /, *, axis: Optional[int] = None, dtype: Optional[_core.DType] = None,
              include_initial: bool = False) -> _core.Array:
    """Cumulative sum along axis, NaN counted as zero (numpy.nancumsum).

    Signature of dlarray.cumulative_sum; axis=None sums the flattened x (NumPy's rule, where
    cumulative_sum requires an axis for more than one dimension), giving a 1-d result.
    """
    check_array(x, "nancumsum")
    if axis is None:
        x, axis = _core.reshape(x, (-1,)), 0
    else:
        axis = _axes(x, int_arg(axis, "nancumsum", "axis"), "nancumsum")[0]
    mask, any_nan = _nan_mask(x)
    return _core.cumulative_sum(_filled(x, mask, any_nan, 0), axis=axis, dtype=dtype,
                                include_initial=include_initial)
