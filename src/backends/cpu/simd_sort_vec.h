// simd_sort_vec.h — the pieces the vector sorts share (simd_sort.cpp on AVX-512,
// simd_sort_avx2.cpp on AVX2, keys alone or with positions): per-width vector traits, the
// bitonic networks that sort up to 16 registers of keys, the sample-median pivot, the
// quicksorts' depth limit, and the split of a long row into parts sorted on the thread pool.
//
// Included once per ISA: by default for AVX-512 (namespace simd_sort_detail, masks as AVX-512
// mask registers), and with DLA_SORT_ISA_AVX2 defined for AVX2 (namespace simd_sort_avx2,
// masks as movemask bits, compresses by a permutation table), so that the two instantiations
// of the same templates never meet at link time.
#pragma once
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "backends/cpu/parallel.h"

#ifndef DLA_SORT_ISA_AVX2
#define DLA_SORT_TARGET __attribute__((target("avx512f,avx512dq,avx512vl,popcnt,bmi2")))
#define DLA_SORT_NS simd_sort_detail
#else
#define DLA_SORT_TARGET __attribute__((target("avx2,popcnt,bmi2")))
#define DLA_SORT_NS simd_sort_avx2
#endif
#define DLA_SORT_INLINE DLA_SORT_TARGET __attribute__((always_inline)) inline

