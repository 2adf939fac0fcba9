// math_avx512_f32.cpp — the AVX-512 float32 exp, log, sin, cos, sinh, atanh, acosh (see math_avx512_f32.h).
#include "backends/cpu/math_avx512_f32.h"
#include "backends/cpu/math_avx512_common.h"

#include <cmath>
#include <cstring>

namespace dla::cpu {
namespace {

using namespace avx512_math;

constexpr double kLn2 = 0x1.62e42fefa39efp-1;
constexpr double kInvLn2x16 = 0x1.71547652b82fep+4;
constexpr double kLn2d16 = 0x1.62e42fefa39efp-5;
constexpr double kInvPio2 = 0x1.45f306dc9c883p-1;
constexpr double kPio2Hi = 0x1.921fb54442d18p0, kPio2Lo = 0x1.1a62633145c07p-54;
constexpr int64_t kLogM0Bits = 0x3fe8800000000000;  // bits of 49/64
// Added to x 16/ln2 it leaves k = round(x 16/ln2) in the low bits of the sum (|k| < 2^51).
constexpr double kShifter = 0x1.8p52;

// The bits of v as a double, less j << 48: adding k << 48 (k = 16 q + j) to the stored value
// then gives v 2^q, since q lands in the exponent field and j cancels.
double table_bits(long double v, int64_t j) {
  const double d = static_cast<double>(v);
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  u -= static_cast<uint64_t>(j) << 48;
  double out;
  std::memcpy(&out, &u, sizeof out);
  return out;
}

struct Tables {
  alignas(64) double exp2[16];  // 2^(j/16), as table_bits
  alignas(64) double exp2h[16];  // 2^(j/16) / 2, as table_bits
  alignas(64) double exp2nh[16];  // 2^(-j/16) / 2, as table_bits for -j (subtracting k << 48)
  alignas(64) double invc[16];  // 1 / centre of log_core's interval j
  alignas(64) double logc[16];  // log of that centre
  Tables() {
    for (int j = 0; j < 16; ++j) {
      const long double e = std::exp2(static_cast<long double>(j) / 16);
      exp2[j] = table_bits(e, j);
      exp2h[j] = table_bits(e / 2, j);
      exp2nh[j] = table_bits(1 / (2 * e), -j);
      // Interval j: [49/64 + j/32, +1/32) below 1 (j < 7), [33/32 + (j-8)/16, +1/16) above
      // (j > 7); j = 7, [63/64, 33/32), holds 1 and takes c = 1: there log x = log1p(x - 1)
      // with nothing added.
      const long double a = j < 7 ? 49.0L / 64 + j / 32.0L : 33.0L / 32 + (j - 8) / 16.0L;
      const long double b = j < 7 ? a + 1 / 32.0L : a + 1 / 16.0L;
      invc[j] = j == 7 ? 1.0 : static_cast<double>(2.0L / (a + b));
      logc[j] = static_cast<double>(-std::log(static_cast<long double>(invc[j])));
    }
  }
};
const Tables& tables() {
  static const Tables t;
  return t;
}

struct Regs {
  Table16 exp2, exp2h, exp2nh, invc, logc;
};

// x = k ln2/16 + r for |x| <= 150: r (|r| <= ln2/32; one rounding, an absolute error near
// 2^-47 that is the exponential's relative error) and k << 48, which added to a table_bits
// entry j = k mod 16 scales it by 2^floor(k/16). The table index is the sum's own low bits.
struct ExpReduction {
  __m512d r;
  __m512i sum, kbits;  // x 16/ln2 + kShifter as bits (k in the low bits), and k << 48
};
DLA_V512 ExpReduction exp_reduce(__m512d x) {
  const __m512d kd = fma(x, set(kInvLn2x16), set(kShifter));
  const __m512d r = _mm512_fnmadd_pd(_mm512_sub_pd(kd, set(kShifter)), set(kLn2d16), x);
  const __m512i sum = _mm512_castpd_si512(kd);
  return {r, sum, _mm512_slli_epi64(sum, 48)};
}
DLA_V512 __m512d scaled(const Table16& t, const ExpReduction& v) {  // t[k mod 16] 2^floor(k/16)
  return _mm512_castsi512_pd(_mm512_add_epi64(_mm512_castpd_si512(lookup(t, v.sum)), v.kbits));
}

// (exp(r) - 1) / r to r^3 (Taylor): the first omitted term is below 2^-34 for |r| <= ln2/32.
DLA_V512 __m512d expm1_ratio(__m512d r) {
  constexpr double kC[] = {1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24};
  return poly(r, kC);
}

// exp(x) for |x| <= 150 (so that 2^(k/16) stays a normal double).
DLA_V512 __m512d exp_core(__m512d x, const Regs& T) {
  const ExpReduction v = exp_reduce(x);
  const __m512d a = scaled(T.exp2, v);
  return fma(a, _mm512_mul_pd(v.r, expm1_ratio(v.r)), a);
}

// exp(x) - 1 for |x| <= 150 without cancellation: (A - 1) + A r Q(r), A = 2^(k/16); A - 1 is
// exact where A is near 1 (Sterbenz), and A = 1 exactly for k = 0, where the result is r Q(r).
DLA_V512 __m512d expm1_core(__m512d x, const Regs& T) {
  const ExpReduction v = exp_reduce(x);
  const __m512d a = scaled(T.exp2, v);
  return fma(a, _mm512_mul_pd(v.r, expm1_ratio(v.r)), _mm512_sub_pd(a, set(1.0)));
}

// log(x) for positive finite normal x, by integer operations on its bits: with t = bits(x) -
// bits(m0), m0 = 49/64, x = 2^k m with k = t >> 52 and m in [m0, 2 m0), and t's top 4
// fraction bits number 16 intervals of m (width 1/32 below 1, 1/16 above), of centre c
// (c = 1 for the one holding 1: [63/64, 33/32)).
DLA_V512 __m512d log_core(__m512d x, const Regs& T) {
  const __m512i t = _mm512_sub_epi64(_mm512_castpd_si512(x), _mm512_set1_epi64(kLogM0Bits));
  const __m512i ki = _mm512_srai_epi64(t, 52);
  const __m512d m = _mm512_castsi512_pd(_mm512_sub_epi64(_mm512_castpd_si512(x), _mm512_slli_epi64(ki, 52)));
  const __m512i j = _mm512_srli_epi64(t, 48);  // the permutes read its low 4 bits
  // r = m/c - 1 with one rounding (-0.0294 < r < 0.0313).
  const __m512d r = _mm512_fmsub_pd(m, lookup(T.invc, j), set(1.0));
  // log1p(r) = r + r^2 P(r), P of degree 3 fitted to (log1p(r) - r) / r^2 on that range
  // (near-minimax, Lawson's method): below 2^-31.6 of the result.
  constexpr double kC[] = {-0x1.fffffce266967p-2, 0x1.55555daea518cp-2, -0x1.0033b438cf402p-2,
                           0x1.995e8ae23b8f0p-3};
  const __m512d l = fma(_mm512_mul_pd(r, r), poly(r, kC), r);
  return _mm512_add_pd(fma(_mm512_cvtepi64_pd(ki), set(kLn2), lookup(T.logc, j)), l);
}

DLA_V512 __m512d copy_sign(__m512d magnitude, __m512d sign_of) {
  return _mm512_or_pd(magnitude, _mm512_and_pd(sign_of, set(-0.0)));
}

// y with the sign bit of x or-ed in (0xf8: A | (B & C)); for results that already carry x's
// sign or are +0 (the one case it changes: -0 in, -0 out).
DLA_V512 __m512d or_sign(__m512d y, __m512d x) {
  return _mm512_castsi512_pd(_mm512_ternarylogic_epi64(_mm512_castpd_si512(y), _mm512_castpd_si512(x),
                                                       _mm512_castpd_si512(set(-0.0)), 0xf8));
}

// x clamped to [-b, b] in float32; NaN stays NaN (min/max return their second operand then).
DLA_V512 __m512 clamp(__m512 x, float b) {
  return _mm512_max_ps(_mm512_set1_ps(-b), _mm512_min_ps(_mm512_set1_ps(b), x));
}

// Per function: the fast lanes (of the float32 input; kAllFast where every lane is), the
// float32 preparation (prepare), the float64 value, and libm.
template <Float32Fn F>
struct Kernel;

struct NoPrepare {
  DLA_V512 static __m512 prepare(__m512 x) { return x; }
  static constexpr bool kPrepares = false;
};

// fpclass categories: 0x01 QNaN, 0x02 +0, 0x04 -0, 0x08 +inf, 0x10 -inf, 0x20 denormal,
// 0x40 negative, 0x80 SNaN.
DLA_V512 __mmask16 abs_below(__m512 x, float bound) {  // false for NaN
  return _mm512_cmp_ps_mask(_mm512_abs_ps(x), _mm512_set1_ps(bound), _CMP_LT_OQ);
}

template <>
struct Kernel<Float32Fn::Exp> {
  // exp(-150) is far below float32's least subnormal and exp(150) above its largest value:
  // clamping there gives libm's 0 and inf (and NaN stays NaN), so every lane is fast.
  static constexpr bool kAllFast = true, kPrepares = true;
  DLA_V512 static __mmask16 fast(__m512) { return 0xffff; }
  DLA_V512 static __m512 prepare(__m512 x) { return clamp(x, 150.0f); }
  DLA_V512 static __m512d compute(__m512d x, const Regs& T) { return exp_core(x, T); }
  static float scalar(float x) { return std::exp(x); }
};

template <>
struct Kernel<Float32Fn::Log> : NoPrepare {
  static constexpr bool kAllFast = false;
  DLA_V512 static __mmask16 fast(__m512 x) { return __mmask16(~_mm512_fpclass_ps_mask(x, 0xdf)); }
  DLA_V512 static __m512d compute(__m512d x, const Regs& T) { return log_core(x, T); }  // float32 denormals are normal doubles
  static float scalar(float x) { return std::log(x); }
};

template <Float32Fn F>
struct SinCosKernel : NoPrepare {
  static constexpr bool kAllFast = false;
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
  // Beyond |x| = 100 the float32 result has long overflowed: clamped there, the float64
  // value (below 2^145) still rounds to libm's inf; NaN stays NaN. Every lane is fast.
  static constexpr bool kAllFast = true, kPrepares = true;
  DLA_V512 static __mmask16 fast(__m512) { return 0xffff; }
  DLA_V512 static __m512 prepare(__m512 x) { return clamp(x, 100.0f); }
  // x = k ln2/16 + r: with s = 2^(k/16)/2 and s' = 2^(-k/16)/2 from two tables,
  //   sinh x = (s + s') sinh r - (s' - s) cosh r,
  // one form for every sign and size, no division. For k = 0 (|x| < ln2/32) it is sinh r
  // itself; otherwise |s' - s| >= 0.043 and the two terms cancel at most by half (the
  // worst: k = 1, r = -ln2/32), so their float64 errors stay far below 2^-40 of the result.
  // The fmsub gives -0 for -0 (r = -0: -0 - (+0)).
  DLA_V512 static __m512d compute(__m512d x, const Regs& T) {
    const ExpReduction v = exp_reduce(x);
    const __m512d s = scaled(T.exp2h, v);
    const __m512d sn = _mm512_castsi512_pd(_mm512_sub_epi64(_mm512_castpd_si512(lookup(T.exp2nh, v.sum)), v.kbits));
    const __m512d r = v.r, r2 = _mm512_mul_pd(r, r);
    // |r| <= ln2/32: sinh r = r + c r^3, c fitted (near-minimax, Lawson's method) to within
    // 2^-31.5 of sinh r; cosh r to r^4 (Taylor: the first omitted term is below 2^-42).
    constexpr double kC[] = {1.0, 1.0 / 2, 1.0 / 24};
    const __m512d sinh_r = fma(_mm512_mul_pd(r, r2), set(0x1.555708158854dp-3), r);
    const __m512d cosh_r = poly(r2, kC);
    return _mm512_fmsub_pd(_mm512_add_pd(s, sn), sinh_r, _mm512_mul_pd(_mm512_sub_pd(sn, s), cosh_r));
  }
  static float scalar(float x) { return std::sinh(x); }
};

template <>
struct Kernel<Float32Fn::Atanh> : NoPrepare {
  static constexpr bool kAllFast = false;
  DLA_V512 static __mmask16 fast(__m512 x) { return abs_below(x, 1.0f); }
  DLA_V512 static __m512d compute(__m512d x, const Regs& T) {
    const __m512d a = _mm512_abs_pd(x), one = set(1.0);
    // 1 + a and 1 - a are exact for float32 a, and the quotient's rounding (2^-53) is an
    // absolute error of the logarithm, below 2^-34 of the result (about 2a) from a = 2^-20 on.
    // Below, atanh a = a (a^3/3 is under 2^-40 of a). A true division: on the CPUs measured
    // (AMD Zen 5) it costs less than the reciprocal estimate and its two Newton steps.
    const __m512d q = _mm512_div_pd(_mm512_add_pd(one, a), _mm512_sub_pd(one, a));
    const __m512d y = _mm512_mul_pd(set(0.5), log_core(q, T));
    return or_sign(_mm512_mask_blend_pd(_mm512_cmp_pd_mask(a, set(0x1p-20), _CMP_LT_OQ), y, a), x);
  }
  static float scalar(float x) { return std::atanh(x); }
};

template <>
struct Kernel<Float32Fn::Acosh> : NoPrepare {
  static constexpr bool kAllFast = false;
  // 1 <= x < inf (NaN, infinities and x < 1 go to libm).
  DLA_V512 static __mmask16 fast(__m512 x) {
    return _mm512_cmp_ps_mask(x, _mm512_set1_ps(1.0f), _CMP_GE_OQ) &
           _mm512_cmp_ps_mask(x, _mm512_set1_ps(0x1.fffffep127f), _CMP_LE_OQ);
  }
  // log(x + sqrt(x^2 - 1)): x^2 - 1 is exact for float32 x (48 bits, or a rounding far below
  // float32's where x is large), and the sum w = 1 + t, t >= sqrt(2^-22) = 2^-11 (the float32
  // x next to 1), rounds with an absolute error 2^-53, below 2^-42 of log1p(t): no log1p
  // form is needed. x = 1 gives +0.
  DLA_V512 static __m512d compute(__m512d x, const Regs& T) {
    return log_core(_mm512_add_pd(x, _mm512_sqrt_pd(_mm512_fmsub_pd(x, x, set(1.0)))), T);
  }
  static float scalar(float x) { return std::acosh(x); }
};

// Lanes off the fast range of a vector (slow mask) are recomputed by libm from the saved x.
template <Float32Fn F>
__attribute__((noinline)) void fix_up(__mmask16 slow, const float* xs, float* out) {
  for (int l = 0; l < 16; ++l)
    if (slow & (1u << l)) out[l] = Kernel<F>::scalar(xs[l]);
}

// 16 floats (x, also at p unless masked) as two float64 vectors, each rounded once back to
// float32 and stored. Without a float32 preparation the halves are converted straight from
// memory (no extract/insert shuffles).
template <Float32Fn F>
DLA_V512 void compute16(__m512 x, const float* p, float* out, __mmask16 live, const Regs& T) {
  using K = Kernel<F>;
  __m512d x_lo, x_hi;
  if (!K::kPrepares && live == 0xffff) {
    x_lo = _mm512_cvtps_pd(_mm256_loadu_ps(p));
    x_hi = _mm512_cvtps_pd(_mm256_loadu_ps(p + 8));
  } else {
    const __m512 xp = K::prepare(x);
    x_lo = _mm512_cvtps_pd(_mm512_castps512_ps256(xp));
    x_hi = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(xp), 1)));
  }
  const __m256 y_lo = _mm512_cvtpd_ps(K::compute(x_lo, T));
  const __m256 y_hi = _mm512_cvtpd_ps(K::compute(x_hi, T));
  if (live == 0xffff) {
    _mm256_storeu_ps(out, y_lo);
    _mm256_storeu_ps(out + 8, y_hi);
  } else {
    _mm512_mask_storeu_ps(out, live, _mm512_insertf32x8(_mm512_castps256_ps512(y_lo), y_hi, 1));
  }
}

