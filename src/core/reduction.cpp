// reduction.cpp — the device-independent half of the statistical functions (see reduction.h).
#include "core/reduction.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/cast.h"
#include "core/copy.h"
#include "core/elementwise.h"
#include "core/errors.h"
#include "core/fill.h"
#include "core/half.h"
#include "core/promotion.h"
#include "core/backend.h"
#include "core/tree_reduce.h"

namespace dla {
namespace {

const ReductionKernels& kernels_for(const Array& x, const char* fname) {
  // Host-accessible memory (pinned, managed) is folded by the CPU kernels.
  const ReductionKernels* r =
      backend_of(x.device().host_accessible() ? DeviceKind::CPU : x.device().kind).reductions;
  if (!r) throw NotImplementedError(std::string(fname) + " on device '" + x.device().str() + "' is not available yet");
  return *r;
}

DType of(ScalarType s) { return DType::of(s); }

ScalarType real_of(ScalarType s) {
  if (s == ScalarType::Complex64) return ScalarType::Float32;
  if (s == ScalarType::Complex128) return ScalarType::Float64;
  return s;
}

// x with the reduced axes restricted: axes before `j` (in `axes` order) to index 0, axis j to
// [1, n) when j >= 0, later reduced axes and kept axes whole. j = -1: every reduced axis at 0.
Array region(const Array& x, const Dims& axes, int j) {
  Dims shape = x.shape();
  int64_t offset = x.byte_offset();
  for (int i = 0; i < axes.size(); ++i) {
    const int a = int(axes[i]);
    if (j < 0 || i < j) {
      shape[a] = 1;
    } else if (i == j) {
      shape[a] -= 1;
      offset += x.stride(a) * x.itemsize();
    }
  }
  return x.view(std::move(shape), x.strides(), offset);
}

// The fold of x (already of the result dtype) over `axes`, keepdims-shaped. Every output
// element starts as the first element of its group (one copy), then the rest of the group is
// folded in as at most ndim rectangular regions: no identity element is needed, so complex
// products and max/min behave exactly as successive applications of the element function.
Array fold_keepdims(FoldOp op, const Array& x, const Dims& axes, const char* fname) {
  const ReductionKernels& k = kernels_for(x, fname);
  bool reduced[kMaxRank] = {};
  Dims out_shape = x.shape();
  int64_t m = 1;
  for (int64_t a : axes) {
    reduced[a] = true;
    m *= x.shape(a);
    out_shape[a] = 1;
  }
  Array out = Array::empty(out_shape, x.dtype(), x.device());
  if (out.size() == 0) return out;
  if (m == 0) {
    if (op != FoldOp::Sum && op != FoldOp::Prod)
      throw ValueError(std::string(fname) + ": the reduction covers no elements and " + fname +
                       " has no identity value");
    fill(out, Scalar::of_int(op == FoldOp::Prod ? 1 : 0));
    return out;
  }
  copy_into(out, region(x, axes, -1));
  for (int j = 0; j < axes.size(); ++j) {
    Array rest = region(x, axes, j);
    if (rest.size() > 0) k.fold(op, out, rest, reduced);
  }
  return out;
}

// The mean over `axes`, keepdims-shaped: the fold of add divided by the count (0/0 = NaN when
// the count is 0, as the standard asks).
Array mean_keepdims(const Array& x, const Dims& axes, int64_t count, const char* fname) {
  Array out = fold_keepdims(FoldOp::Sum, x, axes, fname);
  if (out.size() > 0) kernels_for(out, fname).divide(out, double(count));
  return out;
}

// |x - center|^2 elementwise (complex: re^2 + im^2, real), for backends without a
// squared-deviation fold.
Array squared_deviations(const Array& x, const Array& center) {
  const Array dev = elementwise(OpId::subtract, x, center);
  if (is_complex(dev.dtype().scalar)) {
    const Array re = elementwise(OpId::real, dev), im = elementwise(OpId::imag, dev);
    return elementwise(OpId::add, elementwise(OpId::multiply, re, re), elementwise(OpId::multiply, im, im));
  }
  combine_into(OpId::multiply, dev, dev);  // squared where it is: one temporary, not two
  return dev;
}

Array drop_axes(const Array& out, const Dims& axes) {
  bool reduced[kMaxRank] = {};
  for (int64_t a : axes) reduced[a] = true;
  return drop_reduced_axes(out, reduced);
}

}  // namespace

Array drop_reduced_axes(const Array& out, const bool* reduced) {
  Dims shape, strides;
  for (int d = 0; d < out.ndim(); ++d)
    if (!reduced[d]) {
      shape.push_back(out.shape(d));
      strides.push_back(out.stride(d));
    }
  return out.view(std::move(shape), std::move(strides), out.byte_offset());
}

DType reduction_result_dtype(ReduceOpId op, DType x, const DType* dtype) {
  const ReduceOpInfo& info = reduce_op_info(op);
  const ScalarType s = x.scalar;
  if (half_of(x) != Half::None) {  // float16 / bfloat16: results keep x's dtype, as float32 would
    if (!(info.kinds & kKindRealFloat))
      throw TypeError(std::string(info.name) + ": x must have " + kinds_description(info.kinds) + " dtype, got " +
                      x.name());
    if (info.out == ReduceOut::Accumulate && dtype) {
      if (!dtype_computes(*dtype) || dtype->scalar == ScalarType::Bool)
        throw TypeError(std::string(info.name) + ": dtype must be a numeric dtype, got " + dtype->name());
      return *dtype;
    }
    return x;
  }
  if (!x.computes())
    throw TypeError(std::string(info.name) + ": dtype " + x.name() + " is storage-only; convert it with astype first");
  if (!(kind_bit(s) & info.kinds))
    throw TypeError(std::string(info.name) + ": x must have " + kinds_description(info.kinds) + " dtype, got " + x.name());
  switch (info.out) {
    case ReduceOut::Accumulate:
      if (dtype) {
        if (!dtype_computes(*dtype) || dtype->scalar == ScalarType::Bool)
          throw TypeError(std::string(info.name) + ": dtype must be a numeric dtype, got " + dtype->name());
        if (is_complex(s) && !is_complex(dtype->scalar))
          throw TypeError(std::string(info.name) + ": a complex array cannot be accumulated as " + dtype->name() +
                          " (the imaginary parts would be dropped)");
        return *dtype;
      }
      if (s == ScalarType::Bool || is_signed_integer(s)) return of(ScalarType::Int64);
      if (is_unsigned_integer(s)) return of(ScalarType::UInt64);
      return x;
    case ReduceOut::Same: return x;
    case ReduceOut::Float: return is_floating(s) ? x : of(ScalarType::Float64);
    case ReduceOut::RealFloat: return is_floating(s) ? of(real_of(s)) : of(ScalarType::Float64);
  }
  return x;
}

// float16 / bfloat16 on either side (x, or the requested dtype): the reduction runs on
// float32 (accumulating in float32) and the result is rounded to the half type once.
// `inner` receives the dtype argument for the float32 run.
static bool half_reduction(const Array& x, const DType& result, const DType* dtype, Array* xf, const DType** inner) {
  const bool half_in = half_of(x.dtype()) != Half::None, half_out = half_of(result) != Half::None;
  if (!half_in && !half_out) return false;
  static const DType f32 = DType::of(ScalarType::Float32);
  *xf = half_in ? cast_to(x, f32) : x;
  *inner = half_out ? (is_floating(xf->dtype().scalar) ? nullptr : &f32) : dtype;
  return true;
}

Array reduce(ReduceOpId op, const Array& x, const Dims& axes, bool keepdims, const DType* dtype, double correction) {
  const ReduceOpInfo& info = reduce_op_info(op);
  const DType result = reduction_result_dtype(op, x.dtype(), dtype);
  Array xf;
  const DType* inner = nullptr;
  if (half_reduction(x, result, dtype, &xf, &inner)) {
    Array out = reduce(op, xf, axes, keepdims, inner, correction);
    return out.dtype() == result ? out : cast_to(out, result);
  }
  // Mean and the moments compute in x's floating dtype (complex stays complex until |.|^2).
  const DType compute = info.form == ReduceForm::Fold ? result
                        : is_floating(x.dtype().scalar) ? x.dtype()
                                                        : of(ScalarType::Float64);
  const Array xc = x.dtype() == compute ? x : cast_to(x, compute);
  int64_t m = 1;
  for (int64_t a : axes) m *= x.shape(a);

  Array out;
  switch (info.form) {
    case ReduceForm::Fold: out = fold_keepdims(info.fold, xc, axes, info.name); break;
    case ReduceForm::Mean: out = mean_keepdims(xc, axes, m, info.name); break;
    case ReduceForm::Moment: {
      const Array center = mean_keepdims(xc, axes, m, info.name);
      const ReductionKernels& k = kernels_for(xc, info.name);
      if (k.fold_squared_deviation &&
          (compute.scalar == ScalarType::Float32 || compute.scalar == ScalarType::Float64)) {
        out = Array::empty(center.shape(), compute, xc.device());  // sum((x - center)^2) in one read
        fill(out, Scalar::of_int(0));
        bool reduced[kMaxRank] = {};
        for (int64_t a : axes) reduced[a] = true;
        if (xc.size() > 0) k.fold_squared_deviation(out, xc, center, reduced);
      } else {
        out = fold_keepdims(FoldOp::Sum, squared_deviations(xc, center), axes, info.name);
      }
      const double dof = double(m) - correction;
      if (out.size() > 0) {
        if (dof > 0) kernels_for(out, info.name).divide(out, dof);
        else fill(out, Scalar::of_float(std::numeric_limits<double>::quiet_NaN()));
      }
      if (info.extra == 1) out = elementwise(OpId::sqrt, out);
      break;
    }
    case ReduceForm::Scan: throw ValueError(std::string(info.name) + " is a scan; call scan()");
  }
  return keepdims ? out : drop_axes(out, axes);
}

Array scan(ReduceOpId op, const Array& x, bool has_axis, int64_t axis, const DType* dtype, bool include_initial) {
  const ReduceOpInfo& info = reduce_op_info(op);
  const DType result = reduction_result_dtype(op, x.dtype(), dtype);
  Array xf;
  const DType* inner = nullptr;
  if (half_reduction(x, result, dtype, &xf, &inner)) {
    Array out = scan(op, xf, has_axis, axis, inner, include_initial);
    return out.dtype() == result ? out : cast_to(out, result);
  }
  const int n = x.ndim();
  if (n == 0) throw ValueError(std::string(info.name) + ": x must have at least one dimension");
  if (!has_axis) {
    if (n != 1)
      throw ValueError(std::string(info.name) + ": axis is required for an array of " + std::to_string(n) +
                       " dimensions");
    axis = 0;
  }
  if (axis < -n || axis >= n)
    throw IndexError(std::string(info.name) + ": axis " + std::to_string(axis) + " is out of bounds for an array of " +
                     std::to_string(n) + " dimensions");
  if (axis < 0) axis += n;
  const int a = int(axis);

  Dims shape = x.shape();
  shape[a] += include_initial ? 1 : 0;
  Array out = Array::empty(shape, result, x.device());
  if (out.size() == 0) return out;
  Array body = out;
  if (include_initial) {
    Dims first_shape = shape;
    first_shape[a] = 1;
    fill(out.view(first_shape, out.strides(), out.byte_offset()), Scalar::of_int(info.fold == FoldOp::Prod ? 1 : 0));
    body = out.view(x.shape(), out.strides(), out.byte_offset() + out.stride(a) * out.itemsize());
  }
  cast_into(body, x);
  if (shape[a] > 1) kernels_for(out, info.name).scan(info.fold, out, a);
  return out;
}

Array nan_extreme(const Array& x, const Dims& axes, bool keepdims, bool is_max) {
  const char* fname = is_max ? "nanmax" : "nanmin";
  if (!is_floating(x.dtype().scalar) && half_of(x.dtype()) == Half::None)
    throw TypeError(std::string(fname) + ": the NaN-skipping fold takes a real floating array, got " + x.dtype().name());
  if (half_of(x.dtype()) != Half::None) {  // exact in float32: the extreme is one of the elements
    const Array out = nan_extreme(cast_to(x, of(ScalarType::Float32)), axes, keepdims, is_max);
    return cast_to(out, x.dtype());
  }
  if (!kernels_for(x, fname).folds_skipping_nan)
    throw NotImplementedError(std::string(fname) + "'s one-pass fold on device '" + x.device().str() +
                              "' is not available yet");
  const Array out = fold_keepdims(is_max ? FoldOp::NanMax : FoldOp::NanMin, x, axes, fname);
  return keepdims ? out : drop_axes(out, axes);
}

Array tally(const Array& x, const Array* weights, int64_t bins) {
  const ScalarType xs = x.dtype().scalar;
  if (x.ndim() != 1 || (xs != ScalarType::Int32 && xs != ScalarType::Int64))
    throw TypeError("_tally: x must be a 1-d int32 or int64 array");
  if (weights && (weights->ndim() != 1 || weights->shape(0) != x.shape(0) ||
                  weights->dtype().scalar != ScalarType::Float64 || weights->device() != x.device()))
    throw TypeError("_tally: weights must be a float64 array of x's length on x's device");
  if (bins < 0) throw ValueError("_tally: bins must be non-negative");
  const ReductionKernels& k = kernels_for(x, "bincount");
  if (!k.tally) throw NotImplementedError("bincount's tally on device '" + x.device().str() + "' is not available yet");
  Array out = Array::empty(Dims{bins}, of(weights ? ScalarType::Float64 : ScalarType::Int64), x.device());
  fill(out, Scalar::of_int(0));
  const Array xc = ascontiguous(x);
  const Array wc = weights ? ascontiguous(*weights) : Array();
  if (!k.tally(out, xc, weights ? &wc : nullptr))
    throw ValueError("bincount: a value of x lies outside [0, " + std::to_string(bins) + ")");
  return out;
}

}  // namespace dla
