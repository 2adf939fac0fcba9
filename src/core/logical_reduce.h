// logical_reduce.h — all() and any(): boolean reductions over a set of axes.
//
// The reduction reuses the elementwise machinery's view of the problem: the output, seen
// with stride 0 along the reduced axes, is one operand of a strided loop over the input's
// shape, so any set of axes and any layout is one coalesced loop of `out &= x` (or |=).
#pragma once
#include "core/array.h"

namespace dla {

// axes: normalized, distinct, in [0, x.ndim()). keepdims keeps them as size-1 dimensions.
// Non-bool inputs count as true where nonzero (NaN is nonzero).
Array logical_reduce(const Array& x, const Dims& axes, bool keepdims, bool is_all);

}  // namespace dla
