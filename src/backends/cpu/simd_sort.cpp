// simd_sort.cpp — the AVX-512 quicksort of simd_sort.h: vector partitions, bitonic networks.
//
// Partition (in place): one vector is kept back from each end, so that the slots already read
// always leave room for the next vector's two compressed halves (keys below the pivot to the
// left write position, the rest to the right one, each by a masked store: compressing straight
// to memory is microcoded and slow on AMD Zen 4). Reading from the side with less room keeps
// both write positions behind their read positions. Pivots are the median of a sorted sample;
// a pivot that is the range's minimum (many equal keys) splits off its equal keys instead, so
// every partition makes progress, and a recursion deeper than 2 log2 n falls back to std::sort.
#include "backends/cpu/simd_sort.h"

#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "backends/cpu/cpu_features.h"
#include "backends/cpu/parallel.h"

#define DLA_SORT_TARGET __attribute__((target("avx512f,avx512dq,avx512vl,popcnt,bmi2")))
#define DLA_SORT_INLINE DLA_SORT_TARGET __attribute__((always_inline)) inline

namespace dla::cpu {
namespace {

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

// Where partition() writes: lw is the next slot on the left, rw the end of the free room
// on the right.
template <class K, bool OrEqual>
struct Writer {
  using V = Vec<K>;
  K* a;
  typename V::R p;
  int64_t lw, rw;
  // All of v, when there is room for a whole vector on both sides (the main loop): the left
  // half is stored whole (lanes past it are overwritten later), which saves a mask there.
  DLA_SORT_INLINE void put(typename V::R v) {
    const typename V::M m = OrEqual ? V::le(v, p) : V::lt(v, p);
    const int c = __builtin_popcount(unsigned(m));
    V::store(a + lw, V::compress(m, v));
    lw += c;
    rw -= V::W - c;
    V::store(a + rw, typename V::M(_bzhi_u32(~0u, unsigned(V::W - c))), V::compress(typename V::M(~m), v));
  }
  // The live lanes of v: those below the pivot to the left, the rest to the right.
  DLA_SORT_INLINE void put(typename V::R v, typename V::M live) {
    const typename V::M m = typename V::M((OrEqual ? V::le(v, p) : V::lt(v, p)) & live);
    const int c = __builtin_popcount(unsigned(m));
    const int rest = __builtin_popcount(unsigned(live)) - c;
    V::store(a + lw, low_lanes<K>(c), V::compress(m, v));
    lw += c;
    rw -= rest;
    V::store(a + rw, low_lanes<K>(rest), V::compress(typename V::M(live & ~m), v));
  }
};

// Moves the keys of a[0..n) (n >= 2 U W) below the pivot (key < pivot, or key <= pivot with
// OrEqual) to the front and returns their count. U vectors are kept back from each end and
// read per step, so that the side decision (a branch the predictor cannot learn) is taken
// once per U vectors.
template <class K, bool OrEqual>
DLA_SORT_TARGET int64_t partition(K* a, int64_t n, K pivot) {
  using V = Vec<K>;
  constexpr int W = V::W, U = 4;
  constexpr typename V::M all = low_lanes<K>(W);
  Writer<K, OrEqual> w{a, V::set1(pivot), 0, n};
  typename V::R first[U], last[U];
#pragma GCC unroll 4
  for (int u = 0; u < U; ++u) {
    first[u] = V::load(a + u * W);
    last[u] = V::load(a + n - (U - u) * W);
  }
  int64_t l = U * W, r = n - U * W;  // unread keys: a[l..r)
  while (r - l >= U * W) {
    typename V::R v[U];
    if (l - w.lw <= w.rw - r) {
#pragma GCC unroll 4
      for (int u = 0; u < U; ++u) v[u] = V::load(a + l + u * W);
      l += U * W;
    } else {
      r -= U * W;
#pragma GCC unroll 4
      for (int u = 0; u < U; ++u) v[u] = V::load(a + r + u * W);
    }
#pragma GCC unroll 4
    for (int u = 0; u < U; ++u) w.put(v[u]);
  }
  while (r - l >= W) {  // the same a vector at a time (room for W on each side stays)
    typename V::R v;
    if (l - w.lw <= w.rw - r) {
      v = V::load(a + l);
      l += W;
    } else {
      r -= W;
      v = V::load(a + r);
    }
    w.put(v, all);
  }
  if (r > l) w.put(V::load(a + l, low_lanes<K>(int(r - l)), V::set1(0)), low_lanes<K>(int(r - l)));
#pragma GCC unroll 4
  for (int u = 0; u < U; ++u) {
    w.put(first[u], all);
    w.put(last[u], all);
  }
  return w.lw;
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

// One partition step of a[0..n) (n > kNetworkMax): returns [lo, hi) such that a[0..lo) and
// a[hi..n) remain to be sorted and a[lo..hi) is in place (empty unless a run of equal keys
// was split off).
template <class K>
void split(K* a, int64_t n, int64_t* lo, int64_t* hi) {
  const K p = sample_pivot(a, n);
  const int64_t b = partition<K, false>(a, n, p);
  if (b > 0) {
    *lo = *hi = b;
    return;
  }
  // p is the smallest key: its equal keys are final.
  *lo = 0;
  *hi = p == std::numeric_limits<K>::max() ? n : partition<K, true>(a, n, p);
}

template <class K>
void quicksort(K* a, int64_t n, int depth) {
  while (n > kNetworkMax<K>) {
    if (depth-- <= 0) {
      std::sort(a, a + n);
      return;
    }
    int64_t lo, hi;
    split(a, n, &lo, &hi);
    // Recurse into the smaller side, loop on the larger: the stack stays O(log n).
    if (lo < n - hi) {
      quicksort(a, lo, depth);
      a += hi;
      n -= hi;
    } else {
      quicksort(a + hi, n - hi, depth);
      n = lo;
    }
  }
  small_sort(a, n);
}

int depth_limit(int64_t n) { return 2 * (64 - __builtin_clzll(uint64_t(n) | 1)); }

template <class K>
bool sort_keys(K* a, int64_t n, bool allow_threads) {
  if (!simd_sort_available()) return false;
  const int threads = allow_threads ? num_threads() : 1;
  constexpr int64_t kPartFrom = int64_t(1) << 17;  // parts worth a thread of their own
  if (threads == 1 || n < 2 * kPartFrom) {
    quicksort(a, n, depth_limit(n));
    return true;
  }
  // Split until there are several parts per thread (or the parts are small), then sort the
  // parts on the pool, largest first.
  struct Part {
    int64_t b, n;
  };
  std::vector<Part> parts{{0, n}}, done;
  const size_t want = size_t(4 * threads);
  while (!parts.empty() && parts.size() + done.size() < want) {
    auto big = std::max_element(parts.begin(), parts.end(), [](const Part& x, const Part& y) { return x.n < y.n; });
    const Part p = *big;
    parts.erase(big);
    if (p.n < 2 * kPartFrom) {
      done.push_back(p);
      continue;
    }
    int64_t lo, hi;
    split(a + p.b, p.n, &lo, &hi);
    if (lo > 0) parts.push_back({p.b, lo});
    if (hi < p.n) parts.push_back({p.b + hi, p.n - hi});
  }
  parts.insert(parts.end(), done.begin(), done.end());
  std::sort(parts.begin(), parts.end(), [](const Part& x, const Part& y) { return x.n > y.n; });
  parallel_for(int64_t(parts.size()), 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) quicksort(a + parts[size_t(i)].b, parts[size_t(i)].n, depth_limit(parts[size_t(i)].n));
  });
  return true;
}

}  // namespace

bool simd_sort_available() {
  static const bool bmi2 = __builtin_cpu_supports("bmi2");  // (every AVX-512 CPU has it)
  return vector_level() == VectorLevel::Avx512 && bmi2;
}

bool simd_sort_keys(uint32_t* keys, int64_t n, bool allow_threads) { return sort_keys(keys, n, allow_threads); }
bool simd_sort_keys(uint64_t* keys, int64_t n, bool allow_threads) { return sort_keys(keys, n, allow_threads); }

}  // namespace dla::cpu
