// radix_sort.h — stable sorting of unsigned keys (order_keys.h), optionally carrying indices.
//
// LSD radix sort with 8-bit digits: one read builds the histograms of every digit, then one
// scatter per digit that is not the same for all keys (a digit shared by every key, such as
// the top byte of positive floats of one binade, costs nothing). Each scatter is stable, so the
// whole sort is, and -0/+0 and NaN handling is entirely the key transform's. Long single rows
// scatter with several threads (each owns a contiguous chunk and its own bucket offsets, which
// keeps stability). Short rows use insertion sort or a merge sort, where the 256-bucket
// passes would cost more than the comparisons.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "backends/cpu/parallel.h"
#include "backends/cpu/simd_sort.h"

namespace dla::cpu {

// Below this many keys a comparison sort wins over the digit passes.
constexpr int64_t kRadixFrom = 256;
// From this many keys a single row is scattered by several threads.
constexpr int64_t kParallelRadixFrom = int64_t(1) << 18;

namespace radix_detail {

template <class K>
inline unsigned digit(K k, int d) {
  return unsigned(k >> (8 * d)) & 0xffu;
}

// Stable comparison sort of (keys, idx) pairs for short rows.
template <class K, class I, bool WithIdx>
void small_sort(K* keys, I* idx, int64_t n) {
  if (n <= 32) {  // insertion sort: stable, and fastest for a handful of elements
    for (int64_t i = 1; i < n; ++i) {
      const K k = keys[i];
      I v{};
      if constexpr (WithIdx) v = idx[i];
      int64_t j = i;
      for (; j > 0 && k < keys[j - 1]; --j) {
        keys[j] = keys[j - 1];
        if constexpr (WithIdx) idx[j] = idx[j - 1];
      }
      keys[j] = k;
      if constexpr (WithIdx) idx[j] = v;
    }
    return;
  }
  if constexpr (!WithIdx) {
    std::sort(keys, keys + n);  // equal keys are indistinguishable: stability is moot
  } else {
    struct P {
      K k;
      I i;
    };
    std::unique_ptr<P[]> p(new P[size_t(n)]);
    for (int64_t i = 0; i < n; ++i) p[size_t(i)] = P{keys[i], idx[i]};
    std::stable_sort(p.get(), p.get() + n, [](const P& a, const P& b) { return a.k < b.k; });
    for (int64_t i = 0; i < n; ++i) {
      keys[i] = p[size_t(i)].k;
      idx[i] = p[size_t(i)].i;
    }
  }
}

// keys[0..n) sorted stably with idx moved along, through the vector quicksort of
// (key << 32 | position); false (nothing changed) where that sort is not available.
template <class I>
bool sort_with_positions(uint32_t* keys, I* idx, I* scratch, int64_t n, bool allow_threads) {
  std::unique_ptr<uint64_t[]> pairs(new uint64_t[size_t(n)]);
  for (int64_t i = 0; i < n; ++i) pairs[size_t(i)] = (uint64_t(keys[i]) << 32) | uint64_t(i);
  if (!simd_sort_keys(pairs.get(), n, allow_threads)) return false;
  std::memcpy(scratch, idx, size_t(n) * sizeof(I));
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t p = pairs[size_t(i)];
    keys[i] = uint32_t(p >> 32);
    idx[i] = scratch[p & 0xffffffffu];
  }
  return true;
}

// keys[0..n) sorted stably with idx moved along, through simd_argsort_keys; false (nothing
// changed) where that sort is not available.
template <class I>
bool sort_carrying_positions(uint64_t* keys, I* idx, I* scratch, int64_t n) {
  if (!simd_sort_keys_available()) return false;
  std::unique_ptr<uint64_t[]> positions(new uint64_t[size_t(n)]);
  for (int64_t i = 0; i < n; ++i) positions[size_t(i)] = uint64_t(i);
  simd_argsort_keys(keys, positions.get(), n, false);
  std::memcpy(scratch, idx, size_t(n) * sizeof(I));
  for (int64_t i = 0; i < n; ++i) idx[i] = scratch[positions[size_t(i)]];
  return true;
}

}  // namespace radix_detail

