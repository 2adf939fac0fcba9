// logical_reduce.cpp — all()/any() and the count of true elements (see logical_reduce.h): one
// strided loop on host memory; all/any on device memory are a tree of logical_and /
// logical_or launches (tree_reduce.h).
#include "core/logical_reduce.h"

#include <array>
#include <cstring>

#include "core/byte_scan.h"
#include "core/cast.h"
#include "core/copy.h"
#include "core/fill.h"
#include "core/reduction.h"
#include "core/tree_reduce.h"
#include "core/errors.h"
#include "core/strided_loop.h"

namespace dla {
namespace {

// The coalesced loop of out (stride 0 along the reduced axes) over src, both one byte wide
// per element of src (out's own itemsize is given separately).
LoopLayout<2> reduction_layout(const Array& src, const Array& out, const bool* reduced) {
  const int n = src.ndim();
  Dims out_strides(n), in_strides(n);
  for (int d = 0; d < n; ++d) {
    out_strides[d] = reduced[d] ? 0 : out.stride(d) * out.itemsize();
    in_strides[d] = src.stride(d);  // bool: element strides are byte strides
  }
  return coalesce<2>(src.shape(), {out_strides.data(), in_strides.data()});
}

}  // namespace

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

  const LoopLayout<2> L = reduction_layout(src, out, reduced);
  for_each_row(L, std::array<char*, 2>{out.data(), src.data()}, [is_all](char** p, const int64_t* s, int64_t len) {
    char* o = p[0];
    const char* a = p[1];
    if (s[0] == 0) {  // the row folds into *o: scan it unless *o is already decided
      if (is_all ? (*o && any_zero_byte(a, s[1], len)) : (!*o && any_nonzero_byte(a, s[1], len))) *o = !is_all;
      return;
    }
    if (is_all) {
      for (int64_t i = 0; i < len; ++i) o[i * s[0]] = o[i * s[0]] && a[i * s[1]];
    } else {
      for (int64_t i = 0; i < len; ++i) o[i * s[0]] = o[i * s[0]] || a[i * s[1]];
    }
  });
  return keepdims ? out : drop_reduced_axes(out, reduced);
}

Array count_true_on_host(const Array& x, const Dims& axes, bool keepdims) {
  const int n = x.ndim();
  bool reduced[kMaxRank] = {};
  for (int64_t a : axes) reduced[a] = true;
  Dims kept_shape(n);
  for (int d = 0; d < n; ++d) kept_shape[d] = reduced[d] ? 1 : x.shape(d);
  Array out = Array::empty(kept_shape, DType::of(ScalarType::Int64), x.device());
  if (out.size() > 0) std::memset(out.data(), 0, size_t(out.size()) * sizeof(int64_t));
  const LoopLayout<2> L = reduction_layout(x, out, reduced);
  for_each_row(L, std::array<char*, 2>{out.data(), x.data()}, [](char** p, const int64_t* s, int64_t len) {
    const char* a = p[1];
    if (s[0] == 0) {
      *reinterpret_cast<int64_t*>(p[0]) += count_nonzero_bytes(a, s[1], len);
      return;
    }
    for (int64_t i = 0; i < len; ++i) *reinterpret_cast<int64_t*>(p[0] + i * s[0]) += a[i * s[1]] != 0;
  });
  return keepdims ? out : drop_reduced_axes(out, reduced);
}

}  // namespace dla
