// partition_cpu.cpp — the CPU kernel of partition/argpartition: selection along an axis.
//
// A row is gathered from x (any strides) into a buffer of order keys (row_keys.h), so that
// NaN goes last and -0 equals +0 exactly as in sort, and each kth position is selected in
// turn in the part of the row right of the previous one (as NumPy does): the vector
// quickselect of simd_quicksort.h where the CPU has AVX2, std::nth_element otherwise. A
// position at either end of the remaining part is one min or max scan instead. Indices travel
// packed below 32-bit keys (key << 32 | position: one 64-bit key), beside 64-bit keys, or
// as pairs with wider keys. Many rows run on the thread pool, as in sort_cpu.cpp.
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "backends/cpu/parallel.h"
#include "backends/cpu/row_keys.h"
#include "backends/cpu/search_sort_cpu.h"
#include "backends/cpu/simd_sort.h"
#include "core/cpu_features.h"
#include "core/dispatch.h"
#include "core/errors.h"

namespace dla::cpu {
namespace {

// The smallest (Max: largest) of a[0..n), n >= 1: a reduction that vectorizes, compiled for AVX2
// too (the baseline has no 64-bit integer compare; 10^6 keys took 1 ms there).
template <bool Max, class S>
__attribute__((always_inline)) inline S extreme_body(const S* a, int64_t n) {
  S e = a[0];
  for (int64_t i = 1; i < n; ++i) e = Max ? std::max(e, a[i]) : std::min(e, a[i]);
  return e;
}
template <bool Max, class S>
__attribute__((target("avx2"))) S extreme_avx2(const S* a, int64_t n) {
  return extreme_body<Max>(a, n);
}
template <bool Max, class S>
S extreme_of(const S* a, int64_t n) {
  if (vector_level() != VectorLevel::None) return extreme_avx2<Max>(a, n);
  return extreme_body<Max>(a, n);
}

// Selects every kth position (ascending, distinct) in a[0..n), with q[0..n) moved alike when q
// is not null. select_one(a, q, m, k) selects position k of a range of m; the ends of the
// remaining range take a scan for the smallest or largest key instead.
template <class S, class SelectOne>
void select_each(S* a, uint64_t* q, int64_t n, const std::vector<int64_t>& kth, SelectOne&& select_one) {
  int64_t start = 0;
  for (const int64_t k : kth) {
    if (k == start || k == n - 1) {
      // Two vectorizable passes (the extreme value, then its first place) beat one that tracks
      // the position.
      const S extreme = k == start ? extreme_of<false>(a + start, n - start) : extreme_of<true>(a + start, n - start);
      const int64_t at = std::find(a + start, a + n, extreme) - a;
      std::swap(a[k], a[at]);
      if (q) std::swap(q[k], q[at]);
    } else {
      select_one(a + start, q ? q + start : nullptr, n - start, k - start);
    }
    start = k + 1;
  }
}

// Keys alone, as signed integers of their width where the vector quickselect takes them.
template <class S>
void select_keys(S* a, int64_t n, const std::vector<int64_t>& kth) {
  select_each(a, nullptr, n, kth, [](S* r, uint64_t*, int64_t m, int64_t k) {
    if constexpr (std::is_same_v<S, int32_t> || std::is_same_v<S, int64_t>)
      if (simd_select_keys(r, m, k)) return;
    std::nth_element(r, r + k, r + m);
  });
}

// 64-bit signed keys with their positions alongside.
void select_keys_with_positions(int64_t* a, uint64_t* q, int64_t n, const std::vector<int64_t>& kth) {
  select_each(a, q, n, kth, [](int64_t* r, uint64_t* p, int64_t m, int64_t k) {
    if (simd_argselect_keys(r, p, m, k)) return;
    std::vector<std::pair<int64_t, uint64_t>> t(static_cast<size_t>(m));
    for (int64_t i = 0; i < m; ++i) t[size_t(i)] = {r[i], p[i]};
    std::nth_element(t.begin(), t.begin() + k, t.end());
    for (int64_t i = 0; i < m; ++i) {
      r[i] = t[size_t(i)].first;
      p[i] = t[size_t(i)].second;
    }
  });
}

// The signed integer of the key's width that the vector quickselect compares (the key with
// its top bit flipped orders the same as a signed integer), or the key itself.
template <class K>
using SelectKey = std::conditional_t<sizeof(K) == 4 && std::is_integral_v<K>, int32_t,
                                     std::conditional_t<sizeof(K) == 8 && std::is_integral_v<K>, int64_t, K>>;

template <class T>
void partition_rows(const Array& values, const Array& indices, const Array& x, int axis,
                    const std::vector<int64_t>& kth, int64_t rb, int64_t re) {
  using OK = OrderKey<T>;
  using K = typename OK::K;
  using S = SelectKey<K>;
  constexpr bool kSigned = !std::is_same_v<S, K>;
  const K flip = kSigned ? K(K(1) << (8 * sizeof(K) - 1)) : K(0);
  const int64_t len = x.shape(axis), xs = x.stride(axis);
  int64_t inner = 1;  // the output's stride along axis
  for (int d = axis + 1; d < x.ndim(); ++d) inner *= x.shape(d);
  const RowWalker walk(x, axis);
  const T* xbase = reinterpret_cast<const T*>(x.data());
  T* vbase = values.storage() ? reinterpret_cast<T*>(values.data()) : nullptr;
  int64_t* ibase = indices.storage() ? reinterpret_cast<int64_t*>(indices.data()) : nullptr;
  // Keys of a row contiguous in the output are selected there (no buffer of their own).
  constexpr bool kKeysFitValues = sizeof(K) == sizeof(T) && alignof(K) <= alignof(T);
  const bool in_output = kKeysFitValues && vbase && !ibase && inner == 1;
  // Keys up to 32 bits carry their positions packed below them, as one 64-bit key.
  const bool packed = sizeof(K) <= 4 && len <= int64_t(UINT32_MAX);
  std::unique_ptr<K[]> keys_buffer;
  std::unique_ptr<uint64_t[]> pos_buffer;
  for (int64_t r = rb; r < re; ++r) {
    const T* xr = xbase + walk.offset(r);
    const int64_t out0 = (r / inner) * len * inner + r % inner;  // row r's first output element
    K* keys = in_output ? reinterpret_cast<K*>(vbase + out0) : nullptr;
    if (!keys) {
      if (!keys_buffer) keys_buffer = buffer<K>(len);
      keys = keys_buffer.get();
    }
    const bool exact = make_keys(xr, xs, len, flip, keys);
    if (!ibase && exact) {
      // Values come back from their keys (none is -0 or a NaN with other bits).
      select_keys(reinterpret_cast<S*>(keys), len, kth);
      values_from_keys(keys, len, flip, vbase + out0, inner);
      continue;
    }
    // Positions: argpartition, or values that must keep their bits; in the index output
    // where the row is contiguous there (packed keys too: unpacked in place).
    const bool pos_in_output = ibase && inner == 1;
    if (!pos_in_output && !pos_buffer) pos_buffer = buffer<uint64_t>(len);
    uint64_t* pos = pos_in_output ? reinterpret_cast<uint64_t*>(ibase + out0) : pos_buffer.get();
    if (packed) {
      int64_t* pk = reinterpret_cast<int64_t*>(pos);
      constexpr uint64_t kTop = uint64_t(1) << 63;
      for (int64_t i = 0; i < len; ++i) pk[i] = int64_t(((uint64_t(K(keys[i] ^ flip)) << 32) | uint64_t(i)) ^ kTop);
      select_keys(pk, len, kth);
      for (int64_t i = 0; i < len; ++i) pos[i] = uint64_t(pk[i]) & 0xffffffffu;
    } else if constexpr (sizeof(K) == 8) {
      for (int64_t i = 0; i < len; ++i) pos[i] = uint64_t(i);
      select_keys_with_positions(reinterpret_cast<int64_t*>(keys), pos, len, kth);
    } else {
      std::vector<std::pair<K, uint64_t>> t(static_cast<size_t>(len));
      for (int64_t i = 0; i < len; ++i) t[size_t(i)] = {keys[i], uint64_t(i)};
      select_each(t.data(), nullptr, len, kth, [](std::pair<K, uint64_t>* p, uint64_t*, int64_t m, int64_t k) {
        std::nth_element(p, p + k, p + m);
      });
      for (int64_t i = 0; i < len; ++i) pos[i] = t[size_t(i)].second;
    }
    if (ibase && !pos_in_output)
      for (int64_t i = 0; i < len; ++i) ibase[out0 + i * inner] = int64_t(pos[i]);
    if (vbase)
      for (int64_t i = 0; i < len; ++i) vbase[out0 + i * inner] = xr[int64_t(pos[i]) * xs];
  }
}

}  // namespace

void cpu_partition(const Array& values, const Array& indices, const Array& x, int axis,
                   const std::vector<int64_t>& kth) {
  if (!x.dtype().computes()) throw TypeError("partition: storage-only dtype " + x.dtype().name());
  visit_scalar(x.dtype().scalar, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const int64_t len = x.shape(axis), rows = x.size() / len;
    if (rows == 1 || x.size() < 2 * kGrainSize) return partition_rows<T>(values, indices, x, axis, kth, 0, rows);
    parallel_for(rows, std::max<int64_t>(1, kGrainSize / len),
                 [&](int64_t b, int64_t e) { partition_rows<T>(values, indices, x, axis, kth, b, e); });
  });
}

}  // namespace dla::cpu
