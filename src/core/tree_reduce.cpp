// tree_reduce.cpp — folds and scans from elementwise operations (see tree_reduce.h).
#include "core/tree_reduce.h"

#include "core/elementwise.h"

namespace dla {
namespace {

// x restricted to [start, start + len) along axis: a view.
Array along(const Array& x, int axis, int64_t start, int64_t len) {
  Dims shape = x.shape();
  shape[axis] = len;
  return x.view(std::move(shape), x.strides(), x.byte_offset() + start * x.stride(axis) * x.itemsize());
}

}  // namespace

void combine_into(OpId op, const Array& dst, const Array& src) {
  ElemArg args[2] = {ElemArg::of(dst), ElemArg::of(src)};
  ElementwisePlan plan = plan_elementwise(op, args, 2, &dst);
  execute_elementwise(plan);
}

Array tree_fold(OpId op, const Array& x, const bool* reduced) {
  Array t = x;
  for (int d = 0; d < x.ndim(); ++d) {
    if (!reduced[d]) continue;
    while (t.shape(d) > 1) {
      const int64_t n = t.shape(d), half = n / 2;
      Array next = elementwise(op, along(t, d, 0, half), along(t, d, half, half));
      if (n % 2) combine_into(op, along(next, d, 0, 1), along(t, d, n - 1, 1));  // the odd one out
      t = std::move(next);
    }
  }
  return t;
}

void tree_scan(OpId op, const Array& out, int axis) {
  const int64_t n = out.shape(axis);
  // Pass k adds the element 2^k places back; the plan copies the overlapping input first,
  // so each pass reads the previous pass's values.
  for (int64_t step = 1; step < n; step *= 2)
    combine_into(op, along(out, axis, step, n - step), along(out, axis, 0, n - step));
}

}  // namespace dla
