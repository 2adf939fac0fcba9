// reduction.h — running the statistical reductions and scans of reduction_ops.h.
//
// The device-independent half: dtype rules, axes, empty reductions, keepdims, and the
// composition of mean, var and std from folds and elementwise operations. The element work
// is three primitives per device (ReductionKernels), so a GPU backend adds three kernels and
// gets all nine functions; a fourth, optional one reads var's second pass once.
#pragma once
#include <cstdint>

#include "core/array.h"
#include "core/reduction_ops.h"

namespace dla {

struct ReductionKernels {
  // out = out (op) in, folding in's reduced axes: out has in's rank and dtype, extent 1 on
  // every axis where reduced[d], in's extent elsewhere. The first contribution to each output
  // element has already been written by the caller, so no fold needs an identity element.
  void (*fold)(FoldOp op, const Array& out, const Array& in, const bool* reduced);
  // out /= divisor, each real component separately (mean and the moments' divisor).
  void (*divide)(const Array& out, double divisor);
  // The running fold along `axis`, in place: out[..., i, ...] = out[..., i-1, ...] (op) out[..., i, ...].
  void (*scan)(FoldOp op, const Array& out, int axis);
  // out = out + sum((in - center)^2) over the reduced axes, for float32 and float64 (center
  // shaped as out): the second pass of var and std in one read of `in`. Null where a backend
  // has none; the moments then subtract, square and fold in three passes.
  void (*fold_squared_deviation)(const Array& out, const Array& in, const Array& center, const bool* reduced) = nullptr;
  // The tally under bincount and histogram: for each i, out[x[i]] += 1 (out int64) or
  // += weights[i] (out float64); x int32 or int64, weights float64 or null, all contiguous
  // and 1-d, out zeroed. False, with out unspecified, when some x[i] is outside
  // [0, out.size()). Null where a backend has none (Python then counts through a sort).
  bool (*tally)(const Array& out, const Array& x, const Array* weights) = nullptr;
  // Whether `fold` runs FoldOp::NanMax and NanMin on float32 and float64 (nan_extreme below);
  // elsewhere Python composes nanmax and nanmin from isnan, where and max.
  bool folds_skipping_nan = false;
};

// A keepdims-shaped result without the axes where reduced[d] (a view).
Array drop_reduced_axes(const Array& out, const bool* reduced);

// The result dtype of op for x (and the `dtype` argument where the op has one; null = none).
// TypeError for dtypes the op does not accept.
DType reduction_result_dtype(ReduceOpId op, DType x, const DType* dtype);

// Fold, Mean and Moment forms. axes: normalized and distinct. correction: Moment only.
Array reduce(ReduceOpId op, const Array& x, const Dims& axes, bool keepdims, const DType* dtype,
             double correction = 0.0);

// bincount's counts (weights null: int64) or weight sums (float64) of the int32/int64 values
// in x, which must lie in [0, bins) (ValueError otherwise), on x's device. NotImplementedError
// where the device's backend has no tally kernel.
Array tally(const Array& x, const Array* weights, int64_t bins);

// nanmax (is_max) or nanmin of real floating x over `axes` (normalized and distinct) in one
// pass: NaN is skipped, and a slice is NaN only when all of it is. ValueError for a reduction
// over no elements (as max); NotImplementedError where x's backend has no NaN-skipping fold.
Array nan_extreme(const Array& x, const Dims& axes, bool keepdims, bool is_max);

// Scan form. has_axis false means "the only axis" (x must be 1-d).
Array scan(ReduceOpId op, const Array& x, bool has_axis, int64_t axis, const DType* dtype, bool include_initial);

}  // namespace dla
