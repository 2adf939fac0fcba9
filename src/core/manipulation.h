// manipulation.h — the array API's manipulation functions as layout operations on Arrays.
//
// Everything that can be a view is one (broadcast_to, reshape when the strides allow,
// permute_dims, moveaxis, expand_dims, squeeze, flip, unstack); the rest allocates once and
// fills the result with strided copies (concat, stack, tile, roll) or a gather (repeat).
// Axis arguments arrive as raw integers; out-of-range axes raise IndexError, repeated ones
// ValueError.
#pragma once
#include <cstdint>
#include <vector>

#include "core/array.h"

namespace dla {

// axis in [-ndim, ndim) -> [0, ndim); IndexError naming `fname` otherwise.
int normalize_axis(int64_t axis, int ndim, const char* fname);
// Each axis normalised; ValueError when one repeats.
std::vector<int> normalize_axes(const std::vector<int64_t>& axes, int ndim, const char* fname);

// A read-only view of x as `shape` (zero strides on broadcast axes); ValueError if incompatible.
Array broadcast_to(const Array& x, const Dims& shape);
// x viewed with a new shape, when its strides allow it without copying.
bool reshape_view(const Array& x, const Dims& shape, Array* out);
// shape may hold one -1. copy: -1 view when possible, 0 view or ValueError, 1 always copy.
Array reshape(const Array& x, const Dims& shape, int copy);
Array permute_dims(const Array& x, const std::vector<int64_t>& axes);
Array moveaxis(const Array& x, const std::vector<int64_t>& source, const std::vector<int64_t>& destination);
Array expand_dims(const Array& x, const std::vector<int64_t>& axes);
Array squeeze(const Array& x, const std::vector<int64_t>& axes);
// all_axes: flip every axis (axes ignored).
Array flip(const Array& x, const std::vector<int64_t>& axes, bool all_axes);
std::vector<Array> unstack(const Array& x, int64_t axis);

// The joined arrays must share a device; their dtypes promote to `dtype` (chosen by the caller).
// flatten: concat(axis=None).
Array concat(const std::vector<Array>& xs, int64_t axis, bool flatten, DType dtype);
Array stack(const std::vector<Array>& xs, int64_t axis, DType dtype);
Array tile(const Array& x, const std::vector<int64_t>& repetitions);
// flatten: roll the flattened array (axis=None); otherwise along `axes`, which may be
// empty (nothing moves). One shift applies to every axis.
Array roll(const Array& x, const std::vector<int64_t>& shifts, const std::vector<int64_t>& axes, bool flatten);
// repeats: per-element counts (size 1 or the axis length); has_axis false flattens first.
Array repeat(const Array& x, const std::vector<int64_t>& repeats, bool has_axis, int64_t axis);

}  // namespace dla
