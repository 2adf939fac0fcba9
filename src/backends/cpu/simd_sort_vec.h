// simd_sort_vec.h — the pieces the AVX-512 sorts share (simd_sort.cpp keys only,
// simd_argsort.cpp keys with positions): per-width vector traits, the bitonic networks that
// sort up to 16 registers of keys, the sample-median pivot, the quicksorts' depth limit, and
// the split of a long row into parts sorted on the thread pool.
#pragma once
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "backends/cpu/parallel.h"

#define DLA_SORT_TARGET __attribute__((target("avx512f,avx512dq,avx512vl,popcnt,bmi2")))
#define DLA_SORT_INLINE DLA_SORT_TARGET __attribute__((always_inline)) inline

namespace dla::cpu::simd_sort_detail {

template <class K>
struct Vec;

template <>
struct Vec<uint32_t> {
  using R = __m512i;
  using M = __mmask16;
  static constexpr int W = 16;
  DLA_SORT_INLINE static R load(const uint32_t* p) { return _mm512_loadu_si512(p); }
  DLA_SORT_INLINE static R load(const uint32_t* p, M m, R fill) { return _mm512_mask_loadu_epi32(fill, m, p); }
  DLA_SORT_INLINE static void store(uint32_t* p, M m, R v) { _mm512_mask_storeu_epi32(p, m, v); }
  DLA_SORT_INLINE static void store(uint32_t* p, R v) { _mm512_storeu_si512(p, v); }
  DLA_SORT_INLINE static R set1(uint32_t k) { return _mm512_set1_epi32(int(k)); }
  DLA_SORT_INLINE static R min(R a, R b) { return _mm512_min_epu32(a, b); }
  DLA_SORT_INLINE static R max(R a, R b) { return _mm512_max_epu32(a, b); }
  DLA_SORT_INLINE static M lt(R a, R b) { return _mm512_cmplt_epu32_mask(a, b); }
  DLA_SORT_INLINE static M le(R a, R b) { return _mm512_cmple_epu32_mask(a, b); }
  DLA_SORT_INLINE static R compress(M m, R v) { return _mm512_maskz_compress_epi32(m, v); }
  DLA_SORT_INLINE static R permute(R idx, R v) { return _mm512_permutexvar_epi32(idx, v); }
  DLA_SORT_INLINE static R blend(M take_b, R a, R b) { return _mm512_mask_blend_epi32(take_b, a, b); }
  DLA_SORT_INLINE static R max(M m, R src, R a, R b) { return _mm512_mask_max_epu32(src, m, a, b); }
  DLA_SORT_INLINE static R lanes_xor(int j) {  // lane i -> i ^ j
    return _mm512_xor_si512(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi32(j));
  }
  // Lane i takes lane i ^ j: in-lane shuffles where they reach (cheaper than a full permute).
  template <int j>
  DLA_SORT_INLINE static R swap_lanes(R v) {
    if constexpr (j == 1) return _mm512_shuffle_epi32(v, _MM_PERM_CDAB);
    else if constexpr (j == 2) return _mm512_shuffle_epi32(v, _MM_PERM_BADC);
    else if constexpr (j == 4) return _mm512_shuffle_i64x2(v, v, _MM_SHUFFLE(2, 3, 0, 1));
    else return _mm512_shuffle_i64x2(v, v, _MM_SHUFFLE(1, 0, 3, 2));
  }
};

template <>
struct Vec<uint64_t> {
  using R = __m512i;
  using M = __mmask8;
  static constexpr int W = 8;
  DLA_SORT_INLINE static R load(const uint64_t* p) { return _mm512_loadu_si512(p); }
  DLA_SORT_INLINE static R load(const uint64_t* p, M m, R fill) { return _mm512_mask_loadu_epi64(fill, m, p); }
  DLA_SORT_INLINE static void store(uint64_t* p, M m, R v) { _mm512_mask_storeu_epi64(p, m, v); }
  DLA_SORT_INLINE static void store(uint64_t* p, R v) { _mm512_storeu_si512(p, v); }
  DLA_SORT_INLINE static R set1(uint64_t k) { return _mm512_set1_epi64(int64_t(k)); }
  DLA_SORT_INLINE static R min(R a, R b) { return _mm512_min_epu64(a, b); }
  DLA_SORT_INLINE static R max(R a, R b) { return _mm512_max_epu64(a, b); }
  DLA_SORT_INLINE static M lt(R a, R b) { return _mm512_cmplt_epu64_mask(a, b); }
  DLA_SORT_INLINE static M le(R a, R b) { return _mm512_cmple_epu64_mask(a, b); }
  DLA_SORT_INLINE static R compress(M m, R v) { return _mm512_maskz_compress_epi64(m, v); }
  DLA_SORT_INLINE static R permute(R idx, R v) { return _mm512_permutexvar_epi64(idx, v); }
  DLA_SORT_INLINE static R blend(M take_b, R a, R b) { return _mm512_mask_blend_epi64(take_b, a, b); }
  DLA_SORT_INLINE static R max(M m, R src, R a, R b) { return _mm512_mask_max_epu64(src, m, a, b); }
  DLA_SORT_INLINE static R lanes_xor(int j) {
    return _mm512_xor_si512(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64(j));
  }
  template <int j>
  DLA_SORT_INLINE static R swap_lanes(R v) {
    if constexpr (j == 1) return _mm512_shuffle_epi32(v, _MM_PERM_BADC);
    else if constexpr (j == 2) return _mm512_permutex_epi64(v, _MM_SHUFFLE(1, 0, 3, 2));
    else return _mm512_shuffle_i64x2(v, v, _MM_SHUFFLE(1, 0, 3, 2));
  }
};

// Signed integers sort as themselves (no key transform): the unsigned traits with signed
// compares, minima and maxima.
template <class S, class U, class Base>
struct SignedVec : Base {
  using R = typename Base::R;
  using M = typename Base::M;
  DLA_SORT_INLINE static R load(const S* p) { return Base::load(reinterpret_cast<const U*>(p)); }
  DLA_SORT_INLINE static R load(const S* p, M m, R fill) { return Base::load(reinterpret_cast<const U*>(p), m, fill); }
  DLA_SORT_INLINE static void store(S* p, M m, R v) { Base::store(reinterpret_cast<U*>(p), m, v); }
  DLA_SORT_INLINE static void store(S* p, R v) { Base::store(reinterpret_cast<U*>(p), v); }
  DLA_SORT_INLINE static R set1(S k) { return Base::set1(U(k)); }
  DLA_SORT_INLINE static R min(R a, R b) {
    if constexpr (Base::W == 16) return _mm512_min_epi32(a, b);
    else return _mm512_min_epi64(a, b);
  }
  DLA_SORT_INLINE static R max(R a, R b) {
    if constexpr (Base::W == 16) return _mm512_max_epi32(a, b);
    else return _mm512_max_epi64(a, b);
  }
  DLA_SORT_INLINE static R max(M m, R src, R a, R b) {
    if constexpr (Base::W == 16) return _mm512_mask_max_epi32(src, m, a, b);
    else return _mm512_mask_max_epi64(src, m, a, b);
  }
  DLA_SORT_INLINE static M lt(R a, R b) {
    if constexpr (Base::W == 16) return _mm512_cmplt_epi32_mask(a, b);
    else return _mm512_cmplt_epi64_mask(a, b);
  }
  DLA_SORT_INLINE static M le(R a, R b) {
    if constexpr (Base::W == 16) return _mm512_cmple_epi32_mask(a, b);
    else return _mm512_cmple_epi64_mask(a, b);
  }
};
template <> struct Vec<int32_t> : SignedVec<int32_t, uint32_t, Vec<uint32_t>> {};
template <> struct Vec<int64_t> : SignedVec<int64_t, uint64_t, Vec<uint64_t>> {};

template <class K>
constexpr typename Vec<K>::M low_lanes(int c) {  // the first c lanes, 0 <= c <= W
  return typename Vec<K>::M((uint32_t(1) << c) - 1);
}

// Lanes that take the larger key in the bitonic-sort stage (k, j): lane i pairs with i ^ j,
// and the pair sorts ascending when bit k of i is clear, descending when it is set.
template <class K>
constexpr typename Vec<K>::M max_lanes(int k, int j) {
  uint32_t m = 0;
  for (int i = 0; i < Vec<K>::W; ++i)
    if (((i & j) != 0) != ((i & k) != 0)) m |= uint32_t(1) << i;
  return typename Vec<K>::M(m);
}

// One compare-exchange stage inside a register.
template <class K, int k, int j>
DLA_SORT_INLINE typename Vec<K>::R stage(typename Vec<K>::R v) {
  using V = Vec<K>;
  const typename V::R p = V::template swap_lanes<j>(v);
  return V::max(max_lanes<K>(k, j), V::min(v, p), v, p);  // min, and max where the mask says
}

// Sorts the lanes of one register ascending (bitonic network: 10 stages for 16 lanes, 6 for 8).
template <class K>
DLA_SORT_INLINE typename Vec<K>::R sort_register(typename Vec<K>::R v) {
  v = stage<K, 2, 1>(v);
  v = stage<K, 4, 2>(v);
  v = stage<K, 4, 1>(v);
  v = stage<K, 8, 4>(v);
  v = stage<K, 8, 2>(v);
  v = stage<K, 8, 1>(v);
  if constexpr (Vec<K>::W == 16) {
    v = stage<K, 16, 8>(v);
    v = stage<K, 16, 4>(v);
    v = stage<K, 16, 2>(v);
    v = stage<K, 16, 1>(v);
  }
  return v;
}

// A bitonic register made ascending (the last log2 W stages of a merge). With k = 2W, bit k
// of a lane number is never set: every pair sorts ascending.
template <class K>
DLA_SORT_INLINE typename Vec<K>::R clean_register(typename Vec<K>::R v) {
  constexpr int W = Vec<K>::W;
  if constexpr (W == 16) v = stage<K, 32, 8>(v);
  v = stage<K, 2 * W, 4>(v);
  v = stage<K, 2 * W, 2>(v);
  return stage<K, 2 * W, 1>(v);
}

template <class K>
DLA_SORT_INLINE typename Vec<K>::R reverse_register(typename Vec<K>::R v) {
  return Vec<K>::permute(Vec<K>::lanes_xor(Vec<K>::W - 1), v);
}

// Sorts n <= R*W keys in registers: each register sorted, then blocks of 1, 2, 4 ...
// registers merged pairwise (the second block reversed makes the pair bitonic; half-cleaners
// across registers, then each register cleaned). Lanes past n hold the largest key, so they
// sort last and are never stored.
template <class K, int R>
DLA_SORT_TARGET void network_sort(K* a, int64_t n) {
  using V = Vec<K>;
  constexpr int W = V::W;
  typename V::R v[R];
  const typename V::R top = V::set1(std::numeric_limits<K>::max());
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    const int64_t c = std::min<int64_t>(std::max<int64_t>(n - int64_t(r) * W, 0), W);
    v[r] = sort_register<K>(V::load(a + r * W, low_lanes<K>(int(c)), top));
  }
  // (Loops over log2 of the sizes, with constant trip counts, so that the compiler unrolls
  // them completely and v[] stays in registers.)
  constexpr int kLogR = R >= 16 ? 4 : R >= 8 ? 3 : R >= 4 ? 2 : R >= 2 ? 1 : 0;
#pragma GCC unroll 4
  for (int ls = 0; ls < kLogR; ++ls) {
    const int s = 1 << ls;
#pragma GCC unroll 8
    for (int b = 0; b < R; b += 2 * s) {
#pragma GCC unroll 8
      for (int i = 0; i < s / 2; ++i) std::swap(v[b + s + i], v[b + 2 * s - 1 - i]);
#pragma GCC unroll 8
      for (int i = 0; i < s; ++i) v[b + s + i] = reverse_register<K>(v[b + s + i]);
#pragma GCC unroll 4
      for (int ld = ls; ld >= 0; --ld) {
        const int d = 1 << ld;
#pragma GCC unroll 16
        for (int i = b; i < b + 2 * s; ++i)
          if ((i - b) % (2 * d) < d) {
            const typename V::R lo = V::min(v[i], v[i + d]), hi = V::max(v[i], v[i + d]);
            v[i] = lo;
            v[i + d] = hi;
          }
      }
#pragma GCC unroll 16
      for (int i = b; i < b + 2 * s; ++i) v[i] = clean_register<K>(v[i]);
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    const int64_t c = std::min<int64_t>(std::max<int64_t>(n - int64_t(r) * W, 0), W);
    V::store(a + r * W, low_lanes<K>(int(c)), v[r]);
  }
}

template <class K>
constexpr int64_t kNetworkMax = 16 * Vec<K>::W;  // 256 keys of 32 bits, 128 of 64

template <class K>
void small_sort(K* a, int64_t n) {
  constexpr int W = Vec<K>::W;
  if (n <= 1) return;
  if (n <= W) return network_sort<K, 1>(a, n);
  if (n <= 2 * W) return network_sort<K, 2>(a, n);
  if (n <= 4 * W) return network_sort<K, 4>(a, n);
  if (n <= 8 * W) return network_sort<K, 8>(a, n);
  network_sort<K, 16>(a, n);
}

// The median of evenly spaced keys (sorted by a network): 64 of them for long ranges, 16
// (one register) for short ones, where the sample's sort would cost more than balance saves.
template <class K>
K sample_pivot(const K* a, int64_t n) {
  alignas(64) K s[64];
  const int m = n >= 4096 ? 64 : 16;
  for (int i = 0; i < m; ++i) s[i] = a[(n / m) * i + (n / m) / 2];
  if (m == 16) small_sort(s, 16);
  else if constexpr (Vec<K>::W == 16) network_sort<K, 4>(s, 64);
  else network_sort<K, 8>(s, 64);
  return s[m / 2];
}

// Partition steps past this depth mean bad pivots: the quicksorts fall back to a comparison sort.
inline int depth_limit(int64_t n) { return 2 * (64 - __builtin_clzll(uint64_t(n) | 1)); }

// Sorts a row of n elements as parts on the thread pool: split(b, m, &lo, &hi) partitions the
// part [b, b + m) once, leaving [b, b + lo) and [b + hi, b + m) to sort and [lo, hi) final; the
// largest part is split until there are 4 parts per thread or the parts are under 2 part_from,
// then sort_part(b, m) runs on each, largest first. Parts are separated by pivots, so nothing
// crosses from one to another afterwards.
template <class Split, class SortPart>
void sort_in_parts(int64_t n, int threads, int64_t part_from, Split&& split, SortPart&& sort_part) {
  struct Part {
    int64_t b, n;
  };
  std::vector<Part> parts{{0, n}}, done;
  const size_t want = size_t(4 * threads);
  while (!parts.empty() && parts.size() + done.size() < want) {
    auto big = std::max_element(parts.begin(), parts.end(), [](const Part& x, const Part& y) { return x.n < y.n; });
    const Part p = *big;
    parts.erase(big);
    if (p.n < 2 * part_from) {
      done.push_back(p);
      continue;
    }
    int64_t lo, hi;
    split(p.b, p.n, &lo, &hi);
    if (lo > 0) parts.push_back({p.b, lo});
    if (hi < p.n) parts.push_back({p.b + hi, p.n - hi});
  }
  parts.insert(parts.end(), done.begin(), done.end());
  std::sort(parts.begin(), parts.end(), [](const Part& x, const Part& y) { return x.n > y.n; });
  parallel_for(int64_t(parts.size()), 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) sort_part(parts[size_t(i)].b, parts[size_t(i)].n);
  });
}

}  // namespace dla::cpu::simd_sort_detail
