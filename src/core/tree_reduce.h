// tree_reduce.h — folds and scans composed from elementwise operations alone, for devices
// that have elementwise kernels but no reduction kernels of their own (the GPU backends).
//
// tree_fold combines each group as a balanced binary tree: along each reduced axis the two
// halves are combined by one elementwise operation, and again on the result, so a sum has
// pairwise accuracy (error growing with log n) and max/min propagate NaN as the elementwise
// functions do. tree_scan is the Hillis–Steele scan (log n passes). Each pass is one launch
// on the device's current stream; nothing waits for the device.
#pragma once
#include "core/array.h"
#include "core/elementwise_ops.h"

namespace dla {

// The fold of x over the axes where reduced[d], keepdims-shaped (extent 1 there); every
// reduced extent must be >= 1.
Array tree_fold(OpId op, const Array& x, const bool* reduced);
// dst = op(dst, src) in place; src broadcastable to dst.
void combine_into(OpId op, const Array& dst, const Array& src);
// out = the running op along `axis`, in place.
void tree_scan(OpId op, const Array& out, int axis);

}  // namespace dla
