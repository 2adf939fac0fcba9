// logical_reduce.cpp — all()/any() on host memory (see logical_reduce.h).
#include "core/logical_reduce.h"

#include <array>
#include <cstring>

#include "core/cast.h"
#include "core/errors.h"
#include "core/strided_loop.h"

namespace dla {

Array logical_reduce(const Array& x, const Dims& axes, bool keepdims, bool is_all) {
  if (!x.device().host_accessible())
    throw NotImplementedError(std::string(is_all ? "all" : "any") + " on device '" + x.device().str() +
                              "' is not available yet");
  const DType b = DType::of(ScalarType::Bool);
  const Array src = x.dtype() == b ? x : cast_to(x, b);
  const int n = src.ndim();
  bool reduced[kMaxRank] = {};
  for (int64_t a : axes) reduced[a] = true;

  Dims kept_shape(n);  // keepdims shape
  for (int d = 0; d < n; ++d) kept_shape[d] = reduced[d] ? 1 : src.shape(d);
  Array out = Array::empty(kept_shape, b, src.device());
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
  if (keepdims) return out;
  Dims shape, strides;
  for (int d = 0; d < n; ++d)
    if (!reduced[d]) {
      shape.push_back(out.shape(d));
      strides.push_back(out.stride(d));
    }
  return out.view(std::move(shape), std::move(strides), out.byte_offset());
}

}  // namespace dla
