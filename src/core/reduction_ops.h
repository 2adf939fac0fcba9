// reduction_ops.h — THE declaration of every statistical reduction and scan.
//
// One row per function of the array API's statistical chapter: how it is computed (Form),
// which input dtypes it accepts, what dtype it returns (Out), the combining element functor
// (from elementwise_functors.h, so `sum` is successive `add` exactly as the standard
// describes it), the parameters of its stub and a one-line summary. The bindings
// (py_statistical.cpp), the CPU kernels (backends/cpu/reduce.cpp) and the tests
// (dlarray._core._reduction_ops()) are all derived from this table.
#pragma once
#include <cstdint>

#include "core/elementwise_ops.h"

namespace dla {

enum class ReduceForm : uint8_t {
  Fold,    // out = x_0 (op) x_1 (op) ... over the axes
  Mean,    // Fold of add, divided by the element count
  Moment,  // second central moment: var, and std = sqrt(var)
  Scan,    // running Fold along one axis (cumulative_sum, cumulative_prod)
};

// Which fold a Fold, Mean or Scan runs (also the CPU kernel table's index). NanMax and NanMin
// skip NaN (C's fmax/fmin: NaN only where every element is NaN): nanmax's and nanmin's one pass,
// run only by backends whose ReductionKernels::folds_skipping_nan says so.
enum class FoldOp : uint8_t { Sum, Prod, Max, Min, NanMax, NanMin, kCount };

enum class ReduceOut : uint8_t {
  Accumulate,  // the `dtype` argument, else x's dtype widened as sum/prod/cumulative_* state:
               // bool and signed integers -> int64, unsigned -> uint64, floats unchanged
  Same,        // x's dtype
  Float,       // x's dtype for floating-point x, else float64
  RealFloat,   // as Float, then the real dtype of the same precision (var, std of complex)
};

#define DLA_RED_AXES "x, /, *, axis=None, keepdims=False"
#define DLA_RED_DTYPE "x, /, *, axis=None, dtype=None, keepdims=False"
#define DLA_RED_CORR "x, /, *, axis=None, correction=0.0, keepdims=False"
#define DLA_RED_SCAN "x, /, *, axis=None, dtype=None, include_initial=False"

// X(name, form, fold, accepted kinds, out, extra=0 | std, params, summary)
#define DLA_REDUCTION_OPS(X)                                                                           \
  X(cumulative_prod, Scan, Prod, kKindNumeric | kKindBool, Accumulate, 0, DLA_RED_SCAN,               \
    "Running product along an axis (successive multiply).")                                           \
  X(cumulative_sum, Scan, Sum, kKindNumeric | kKindBool, Accumulate, 0, DLA_RED_SCAN,                 \
    "Running sum along an axis (successive add).")                                                    \
  X(max, Fold, Max, kKindReal | kKindBool, Same, 0, DLA_RED_AXES,                                     \
    "Largest element along the axes; NaN propagates.")                                                \
  X(mean, Mean, Sum, kKindNumeric | kKindBool, Float, 0, DLA_RED_AXES,                                \
    "Arithmetic mean along the axes (NaN for no elements).")                                          \
  X(min, Fold, Min, kKindReal | kKindBool, Same, 0, DLA_RED_AXES,                                     \
    "Smallest element along the axes; NaN propagates.")                                               \
  X(prod, Fold, Prod, kKindNumeric | kKindBool, Accumulate, 0, DLA_RED_DTYPE,                         \
    "Product of the elements along the axes (1 for no elements).")                                    \
  X(std, Moment, Sum, kKindNumeric | kKindBool, RealFloat, 1, DLA_RED_CORR,                           \
    "Standard deviation along the axes, divisor M - correction.")                                     \
  X(sum, Fold, Sum, kKindNumeric | kKindBool, Accumulate, 0, DLA_RED_DTYPE,                           \
    "Sum of the elements along the axes (0 for no elements).")                                        \
  X(var, Moment, Sum, kKindNumeric | kKindBool, RealFloat, 0, DLA_RED_CORR,                           \
    "Variance along the axes, divisor M - correction.")

enum class ReduceOpId : uint8_t {
#define DLA_X(name, ...) name,
  DLA_REDUCTION_OPS(DLA_X)
#undef DLA_X
      kCount
};

struct ReduceOpInfo {
  const char* name;
  ReduceForm form;
  FoldOp fold;
  uint8_t kinds;
  ReduceOut out;
  int extra;  // Moment: 1 = take the square root (std)
  const char* params;
  const char* summary;
};

inline const ReduceOpInfo& reduce_op_info(ReduceOpId id) {
  static const ReduceOpInfo table[] = {
#define DLA_X(name, form, fold, kinds, out, extra, params, summary) \
  {#name, ReduceForm::form, FoldOp::fold, uint8_t(kinds), ReduceOut::out, extra, params, summary},
      DLA_REDUCTION_OPS(DLA_X)
#undef DLA_X
  };
  return table[static_cast<int>(id)];
}

}  // namespace dla