namespace dla::cpu::DLA_SORT_NS {

template <class K>
struct Vec;

#ifndef DLA_SORT_ISA_AVX2

template <>
struct Vec<uint32_t> {
  using R = __m512i;
  using M = __mmask16;
  static constexpr int W = 16;
  static constexpr bool kWholeStores = false;  // partition stores each half under a mask
  static constexpr bool kColumnsFirst = false;  // networks sort each register first (sort_registers)
  DLA_SORT_INLINE static R load(const uint32_t* p) { return _mm512_loadu_si512(p); }
  DLA_SORT_INLINE static R load(const uint32_t* p, M m, R fill) { return _mm512_mask_loadu_epi32(fill, m, p); }
  DLA_SORT_INLINE static void store(uint32_t* p, M m, R v) { _mm512_mask_storeu_epi32(p, m, v); }
  DLA_SORT_INLINE static void store(uint32_t* p, R v) { _mm512_storeu_si512(p, v); }
  DLA_SORT_INLINE static R set1(uint32_t k) { return _mm512_set1_epi32(int(k)); }
  DLA_SORT_INLINE static R min(R a, R b) { return _mm512_min_epu32(a, b); }
  DLA_SORT_INLINE static R max(R a, R b) { return _mm512_max_epu32(a, b); }
  DLA_SORT_INLINE static M lt(R a, R b) { return _mm512_cmplt_epu32_mask(a, b); }
  DLA_SORT_INLINE static M le(R a, R b) { return _mm512_cmple_epu32_mask(a, b); }
  DLA_SORT_INLINE static M ne(R a, R b) { return _mm512_cmpneq_epu32_mask(a, b); }
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
  static constexpr bool kWholeStores = false;
  static constexpr bool kColumnsFirst = false;
  DLA_SORT_INLINE static R load(const uint64_t* p) { return _mm512_loadu_si512(p); }
  DLA_SORT_INLINE static R load(const uint64_t* p, M m, R fill) { return _mm512_mask_loadu_epi64(fill, m, p); }
  DLA_SORT_INLINE static void store(uint64_t* p, M m, R v) { _mm512_mask_storeu_epi64(p, m, v); }
  DLA_SORT_INLINE static void store(uint64_t* p, R v) { _mm512_storeu_si512(p, v); }
  DLA_SORT_INLINE static R set1(uint64_t k) { return _mm512_set1_epi64(int64_t(k)); }
  DLA_SORT_INLINE static R min(R a, R b) { return _mm512_min_epu64(a, b); }
  DLA_SORT_INLINE static R max(R a, R b) { return _mm512_max_epu64(a, b); }
  DLA_SORT_INLINE static M lt(R a, R b) { return _mm512_cmplt_epu64_mask(a, b); }
  DLA_SORT_INLINE static M le(R a, R b) { return _mm512_cmple_epu64_mask(a, b); }
  DLA_SORT_INLINE static M ne(R a, R b) { return _mm512_cmpneq_epu64_mask(a, b); }
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

#else
// AVX2: a mask is the lanes' movemask bits (lane i: bit i; bits past W ignored), turned into a
// vector mask where a masked load or store or a blend needs one; a compress is one permute by a
// table of lane orders (the mask's lanes first, in order, then the others), so that both halves
// of a partitioned vector come out of one permute.
struct CompressOrders {
  int32_t lanes32[256][8];  // 8 lanes of 32 bits
  int32_t lanes64[16][8];   // 4 lanes of 64 bits, as pairs of 32-bit lane numbers
};
constexpr CompressOrders make_compress_orders() {
  CompressOrders t{};
  for (int m = 0; m < 256; ++m) {
    int k = 0;
    for (int pass = 0; pass < 2; ++pass)
      for (int i = 0; i < 8; ++i)
        if (((m >> i) & 1) == (pass == 0 ? 1 : 0)) t.lanes32[m][k++] = i;
  }
  for (int m = 0; m < 16; ++m) {
    int k = 0;
    for (int pass = 0; pass < 2; ++pass)
      for (int i = 0; i < 4; ++i)
        if (((m >> i) & 1) == (pass == 0 ? 1 : 0)) {
          t.lanes64[m][k++] = 2 * i;
          t.lanes64[m][k++] = 2 * i + 1;
        }
  }
  return t;
}
alignas(32) inline constexpr CompressOrders kCompressOrders = make_compress_orders();

// The traits for 32-bit (Bits 32) or 64-bit keys, unsigned or Signed.
template <int Bits, bool Signed>
struct Avx2Vec {
  using R = __m256i;
  using M = uint32_t;
  static constexpr int W = 256 / Bits;
  static constexpr bool kWholeStores = true;  // partition stores whole vectors (see Writer)
  static constexpr bool kColumnsFirst = true;  // networks sort columns, then transpose (sort_registers)
  DLA_SORT_INLINE static R lane_bits() {
    if constexpr (Bits == 32) return _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    else return _mm256_setr_epi64x(1, 2, 4, 8);
  }
  DLA_SORT_INLINE static R vector_mask(M m) {
    const R b = lane_bits();
    if constexpr (Bits == 32) return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(int(m)), b), b);
    else return _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x(int64_t(m)), b), b);
  }
  template <class K>
  DLA_SORT_INLINE static R load(const K* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  // Masked loads and stores take the plain instruction when every lane is live (the networks'
  // full registers): AMD's masked stores cost several times a plain one.
  template <class K>
  DLA_SORT_INLINE static R load(const K* p, M m, R fill) {
    if ((m & ((1u << W) - 1)) == (1u << W) - 1) return load(p);
    const R v = vector_mask(m);
    if constexpr (Bits == 32) return _mm256_blendv_epi8(fill, _mm256_maskload_epi32(reinterpret_cast<const int*>(p), v), v);
    else return _mm256_blendv_epi8(fill, _mm256_maskload_epi64(reinterpret_cast<const long long*>(p), v), v);
  }
  template <class K>
  DLA_SORT_INLINE static void store(K* p, M m, R v) {
    if ((m & ((1u << W) - 1)) == (1u << W) - 1) return store(p, v);
    if constexpr (Bits == 32) _mm256_maskstore_epi32(reinterpret_cast<int*>(p), vector_mask(m), v);
    else _mm256_maskstore_epi64(reinterpret_cast<long long*>(p), vector_mask(m), v);
  }
  template <class K>
  DLA_SORT_INLINE static void store(K* p, R v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
  template <class K>
  DLA_SORT_INLINE static R set1(K k) {
    if constexpr (Bits == 32) return _mm256_set1_epi32(int(k));
    else return _mm256_set1_epi64x(int64_t(k));
  }
  // a > b as a vector mask (64-bit unsigned: signed compare with the sign bits flipped).
  DLA_SORT_INLINE static R greater(R a, R b) {
    if constexpr (Bits == 32) {
      if constexpr (Signed) return _mm256_cmpgt_epi32(a, b);
      const R s = _mm256_set1_epi32(INT32_MIN);
      return _mm256_cmpgt_epi32(_mm256_xor_si256(a, s), _mm256_xor_si256(b, s));
    } else {
      if constexpr (Signed) return _mm256_cmpgt_epi64(a, b);
      const R s = _mm256_set1_epi64x(INT64_MIN);
      return _mm256_cmpgt_epi64(_mm256_xor_si256(a, s), _mm256_xor_si256(b, s));
    }
  }
  DLA_SORT_INLINE static M bits(R v) {
    if constexpr (Bits == 32) return M(_mm256_movemask_ps(_mm256_castsi256_ps(v)));
    else return M(_mm256_movemask_pd(_mm256_castsi256_pd(v)));
  }
  DLA_SORT_INLINE static R min(R a, R b) {
    if constexpr (Bits == 32) return Signed ? _mm256_min_epi32(a, b) : _mm256_min_epu32(a, b);
    else return _mm256_blendv_epi8(a, b, greater(a, b));
  }
  DLA_SORT_INLINE static R max(R a, R b) {
    if constexpr (Bits == 32) return Signed ? _mm256_max_epi32(a, b) : _mm256_max_epu32(a, b);
    else return _mm256_blendv_epi8(b, a, greater(a, b));
  }
  DLA_SORT_INLINE static M lt(R a, R b) { return bits(greater(b, a)); }
  DLA_SORT_INLINE static M le(R a, R b) { return M(~bits(greater(a, b)) & ((1u << W) - 1)); }
  // The lane order that puts the lanes of m first (compress_order), and the compress by it.
  // m < 2^W, as every mask of lt, le and live lanes is (no masking on the partition's path).
  DLA_SORT_INLINE static R compress_order(M m) {
    const int32_t* order = Bits == 32 ? kCompressOrders.lanes32[m] : kCompressOrders.lanes64[m];
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(order));
  }
  DLA_SORT_INLINE static R compress(M m, R v) { return _mm256_permutevar8x32_epi32(v, compress_order(m)); }
  DLA_SORT_INLINE static R permute(R idx, R v) { return _mm256_permutevar8x32_epi32(v, idx); }
  DLA_SORT_INLINE static R blend(M take_b, R a, R b) { return _mm256_blendv_epi8(a, b, vector_mask(take_b)); }
  DLA_SORT_INLINE static R max(M m, R src, R a, R b) { return blend(m, src, max(a, b)); }
  // The lanes of kMax take the larger of v and p, the others the smaller (a network stage):
  // 32-bit keys by min, max and a blend of constant lanes; 64-bit ones from one compare, p
  // taken where v > p differs from the lane's wish for the larger (equal keys either way).
  template <M kMax>
  DLA_SORT_INLINE static R exchange(R v, R p) {
    if constexpr (Bits == 32) return _mm256_blend_epi32(min(v, p), max(v, p), int(kMax));
    else return _mm256_blendv_epi8(v, p, _mm256_xor_si256(greater(v, p), vector_mask_const<kMax>()));
  }
  // a, with b in the lanes of kTake (a blend by an immediate).
  template <M kTake>
  DLA_SORT_INLINE static R blend_lanes(R a, R b) {
    constexpr int kImm = Bits == 32 ? int(kTake)
                                    : int((kTake & 1 ? 3 : 0) | (kTake & 2 ? 12 : 0) | (kTake & 4 ? 48 : 0) | (kTake & 8 ? 192 : 0));
    return _mm256_blend_epi32(a, b, kImm);
  }
  template <M kMax>
  DLA_SORT_INLINE static R vector_mask_const() {
    return _mm256_setr_epi64x(kMax & 1 ? -1 : 0, kMax & 2 ? -1 : 0, kMax & 4 ? -1 : 0, kMax & 8 ? -1 : 0);
  }
  // Both of min(a, b) and max(a, b), from one compare for 64-bit keys.
  DLA_SORT_INLINE static void min_max(R a, R b, R* lo, R* hi) {
    if constexpr (Bits == 32) {
      *lo = min(a, b);
      *hi = max(a, b);
    } else {
      const R gt = greater(a, b);
      *lo = _mm256_blendv_epi8(a, b, gt);
      *hi = _mm256_blendv_epi8(b, a, gt);
    }
  }
  DLA_SORT_INLINE static R lanes_xor(int j) {  // lane i -> i ^ j, as 32-bit lane numbers
    if constexpr (Bits == 32) return _mm256_xor_si256(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(j));
    else return _mm256_add_epi32(_mm256_slli_epi32(_mm256_xor_si256(_mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3), _mm256_set1_epi32(j)), 1),
                                 _mm256_setr_epi32(0, 1, 0, 1, 0, 1, 0, 1));
  }
  // v[0..W) as the rows of a W x W matrix, transposed in place (register i <- lane i of each).
  DLA_SORT_INLINE static void transpose(R* v) {
    if constexpr (Bits == 64) {
      const R t0 = _mm256_unpacklo_epi64(v[0], v[1]), t1 = _mm256_unpackhi_epi64(v[0], v[1]);
      const R t2 = _mm256_unpacklo_epi64(v[2], v[3]), t3 = _mm256_unpackhi_epi64(v[2], v[3]);
      v[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
      v[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
      v[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
      v[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
    } else {
      R t[8], s[8];
      for (int i = 0; i < 8; i += 2) {  // pairs of rows interleaved
        t[i] = _mm256_unpacklo_epi32(v[i], v[i + 1]);
        t[i + 1] = _mm256_unpackhi_epi32(v[i], v[i + 1]);
      }
      for (int i = 0; i < 8; i += 4) {  // then quads: s[i + c] holds column c (low half) and c + 4
        s[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
        s[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
        s[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
        s[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
      }
      for (int c = 0; c < 4; ++c) {
        v[c] = _mm256_permute2x128_si256(s[c], s[c + 4], 0x20);
        v[c + 4] = _mm256_permute2x128_si256(s[c], s[c + 4], 0x31);
      }
    }
  }
  template <int j>
  DLA_SORT_INLINE static R swap_lanes(R v) {
    if constexpr (Bits == 32 && j == 1) return _mm256_shuffle_epi32(v, 0xB1);
    else if constexpr ((Bits == 32 && j == 2) || (Bits == 64 && j == 1)) return _mm256_shuffle_epi32(v, 0x4E);
    else return _mm256_permute2x128_si256(v, v, 0x01);  // the two 128-bit halves swapped
  }
};
template <> struct Vec<uint32_t> : Avx2Vec<32, false> {};
template <> struct Vec<uint64_t> : Avx2Vec<64, false> {};
template <> struct Vec<int32_t> : Avx2Vec<32, true> {};
template <> struct Vec<int64_t> : Avx2Vec<64, true> {};
#endif

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

// The positions a sort of keys may carry along (argsort): a register of them beside each
// register of keys (Pos = Vec<K>::R), or none (NoPos, which every step ignores).
struct NoPos {};
template <class K, class Pos>
constexpr bool kCarries = !std::is_same_v<Pos, NoPos>;
// The position register type, or NoPos (a vector type as a template argument loses its
// attributes, so no std::conditional_t over one).
template <class K, bool kCarry>
struct CarriedPos {
  using type = NoPos;
};
template <class K>
struct CarriedPos<K, true> {
  using type = typename Vec<K>::R;
};

// One compare-exchange stage inside a register. Carrying positions, both lanes of a pair act
// on the one verdict "the pair is out of order" (each lane's own compare would swap equal keys
// one way only, duplicating a position): on AVX-512, a lane whose key changed took its
// partner's (equal keys stay put): one compare beside the keys' own minimum and maximum.
template <class K, int k, int j, class Pos = NoPos>
DLA_SORT_INLINE void stage(typename Vec<K>::R& v, Pos& pos) {
  using V = Vec<K>;
  const typename V::R p = V::template swap_lanes<j>(v);
  if constexpr (kCarries<K, Pos> && !V::kWholeStores) {
    const typename V::R next = V::max(max_lanes<K>(k, j), V::min(v, p), v, p);
    pos = V::blend(V::ne(next, v), pos, V::template swap_lanes<j>(pos));
    v = next;
  } else if constexpr (kCarries<K, Pos>) {  // AVX2: the lower lane's compare, swapped across
    const typename V::R gt = V::greater(v, p);  // lane i: key i > key i ^ j
    const typename V::R take = V::template blend_lanes<max_lanes<K>(k, j)>(gt, V::template swap_lanes<j>(gt));
    pos = _mm256_blendv_epi8(pos, V::template swap_lanes<j>(pos), take);
    v = _mm256_blendv_epi8(v, p, take);
  } else if constexpr (V::kWholeStores) {
    v = V::template exchange<max_lanes<K>(k, j)>(v, p);
  } else {
    v = V::max(max_lanes<K>(k, j), V::min(v, p), v, p);  // min, and max where the mask says
  }
}

// Sorts the lanes of one register ascending (bitonic network: 10 stages for 16 lanes, 6 for 8, 3 for 4).
template <class K, class Pos = NoPos>
DLA_SORT_INLINE void sort_register(typename Vec<K>::R& v, Pos& pos) {
  stage<K, 2, 1>(v, pos);
  stage<K, 4, 2>(v, pos);
  stage<K, 4, 1>(v, pos);
  if constexpr (Vec<K>::W >= 8) {
    stage<K, 8, 4>(v, pos);
    stage<K, 8, 2>(v, pos);
    stage<K, 8, 1>(v, pos);
  }
  if constexpr (Vec<K>::W == 16) {
    stage<K, 16, 8>(v, pos);
    stage<K, 16, 4>(v, pos);
    stage<K, 16, 2>(v, pos);
    stage<K, 16, 1>(v, pos);
  }
}

// A bitonic register made ascending (the last log2 W stages of a merge). With k = 2W, bit k
// of a lane number is never set: every pair sorts ascending.
template <class K, class Pos = NoPos>
DLA_SORT_INLINE void clean_register(typename Vec<K>::R& v, Pos& pos) {
  constexpr int W = Vec<K>::W;
  if constexpr (W == 16) stage<K, 32, 8>(v, pos);
  if constexpr (W >= 8) stage<K, 2 * W, 4>(v, pos);
  stage<K, 2 * W, 2>(v, pos);
  stage<K, 2 * W, 1>(v, pos);
}

template <class K, class Pos = NoPos>
DLA_SORT_INLINE void reverse_register(typename Vec<K>::R& v, Pos& pos) {
  const typename Vec<K>::R reversed = Vec<K>::lanes_xor(Vec<K>::W - 1);
  v = Vec<K>::permute(reversed, v);
  if constexpr (kCarries<K, Pos>) pos = Vec<K>::permute(reversed, pos);
}

// Batcher's odd-even merge sort of N inputs as a list of compare-exchanges (lo[i], hi[i]),
// lo < hi: 5 for 4 inputs, 19 for 8, 63 for 16. sort_registers checks each network it uses
// at compile time on all 2^N inputs of zeros and ones (which suffices: the 0-1 principle).
template <int N>
struct ExchangeList {
  int count = 0;
  int lo[N * 4 + 1] = {};
  int hi[N * 4 + 1] = {};
};
template <int N>
constexpr ExchangeList<N> odd_even_merge_network() {
  ExchangeList<N> net;
  for (int p = 1; p < N; p *= 2)
    for (int k = p; k >= 1; k /= 2)
      for (int j = k % p; j + k < N; j += 2 * k)
        for (int i = 0; i < k && i + j + k < N; ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) {
            net.lo[net.count] = i + j;
            net.hi[net.count] = i + j + k;
            ++net.count;
          }
  return net;
}

// Bit-sliced: wire i is a word whose bit j is wire i's bit in input 64 b + j, so that an
// exchange is an AND (the minimum) and an OR (the maximum) for 64 inputs at once.
template <int N>
constexpr bool sorts_every_zero_one_input(const ExchangeList<N>& net) {
  constexpr uint64_t kLowBits[6] = {0xaaaaaaaaaaaaaaaaull, 0xccccccccccccccccull, 0xf0f0f0f0f0f0f0f0ull,
                                    0xff00ff00ff00ff00ull, 0xffff0000ffff0000ull, 0xffffffff00000000ull};
  for (uint64_t b = 0; b < ((uint64_t(1) << N) + 63) / 64; ++b) {
    uint64_t wire[N] = {};
    for (int i = 0; i < N; ++i) wire[i] = i < 6 ? kLowBits[i] : ((b >> (i - 6)) & 1) ? ~uint64_t(0) : 0;
    for (int i = 0; i < net.count; ++i) {
      const uint64_t lo = wire[net.lo[i]], hi = wire[net.hi[i]];
      wire[net.lo[i]] = lo & hi;
      wire[net.hi[i]] = lo | hi;
    }
    for (int i = 0; i + 1 < N; ++i)
      if (wire[i] & ~wire[i + 1]) return false;  // some input left a one before a zero
  }
  return true;
}

// Registers a and b (with their positions) exchanged lane by lane: a the smaller keys.
template <class K, class Pos = NoPos>
DLA_SORT_INLINE void exchange_registers(typename Vec<K>::R& a, typename Vec<K>::R& b, Pos& pa, Pos& pb) {
  using V = Vec<K>;
  typename V::R lo, hi;
  if constexpr (kCarries<K, Pos> && !V::kWholeStores) {  // (as stage: lanes whose key changed)
    lo = V::min(a, b);
    hi = V::max(a, b);
    const typename V::M swapped = V::ne(lo, a);
    const Pos pos_lo = V::blend(swapped, pa, pb);
    pb = V::blend(swapped, pb, pa);
    pa = pos_lo;
  } else if constexpr (kCarries<K, Pos>) {
    const typename V::R gt = V::greater(a, b);
    const Pos pos_lo = _mm256_blendv_epi8(pa, pb, gt);
    pb = _mm256_blendv_epi8(pb, pa, gt);
    pa = pos_lo;
    lo = _mm256_blendv_epi8(a, b, gt);
    hi = _mm256_blendv_epi8(b, a, gt);
  } else if constexpr (V::kWholeStores) {
    V::min_max(a, b, &lo, &hi);
  } else {
    lo = V::min(a, b);
    hi = V::max(a, b);
  }
  a = lo;
  b = hi;
}

// Sorts the keys of v[0..R) (and their positions pos[0..R), if carried), in register order
// and lane order. Then blocks of 1, 2, 4 ... registers (sorted runs) are merged pairwise: the
// second block reversed makes the pair bitonic; half-cleaners across registers, then each
// register cleaned.
//
// The runs it starts from: with kColumnsFirst (AVX2, R >= W) a sorting network across the
// registers sorts each lane's column (whole-register minima and maxima, no shuffles), and a
// W x W transpose of each block of W registers turns the columns into runs of R / W
// registers: about a third fewer operations than sorting each register on its own (R = 16:
// 652 against 976 for 64-bit keys). Otherwise each register is sorted alone.
template <class K, int R, class Pos = NoPos>
DLA_SORT_INLINE void sort_registers(typename Vec<K>::R* v, Pos* pos) {
  using V = Vec<K>;
  constexpr int W = V::W;
  constexpr int kLogR = R >= 16 ? 4 : R >= 8 ? 3 : R >= 4 ? 2 : R >= 2 ? 1 : 0;
  constexpr bool kColumns = V::kColumnsFirst && R >= W;
  constexpr bool kCarry = kCarries<K, Pos>;
  constexpr int kFirstLevel = kColumns ? kLogR - (W == 8 ? 3 : W == 4 ? 2 : 0) : 0;
  if constexpr (kColumns) {
    static constexpr ExchangeList<R> net = odd_even_merge_network<R>();
    static_assert(sorts_every_zero_one_input(net), "the column network must sort");
#pragma GCC unroll 64
    for (int i = 0; i < net.count; ++i) exchange_registers<K>(v[net.lo[i]], v[net.hi[i]], pos[net.lo[i]], pos[net.hi[i]]);
#pragma GCC unroll 4
    for (int b = 0; b < R; b += W) {
      V::transpose(v + b);
      if constexpr (kCarry) V::transpose(pos + b);
    }
    // Register b W + c now holds lanes b W .. b W + W - 1 of column c: column c's run is
    // registers c, W + c, 2 W + c ...; renamed to be consecutive.
    typename V::R t[R];
    Pos tp[R];
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      t[(r % W) * (R / W) + r / W] = v[r];
      tp[(r % W) * (R / W) + r / W] = pos[r];
    }
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      v[r] = t[r];
      pos[r] = tp[r];
    }
  } else {
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) sort_register<K>(v[r], pos[r]);
  }
  // (Loops over log2 of the sizes, with constant trip counts, so that the compiler unrolls
  // them completely and v[] stays in registers.)
#pragma GCC unroll 4
  for (int ls = kFirstLevel; ls < kLogR; ++ls) {
    const int s = 1 << ls;
#pragma GCC unroll 8
    for (int b = 0; b < R; b += 2 * s) {
#pragma GCC unroll 8
      for (int i = 0; i < s / 2; ++i) {
        std::swap(v[b + s + i], v[b + 2 * s - 1 - i]);
        std::swap(pos[b + s + i], pos[b + 2 * s - 1 - i]);
      }
#pragma GCC unroll 8
      for (int i = 0; i < s; ++i) reverse_register<K>(v[b + s + i], pos[b + s + i]);
#pragma GCC unroll 4
      for (int ld = ls; ld >= 0; --ld) {
        const int d = 1 << ld;
#pragma GCC unroll 16
        for (int i = b; i < b + 2 * s; ++i)
          if ((i - b) % (2 * d) < d) exchange_registers<K>(v[i], v[i + d], pos[i], pos[i + d]);
      }
#pragma GCC unroll 16
      for (int i = b; i < b + 2 * s; ++i) clean_register<K>(v[i], pos[i]);
    }
  }
}

// Sorts n <= R*W keys in registers (sort_registers), with kCarry their positions q[0..n)
// along. Lanes past n hold the largest key, so they sort last and are never stored. Returns
// false (nothing changed) when positions are carried and a short block holds the largest key:
// a real key equal to the padding could trade places with it and be lost (keys alone cannot
// tell them apart, so that costs nothing there).
template <class K, int R, bool kCarry = false>
DLA_SORT_TARGET bool network_sort(K* a, uint64_t* q, int64_t n) {
  using V = Vec<K>;
  using Pos = typename CarriedPos<K, kCarry>::type;
  constexpr int W = V::W;
  typename V::R v[R];
  Pos pos[R];
  const typename V::R top = V::set1(std::numeric_limits<K>::max());
  uint32_t has_top = 0;
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    const int64_t c = std::min<int64_t>(std::max<int64_t>(n - int64_t(r) * W, 0), W);
    v[r] = c > 0 ? V::load(a + r * W, low_lanes<K>(int(c)), top) : top;
    if constexpr (kCarry) {
      pos[r] = c > 0 ? V::load(q + r * W, low_lanes<K>(int(c)), top) : top;
      has_top |= uint32_t(low_lanes<K>(int(c)) & ~V::lt(v[r], top));
    }
  }
  if (kCarry && n < R * W && has_top) return false;
  sort_registers<K, R>(v, pos);
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    const int64_t c = std::min<int64_t>(std::max<int64_t>(n - int64_t(r) * W, 0), W);
    // (Registers past n are not stored at all: a masked store with no lane set costs as
    // much as any other, about ten plain stores on AMD.)
    if (c > 0) {
      V::store(a + r * W, low_lanes<K>(int(c)), v[r]);
      if constexpr (kCarry) V::store(q + r * W, low_lanes<K>(int(c)), pos[r]);
    }
  }
  return true;
}

// The most registers of keys a network sorts: 16; 8 on AVX-512 when positions are carried,
// so that the 16 registers of keys and positions stay within its 32 (AVX2 keeps 16 with
// positions too, as it always had).
template <class K, bool kCarry = false>
constexpr int kNetworkRegisters = kCarry && !Vec<K>::kWholeStores ? 8 : 16;
// AVX-512: 256 keys of 32 bits, 128 of 64 (64 carrying positions); AVX2: 128, 64.
template <class K, bool kCarry = false>
constexpr int64_t kNetworkMax = kNetworkRegisters<K, kCarry> * Vec<K>::W;

// Sorts n <= kNetworkMax keys (with kCarry their positions along) by the smallest network
// that holds them; false as network_sort.
template <class K, bool kCarry = false>
bool small_sort(K* a, uint64_t* q, int64_t n) {
  constexpr int W = Vec<K>::W;
  if (n <= 1) return true;
  if (n <= W) return network_sort<K, 1, kCarry>(a, q, n);
  if (n <= 2 * W) return network_sort<K, 2, kCarry>(a, q, n);
  if (n <= 4 * W) return network_sort<K, 4, kCarry>(a, q, n);
  if constexpr (kNetworkRegisters<K, kCarry> == 8) return network_sort<K, 8, kCarry>(a, q, n);
  else {
    if (n <= 8 * W) return network_sort<K, 8, kCarry>(a, q, n);
    return network_sort<K, 16, kCarry>(a, q, n);
  }
}

// The median of R vectors of keys read at evenly spaced places (a[0..n), n >= R * W),
// sorted in registers: no scalar gathers, no store-to-load round trip.
template <class K, int R>
DLA_SORT_TARGET K sample_median(const K* a, int64_t n) {
  using V = Vec<K>;
  constexpr int W = V::W;
  typename V::R v[R];
  const int64_t step = n / R;
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) v[r] = V::load(a + r * step + (step - W) / 2);
  NoPos none[R];
  sort_registers<K, R>(v, none);
  constexpr int kMiddle = R * W / 2;  // (lane 0 of register R / 2, or lane W / 2 of a lone register)
  alignas(64) K lanes[W];
  V::store(lanes, v[kMiddle / W]);
  return lanes[kMiddle % W];
}

// The pivot of a range longer than kNetworkMax: the median of 64 keys for long ranges, of 16
// for short ones, where the sample's sort would cost more than balance saves.
template <class K>
K sample_pivot(const K* a, int64_t n) {
  constexpr int W = Vec<K>::W;
  return n >= 4096 ? sample_median<K, 64 / W>(a, n) : sample_median<K, 16 / W>(a, n);
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

}  // namespace dla::cpu::DLA_SORT_NS
