// simd_quicksort.h — the vector quicksort of keys (simd_sort.h) over the traits of
// simd_sort_vec.h, included once per ISA (simd_sort.cpp for AVX-512, simd_sort_avx2.cpp for
// AVX2), in the namespace simd_sort_vec.h chose for it.
//
// With kCarry (64-bit keys: argsort) each key moves with its position, q[i] beside a[i]:
// partitions move both by the same lane orders, networks by the same verdicts (on both ISAs),
// and runs of equal keys get their positions back in ascending order at the end (a stable
// argsort).
//
// Partition (in place): U vectors are kept back from each end, so that the slots already read
// always leave room for the next vectors' two compressed halves (keys below the pivot to the
// left write position, the rest to the right one: on AVX-512 each by a masked store, since
// compressing straight to memory is microcoded and slow on AMD Zen 4; on AVX2 both whole).
// Reading from the side with less room keeps both write positions behind their read
// positions. Pivots are the median of a sorted sample; a pivot that is the range's minimum
// (many equal keys) splits off its equal keys instead, so every partition makes progress, and
// a recursion deeper than 2 log2 n falls back to std::sort.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "backends/cpu/parallel.h"
#include "backends/cpu/simd_sort_vec.h"

namespace dla::cpu::DLA_SORT_NS {

// Where partition() writes: lw is the next slot on the left, rw the end of the free room
// on the right (in a, and with kCarry in q alike).
template <class K, bool OrEqual, bool kCarry = false>
struct Writer {
  using V = Vec<K>;
  static_assert(!kCarry || sizeof(K) == 8, "positions travel with 64-bit keys");
  K* a;
  uint64_t* q;
  typename V::R p;
  int64_t lw, rw;
  // All of v, when there is room for a whole vector on both sides (the main loop): the left
  // half is stored whole (lanes past it are overwritten later), which saves a mask there. With
  // kWholeStores (AVX2, whose masked stores are slow) the right half too: one compress puts
  // the left keys first and the right ones last, stored whole at both ends.
  DLA_SORT_INLINE void put(typename V::R v, typename V::R pos = {}) {
    const typename V::M m = OrEqual ? V::le(v, p) : V::lt(v, p);
    if constexpr (V::kWholeStores) {
      // (A 64-bit count: no sign extension between the popcount and the pointer arithmetic.)
      const int64_t c = int64_t(_mm_popcnt_u64(uint64_t(m)));
      const typename V::R order = V::compress_order(m);
      const typename V::R both = V::permute(order, v);
      V::store(a + lw, both);
      V::store(a + rw - V::W, both);
      if constexpr (kCarry) {
        const typename V::R both_pos = V::permute(order, pos);
        V::store(q + lw, both_pos);
        V::store(q + rw - V::W, both_pos);
      }
      lw += c;
      rw += c - V::W;
    } else {
      const int c = __builtin_popcount(unsigned(m));
      const typename V::M right = typename V::M(_bzhi_u32(~0u, unsigned(V::W - c)));
      V::store(a + lw, V::compress(m, v));
      if constexpr (kCarry) V::store(q + lw, V::compress(m, pos));
      lw += c;
      rw -= V::W - c;
      V::store(a + rw, right, V::compress(typename V::M(~m), v));
      if constexpr (kCarry) V::store(q + rw, right, V::compress(typename V::M(~m), pos));
    }
  }
  // The live lanes of v (and of pos, with kCarry): those below the pivot to the left, the rest
  // to the right (AVX-512).
  DLA_SORT_INLINE void put(typename V::R v, typename V::M live, typename V::R pos) {
    const typename V::M m = typename V::M((OrEqual ? V::le(v, p) : V::lt(v, p)) & live);
    const typename V::M rest = typename V::M(live & ~m);
    const int c = __builtin_popcount(unsigned(m));
    const int nrest = __builtin_popcount(unsigned(live)) - c;
    V::store(a + lw, low_lanes<K>(c), V::compress(m, v));
    if constexpr (kCarry) V::store(q + lw, low_lanes<K>(c), V::compress(m, pos));
    lw += c;
    rw -= nrest;
    V::store(a + rw, low_lanes<K>(nrest), V::compress(rest, v));
    if constexpr (kCarry) V::store(q + rw, low_lanes<K>(nrest), V::compress(rest, pos));
  }
};

// Moves the keys of a[0..n) (n >= 2 U W) below the pivot (key < pivot, or key <= pivot with
// OrEqual) to the front and returns their count. U vectors are kept back from each end and
// read per step, so that the side decision (a branch the predictor cannot learn) is taken
// once per U vectors: 8 on AVX2 (against 4, 1e6 int64 keys sort in 9.3 ms instead of
// 10.7 on an AVX2 EPYC), 4 on AVX-512.
//
// With kWholeStores (AVX2) every store is a whole vector, none masked (a masked store costs
// AMD about ten plain ones, and a partition would make 2 U + 2 of them): the vectors cover
// a[0..n - n % W), so the free room stays a multiple of W and, at the end, a whole store of
// both halves fits it exactly (see Writer::put); the last n % W keys are then swapped in
// one at a time.
template <class K, bool OrEqual, bool kCarry = false>
DLA_SORT_TARGET int64_t partition(K* a, uint64_t* q, int64_t n, K pivot) {
  using V = Vec<K>;
  using R = typename V::R;
  constexpr int W = V::W, U = V::kWholeStores ? 8 : 4;
  static_assert(kNetworkMax<K, kCarry> >= 2 * U * W, "quicksort() partitions ranges longer than kNetworkMax only");
  constexpr typename V::M all = low_lanes<K>(W);
  const int64_t tail = V::kWholeStores ? n % W : 0;
  const int64_t whole = n - tail;
  Writer<K, OrEqual, kCarry> w{a, q, V::set1(pivot), 0, whole};

  R first[U], last[U], first_pos[U] = {}, last_pos[U] = {};
#pragma GCC unroll 8
  for (int u = 0; u < U; ++u) {
    first[u] = V::load(a + u * W);
    last[u] = V::load(a + whole - (U - u) * W);
    if constexpr (kCarry) {
      first_pos[u] = V::load(q + u * W);
      last_pos[u] = V::load(q + whole - (U - u) * W);
    }
  }
  int64_t l = U * W, r = whole - U * W;  // unread keys: a[l..r)
  while (r - l >= U * W) {
    int64_t at;
    if (l - w.lw <= w.rw - r) {
      at = l;
      l += U * W;
    } else {
      r -= U * W;
      at = r;
    }
    R v[U], pos[U] = {};
#pragma GCC unroll 8
    for (int u = 0; u < U; ++u) {
      v[u] = V::load(a + at + u * W);
      if constexpr (kCarry) pos[u] = V::load(q + at + u * W);
    }
#pragma GCC unroll 8
    for (int u = 0; u < U; ++u) w.put(v[u], pos[u]);
  }
  while (r - l >= W) {  // the same a vector at a time (room for W on each side stays)
    int64_t at;
    if (l - w.lw <= w.rw - r) {
      at = l;
      l += W;
    } else {
      r -= W;
      at = r;
    }
    if constexpr (V::kWholeStores) w.put(V::load(a + at), kCarry ? V::load(q + at) : R{});
    else if constexpr (kCarry) w.put(V::load(a + at), all, V::load(reinterpret_cast<const K*>(q + at)));
    else w.put(V::load(a + at), all, V::set1(0));
  }
  if constexpr (V::kWholeStores) {
#pragma GCC unroll 8
    for (int u = 0; u < U; ++u) {
      w.put(first[u], first_pos[u]);
      w.put(last[u], last_pos[u]);
    }
    int64_t below = w.lw;
    for (int64_t j = whole; j < n; ++j) {  // each tail key below the pivot swaps with the first key above
      const K x = a[j], y = a[below];
      const bool is_below = OrEqual ? x <= pivot : x < pivot;
      a[j] = is_below ? y : x;
      a[below] = is_below ? x : y;
      if constexpr (kCarry) {
        const uint64_t px = q[j], py = q[below];
        q[j] = is_below ? py : px;
        q[below] = is_below ? px : py;
      }
      below += is_below;
    }
    return below;
  } else {
    if (r > l) {
      const typename V::M live = low_lanes<K>(int(r - l));
      if constexpr (kCarry)
        w.put(V::load(a + l, live, V::set1(0)), live, V::load(reinterpret_cast<const K*>(q + l), live, V::set1(0)));
      else
        w.put(V::load(a + l, live, V::set1(0)), live, V::set1(0));
    }
#pragma GCC unroll 4
    for (int u = 0; u < U; ++u) {
      w.put(first[u], all, first_pos[u]);
      w.put(last[u], all, last_pos[u]);
    }
    return w.lw;
  }
}

// One partition step of a[0..n) (n > kNetworkMax): returns [lo, hi) such that a[0..lo) and
// a[hi..n) remain to be sorted and a[lo..hi) is in place (empty unless a run of equal keys
// was split off).
template <class K, bool kCarry = false>
void split(K* a, uint64_t* q, int64_t n, int64_t* lo, int64_t* hi) {
  const K p = sample_pivot(a, n);
  const int64_t b = partition<K, false, kCarry>(a, q, n, p);
  if (b > 0) {
    *lo = *hi = b;
    return;
  }
  // p is the smallest key: its equal keys are final (their positions put in order at the end).
  *lo = 0;
  *hi = p == std::numeric_limits<K>::max() ? n : partition<K, true, kCarry>(a, q, n, p);
}

// (key, position) pairs by std::sort: the exact order, positions being distinct.
template <class K>
void sort_pairs_by_comparison(K* a, uint64_t* q, int64_t n) {
  std::vector<std::pair<K, uint64_t>> t(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) t[size_t(i)] = {a[i], q[i]};
  std::sort(t.begin(), t.end());
  for (int64_t i = 0; i < n; ++i) {
    a[i] = t[size_t(i)].first;
    q[i] = t[size_t(i)].second;
  }
}

template <class K, bool kCarry = false>
void quicksort(K* a, uint64_t* q, int64_t n, int depth) {
  while (n > kNetworkMax<K, kCarry>) {
    if (depth-- <= 0) {
      if constexpr (kCarry) sort_pairs_by_comparison(a, q, n);
      else std::sort(a, a + n);
      return;
    }
    int64_t lo, hi;
    split<K, kCarry>(a, q, n, &lo, &hi);
    // Recurse into the smaller side, loop on the larger: the stack stays O(log n).
    if (lo < n - hi) {
      quicksort<K, kCarry>(a, q, lo, depth);
      a += hi;
      if constexpr (kCarry) q += hi;
      n -= hi;
    } else {
      quicksort<K, kCarry>(a + hi, kCarry ? q + hi : q, n - hi, depth);
      n = lo;
    }
  }
  if (!small_sort<K, kCarry>(a, q, n)) {  // (only ever false with kCarry)
    if constexpr (kCarry) sort_pairs_by_comparison(a, q, n);
  }
}

// a[k] made the key a sort would put there, keys before it no greater and keys after it no
// smaller (partition/argpartition), with q[0..n) moved along if kCarry: the quicksort's
// partition steps, each followed into the side that holds k only (quickselect), a range of
// kNetworkMax keys or fewer sorted by its network; too deep a recursion falls back to
// std::nth_element.
template <class K, bool kCarry = false>
void select_key(K* a, uint64_t* q, int64_t n, int64_t k) {
  int depth = depth_limit(n);
  while (n > kNetworkMax<K, kCarry>) {
    if (depth-- <= 0) {
      if constexpr (kCarry) {
        std::vector<std::pair<K, uint64_t>> t(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) t[size_t(i)] = {a[i], q[i]};
        std::nth_element(t.begin(), t.begin() + k, t.end());
        for (int64_t i = 0; i < n; ++i) {
          a[i] = t[size_t(i)].first;
          q[i] = t[size_t(i)].second;
        }
      } else {
        std::nth_element(a, a + k, a + n);
      }
      return;
    }
    int64_t lo, hi;
    split<K, kCarry>(a, q, n, &lo, &hi);
    if (k >= lo && k < hi) return;  // k fell in a run of keys equal to the pivot: final
    if (k < lo) {
      n = lo;
    } else {
      a += hi;
      if constexpr (kCarry) q += hi;
      n -= hi;
      k -= hi;
    }
  }
  if (!small_sort<K, kCarry>(a, q, n)) {  // (only ever false with kCarry)
    if constexpr (kCarry) sort_pairs_by_comparison(a, q, n);
  }
}

// Sorts a[0..n) (with q[0..n) along, if kCarry), with threads on the pool for a long row where
// allowed.
template <class K, bool kCarry = false>
void sort_keys(K* a, uint64_t* q, int64_t n, bool allow_threads) {
  const int threads = allow_threads ? num_threads() : 1;
  constexpr int64_t kPartFrom = int64_t(1) << (kCarry ? 16 : 17);  // parts worth a thread of their own
  if (threads == 1 || n < 2 * kPartFrom) {
    quicksort<K, kCarry>(a, q, n, depth_limit(n));
    return;
  }
  sort_in_parts(
      n, threads, kPartFrom,
      [&](int64_t b, int64_t m, int64_t* lo, int64_t* hi) { split<K, kCarry>(a + b, kCarry ? q + b : q, m, lo, hi); },
      [&](int64_t b, int64_t m) { quicksort<K, kCarry>(a + b, kCarry ? q + b : q, m, depth_limit(m)); });
}

template <class K>
void sort_keys(K* a, int64_t n, bool allow_threads) {
  sort_keys<K, false>(a, nullptr, n, allow_threads);
}

// The positions q[0..n) of each run of equal keys in sorted a[0..n) put in ascending order
// (the partitions scatter them). Runs are rare unless the data has many duplicates, and then
// the positions take this same vector sort.
template <class K>
void order_equal_runs(const K* a, uint64_t* q, int64_t n) {
  for (int64_t i = 1; i < n;) {
    if (a[i] != a[i - 1]) {
      ++i;
      continue;
    }
    const int64_t b = i - 1;
    while (i < n && a[i] == a[b]) ++i;
    if (!std::is_sorted(q + b, q + i)) sort_keys(reinterpret_cast<int64_t*>(q + b), i - b, false);
  }
}

// Sorts a[0..n) carrying q[0..n) (distinct positions below 2^63), equal keys in ascending
// order of their positions (a stable argsort when q starts as 0, 1, 2 ...).
template <class K>
void argsort_keys(K* a, uint64_t* q, int64_t n, bool allow_threads) {
  if (n <= 1 || std::all_of(a, a + n, [&](K k) { return k == a[0]; })) return;  // (all equal: in order)
  sort_keys<K, true>(a, q, n, allow_threads);
  order_equal_runs(a, q, n);
}

}  // namespace dla::cpu::DLA_SORT_NS
