"""Counting into bins: `bincount` and `histogram` (numpy.bincount, numpy.histogram).

Both end in a tally of integer bin numbers: one pass of the device's tally kernel where it has
one (the CPU: _core._tally, src/backends/cpu/tally_cpu.cpp), elsewhere a count by sorting: the
sorted keys' boundaries, found by searchsorted, give each bin's count; with weights, the weights
taken in sorted order are summed cumulatively and each bin's sum is the difference of the running
sums at its two boundaries. That path is composed from sort, argsort, searchsorted, take,
cumulative_sum and elementwise functions, so every device has it.
"""
from __future__ import annotations

import math
import operator
from typing import Any, Optional, Tuple

from . import _core
from ._args import check_array, int_arg

__all__ = ["bincount", "histogram"]

_INT32_MAX = 2**31 - 1


def _dtype_name(dtype) -> str:
    return str(dtype).rsplit(".", 1)[-1]


def _key_dtype(largest: int):
    # int32 keys sort markedly faster than int64 (fewer bytes per radix pass) and than the
    # narrower types (which take a slower path in the sort).
    return _core.int32 if largest <= _INT32_MAX else _core.int64


def _bin_bounds(sorted_keys, n_bins):
    """Positions in sorted_keys (values in [0, n_bins)) where bins 0..n_bins start, plus the end:
    n_bins + 1 positions."""
    probes = _core.arange(n_bins + 1, dtype=sorted_keys.dtype, device=sorted_keys.device)
    return _core.searchsorted(sorted_keys, probes, side="left")


def _counts_from_bounds(bounds):
    return bounds[1:] - bounds[:-1]


def _sums_from_bounds(bounds, sorted_weights, sum_dtype):
    running = _core.cumulative_sum(sorted_weights, dtype=sum_dtype, include_initial=True)
    at_bounds = _core.take(running, bounds)
    return at_bounds[1:] - at_bounds[:-1]


def _tally(keys, n_bins, weights):
    """The device's one-pass tally (int64 counts, or float64 sums of the weights) of int keys
    that must lie in [0, n_bins) (ValueError otherwise); None where the device has no tally
    kernel (the CPU has one) or the keys are not int32/int64."""
    if keys.dtype not in (_core.int32, _core.int64):
        return None
    try:
        return _core._tally(keys, None if weights is None else _core.astype(weights, _core.float64, copy=False),
                            n_bins)
    except NotImplementedError:
        return None


def _binned(keys, n_bins, weights, sum_dtype):
    """Per-bin counts (weights None) or weight sums of int keys in [0, n_bins): the tally
    kernel where there is one, else through a sort."""
    if weights is None or sum_dtype == _core.float64:
        tallied = _tally(keys, n_bins, weights)
        if tallied is not None:
            return tallied
    if weights is None:
        return _counts_from_bounds(_bin_bounds(_core.sort(keys), n_bins))
    n = keys.shape[0]
    position_bits = max(n - 1, 1).bit_length()
    if n_bins << position_bits <= _INT32_MAX:
        # key * 2**bits + position, sorted: the keys in order with their positions in the low
        # bits. One int32 sort is several times faster than argsort, and as stable.
        positions = _core.arange(n, dtype=_core.int32, device=keys.device)
        packed = _core.sort(_core.astype(keys, _core.int32, copy=False) * (1 << position_bits)
                            + positions)
        order = packed & ((1 << position_bits) - 1)
        sorted_keys = packed >> position_bits
    else:
        order = _core.argsort(keys, stable=True)  # stable: each bin sums in input order
        sorted_keys = _core.take(keys, order)
    bounds = _bin_bounds(sorted_keys, n_bins)
    return _sums_from_bounds(bounds, _core.take(weights, order), sum_dtype)


def bincount(x: _core.Array, /, weights: Optional[_core.Array] = None,
             minlength: int = 0) -> _core.Array:
    """Number of occurrences of each value in a 1-d array of non-negative integers
    (numpy.bincount).

    Returns an int64 array of length max(max(x) + 1, minlength); with weights, the float64 sums
    of the weights of each value (but int64 zeros for an empty x, as NumPy). On the CPU each
    thread sums its range of x in input order and the threads' sums are added in order (NumPy's
    values at one thread); on devices without a tally kernel the sums are differences of running
    sums, which agree with NumPy's sequential sums to a few ulps of the running total.
    """
    check_array(x, "bincount")
    if x.ndim != 1:
        raise ValueError(f"bincount: x must be 1-d, got {x.ndim} dimensions")
    if not _core.isdtype(x.dtype, ("integral", "bool")):
        raise TypeError(f"bincount: Cannot cast array data from dtype('{_dtype_name(x.dtype)}') to "
                        "dtype('int64') according to the rule 'safe'")
    minlength = int_arg(minlength, "bincount", "minlength")
    if minlength < 0:
        raise ValueError("bincount: minlength must not be negative")
    if weights is not None:
        check_array(weights, "bincount", "weights")
        if weights.shape != x.shape:
            raise ValueError("bincount: the weights and list don't have the same length")
        if _core.isdtype(weights.dtype, "complex floating"):
            raise TypeError("bincount: Cannot cast array data from "
                            f"dtype('{_dtype_name(weights.dtype)}') to dtype('float64') "
                            "according to the rule 'safe'")
        weights = _core.astype(weights, _core.float64, copy=False)
    if x.size == 0:  # int64 even with weights, as NumPy's
        return _core.zeros(minlength, dtype=_core.int64, device=x.device)
    result_dtype = _core.int64 if weights is None else _core.float64
    if x.dtype == _core.bool:
        x = _core.astype(x, _core.int32)
    largest = int(_core.max(x))
    negative = ValueError("bincount: x must have no negative elements")
    if largest < 0:
        raise negative
    try:  # one pass, whose range check finds negative values (no separate min)
        binned = _tally(x, largest + 1, weights)
    except ValueError:
        raise negative from None
    if binned is None:  # no tally kernel on this device: through a sort
        if _core.isdtype(x.dtype, "signed integer") and int(_core.min(x)) < 0:
            raise negative
        binned = _binned(_core.astype(x, _key_dtype(largest), copy=False), largest + 1, weights,
                         _core.float64)
    binned = _core.astype(binned, result_dtype, copy=False)
    if minlength > largest + 1:
        tail = _core.zeros(minlength - largest - 1, dtype=result_dtype, device=x.device)
        binned = _core.concat([binned, tail])
    return binned


