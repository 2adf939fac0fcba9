// broadcast.h — array API broadcasting: result shapes and stride-0 views.
//
// Shapes align on the right; a dimension of 1 stretches, any other mismatch is a
// ValueError naming both shapes.
#pragma once
#include <string>

#include "core/array.h"
#include "core/errors.h"

namespace dla {

// The broadcast of `a` and `b`. Throws ValueError when they are incompatible.
inline Dims broadcast_shapes(const Dims& a, const Dims& b) {
  if (a == b) return a;
  const int n = a.size() > b.size() ? a.size() : b.size();
  Dims out(n);
  for (int i = 0; i < n; ++i) {
    const int ia = a.size() - n + i, ib = b.size() - n + i;
    const int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da == db || db == 1) {
      out[i] = da;
    } else if (da == 1) {
      out[i] = db;
    } else {
      throw ValueError("shapes " + shape_str(a) + " and " + shape_str(b) +
                       " cannot be broadcast together (dimension " + std::to_string(i) + ": " +
                       std::to_string(da) + " vs " + std::to_string(db) + ")");
    }
  }
  return out;
}

// Strides (in elements) of `a` seen with `shape`: 0 on stretched and prepended axes.
// The caller has checked that a's shape broadcasts to `shape`.
inline Dims broadcast_strides(const Array& a, const Dims& shape) {
  const int n = shape.size(), off = n - a.ndim();
  Dims st(n);
  for (int i = 0; i < n; ++i) {
    const int j = i - off;
    st[i] = (j < 0 || a.shape(j) == 1) ? 0 : a.stride(j);
  }
  return st;
}

// A read-only-compatible view of `a` with `shape` (ValueError when not broadcastable).
inline Array broadcast_view(const Array& a, const Dims& shape) {
  if (broadcast_shapes(a.shape(), shape) != shape)
    throw ValueError("cannot broadcast an array of shape " + shape_str(a.shape()) + " to shape " +
                     shape_str(shape));
  return a.view(shape, broadcast_strides(a, shape), a.byte_offset());
}

}  // namespace dla
