// norms.cpp — linalg.vector_norm (see linalg.h), composed from core operations on any device:
// ord +-inf, 0, 1, 2 and any other real p, over any axes; the 2-norm of CPU memory as BLAS dots
// (NumPy's way), with a scaled pass where the sum of squares leaves the floating-point range.
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>

#include "core/cast.h"
#include "core/elementwise.h"
#include "core/linalg.h"
#include "core/manipulation.h"
#include "core/promotion.h"
#include "core/reduction.h"
#include "core/scalar.h"

namespace dla {
namespace {

// op over arrays and weak Python floats (ElemArgs), planned as the Python call would be.
Array apply(OpId op, std::initializer_list<ElemArg> args) {
  ElementwisePlan plan = plan_elementwise(op, args.begin(), int(args.size()));
  execute_elementwise(plan);
  return std::move(plan.out);
}
ElemArg py_float(double v) { return ElemArg::of(Scalar::of_float(v), PyScalarKind::Float); }

// The value of a 0-d array in host memory.
double host_value(const Array& a) { return load_scalar(a.dtype(), a.data()).as_double(); }

// The smallest normal number over the unit roundoff of `st` (float32 / float64): a sum of m
// squares below m times it may have lost more than a rounding error to underflow.
double tiny_over_eps(ScalarType st) { return st == ScalarType::Float32 ? 0x1p-126 / 0x1p-24 : 0x1p-1022 / 0x1p-53; }
double largest(ScalarType st) {
  return st == ScalarType::Float32 ? double(std::numeric_limits<float>::max()) : std::numeric_limits<double>::max();
}

// sqrt(sum |x|^2) over `axes` (sorted, distinct, not empty) of a non-empty CPU array, as one
// BLAS dot per norm (12x faster than squaring into a temporary and summing). A sum of squares
// that overflows, or is so small that squares underflowed by more than a rounding error, is
// redone on x scaled by its largest magnitude; NaN and infinities also take that path, which
// gives them their standard results. The result has the kept axes (keepdims applied later).
Array two_norm_on_host(const Array& x, const Dims& axes) {
  const int ndim = x.ndim();
  const bool complex = is_complex(x.dtype().scalar);
  const bool one_real_norm = int(axes.size()) == ndim && !complex;
  if (one_real_norm) {  // the common call: one dot, before any reshaping (nullopt: out of range)
    if (std::optional<Array> r = two_norm_by_dot(x)) return *r;
  }
  std::vector<int64_t> order;
  Dims kept_shape;
  for (int d = 0; d < ndim; ++d) {
    bool reduced = false;
    for (int64_t a : axes) reduced = reduced || a == d;
    if (!reduced) order.push_back(d), kept_shape.push_back(x.shape(d));
  }
  int64_t m = 1;
  for (int64_t a : axes) order.push_back(a), m *= x.shape(int(a));
  Dims rows_shape = kept_shape;
  rows_shape.push_back(m);
  const Array rows = reshape(kept_shape.empty() ? x : permute_dims(x, order), rows_shape, -1);
  if (!one_real_norm) {
    const Array left = complex ? elementwise(OpId::conj, rows) : rows;
    Array sq = kept_shape.empty()
                   ? matmul(left, rows)  // 0-d
                   : reshape(matmul(expand_dims(left, {-2}), expand_dims(rows, {-1})), kept_shape, -1);  // one ?dot each
    if (complex) sq = elementwise(OpId::real, sq);
    const ScalarType st = sq.dtype().scalar;
    const Dims every = [&] {
      Dims all;
      for (int d = 0; d < sq.ndim(); ++d) all.push_back(d);
      return all;
    }();
    const double lo = host_value(reduce(ReduceOpId::min, sq, every, false, nullptr));
    const double hi = host_value(reduce(ReduceOpId::max, sq, every, false, nullptr));
    if (lo >= tiny_over_eps(st) * double(m) && hi <= largest(st)) return elementwise(OpId::sqrt, sq);  // NaN fails
  }
  const Dims last{int64_t(rows.ndim() - 1)};
  const Array a = elementwise(OpId::abs, rows);
  const Array scale = reduce(ReduceOpId::max, a, last, true, nullptr);
  const Array positive = apply(OpId::greater, {ElemArg::of(scale), py_float(0.0)});
  const Array usable = elementwise(OpId::logical_and, positive, elementwise(OpId::isfinite, scale));
  const Array safe = apply(OpId::where, {ElemArg::of(usable), ElemArg::of(scale), py_float(1.0)});
  const Array scaled = elementwise(OpId::divide, a, safe);
  const Array norm = elementwise(
      OpId::multiply, elementwise(OpId::sqrt, reduce(ReduceOpId::sum, elementwise(OpId::multiply, scaled, scaled), last, true, nullptr)),
      safe);
  // An infinite element: the norm is inf. max propagates NaN, so beside a NaN it is NaN (as NumPy).
  const Array infinite = elementwise(OpId::isinf, scale);
  return reshape(apply(OpId::where, {ElemArg::of(infinite), ElemArg::of(scale), ElemArg::of(norm)}), kept_shape, -1);
}

}  // namespace

std::optional<Array> two_norm_by_dot(const Array& x) {
  const ScalarType st = x.dtype().scalar;
  if (x.device().kind != DeviceKind::CPU || x.size() == 0 || !is_real_floating(st)) return std::nullopt;
  const Array row = x.ndim() == 1 ? x : reshape(x, Dims{x.size()}, -1);
  const Array squares = matmul(row, row);  // 0-d, of x's dtype
  const double sum = host_value(squares);
  if (!(sum >= tiny_over_eps(st) * double(x.size()) && sum <= largest(st))) return std::nullopt;
  return elementwise(OpId::sqrt, squares);
}

Array vector_norm(const Array& input, const Dims& axes_given, bool keepdims, double ord) {
  const ScalarType st = input.dtype().scalar;
  if (st == ScalarType::Bool || (!is_floating(st) && !is_integer(st)))
    throw TypeError("vector_norm: x must have a numeric dtype, got " + input.dtype().name());
  if (std::isnan(ord)) throw ValueError("vector_norm: ord must not be NaN");
  // Integers take float64, as NumPy (the standard says "should" be floating).
  const Array x = is_floating(st) ? input : cast_to(input, DType::of(ScalarType::Float64));
  Dims axes = axes_given;
  std::sort(axes.begin(), axes.end());
  if (ord == 2 && x.device().kind == DeviceKind::CPU && x.size() > 0 && !axes.empty()) {
    if (!keepdims) return two_norm_on_host(x, axes);
    Dims shape = x.shape();
    for (int64_t a : axes) shape[size_t(a)] = 1;
    return reshape(two_norm_on_host(x, axes), shape, -1);
  }
  const Array a = elementwise(OpId::abs, x);  // real, of x's precision
  if (ord == std::numeric_limits<double>::infinity()) {
    int64_t count = 1;
    for (int64_t d : axes) count *= a.shape(int(d));
    // Over no elements: 0, the least magnitude (as NumPy); max itself has no identity.
    return reduce(count == 0 ? ReduceOpId::sum : ReduceOpId::max, a, axes, keepdims, nullptr);
  }
  if (ord == -std::numeric_limits<double>::infinity()) return reduce(ReduceOpId::min, a, axes, keepdims, nullptr);
  if (ord == 0) {
    const Array nonzero = cast_to(apply(OpId::not_equal, {ElemArg::of(a), py_float(0.0)}), a.dtype());
    return reduce(ReduceOpId::sum, nonzero, axes, keepdims, nullptr);
  }
  if (ord == 1) return reduce(ReduceOpId::sum, a, axes, keepdims, nullptr);
  if (ord == 2)
    return elementwise(OpId::sqrt, reduce(ReduceOpId::sum, elementwise(OpId::multiply, a, a), axes, keepdims, nullptr));
  const Array powers = apply(OpId::pow, {ElemArg::of(a), py_float(ord)});
  const Array sum = reduce(ReduceOpId::sum, powers, axes, keepdims, nullptr);
  return apply(OpId::pow, {ElemArg::of(sum), py_float(1.0 / ord)});
}

}  // namespace dla
