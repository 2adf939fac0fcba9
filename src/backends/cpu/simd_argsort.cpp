// simd_argsort.cpp — the AVX-512 quicksort of 64-bit keys carrying 64-bit positions, made
// stable afterwards: argsort of float64/int64/uint64/complex64 keys (simd_sort.h).
//
// The partition is simd_quicksort.h's with positions carried (kCarry); the networks are
// simd_sort_vec.h's with a second register of positions moved by the same masks. The networks
// compare (key, position) pairs, so that the padding lanes (largest key, largest position)
// sort after every real element and equal keys come out in position order; keys equal across
// partition boundaries are put back in position order by one scan at the end (runs of equal
// keys are rare unless the data has many duplicates, and then their positions are sorted by
// the keys-only vector sort).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "backends/cpu/parallel.h"
#include "backends/cpu/simd_sort.h"
#include "backends/cpu/simd_quicksort.h"  // (split, sort_pairs_by_comparison, order_equal_runs)
#include "backends/cpu/simd_sort_vec.h"

namespace dla::cpu {
namespace {

using namespace simd_sort_detail;
using V = Vec<uint64_t>;
using R = V::R;
using M = V::M;
constexpr int W = V::W;

// One compare-exchange stage inside the registers (key, val): lanes of max_lanes(k, j) keep
// the larger key of lane i and lane i ^ j, the others the smaller; a lane whose key changed
// took its partner's, and takes the partner's position with it (equal keys stay put).
template <int k, int j>
DLA_SORT_INLINE void pair_stage(R& key, R& val) {
  const R pk = V::swap_lanes<j>(key), pv = V::swap_lanes<j>(val);
  const R next = V::max(max_lanes<uint64_t>(k, j), V::min(key, pk), key, pk);
  val = V::blend(_mm512_cmpneq_epu64_mask(next, key), val, pv);
  key = next;
}

DLA_SORT_INLINE void sort_pair_register(R& key, R& val) {
  pair_stage<2, 1>(key, val);
  pair_stage<4, 2>(key, val);
  pair_stage<4, 1>(key, val);
  pair_stage<8, 4>(key, val);
  pair_stage<8, 2>(key, val);
  pair_stage<8, 1>(key, val);
}

DLA_SORT_INLINE void clean_pair_register(R& key, R& val) {
  pair_stage<16, 4>(key, val);
  pair_stage<16, 2>(key, val);
  pair_stage<16, 1>(key, val);
}

DLA_SORT_INLINE void reverse_pair_register(R& key, R& val) {
  key = V::permute(V::lanes_xor(W - 1), key);
  val = V::permute(V::lanes_xor(W - 1), val);
}

// network_sort of simd_sort_vec.h on pairs.
// Lanes past n are padded with the largest key, which must then not occur in the data (a
// real element could trade places with the padding): returns false, nothing sorted, if it does.
template <int NR>
DLA_SORT_TARGET bool pair_network_sort(uint64_t* ka, uint64_t* va, int64_t n) {
  R key[NR], val[NR];
  const R top = V::set1(std::numeric_limits<uint64_t>::max());
  if (n < NR * W) {
    M has_top = 0;
#pragma GCC unroll 16
    for (int r = 0; r < NR; ++r) {
      const int64_t c = std::min<int64_t>(std::max<int64_t>(n - int64_t(r) * W, 0), W);
      has_top |= _mm512_mask_cmpeq_epu64_mask(low_lanes<uint64_t>(int(c)), V::load(ka + r * W, low_lanes<uint64_t>(int(c)), top), top);
    }
    if (has_top) return false;
  }
#pragma GCC unroll 16
  for (int r = 0; r < NR; ++r) {
    const int64_t c = std::min<int64_t>(std::max<int64_t>(n - int64_t(r) * W, 0), W);
    key[r] = V::load(ka + r * W, low_lanes<uint64_t>(int(c)), top);
    val[r] = V::load(va + r * W, low_lanes<uint64_t>(int(c)), top);
    sort_pair_register(key[r], val[r]);
  }
  constexpr int kLogR = NR >= 16 ? 4 : NR >= 8 ? 3 : NR >= 4 ? 2 : NR >= 2 ? 1 : 0;
#pragma GCC unroll 4
  for (int ls = 0; ls < kLogR; ++ls) {
    const int s = 1 << ls;
#pragma GCC unroll 8
    for (int b = 0; b < NR; b += 2 * s) {
#pragma GCC unroll 8
      for (int i = 0; i < s / 2; ++i) {
        std::swap(key[b + s + i], key[b + 2 * s - 1 - i]);
        std::swap(val[b + s + i], val[b + 2 * s - 1 - i]);
      }
#pragma GCC unroll 8
      for (int i = 0; i < s; ++i) reverse_pair_register(key[b + s + i], val[b + s + i]);
#pragma GCC unroll 4
      for (int ld = ls; ld >= 0; --ld) {
        const int d = 1 << ld;
#pragma GCC unroll 16
        for (int i = b; i < b + 2 * s; ++i)
          if ((i - b) % (2 * d) < d) {
            const R lo = V::min(key[i], key[i + d]), v0 = val[i];
            const M swap = _mm512_cmpneq_epu64_mask(lo, key[i]);
            key[i + d] = V::max(key[i], key[i + d]);
            key[i] = lo;
            val[i] = V::blend(swap, v0, val[i + d]);
            val[i + d] = V::blend(swap, val[i + d], v0);
          }
      }
#pragma GCC unroll 16
      for (int i = b; i < b + 2 * s; ++i) clean_pair_register(key[i], val[i]);
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < NR; ++r) {
    const int64_t c = std::min<int64_t>(std::max<int64_t>(n - int64_t(r) * W, 0), W);
    V::store(ka + r * W, low_lanes<uint64_t>(int(c)), key[r]);
    V::store(va + r * W, low_lanes<uint64_t>(int(c)), val[r]);
  }
  return true;
}

void small_sort_pairs(uint64_t* k, uint64_t* v, int64_t n) {
  if (n <= 1) return;
  bool sorted;
  if (n <= W) sorted = pair_network_sort<1>(k, v, n);
  else if (n <= 2 * W) sorted = pair_network_sort<2>(k, v, n);
  else if (n <= 4 * W) sorted = pair_network_sort<4>(k, v, n);
  else sorted = pair_network_sort<8>(k, v, n);
  if (!sorted) sort_pairs_by_comparison(k, v, n);  // the largest key is in a short block
}

// Pairs take two registers each: networks of up to 8 register pairs keep all in registers.
constexpr int64_t kPairNetworkMax = 8 * W;

// One partition step of the pairs (n > kPairNetworkMax): simd_quicksort.h's, positions carried.
void split_pairs(uint64_t* k, uint64_t* v, int64_t n, int64_t* lo, int64_t* hi) {
  split<uint64_t, true>(k, v, n, lo, hi);
}

void quicksort_pairs(uint64_t* k, uint64_t* v, int64_t n, int depth) {
  while (n > kPairNetworkMax) {
    if (depth-- <= 0) {  // too deep
      sort_pairs_by_comparison(k, v, n);
      return;
    }
    int64_t lo, hi;
    split_pairs(k, v, n, &lo, &hi);
    if (lo < n - hi) {
      quicksort_pairs(k, v, lo, depth);
      k += hi;
      v += hi;
      n -= hi;
    } else {
      quicksort_pairs(k + hi, v + hi, n - hi, depth);
      n = lo;
    }
  }
  small_sort_pairs(k, v, n);
}

}  // namespace

bool simd_argsort_keys(uint64_t* keys, uint64_t* positions, int64_t n, bool allow_threads) {
  if (!simd_sort_available()) return simd_argsort_keys_avx2(keys, positions, n, allow_threads);
  if (n <= 1) return true;
  // All keys equal (the one input whose fix-up would be a sort of every position): done.
  if (std::all_of(keys, keys + n, [&](uint64_t k) { return k == keys[0]; })) return true;
  const int threads = allow_threads ? num_threads() : 1;
  constexpr int64_t kPartFrom = int64_t(1) << 16;  // parts worth a thread of their own
  if (threads == 1 || n < 2 * kPartFrom) {
    quicksort_pairs(keys, positions, n, depth_limit(n));
  } else {
    // As simd_sort.cpp's sort_keys. No run of equal keys spans two parts except the split-off
    // runs, which are final; order_equal_runs below fixes their positions.
    sort_in_parts(
        n, threads, kPartFrom,
        [&](int64_t b, int64_t m, int64_t* lo, int64_t* hi) { split_pairs(keys + b, positions + b, m, lo, hi); },
        [&](int64_t b, int64_t m) { quicksort_pairs(keys + b, positions + b, m, depth_limit(m)); });
  }
  order_equal_runs(keys, positions, n);
  return true;
}

}  // namespace dla::cpu
