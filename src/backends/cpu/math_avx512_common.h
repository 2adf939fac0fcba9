// math_avx512_common.h — the AVX-512 float64 building blocks both transcendental files use
// (math_avx512_f64.cpp, math_avx512_f32.cpp): 16-entry register tables, fma, Horner and Estrin,
// reciprocals without a division (a division costs as much as the rest of a loop there), and
// Avx512F64, the vector operations of the shared trigonometric kernels (trig_kernels_f64.h),
// whose atan2 reduction the float32 atan2 uses too.
#pragma once
#include <immintrin.h>

#include <cstdint>

#include "core/cpu_features.h"

// Every helper carries the loops' target: intrinsics only inline into functions compiled for it.
#define DLA_V512 __attribute__((target(DLA_AVX512_TARGET), always_inline)) inline
#define DLA_TRIG_INLINE DLA_V512
#include "backends/cpu/trig_kernels_f64.h"

namespace dla::cpu::avx512_math {

// A 16-entry table in two registers; a lookup is one permute of the index's low 4 bits.
struct Table16 {
  __m512d lo, hi;
};
DLA_V512 Table16 load16(const double* t) { return {_mm512_load_pd(t), _mm512_load_pd(t + 8)}; }
DLA_V512 __m512d lookup(const Table16& t, __m512i j) { return _mm512_permutex2var_pd(t.lo, j, t.hi); }

DLA_V512 __m512d set(double v) { return _mm512_set1_pd(v); }
DLA_V512 __m512d fma(__m512d a, __m512d b, __m512d c) { return _mm512_fmadd_pd(a, b, c); }

// c[0] + t c[1] + t^2 c[2] + ... (Horner).
template <int N>
DLA_V512 __m512d poly(__m512d t, const double (&c)[N]) {
  __m512d p = set(c[N - 1]);
  for (int i = N - 2; i >= 0; --i) p = fma(p, t, set(c[i]));
  return p;
}

// c[0] + t c[1] + ... + t^(N-1) c[N-1] by Estrin's scheme: pairs c[i] + t c[i+1], then pairs
// of those with t^2, and so on: depth about log2(N) fmas against Horner's N - 1, for a few
// more multiplications. Which one is faster depends on the loop: measured (Zen 4, 2026-11-27),
// the exp and log cores, sinh/cosh, atan and asin/acos run faster with Horner (poly: those
// loops are bound by their number of operations, their iterations overlapping), tan with
// Estrin (its chain is what costs); the series under rarely taken branches keep Estrin.
constexpr int estrin_level(int n) {  // k with 2^k < n <= 2^(k+1): the low half has 2^k terms
  int k = 0;
  while ((2 << k) < n) ++k;
  return k;
}
// The part of length Len starting at c[Lo]; pw[k] = t^(2^k).
template <int Lo, int Len, int N>
DLA_V512 __m512d estrin_part(const double (&c)[N], const __m512d* pw) {
  if constexpr (Len == 1) {
    return set(c[Lo]);
  } else if constexpr (Len == 2) {
    return fma(set(c[Lo + 1]), pw[0], set(c[Lo]));
  } else {
    constexpr int k = estrin_level(Len), m = 1 << k;
    return fma(estrin_part<Lo + m, Len - m>(c, pw), pw[k], estrin_part<Lo, m>(c, pw));
  }
}
template <int N>
DLA_V512 __m512d estrin(__m512d t, const double (&c)[N]) {
  __m512d pw[5];
  pw[0] = t;
  for (int k = 1; k < 5 && (1 << k) < N; ++k) pw[k] = _mm512_mul_pd(pw[k - 1], pw[k - 1]);
  return estrin_part<0, N>(c, pw);
}

// 1 / d to about 2^-28 relative: the 14-bit hardware estimate and one Newton step. For terms
// whose error the caller bounds (a correction by the exact residual, a small share of a result).
DLA_V512 __m512d reciprocal(__m512d d) {
  const __m512d g = _mm512_rcp14_pd(d);
  return fma(g, _mm512_fnmadd_pd(d, g, set(1.0)), g);
}

// 1 / d to about 2^-50 relative: a second Newton step.
DLA_V512 __m512d reciprocal_fine(__m512d d) {
  const __m512d g = reciprocal(d);
  return fma(g, _mm512_fnmadd_pd(d, g, set(1.0)), g);
}

// y | (x & -0.0) by one ternary logic operation: y >= 0 takes x's sign.
DLA_V512 __m512d with_sign_of(__m512d y, __m512d x) {
  constexpr int kAOrBAndC = 0xf8;  // A | (B & C) over the truth tables (A, B, C) = (0xf0, 0xcc, 0xaa)
  return _mm512_castsi512_pd(_mm512_ternarylogic_epi64(_mm512_castpd_si512(y), _mm512_castpd_si512(x),
                                                       _mm512_set1_epi64(INT64_MIN), kAOrBAndC));
}

// The vector operations of trig_kernels_f64.h (which lists them) at 8 lanes, masks in mask
// registers. AVX-512's own choices: 14-bit reciprocal estimates (rcp14) for the corrections and
// for picking atan's c, Estrin for tan, the floor inside the fma that shifts (one rounding),
// n mod 4 by an integer conversion, fpclass tests, ternary logic for the sign bits, and atan's
// table as four 16-entry register tables read by permutes.
struct Avx512F64 {
  using D = __m512d;
  using M = __mmask8;
  using I = __m512i;
  DLA_V512 static D set(double v) { return _mm512_set1_pd(v); }
  DLA_V512 static D zero() { return _mm512_setzero_pd(); }
  DLA_V512 static D add(D a, D b) { return _mm512_add_pd(a, b); }
  DLA_V512 static D sub(D a, D b) { return _mm512_sub_pd(a, b); }
  DLA_V512 static D mul(D a, D b) { return _mm512_mul_pd(a, b); }
  DLA_V512 static D div(D a, D b) { return _mm512_div_pd(a, b); }
  DLA_V512 static D fmadd(D a, D b, D c) { return _mm512_fmadd_pd(a, b, c); }
  DLA_V512 static D fnmadd(D a, D b, D c) { return _mm512_fnmadd_pd(a, b, c); }
  DLA_V512 static D fmsub(D a, D b, D c) { return _mm512_fmsub_pd(a, b, c); }
  DLA_V512 static D sqrt(D a) { return _mm512_sqrt_pd(a); }
  DLA_V512 static D abs(D a) { return _mm512_abs_pd(a); }
  DLA_V512 static D min(D a, D b) { return _mm512_min_pd(a, b); }
  DLA_V512 static D max(D a, D b) { return _mm512_max_pd(a, b); }
  DLA_V512 static D round_nearest(D a) { return _mm512_roundscale_pd(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  DLA_V512 static D and_(D a, D b) { return _mm512_and_pd(a, b); }
  DLA_V512 static D or_(D a, D b) { return _mm512_or_pd(a, b); }
  DLA_V512 static D xor_(D a, D b) { return _mm512_xor_pd(a, b); }
  DLA_V512 static D andnot(D a, D b) { return _mm512_andnot_pd(a, b); }
  DLA_V512 static M lt(D a, D b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
  DLA_V512 static M le(D a, D b) { return _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ); }
  DLA_V512 static M gt(D a, D b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
  DLA_V512 static M ge(D a, D b) { return _mm512_cmp_pd_mask(a, b, _CMP_GE_OQ); }
  // fpclass categories: 0x01 QNaN, 0x02 +0, 0x04 -0, 0x08 +inf, 0x10 -inf, 0x80 SNaN.
  DLA_V512 static M nonzero(D x) { return M(~_mm512_fpclass_pd_mask(x, 0x06)); }
  DLA_V512 static M finite_nonzero(D x) { return M(~_mm512_fpclass_pd_mask(x, 0x9f)); }
  DLA_V512 static M mask_and(M a, M b) { return M(a & b); }
  DLA_V512 static M mask_xor(M a, M b) { return M(a ^ b); }
  DLA_V512 static M mask_andnot(M a, M b) { return M(b & ~a); }
  DLA_V512 static D blend(M m, D a, D b) { return _mm512_mask_blend_pd(m, a, b); }
  DLA_V512 static D zero_unless(M m, D a) { return _mm512_maskz_mov_pd(m, a); }
  DLA_V512 static D negate_where(M m, D a) { return _mm512_mask_xor_pd(a, m, a, set(-0.0)); }
  DLA_V512 static D with_sign_of(D y, D x) { return avx512_math::with_sign_of(y, x); }
  // Masked ternary logic over the truth tables (A, B, C) = (0xf0, 0xcc, 0xaa).
  DLA_V512 static D with_sign_of_or_zero(M m, D y, D x) {  // A | (B & C) = y | (x & -0.0) where m, else 0
    return _mm512_castsi512_pd(_mm512_maskz_ternarylogic_epi64(m, _mm512_castpd_si512(y), _mm512_castpd_si512(x),
                                                               _mm512_set1_epi64(INT64_MIN), 0xf8));
  }
  DLA_V512 static D with_sign_of_or_minus_zero(M m, D y, D x) {  // B | (A & C) = y | (-0.0 & x) where m, else A = -0.0
    return _mm512_castsi512_pd(_mm512_mask_ternarylogic_epi64(_mm512_set1_epi64(INT64_MIN), m, _mm512_castpd_si512(y),
                                                              _mm512_castpd_si512(x), 0xec));
  }
  DLA_V512 static D blend_with_opposite_sign(M m, D a, D y) {  // B | (~A & C) = y | (~a & -0.0) where m, else A = a
    return _mm512_castsi512_pd(_mm512_mask_ternarylogic_epi64(_mm512_castpd_si512(a), m, _mm512_castpd_si512(y),
                                                              _mm512_set1_epi64(INT64_MIN), 0xce));
  }
  template <int N>
  DLA_V512 static D poly(D t, const double (&c)[N]) { return avx512_math::poly(t, c); }
  template <int N>
  DLA_V512 static D latency_bound_poly(D t, const double (&c)[N]) { return estrin(t, c); }
  DLA_V512 static D correction(D rem, D d) { return _mm512_mul_pd(rem, _mm512_rcp14_pd(d)); }
  DLA_V512 static D corrected(D q, D rem, D d) { return _mm512_fmadd_pd(rem, _mm512_rcp14_pd(d), q); }
  DLA_V512 static D reciprocal_estimate(D a) { return _mm512_rcp14_pd(a); }
  DLA_V512 static D ratio_estimate(D n, D d) { return _mm512_mul_pd(n, _mm512_rcp14_pd(d)); }
  DLA_V512 static D shifted_floor16(D q) {
    return _mm512_fmadd_round_pd(q, set(16.0), set(0x1p52), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  }
  DLA_V512 static I quadrant(D n) { return _mm512_cvtpd_epi64(n); }
  DLA_V512 static I plus_one(I i) { return _mm512_add_epi64(i, _mm512_set1_epi64(1)); }
  DLA_V512 static M bit0_set(I i) { return _mm512_test_epi64_mask(i, _mm512_set1_epi64(1)); }
  DLA_V512 static M bit1_set(I i) { return _mm512_test_epi64_mask(i, _mm512_set1_epi64(2)); }
  DLA_V512 static D bit1_as_sign(I i) {
    return _mm512_castsi512_pd(_mm512_slli_epi64(_mm512_and_si512(i, _mm512_set1_epi64(2)), 62));
  }
  DLA_V512 static D bit0_as_double(I i) { return _mm512_cvtepi64_pd(_mm512_and_si512(i, _mm512_set1_epi64(1))); }
  // atan(j/16) and pi/2 - atan(j/16) as pairs, four register tables (a permute reads the low 4
  // bits of the index: j is the shifted value's bits).
  struct AtanTable {
    Table16 hi, lo, inv_hi, inv_lo;
  };
  DLA_V512 static AtanTable atan_table() {
    const trig_kernels::AtanPairs& t = trig_kernels::atan_pairs();
    return {load16(t.hi), load16(t.lo), load16(t.hi + 16), load16(t.lo + 16)};
  }
  DLA_V512 static I index16(D shifted) { return _mm512_castpd_si512(shifted); }
  DLA_V512 static trig_kernels::Pair<Avx512F64> atan_entry(const AtanTable& T, I j) {
    return {lookup(T.hi, j), lookup(T.lo, j)};
  }
  DLA_V512 static I atan_index(D shifted, M) { return _mm512_castpd_si512(shifted); }
  DLA_V512 static trig_kernels::Pair<Avx512F64> atan_or_inverted_entry(const AtanTable& T, I j, M inverted) {
    return {blend(inverted, lookup(T.hi, j), lookup(T.inv_hi, j)), blend(inverted, lookup(T.lo, j), lookup(T.inv_lo, j))};
  }
};

// atan2's reduction, shared by the float64 and float32 rows (trig_kernels_f64.h): n, d, c = j/16
// near n/d, and the masks of K and s.
using Atan2Reduction = trig_kernels::Atan2Reduction<Avx512F64>;
DLA_V512 Atan2Reduction atan2_reduce(__m512d y, __m512d x) { return trig_kernels::atan2_reduce<Avx512F64>(y, x); }
using trig_kernels::atan2_half_pi;
using trig_kernels::atan2_minus;
using trig_kernels::atan2_pi;

}  // namespace dla::cpu::avx512_math
