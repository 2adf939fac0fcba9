// broadcast.h — the broadcasting rule on shapes, and stride-0 views, shared by operators,
// indexing and manipulation.
//
// Shapes align on the right; a dimension of 1 stretches, any other mismatch is a
// ValueError naming both shapes. Header-only: a few lines of shape arithmetic that every
// caller inlines.
#pragma once
#include <string>

#include "core/array.h"
#include "core/errors.h"

namespace dla {

// The broadcast of `a` and `b`. Throws ValueError when they are incompatible, or when the
// result's element count does not fit in int64 ((2**40,) with (2**30, 1)): every caller then
// holds a shape whose size is a number.
inline Dims broadcast_shapes(const Dims& a, const Dims& b) {
  if (a == b) {
    checked_numel(a);
    return a;
  }
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
  checked_numel(out);
  return out;
}

// Element strides that present an array of `shape`/`strides` as `target`: 0 on stretched
// and prepended axes. The caller has checked compatibility with broadcast_shapes.
inline Dims broadcast_strides(const Dims& shape, const Dims& strides, const Dims& target) {
  Dims out(target.size(), 0);
  const int off = target.size() - shape.size();
  for (int i = 0; i < shape.size(); ++i) out[off + i] = shape[i] == target[off + i] ? strides[i] : 0;
  return out;
}

inline Dims broadcast_strides(const Array& a, const Dims& shape) {
  return broadcast_strides(a.shape(), a.strides(), shape);
}

// A view of `a` with `shape` (ValueError when not broadcastable).
inline Array broadcast_view(const Array& a, const Dims& shape) {
  if (broadcast_shapes(a.shape(), shape) != shape)
    throw ValueError("cannot broadcast an array of shape " + shape_str(a.shape()) + " to shape " +
                     shape_str(shape));
  checked_nbytes(shape, a.dtype());  // a view, but its size and nbytes must still be numbers
  return a.view(shape, broadcast_strides(a, shape), a.byte_offset());
}

}  // namespace dla
