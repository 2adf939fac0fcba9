// math_avx512_common.h — the AVX-512 float64 building blocks both transcendental files use
// (math_avx512_f64.cpp, math_avx512_f32.cpp): 16-entry register tables, fma, Horner, and
// reciprocals without a division (a division costs as much as the rest of a loop there).
#pragma once
#include <immintrin.h>

#include "core/cpu_features.h"

// Every helper carries the loops' target: intrinsics only inline into functions compiled for it.
#define DLA_V512 __attribute__((target(DLA_AVX512_TARGET), always_inline)) inline

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

// atan2's reduction, shared by the float64 and float32 rows: atan2(y, x) = sign(y) (K + s atan(n/d))
// with n = min(|y|, |x|), d = max; swapped where |y| > |x|, negative_x where x < 0; c = j/16
// near n/d (j = min(floor(16 q), 15) from a 14-bit estimate q, in the low bits of `shifted`).
struct Atan2Reduction {
  __mmask8 swapped, negative_x;
  __m512d n, d, c;
  __m512i j;
};
DLA_V512 Atan2Reduction atan2_reduce(__m512d y, __m512d x) {
  const __m512d ay = _mm512_abs_pd(y), ax = _mm512_abs_pd(x);
  Atan2Reduction r;
  r.swapped = _mm512_cmp_pd_mask(ay, ax, _CMP_GT_OQ);
  r.negative_x = _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_LT_OQ);
  r.n = _mm512_min_pd(ay, ax);
  r.d = _mm512_max_pd(ay, ax);
  const __m512d q = _mm512_mul_pd(r.n, _mm512_rcp14_pd(r.d));
  const __m512d shifted = _mm512_min_pd(
      _mm512_fmadd_round_pd(q, set(16.0), set(0x1p52), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC), set(0x1p52 + 15));
  r.j = _mm512_castpd_si512(shifted);
  r.c = _mm512_fmsub_pd(shifted, set(1.0 / 16), set(0x1p48));
  return r;
}
// s = -1 where exactly one of swapped, negative_x holds; K = pi/2 where swapped, else pi where
// x < 0, else 0: the mask that negates, and the masks of K = pi/2 and K = pi.
DLA_V512 __mmask8 atan2_minus(const Atan2Reduction& r) { return r.swapped ^ r.negative_x; }
DLA_V512 __mmask8 atan2_half_pi(const Atan2Reduction& r) { return r.swapped; }
DLA_V512 __mmask8 atan2_pi(const Atan2Reduction& r) { return __mmask8(r.negative_x & ~r.swapped); }

}  // namespace dla::cpu::avx512_math
