// logical_reduce.cpp — all()/any() (see logical_reduce.h): one strided loop on host memory;
// on device memory a tree of logical_and / logical_or launches (tree_reduce.h).
#include "core/logical_reduce.h"

#include <array>
#include <cstring>

#include "core/cast.h"
#include "core/copy.h"
#include "core/fill.h"
#include "core/reduction.h"
#include "core/tree_reduce.h"
#include "core/errors.h"
#include "core/strided_loop.h"

namespace dla {

Array logical_reduce(const Array& x, const Dims& axes, bool keepdims, bool is_all) {
  const DType b = DType::of(ScalarType::Bool);
  const Array src = x.dtype() == b ? x : cast_to(x, b);
  const int n = src.ndim();
  bool reduced[kMaxRank] = {};
  for (int64_t a : axes) reduced[a] = true;

  Dims kept_shape(n);  // keepdims shape
  for (int d = 0; d < n; ++d) kept_shape[d] = reduced[d] ? 1 : src.shape(d);
  Array out;
  if (!src.device().host_accessible()) {
    int64_t group = 1;
    for (int d = 0; d < n; ++d) group *= reduced[d] ? src.shape(d) : 1;
    if (group == 0 || src.size() == 0) {
      out = Array::empty(kept_shape, b, src.device());
      fill(out, Scalar::of_bool(is_all));
    } else {
      out = tree_fold(is_all ? OpId::logical_and : OpId::logical_or, src, reduced);
      if (group == 1) out = copy_to(out, out.device());  // nothing folded: not a view of x
    }
    return keepdims ? out : drop_reduced_axes(out, reduced);
  }
  out = Array::empty(kept_shape, b, src.device());
  if (out.size() > 0) std::memset(out.data(), is_all ? 1 : 0, size_t(out.size()));

  Dims out_strides(n), in_strides(n);
  for (int d = 0; d < n; ++d) {
    out_strides[d] = reduced[d] ? 0 : out.stride(d);
    in_strides[d] = src.stride(d);
  }
  // bool is one byte: these element strides are also the byte strides the loop wants.
  const LoopLayout<2> L = coalesce<2>(src.shape(), {out_strides.data(), in_strides.data()});
  for_each_row(L, std::array<char*, 2>{out.data(), src.data()}, [is_all](char** p, const int64_t* s, int64_t len) {
    char* o = p[0];
    const char* a = p[1];
    if (is_all) {
      for (int64_t i = 0; i < len; ++i) o[i * s[0]] &= a[i * s[1]];
    } else {
      for (int64_t i = 0; i < len; ++i) o[i * s[0]] |= a[i * s[1]];
    }
  });
  return keepdims ? out : drop_reduced_axes(out, reduced);
}

}  // namespace dla
