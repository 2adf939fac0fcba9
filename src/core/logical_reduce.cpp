// logical_reduce.cpp — all()/any() and the count of true elements (see logical_reduce.h): one
// strided loop on host memory; all/any on device memory are a tree of logical_and /
// logical_or launches (tree_reduce.h).
#include "core/logical_reduce.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include "core/cast.h"
#include "core/copy.h"
#include "core/fill.h"
#include "core/reduction.h"
#include "core/tree_reduce.h"
#include "core/errors.h"
#include "core/strided_loop.h"

namespace dla {
namespace {

// Bytes are tested as "nonzero", not read as 0/1: a bool array imported from a peer (or a
// NumPy view of uint8 as bool) may hold any byte value for true.
constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL, kOnes = 0x0101010101010101ULL;

inline uint64_t load_word(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

// 0x01 in each byte of w that is nonzero, 0x00 elsewhere.
inline uint64_t nonzero_bytes(uint64_t w) { return ((((w & kLow7) + kLow7) | w) >> 7) & kOnes; }

// Whether any of the n bytes at a (stride s) is nonzero: 256 bytes OR-ed per test, so the
// scan runs at memory speed and still stops soon after the first true byte.
bool any_nonzero(const char* a, int64_t s, int64_t n) {
  if (s != 1) {
    for (int64_t i = 0; i < n; ++i)
      if (a[i * s]) return true;
    return false;
  }
  int64_t i = 0;
  for (; i + 256 <= n; i += 256) {
    uint64_t acc = 0;
    for (int k = 0; k < 256; k += 8) acc |= load_word(a + i + k);
    if (acc) return true;
  }
  for (; i < n; ++i)
    if (a[i]) return true;
  return false;
}

bool any_zero(const char* a, int64_t s, int64_t n) {
  if (s == 1) return std::memchr(a, 0, size_t(n)) != nullptr;
  for (int64_t i = 0; i < n; ++i)
    if (!a[i * s]) return true;
  return false;
}

// Number of nonzero bytes among the n at a (stride s). Contiguous bytes are counted eight to
// a word, each byte lane of the accumulator taking at most 255 words before it is folded.
int64_t count_nonzero_bytes(const char* a, int64_t s, int64_t n) {
  int64_t count = 0, i = 0;
  if (s == 1) {
    while (n - i >= 8) {
      const int64_t words = std::min<int64_t>((n - i) / 8, 255);
      uint64_t lanes = 0;
      for (int64_t k = 0; k < words; ++k) lanes += nonzero_bytes(load_word(a + i + 8 * k));
      // The eight byte lanes summed: paired into four 16-bit lanes (each <= 510), whose sum
      // (<= 2040) a multiplication gathers in the top 16 bits.
      const uint64_t pairs = (lanes & 0x00ff00ff00ff00ffULL) + ((lanes >> 8) & 0x00ff00ff00ff00ffULL);
      count += int64_t((pairs * 0x0001000100010001ULL) >> 48);
      i += 8 * words;
    }
    for (; i < n; ++i) count += a[i] != 0;
    return count;
  }
  for (; i < n; ++i) count += a[i * s] != 0;
  return count;
}

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
      if (is_all ? (*o && any_zero(a, s[1], len)) : (!*o && any_nonzero(a, s[1], len))) *o = !is_all;
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