def _outer_edges(a, value_range) -> Tuple[float, float]:
    """First and last edge of equal-width bins: the range, else [min, max] of a, widened by 0.5
    either side when they are equal (NumPy's rules and messages)."""
    if value_range is not None:
        try:
            first, last = value_range
        except (TypeError, ValueError):
            raise ValueError("histogram: range must be a pair (min, max)") from None
        first, last = float(first), float(last)
        if first > last:
            raise ValueError("histogram: max must be larger than min in range parameter.")
        if not (math.isfinite(first) and math.isfinite(last)):
            raise ValueError(f"histogram: supplied range of [{first}, {last}] is not finite")
    elif a.size == 0:
        first, last = 0.0, 1.0
    else:
        first, last = float(_core.min(a)), float(_core.max(a))
        if not (math.isfinite(first) and math.isfinite(last)):
            raise ValueError(f"histogram: autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last


def _equal_edges(first, last, n, work_dtype, edge_dtype, device):
    """n + 1 equal-width edges computed as numpy.linspace does (start + i * step in work_dtype,
    the last edge exactly `last`), so that they and the bins they bound equal NumPy's. NumPy
    works in float32 for float32 data without a range (its min and max are float32 scalars) and
    in float64 otherwise."""
    start = _core.asarray(first, dtype=work_dtype, device=device)
    step = (_core.asarray(last, dtype=work_dtype, device=device) - start) / n
    edges = _core.arange(n + 1, dtype=work_dtype, device=device) * step + start
    edges[n] = last
    return _core.astype(edges, edge_dtype, copy=False)


def _equal_bin_index(values, edges, first, last, n, may_hold_nan):
    """Bin index of each value in [first, last] (any index for the others): the arithmetic
    estimate, then corrected by one against the edges themselves, so that a value on an edge
    lands in the bin the edge starts (the last bin closed on the right), as NumPy's counts do."""
    scaled = (values - first) * (n / (last - first))
    if may_hold_nan:  # NaN (outside any given range) has no integer: any bin does, it is dropped
        zero = _core.asarray(0.0, dtype=scaled.dtype, device=scaled.device)
        scaled = _core.where(_core.isnan(scaled), zero, scaled)
    scaled = _core.clip(scaled, 0, n - 1)  # values outside [first, last] too: they are dropped
    key_dtype = _key_dtype(n)
    index = _core.astype(scaled, key_dtype)
    # The right edge of each bin, +inf for the last: it is closed, and a value above `last` is
    # outside and dropped anyway, so no test of the index against n - 1 is needed.
    inf = _core.asarray([float("inf")], dtype=edges.dtype, device=edges.device)
    right_edges = _core.concat([edges[1:-1], inf])
    below = values < _core.take(edges, index)
    above = values >= _core.take(right_edges, index)
    return index + (_core.astype(above, key_dtype) - _core.astype(below, key_dtype))


def histogram(a: _core.Array, /, bins: Any = 10, range: Optional[Tuple[float, float]] = None,
              weights: Optional[_core.Array] = None,
              density: bool = False) -> Tuple[_core.Array, _core.Array]:
    """Histogram of the values of a (flattened) (numpy.histogram).

    Parameters
    ----------
    a : Array
        Real values; complex input raises TypeError.
    bins : int or 1-d array/sequence of increasing edges
        A count of equal-width bins over range (or [min(a), max(a)]; [v - 0.5, v + 0.5] when all
        values equal v), or the edges themselves. Every bin is half-open [left, right) except the
        last, which includes its right edge. NumPy's string rules ('auto', 'fd', ...) are not
        supported (ValueError).
    range : (float, float), optional
        Lower and upper edge of equal-width bins; values outside are ignored.
    weights : Array, optional
        Same shape as a: each value adds its weight instead of 1.
    density : bool
        Divide the counts by the total and by the bin widths (the result integrates to 1).

    Returns
    -------
    hist, bin_edges : Array, Array
        hist is int64 (the dtype of weights with weights, float64 with density); bin_edges is
        float (a's dtype when it is a float, else float64), or the given edges. Both on a's device.
    """
    check_array(a, "histogram")
    if _core.isdtype(a.dtype, "complex floating"):
        raise TypeError("histogram: a must be real, got a complex array")
    if weights is not None:
        check_array(weights, "histogram", "weights")
        if weights.shape != a.shape:
            raise ValueError("histogram: weights should have the same shape as a.")
        if weights.dtype == _core.bool:
            raise TypeError("histogram: weights must be numbers, got bool")
        weights = _core.reshape(weights, (-1,))
        if weights.device != a.device:
            raise ValueError("histogram: weights must be on a's device")
    a = _core.reshape(a, (-1,))
    if isinstance(bins, str):
        raise ValueError(f"histogram: the bin rule {bins!r} is not supported; give the number of "
                         "bins or their edges")
    explicit = isinstance(bins, (_core.Array, list, tuple)) or hasattr(bins, "__array__")
    if explicit:
        hist, edges = _histogram_edges(a, bins, weights)
    else:
        if isinstance(bins, bool) or isinstance(bins, float):
            raise TypeError("histogram: `bins` must be an integer, a string, or an array")
        try:
            n = operator.index(bins)
        except TypeError:
            raise TypeError("histogram: `bins` must be an integer, a string, or an array") from None
        if n < 1:
            raise ValueError("histogram: `bins` must be positive, when an integer")
        hist, edges = _histogram_equal(a, n, range, weights)
    if density:
        hist = _core.astype(hist, _core.float64)
        widths = _core.astype(edges[1:] - edges[:-1], _core.float64)
        hist = hist / widths / _core.sum(hist)
    return hist, edges


def _hist_dtype(weights):
    return _core.int64 if weights is None else weights.dtype


def _sum_dtype(weights):
    if weights is None:
        return None
    if _core.isdtype(weights.dtype, "complex floating"):
        return _core.complex128
    if _core.isdtype(weights.dtype, "integral"):
        return None  # the integer sums, exactly
    return _core.float64


def _histogram_equal(a, n, value_range, weights):
    if a.dtype == _core.bool:
        raise TypeError("histogram: equal-width bins need numbers, got a bool array")
    first, last = _outer_edges(a, value_range)
    edge_dtype = a.dtype if _core.isdtype(a.dtype, "real floating") else _core.float64
    work_dtype = edge_dtype if value_range is None else _core.float64
    edges = _equal_edges(first, last, n, work_dtype, edge_dtype, a.device)
    values = _core.astype(a, edge_dtype, copy=False)
    if a.size == 0:
        return _core.zeros(n, dtype=_hist_dtype(weights), device=a.device), edges
    index = _equal_bin_index(values, edges, first, last, n, value_range is not None)
    if value_range is not None:  # values outside go to an extra bin, dropped below
        inside = (a >= first) & (a <= last)
        index = _core.where(inside, index, _core.asarray(n, dtype=index.dtype, device=a.device))
    binned = _binned(index, n + 1, weights, _sum_dtype(weights))[:n]
    return _core.astype(binned, _hist_dtype(weights), copy=False), edges


def _histogram_edges(a, bins, weights):
    edges = bins if isinstance(bins, _core.Array) else _core.asarray(bins, device=a.device)
    if edges.device != a.device:
        edges = edges.to_device(a.device)
    if edges.ndim != 1:
        raise ValueError("histogram: `bins` must be 1d, when an array")
    if edges.shape[0] == 0:
        raise ValueError("histogram: `bins` must have at least one edge")
    if _core.isdtype(edges.dtype, "complex floating"):
        raise TypeError("histogram: `bins` must be real")
    if edges.shape[0] > 1 and bool(_core.any(edges[:-1] > edges[1:])):
        raise ValueError("histogram: `bins` must increase monotonically, when an array")
    common = _core.result_type(a.dtype, edges.dtype) if a.dtype != _core.bool else \
        _core.result_type(_core.int64, edges.dtype)
    values = _core.astype(a, common, copy=False)
    probes = _core.astype(edges, common, copy=False)
    n_bins = edges.shape[0] - 1
    if n_bins == 0:
        return _core.zeros(0, dtype=_hist_dtype(weights), device=a.device), edges
    # Each value's bin by one search among the edges (all but the last: the last bin is closed
    # on the right), then one tally: key k is bin k - 1, key 0 collects what lies outside (below
    # the first edge, above the last, NaN), dropped below. Searching 10^6 values among 50 edges
    # costs a third of sorting them.
    keys = _core.searchsorted(probes[:-1], values, side="right")
    inside = values <= probes[-1]
    keys = _core.where(inside, keys, _core.zeros_like(keys))
    hist = _binned(_core.astype(keys, _key_dtype(n_bins), copy=False), n_bins + 1, weights,
                   _sum_dtype(weights))[1:]
    return _core.astype(hist, _hist_dtype(weights), copy=False), edges
