// broadcast.h — the broadcasting rule on shapes, shared by operators, indexing and manipulation.
//
// Shapes are right-aligned; each pair of extents must be equal or one of them 1. Kept
// header-only: it is a few lines of shape arithmetic that every caller inlines.
#pragma once
#include <string>

#include "core/array.h"
#include "core/errors.h"

namespace dla {

// The broadcast shape of a and b; ValueError naming both shapes when they are incompatible.
inline Dims broadcast_shapes(const Dims& a, const Dims& b) {
  const int n = a.size() > b.size() ? a.size() : b.size();
  Dims out(n);
  for (int i = 0; i < n; ++i) {
    const int ia = a.size() - n + i, ib = b.size() - n + i;
    const int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da != db && da != 1 && db != 1)
      throw ValueError("shapes " + shape_str(a) + " and " + shape_str(b) + " cannot be broadcast together");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

// Element strides that present an array of shape `shape`/`strides` as `target` (zero strides
// on broadcast axes). The caller has checked compatibility with broadcast_shapes.
inline Dims broadcast_strides(const Dims& shape, const Dims& strides, const Dims& target) {
  Dims out(target.size(), 0);
  const int off = target.size() - shape.size();
  for (int i = 0; i < shape.size(); ++i) out[off + i] = shape[i] == target[off + i] ? strides[i] : 0;
  return out;
}

}  // namespace dla