// The row, 32 floats a step (four independent chains keep the FMA units busy), then 16 at a
// time with the tail under a mask (its idle lanes hold 0.5, on every fast range); lanes off
// the fast range are recomputed from the saved arguments, so in == out works.
template <Float32Fn F>
__attribute__((target(DLA_AVX512_TARGET))) void row(const float* in, float* out, int64_t n) {
  using K = Kernel<F>;
  const Tables& t = tables();
  const Regs T = {load16(t.exp2), load16(t.exp2h), load16(t.exp2nh), load16(t.invc), load16(t.logc)};
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m512 x0 = _mm512_loadu_ps(in + i), x1 = _mm512_loadu_ps(in + i + 16);
    const __mmask16 slow0 = __mmask16(~K::fast(x0)), slow1 = __mmask16(~K::fast(x1));
    compute16<F>(x0, in + i, out + i, 0xffff, T);
    compute16<F>(x1, in + i + 16, out + i + 16, 0xffff, T);
    if (!K::kAllFast && (slow0 | slow1)) {
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
    const __mmask16 slow = live & ~K::fast(x);
    compute16<F>(x, in + i, out + i, live, T);
    if (!K::kAllFast && slow) {
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
    case Float32Fn::Acosh: row<Float32Fn::Acosh>(in, out, n); return true;
  }
  return false;
}

}  // namespace dla::cpu
