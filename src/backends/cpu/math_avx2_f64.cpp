// math_avx2_f64.cpp — float64 sin, cos, tan, asin, acos, atan and atan2 at 4 lanes (see
// math_avx2_f64.h): Avx2F64, the vector operations of the shared kernels (trig_kernels_f64.h,
// their derivations there), the adapter of those kernels to avx2_row.h's row, and atan2's row.
#include "backends/cpu/math_avx2_f64.h"

#include "backends/cpu/avx2_row.h"
#include "core/cpu_features.h"

#define DLA_TRIG_INLINE DLA_V256
#include "backends/cpu/trig_kernels_f64.h"

#include <cmath>

namespace dla::cpu {
namespace {

// The vector operations of trig_kernels_f64.h (which lists them) at 4 lanes, masks as vectors
// (all ones or zeros, except bit0_set and bit1_set: their sign bits, which blendv reads). AVX2's
// own choices: divisions for the corrections and for picking atan's c (there is no reciprocal
// estimate in double), Horner for tan (each ISA's choice by speed), the floor and the shift as
// two exact operations, n mod 4 from the low bits of n + 1.5 2^52 (|n| < 2^21), and atan's
// table as one 32-entry table read by gathers.
struct Avx2F64 {
  using D = __m256d;
  using M = __m256d;
  using I = __m256i;
  static constexpr double kShifter = 0x1.8p52;
  DLA_V256 static D set(double v) { return _mm256_set1_pd(v); }
  DLA_V256 static D zero() { return _mm256_setzero_pd(); }
  DLA_V256 static D add(D a, D b) { return _mm256_add_pd(a, b); }
  DLA_V256 static D sub(D a, D b) { return _mm256_sub_pd(a, b); }
  DLA_V256 static D mul(D a, D b) { return _mm256_mul_pd(a, b); }
  DLA_V256 static D div(D a, D b) { return _mm256_div_pd(a, b); }
  DLA_V256 static D fmadd(D a, D b, D c) { return _mm256_fmadd_pd(a, b, c); }
  DLA_V256 static D fnmadd(D a, D b, D c) { return _mm256_fnmadd_pd(a, b, c); }
  DLA_V256 static D fmsub(D a, D b, D c) { return _mm256_fmsub_pd(a, b, c); }
  DLA_V256 static D sqrt(D a) { return _mm256_sqrt_pd(a); }
  DLA_V256 static D abs(D a) { return _mm256_andnot_pd(set(-0.0), a); }
  DLA_V256 static D min(D a, D b) { return _mm256_min_pd(a, b); }
  DLA_V256 static D max(D a, D b) { return _mm256_max_pd(a, b); }
  DLA_V256 static D round_nearest(D a) { return _mm256_round_pd(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  DLA_V256 static D and_(D a, D b) { return _mm256_and_pd(a, b); }
  DLA_V256 static D or_(D a, D b) { return _mm256_or_pd(a, b); }
  DLA_V256 static D xor_(D a, D b) { return _mm256_xor_pd(a, b); }
  DLA_V256 static D andnot(D a, D b) { return _mm256_andnot_pd(a, b); }
  DLA_V256 static M lt(D a, D b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
  DLA_V256 static M le(D a, D b) { return _mm256_cmp_pd(a, b, _CMP_LE_OQ); }
  DLA_V256 static M gt(D a, D b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
  DLA_V256 static M ge(D a, D b) { return _mm256_cmp_pd(a, b, _CMP_GE_OQ); }
  DLA_V256 static M nonzero(D x) { return _mm256_cmp_pd(x, zero(), _CMP_NEQ_UQ); }
  DLA_V256 static M finite_nonzero(D x) { return _mm256_and_pd(lt(abs(x), set(HUGE_VAL)), nonzero(x)); }
  DLA_V256 static M mask_and(M a, M b) { return _mm256_and_pd(a, b); }
  DLA_V256 static M mask_xor(M a, M b) { return _mm256_xor_pd(a, b); }
  DLA_V256 static M mask_andnot(M a, M b) { return _mm256_andnot_pd(a, b); }
  DLA_V256 static D blend(M m, D a, D b) { return _mm256_blendv_pd(a, b, m); }
  DLA_V256 static D zero_unless(M m, D a) { return _mm256_and_pd(m, a); }
  DLA_V256 static D negate_where(M m, D a) { return _mm256_xor_pd(a, _mm256_and_pd(m, set(-0.0))); }
  DLA_V256 static D with_sign_of(D y, D x) { return _mm256_or_pd(y, _mm256_and_pd(x, set(-0.0))); }
  DLA_V256 static D with_sign_of_or_zero(M m, D y, D x) { return _mm256_and_pd(m, with_sign_of(y, x)); }
  DLA_V256 static D with_sign_of_or_minus_zero(M m, D y, D x) { return blend(m, set(-0.0), with_sign_of(y, x)); }
  DLA_V256 static D blend_with_opposite_sign(M m, D a, D y) {
    return blend(m, a, _mm256_or_pd(y, _mm256_andnot_pd(a, set(-0.0))));
  }
  template <int N>
  DLA_V256 static D poly(D t, const double (&c)[N]) { return avx2_math::poly(t, c); }
  template <int N>
  DLA_V256 static D latency_bound_poly(D t, const double (&c)[N]) { return avx2_math::poly(t, c); }
  DLA_V256 static D correction(D rem, D d) { return _mm256_div_pd(rem, d); }
  DLA_V256 static D corrected(D q, D rem, D d) { return _mm256_add_pd(q, _mm256_div_pd(rem, d)); }
  DLA_V256 static D reciprocal_estimate(D a) { return _mm256_div_pd(set(1.0), a); }
  DLA_V256 static D ratio_estimate(D n, D d) { return _mm256_div_pd(n, d); }
  DLA_V256 static D shifted_floor16(D q) { return _mm256_add_pd(_mm256_floor_pd(_mm256_mul_pd(q, set(16.0))), set(0x1p52)); }
  DLA_V256 static I quadrant(D n) { return _mm256_castpd_si256(_mm256_add_pd(n, set(kShifter))); }
  DLA_V256 static I plus_one(I i) { return _mm256_add_epi64(i, _mm256_set1_epi64x(1)); }
  DLA_V256 static M bit0_set(I i) { return _mm256_castsi256_pd(_mm256_slli_epi64(i, 63)); }
  DLA_V256 static M bit1_set(I i) { return _mm256_castsi256_pd(_mm256_slli_epi64(i, 62)); }
  DLA_V256 static D bit1_as_sign(I i) {
    return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_and_si256(i, _mm256_set1_epi64x(2)), 62));
  }
  DLA_V256 static D bit0_as_double(I i) {  // the bit under the shifter's exponent, less the shifter
    const I bit = _mm256_and_si256(i, _mm256_set1_epi64x(1));
    return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(bit, _mm256_castpd_si256(set(kShifter)))), set(kShifter));
  }
  // trig_kernels::AtanPairs: atan(j/16) at j, pi/2 - atan(j/16) at j + 16.
  struct AtanTable {
    const double *hi, *lo;
  };
  static AtanTable atan_table() {
    const trig_kernels::AtanPairs& t = trig_kernels::atan_pairs();
    return {t.hi, t.lo};
  }
  DLA_V256 static I index16(D shifted) { return _mm256_and_si256(_mm256_castpd_si256(shifted), _mm256_set1_epi64x(15)); }
  DLA_V256 static trig_kernels::Pair<Avx2F64> atan_entry(const AtanTable& T, I j) {
    return {_mm256_i64gather_pd(T.hi, j, 8), _mm256_i64gather_pd(T.lo, j, 8)};
  }
  DLA_V256 static I atan_index(D shifted, M inverted) {  // the inverted side's entries at j + 16
    return _mm256_or_si256(index16(shifted), _mm256_and_si256(_mm256_castpd_si256(inverted), _mm256_set1_epi64x(16)));
  }
  DLA_V256 static trig_kernels::Pair<Avx2F64> atan_or_inverted_entry(const AtanTable& T, I index, M) {
    return atan_entry(T, index);
  }
};

// A shared kernel K as avx2_row.h's kernel: its table loaded once a row, nothing settled off
// the fast range.
template <class K>
struct RowKernel {
  using Regs = typename K::Table;
  DLA_V256 static Regs regs() {
    if constexpr (std::is_same_v<Regs, trig_kernels::NoTable>) return {};
    else return Avx2F64::atan_table();
  }
  DLA_V256 static __m256d fast(__m256d x) { return K::fast(x); }
  DLA_V256 static __m256d settled(__m256d) { return _mm256_setzero_pd(); }
  DLA_V256 static __m256d compute(__m256d x, const Regs& T) { return K::compute(x, T); }
  static double scalar(double x) { return K::scalar(x); }
};

using Atan2Kernel = trig_kernels::Atan2<Avx2F64>;

__attribute__((noinline)) void atan2_fix_up(int slow, const double* ys, const double* xs, double* out) {
  for (int l = 0; l < 4; ++l)
    if (slow & (1 << l)) out[l] = Atan2Kernel::scalar(ys[l], xs[l]);
}

// out[i] = atan2(y[i], x[i * x_step]) (x_step 0: x[0] for the whole row), 4 lanes a step, the
// tail as one vector under a mask (idle lanes hold 1.0), lanes off the fast range from libm.
__attribute__((target("avx2,fma"))) void atan2_row(const double* y, const double* x, int64_t x_step, double* out,
                                                   int64_t n) {
  const Avx2F64::AtanTable T = Avx2F64::atan_table();
  const __m256d one = _mm256_set1_pd(1.0);
  const __m256d x_one = _mm256_set1_pd(x_step == 0 ? x[0] : 1.0);
  for (int64_t i = 0; i < n; i += 4) {
    const int live = n - i >= 4 ? 0xf : (1 << (n - i)) - 1;
    const __m256i mask = _mm256_cmpgt_epi64(_mm256_set1_epi64x(n - i), _mm256_setr_epi64x(0, 1, 2, 3));
    const __m256d yv = live == 0xf ? _mm256_loadu_pd(y + i)
                                   : _mm256_blendv_pd(one, _mm256_maskload_pd(y + i, mask), _mm256_castsi256_pd(mask));
    const __m256d xv = x_step == 0   ? x_one
                       : live == 0xf ? _mm256_loadu_pd(x + i)
                                     : _mm256_blendv_pd(one, _mm256_maskload_pd(x + i, mask), _mm256_castsi256_pd(mask));
    const __m256d r = Atan2Kernel::compute(yv, xv, T);
    if (live == 0xf) _mm256_storeu_pd(out + i, r);
    else _mm256_maskstore_pd(out + i, mask, r);
    if (const int slow = live & ~_mm256_movemask_pd(Atan2Kernel::fast(yv, xv))) {
      alignas(32) double ys[4], xs[4];
      _mm256_store_pd(ys, yv);
      _mm256_store_pd(xs, xv);
      atan2_fix_up(slow, ys, xs, out + i);
    }
  }
}

}  // namespace

bool math_avx2_f64_atan2_row(const double* y, const double* x, int64_t x_step, double* out, int64_t n) {
  if (vector_level() != VectorLevel::Avx2Fma && vector_level() != VectorLevel::Avx512) return false;
  atan2_row(y, x, x_step, out, n);
  return true;
}

bool math_avx2_f64_row(ExpLogFn fn, const double* in, double* out, int64_t n, const NanOutside<double>* domain) {
  if (vector_level() != VectorLevel::Avx2Fma && vector_level() != VectorLevel::Avx512) return false;
  using namespace trig_kernels;
  switch (fn) {
    case ExpLogFn::Sin: avx2_math::row<RowKernel<SinCos<Avx2F64, false>>, double>(in, out, n, domain, 0.5); return true;
    case ExpLogFn::Cos: avx2_math::row<RowKernel<SinCos<Avx2F64, true>>, double>(in, out, n, domain, 0.5); return true;
    case ExpLogFn::Tan: avx2_math::row<RowKernel<Tan<Avx2F64>>, double>(in, out, n, domain, 0.5); return true;
    case ExpLogFn::Asin: avx2_math::row<RowKernel<ArcSine<Avx2F64, false>>, double>(in, out, n, domain, 0.5); return true;
    case ExpLogFn::Acos: avx2_math::row<RowKernel<ArcSine<Avx2F64, true>>, double>(in, out, n, domain, 0.5); return true;
    case ExpLogFn::Atan: avx2_math::row<RowKernel<Atan<Avx2F64>>, double>(in, out, n, domain, 0.5); return true;
    default: return false;
  }
}

}  // namespace dla::cpu