// Sorts keys[0..n) ascending, stably, moving idx[0..n) along when WithIdx. kt and it are
// scratch of n elements each (it unused without indices); kt may be nullptr, and is then
// allocated here only if the digit passes run (the vector quicksorts sort in place). The
// result ends in keys/idx.
template <class K, class I, bool WithIdx>
void radix_sort(K* keys, I* idx, K* kt, I* it, int64_t n, bool allow_threads = true) {
  using radix_detail::digit;
  // Keys alone (no indices to keep in order) of 32 or 64 bits: the vector quicksort, where
  // the CPU has AVX-512.
  if constexpr (!WithIdx && (std::is_same_v<K, uint32_t> || std::is_same_v<K, uint64_t>))
    if (n > 16 && simd_sort_keys(keys, n, allow_threads)) return;
  // 32-bit keys with indices: the same quicksort on 64-bit keys (key, position), all distinct,
  // so the order of equal keys is their original order: stable, as the radix passes are.
  if constexpr (WithIdx && std::is_same_v<K, uint32_t>)
    if (n >= kRadixFrom && n <= int64_t(UINT32_MAX) && radix_detail::sort_with_positions(keys, idx, it, n, allow_threads))
      return;
  // 64-bit keys with indices: the vector quicksort carrying positions (equal keys come out in
  // position order, so this is stable too).
  if constexpr (WithIdx && std::is_same_v<K, uint64_t>)
    if (n >= kRadixFrom && radix_detail::sort_carrying_positions(keys, idx, it, n)) return;
  if (n < kRadixFrom) return radix_detail::small_sort<K, I, WithIdx>(keys, idx, n);
  std::unique_ptr<K[]> own_kt;
  if (!kt) {
    own_kt.reset(new K[size_t(n)]);
    kt = own_kt.get();
  }
  constexpr int D = int(sizeof(K));
  const int threads =
      allow_threads && n >= kParallelRadixFrom ? int(std::min<int64_t>(num_threads(), n / (kParallelRadixFrom / 4))) : 1;
  const int64_t chunk = (n + threads - 1) / threads;
  // Histograms of every digit (the multiset of digits never changes, so these decide which
  // passes are needed once for all).
  std::vector<int64_t> hist(size_t(threads) * D * 256, 0);
  auto count_all = [&](int64_t t) {
    int64_t* h = hist.data() + size_t(t) * D * 256;
    const int64_t b = t * chunk, e = std::min(n, b + chunk);
    for (int64_t i = b; i < e; ++i) {
      const K k = keys[i];
      for (int d = 0; d < D; ++d) ++h[d * 256 + digit(k, d)];
    }
  };
  if (threads == 1) {
    count_all(0);
  } else {
    parallel_for(threads, 1, [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; ++t) count_all(t);
    });
    for (int t = 1; t < threads; ++t)
      for (int j = 0; j < D * 256; ++j) hist[size_t(j)] += hist[size_t(t) * D * 256 + size_t(j)];
  }
  K* src_k = keys;
  K* dst_k = kt;
  I* src_i = idx;
  I* dst_i = it;
  std::vector<int64_t> offsets(size_t(threads) * 256);
  for (int d = 0; d < D; ++d) {
    const int64_t* h = hist.data() + d * 256;
    bool trivial = false;
    for (int b = 0; b < 256; ++b)
      if (h[b] == n) trivial = true;
    if (trivial) continue;
    if (threads == 1) {
      int64_t* off = offsets.data();
      int64_t sum = 0;
      for (int b = 0; b < 256; ++b) {
        off[b] = sum;
        sum += h[b];
      }
      for (int64_t i = 0; i < n; ++i) {
        const K k = src_k[i];
        const int64_t o = off[digit(k, d)]++;
        dst_k[o] = k;
        if constexpr (WithIdx) dst_i[o] = src_i[i];
      }
    } else {
      // Per-chunk counts of this digit, then offsets bucket-major, chunk-minor: chunk t's
      // keys of bucket b land after those of chunks < t, as a sequential scatter would.
      parallel_for(threads, 1, [&](int64_t tb, int64_t te) {
        for (int64_t t = tb; t < te; ++t) {
          int64_t* c = offsets.data() + t * 256;
          std::fill(c, c + 256, 0);
          const int64_t b = t * chunk, e = std::min(n, b + chunk);
          for (int64_t i = b; i < e; ++i) ++c[digit(src_k[i], d)];
        }
      });
      int64_t sum = 0;
      for (int b = 0; b < 256; ++b)
        for (int t = 0; t < threads; ++t) {
          const int64_t c = offsets[size_t(t) * 256 + b];
          offsets[size_t(t) * 256 + b] = sum;
          sum += c;
        }
      parallel_for(threads, 1, [&](int64_t tb, int64_t te) {
        for (int64_t t = tb; t < te; ++t) {
          int64_t* off = offsets.data() + t * 256;
          const int64_t b = t * chunk, e = std::min(n, b + chunk);
          for (int64_t i = b; i < e; ++i) {
            const K k = src_k[i];
            const int64_t o = off[digit(k, d)]++;
            dst_k[o] = k;
            if constexpr (WithIdx) dst_i[o] = src_i[i];
          }
        }
      });
    }
    std::swap(src_k, dst_k);
    if constexpr (WithIdx) std::swap(src_i, dst_i);
  }
  if (src_k != keys) {
    std::memcpy(keys, src_k, size_t(n) * sizeof(K));
    if constexpr (WithIdx) std::memcpy(idx, src_i, size_t(n) * sizeof(I));
  }
}

}  // namespace dla::cpu
