// logical_reduce.h — the reductions of booleans: all(), any() and the count behind
// count_nonzero, over a set of axes.
//
// The reduction reuses the elementwise machinery's view of the problem: the output, seen
// with stride 0 along the reduced axes, is one operand of a strided loop over the input's
// shape, so any set of axes and any layout is one coalesced loop of `out &= x` (or |=, +=).
// A row that folds into one output element is scanned instead (all/any stop at the first
// element that decides the answer, as NumPy's do; the count adds bytes word by word).
#pragma once
#include "core/array.h"

namespace dla {

// axes: normalized, distinct, in [0, x.ndim()). keepdims keeps them as size-1 dimensions.
// Non-bool inputs count as true where nonzero (NaN is nonzero).
Array logical_reduce(const Array& x, const Dims& axes, bool keepdims, bool is_all);

// The number of true elements of the bool array x along axes, as int64. Host memory only
// (other devices sum the booleans through their reduction kernels).
Array count_true_on_host(const Array& x, const Dims& axes, bool keepdims);

}  // namespace dla
