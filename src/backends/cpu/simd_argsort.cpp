// simd_argsort.cpp — the AVX-512 quicksort of 64-bit keys carrying 64-bit positions, made
// stable afterwards: argsort of float64/int64/uint64/complex64 keys (simd_sort.h).
//
// The partition and the networks of simd_sort.cpp, with a second register of positions
// moved by the same masks. The networks compare (key, position) pairs, so that the padding
// lanes (largest key, largest position) sort after every real element and equal keys come
// out in position order; keys equal across partition boundaries are put back in position
// order by one scan at the end (runs of equal keys are rare unless the data has many
// duplicates, and then their positions are sorted by the keys-only vector sort).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "backends/cpu/parallel.h"
#include "backends/cpu/simd_sort.h"
#include "backends/cpu/simd_quicksort.h"  // (sort_pairs_by_comparison, order_equal_runs)
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

// The partition of simd_sort.cpp, moving each key's position along.
template <bool OrEqual>
struct PairWriter {
  uint64_t *k, *v;
  R p;
  int64_t lw, rw;
  // Whole vectors with room for a vector on each side (the main loop): whole left stores.
  DLA_SORT_INLINE void put(R vk, R vv) {
    const M m = OrEqual ? V::le(vk, p) : V::lt(vk, p);
    const int c = __builtin_popcount(unsigned(m));
    const M right = M(_bzhi_u32(~0u, unsigned(W - c)));
    V::store(k + lw, V::compress(m, vk));
    V::store(v + lw, V::compress(m, vv));
    lw += c;
    rw -= W - c;
    V::store(k + rw, right, V::compress(M(~m), vk));
    V::store(v + rw, right, V::compress(M(~m), vv));
  }
  DLA_SORT_INLINE void put(R vk, R vv, M live) {
    const M m = M((OrEqual ? V::le(vk, p) : V::lt(vk, p)) & live);
    const int c = __builtin_popcount(unsigned(m));
    const int rest = __builtin_popcount(unsigned(live)) - c;
    const M left = M(_bzhi_u32(~0u, unsigned(c))), right = M(_bzhi_u32(~0u, unsigned(rest)));
    V::store(k + lw, left, V::compress(m, vk));
    V::store(v + lw, left, V::compress(m, vv));
    lw += c;
    rw -= rest;
    V::store(k + rw, right, V::compress(M(live & ~m), vk));
    V::store(v + rw, right, V::compress(M(live & ~m), vv));
  }
};

template <bool OrEqual>
DLA_SORT_TARGET int64_t partition_pairs(uint64_t* k, uint64_t* v, int64_t n, uint64_t pivot) {
  constexpr int U = 4;
  constexpr M all = low_lanes<uint64_t>(W);
  PairWriter<OrEqual> w{k, v, V::set1(pivot), 0, n};
  R fk[U], fv[U], lk[U], lv[U];
#pragma GCC unroll 4
  for (int u = 0; u < U; ++u) {
    fk[u] = V::load(k + u * W);
    fv[u] = V::load(v + u * W);
    lk[u] = V::load(k + n - (U - u) * W);
    lv[u] = V::load(v + n - (U - u) * W);
  }
  int64_t l = U * W, r = n - U * W;
  while (r - l >= U * W) {  // U vectors at a time from the side with less room (see simd_sort.cpp)
    int64_t at;
    if (l - w.lw <= w.rw - r) {
      at = l;
      l += U * W;
    } else {
      r -= U * W;
      at = r;
    }
    R xk[U], xv[U];
#pragma GCC unroll 4
    for (int u = 0; u < U; ++u) {
      xk[u] = V::load(k + at + u * W);
      xv[u] = V::load(v + at + u * W);
    }
#pragma GCC unroll 4
    for (int u = 0; u < U; ++u) w.put(xk[u], xv[u]);
  }
  while (r - l >= W) {  // then a vector at a time
    int64_t at;
    if (l - w.lw <= w.rw - r) {
      at = l;
      l += W;
    } else {
      r -= W;
      at = r;
    }
    w.put(V::load(k + at), V::load(v + at), all);
  }
  if (r > l) {
    const M live = low_lanes<uint64_t>(int(r - l));
    w.put(V::load(k + l, live, V::set1(0)), V::load(v + l, live, V::set1(0)), live);
  }
#pragma GCC unroll 4
  for (int u = 0; u < U; ++u) {
    w.put(fk[u], fv[u], all);
    w.put(lk[u], lv[u], all);
  }
  return w.lw;
}

// Pairs take two registers each: networks of up to 8 register pairs keep all in registers.
constexpr int64_t kPairNetworkMax = 8 * W;

// One partition step of the pairs (n > kPairNetworkMax): [lo, hi) as simd_sort.cpp's split.
void split_pairs(uint64_t* k, uint64_t* v, int64_t n, int64_t* lo, int64_t* hi) {
  const uint64_t p = sample_pivot(k, n);
  const int64_t b = partition_pairs<false>(k, v, n, p);
  if (b > 0) {
    *lo = *hi = b;
    return;
  }
  // p is the smallest key: its run is final (positions fixed up at the end)
  *lo = 0;
  *hi = p == std::numeric_limits<uint64_t>::max() ? n : partition_pairs<true>(k, v, n, p);
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
