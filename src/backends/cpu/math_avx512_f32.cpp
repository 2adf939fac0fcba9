// math_avx512_f32.cpp — the AVX-512 float32 exp, log, sin, cos, sinh, atanh (see math_avx512_f32.h).
#include "backends/cpu/math_avx512_f32.h"
#include "backends/cpu/math_avx512_common.h"

#include <cmath>

namespace dla::cpu {
namespace {

using namespace avx512_math;

constexpr double kLn2 = 0x1.62e42fefa39efp-1;
constexpr double kInvLn2x16 = 0x1.71547652b82fep+4;
constexpr double kLn2d16 = 0x1.62e42fefa39efp-5;
constexpr double kInvPio2 = 0x1.45f306dc9c883p-1;
constexpr double kPio2Hi = 0x1.921fb54442d18p0, kPio2Lo = 0x1.1a62633145c07p-54;
constexpr double kLogStep = 3.0 / 64;  // 16 intervals of [0.75, 1.5)

struct Tables {
  alignas(64) double exp2[16];  // 2^(j/16)
  alignas(64) double invc[16];  // 1 / centre of interval j of [0.75, 1.5)
  alignas(64) double logc[16];  // log of that centre
  Tables() {
    for (int j = 0; j < 16; ++j) {
      exp2[j] = static_cast<double>(std::exp2(static_cast<long double>(j) / 16));
      const long double a = 0.75L + j * static_cast<long double>(kLogStep), b = a + kLogStep;
      // The interval holding 1 takes c = 1: there log x = log1p(x - 1) with nothing added.
      invc[j] = (a <= 1.0L && 1.0L < b) ? 1.0 : static_cast<double>(2.0L / (a + b));
      logc[j] = static_cast<double>(-std::log(static_cast<long double>(invc[j])));
    }
  }
};
const Tables& tables() {
  static const Tables t;
  return t;
}

struct Regs {
  Table16 exp2, invc, logc;
};

// x = k ln2/16 + r for |x| <= 150 (so that 2^(k/16) stays a normal double): r, and
// 2^(k/16) = 2^e t with t from the table. One rounding of x - k ln2/16 (|k| < 2^12): an
// absolute error near 2^-47, which is the exponential's relative error.
struct ExpReduction {
  __m512d r, e, t;
};
DLA_V512 ExpReduction exp_reduce(__m512d x, const Regs& T) {
  const __m512d kd = _mm512_roundscale_pd(_mm512_mul_pd(x, set(kInvLn2x16)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m512d r = _mm512_fnmadd_pd(kd, set(kLn2d16), x);
  const __m512d e = _mm512_roundscale_pd(_mm512_mul_pd(kd, set(1.0 / 16)), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  return {r, e, lookup(T.exp2, _mm512_cvtpd_epi64(kd))};  // k mod 16 in the low bits
}

// (exp(r) - 1) / r to r^3 (Taylor): the first omitted term is below 2^-34 for |r| <= ln2/32.
DLA_V512 __m512d expm1_ratio(__m512d r) {
  constexpr double kC[] = {1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24};
  return poly(r, kC);
}

DLA_V512 __m512d exp_core(__m512d x, const Regs& T) {
  const ExpReduction v = exp_reduce(x, T);
  return _mm512_scalef_pd(_mm512_mul_pd(v.t, fma(v.r, expm1_ratio(v.r), set(1.0))), v.e);
}

// exp(x) - 1 for |x| <= 150 without cancellation: (A - 1) + A r Q(r), A = 2^e t; A - 1 is
// exact where A is near 1 (Sterbenz), and A = 1 exactly for k = 0, where the result is r Q(r).
DLA_V512 __m512d expm1_core(__m512d x, const Regs& T) {
  const ExpReduction v = exp_reduce(x, T);
  const __m512d a = _mm512_scalef_pd(v.t, v.e);
  return fma(a, _mm512_mul_pd(v.r, expm1_ratio(v.r)), _mm512_sub_pd(a, set(1.0)));
}

// log(x) for positive finite normal x.
DLA_V512 __m512d log_core(__m512d x, const Regs& T) {
  const __m512d m = _mm512_getmant_pd(x, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_src);
  const __m512d k = _mm512_sub_pd(_mm512_getexp_pd(x), _mm512_getexp_pd(m));
  // m 4/3 lies in [1, 2): its top 4 fraction bits number the interval.
  const __m512i j = _mm512_srli_epi64(_mm512_castpd_si512(_mm512_mul_pd(m, set(4.0 / 3))), 48);
  // r = m/c - 1 with one rounding (|r| <= 0.0313).
  const __m512d r = _mm512_fmsub_pd(m, lookup(T.invc, j), set(1.0));
  // log1p(r) = r + r^2 (-1/2 + r/3 - ... - r^4/6): the first omitted term is below 2^-32 of r.
  constexpr double kC[] = {-1.0 / 2, 1.0 / 3, -1.0 / 4, 1.0 / 5, -1.0 / 6};
  const __m512d l = fma(_mm512_mul_pd(r, r), poly(r, kC), r);
  return _mm512_add_pd(fma(k, set(kLn2), lookup(T.logc, j)), l);
}

DLA_V512 __m512d copy_sign(__m512d magnitude, __m512d sign_of) {
  return _mm512_or_pd(magnitude, _mm512_and_pd(sign_of, set(-0.0)));
}

// Per function: the fast lanes (of the float32 input), the float64 value there, and libm.
template <Float32Fn F>
struct Kernel;

// fpclass categories: 0x01 QNaN, 0x02 +0, 0x04 -0, 0x08 +inf, 0x10 -inf, 0x20 denormal,
// 0x40 negative, 0x80 SNaN.
DLA_V512 __mmask16 abs_below(__m512 x, float bound) {  // false for NaN
  return _mm512_cmp_ps_mask(_mm512_abs_ps(x), _mm512_set1_ps(bound), _CMP_LT_OQ);
}

template <>
struct Kernel<Float32Fn::Exp> {
  DLA_V512 static __mmask16 fast(__m512 x) { return abs_below(x, 150.0f); }
  DLA_V512 static __m512d compute(__m512d x, const Regs& T) { return exp_core(x, T); }
  static float scalar(float x) { return std::exp(x); }
};

template <>
struct Kernel<Float32Fn::Log> {
  DLA_V512 static __mmask16 fast(__m512 x) { return __mmask16(~_mm512_fpclass_ps_mask(x, 0xdf)); }
  DLA_V512 static __m512d compute(__m512d x, const Regs& T) { return log_core(x, T); }  // float32 denormals are normal doubles
  static float scalar(float x) { return std::log(x); }
};

template <Float32Fn F>
struct SinCosKernel {
  // Zeros go to libm too: the reduction below would lose the sign of -0.
  DLA_V512 static __mmask16 fast(__m512 x) {
    return abs_below(x, 0x1p20f) & __mmask16(~_mm512_fpclass_ps_mask(x, 0x06));
  }
  DLA_V512 static __m512d compute(__m512d x, const Regs&) {
    const __m512d n = _mm512_roundscale_pd(_mm512_mul_pd(x, set(kInvPio2)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    // x - n pi/2 with pi/2 to 107 bits: |n| < 2^20 and float32 x never come nearer than
    // about 2^-30 to a multiple of pi/2, so r keeps about 50 correct bits.
    const __m512d r = _mm512_fnmadd_pd(n, set(kPio2Lo), _mm512_fnmadd_pd(n, set(kPio2Hi), x));
    const __m512d r2 = _mm512_mul_pd(r, r);
    // To r^9 and r^10 (|r| <= pi/4): the first omitted terms are below 2^-28 and 2^-33 of the
    // results, at most 0.04 ulp of float32 added to the final rounding's 0.5.
    constexpr double kS[] = {1.0, -1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880};
    constexpr double kC[] = {1.0, -1.0 / 2, 1.0 / 24, -1.0 / 720, 1.0 / 40320, -1.0 / 3628800};
    const __m512d sin_r = _mm512_mul_pd(r, poly(r2, kS));
    const __m512d cos_r = poly(r2, kC);
    // Quadrant q = n mod 4: sin x = sin r, cos r, -sin r, -cos r (cos x: q + 1).
    __m512i q = _mm512_cvtpd_epi64(n);
    if constexpr (F == Float32Fn::Cos) q = _mm512_add_epi64(q, _mm512_set1_epi64(1));
    const __mmask8 odd = _mm512_test_epi64_mask(q, _mm512_set1_epi64(1));
    const __m512d v = _mm512_mask_blend_pd(odd, sin_r, cos_r);
    const __m512i sign = _mm512_slli_epi64(_mm512_and_si512(q, _mm512_set1_epi64(2)), 62);
    return _mm512_xor_pd(v, _mm512_castsi512_pd(sign));
  }
  static float scalar(float x) { return F == Float32Fn::Sin ? std::sin(x) : std::cos(x); }
};
template <> struct Kernel<Float32Fn::Sin> : SinCosKernel<Float32Fn::Sin> {};
template <> struct Kernel<Float32Fn::Cos> : SinCosKernel<Float32Fn::Cos> {};

template <>
struct Kernel<Float32Fn::Sinh> {
  // Beyond 150 the float32 result has long overflowed: libm gives inf (and NaN stays NaN).
  DLA_V512 static __mmask16 fast(__m512 x) { return abs_below(x, 150.0f); }
  // sinh a = (E - 1/E) / 2 = (m + m / (m + 1)) / 2 with m = expm1(a): no cancellation near 0,
  // one form for every lane (no branch on the argument's size).
  DLA_V512 static __m512d compute(__m512d x, const Regs& T) {
    const __m512d m = expm1_core(_mm512_abs_pd(x), T);
    // m / (m + 1) is at most half the sum: the one-step reciprocal's 2^-28 adds 0.03 float32 ulp.
    const __m512d y = _mm512_mul_pd(set(0.5), fma(m, reciprocal(_mm512_add_pd(m, set(1.0))), m));
    return copy_sign(y, x);
  }
  static float scalar(float x) { return std::sinh(x); }
};

template <>
struct Kernel<Float32Fn::Atanh> {
  DLA_V512 static __mmask16 fast(__m512 x) { return abs_below(x, 1.0f); }
  DLA_V512 static __m512d compute(__m512d x, const Regs& T) {
    const __m512d a = _mm512_abs_pd(x), one = set(1.0);
    // 1 + a and 1 - a are exact for float32 a, and the quotient's rounding (2^-53) is an
    // absolute error of the logarithm, below 2^-34 of the result (about 2a) from a = 2^-20 on.
    // Below, atanh a = a (a^3/3 is under 2^-40 of a).
    const __m512d q = _mm512_mul_pd(_mm512_add_pd(one, a), reciprocal_fine(_mm512_sub_pd(one, a)));
    const __m512d y = _mm512_mul_pd(set(0.5), log_core(q, T));
    return copy_sign(_mm512_mask_blend_pd(_mm512_cmp_pd_mask(a, set(0x1p-20), _CMP_LT_OQ), y, a), x);
  }
  static float scalar(float x) { return std::atanh(x); }
};

// Lanes off the fast range of a vector (slow mask) are recomputed by libm from the saved x.
template <Float32Fn F>
__attribute__((noinline)) void fix_up(__mmask16 slow, const float* xs, float* out) {
  for (int l = 0; l < 16; ++l)
    if (slow & (1u << l)) out[l] = Kernel<F>::scalar(xs[l]);
}

// 16 floats as two float64 vectors, rounded once back to float32.
template <Float32Fn F>
DLA_V512 __m512 compute16(__m512 x, const Regs& T) {
  const __m512d x_lo = _mm512_cvtps_pd(_mm512_castps512_ps256(x));
  const __m512d x_hi = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(x), 1)));
  const __m256 y_lo = _mm512_cvtpd_ps(Kernel<F>::compute(x_lo, T));
  const __m256 y_hi = _mm512_cvtpd_ps(Kernel<F>::compute(x_hi, T));
  return _mm512_insertf32x8(_mm512_castps256_ps512(y_lo), y_hi, 1);
}

// The row, 32 floats a step (four independent chains keep the FMA units busy), then 16 at a
// time with the tail under a mask (its idle lanes hold 0.5, on every fast range); lanes off
// the fast range are recomputed from the saved arguments, so in == out works.
template <Float32Fn F>
__attribute__((target(DLA_AVX512_TARGET))) void row(const float* in, float* out, int64_t n) {
  const Tables& t = tables();
  const Regs T = {load16(t.exp2), load16(t.invc), load16(t.logc)};
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m512 x0 = _mm512_loadu_ps(in + i), x1 = _mm512_loadu_ps(in + i + 16);
    const __m512 y0 = compute16<F>(x0, T), y1 = compute16<F>(x1, T);
    _mm512_storeu_ps(out + i, y0);
    _mm512_storeu_ps(out + i + 16, y1);
    const __mmask16 slow0 = __mmask16(~Kernel<F>::fast(x0)), slow1 = __mmask16(~Kernel<F>::fast(x1));
    if (slow0 | slow1) {
      alignas(64) float xs[32];
      _mm512_store_ps(xs, x0);
      _mm512_store_ps(xs + 16, x1);
      if (slow0) fix_up<F>(slow0, xs, out + i);
      if (slow1) fix_up<F>(slow1, xs + 16, out + i + 16);
    }
  }
  for (; i < n; i += 16) {
    const __mmask16 live = n - i >= 16 ? __mmask16(0xffff) : __mmask16((1u << (n - i)) - 1);
    const __m512 x = _mm512_mask_loadu_ps(_mm512_set1_ps(0.5f), live, in + i);
    _mm512_mask_storeu_ps(out + i, live, compute16<F>(x, T));
    const __mmask16 slow = live & ~Kernel<F>::fast(x);
    if (slow) {
      alignas(64) float xs[16];
      _mm512_store_ps(xs, x);
      fix_up<F>(slow, xs, out + i);
    }
  }
}

}  // namespace

bool math_avx512_f32_row(Float32Fn fn, const float* in, float* out, int64_t n) {
  if (vector_level() != VectorLevel::Avx512) return false;
  switch (fn) {
    case Float32Fn::Exp: row<Float32Fn::Exp>(in, out, n); return true;
    case Float32Fn::Log: row<Float32Fn::Log>(in, out, n); return true;
    case Float32Fn::Sin: row<Float32Fn::Sin>(in, out, n); return true;
    case Float32Fn::Cos: row<Float32Fn::Cos>(in, out, n); return true;
    case Float32Fn::Sinh: row<Float32Fn::Sinh>(in, out, n); return true;
    case Float32Fn::Atanh: row<Float32Fn::Atanh>(in, out, n); return true;
  }
  return false;
}

}  // namespace dla::cpu
