// math_avx512_f32.cpp — the AVX-512 float32 exp, log, sin, cos, sinh, atanh, acosh (see math_avx512_f32.h).
#include "backends/cpu/math_avx512_f32.h"
#include "backends/cpu/log_f32_table.h"
#include "backends/cpu/math_avx512_common.h"
#include "backends/cpu/trig_f64.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace dla::cpu {
namespace {

using namespace avx512_math;

constexpr double kLn2 = 0x1.62e42fefa39efp-1;
constexpr double kInvLn2x16 = 0x1.71547652b82fep+4;
constexpr double kLn2d16 = 0x1.62e42fefa39efp-5;
using trig_f64::kPio2Hi;
using trig_f64::kPio2Lo;
constexpr int64_t kLogM0Bits = 0x3fe8800000000000;  // bits of 49/64
// Added to x 16/ln2 it leaves k = round(x 16/ln2) in the low bits of the sum (|k| < 2^51).
constexpr double kShifter = 0x1.8p52;

// The bits of v less j << Shift, Shift placing k's table-index bits just below the exponent
// field (48 for 16 double entries, 18 for 32 float ones): adding k << Shift (k = entries q + j)
// to the stored value then gives v 2^q, since q lands in the exponent field and j cancels (v
// normal, and v 2^q too).
template <int Shift, class F>
F table_bits(F v, int64_t j) {
  using U = std::conditional_t<sizeof(F) == 8, uint64_t, uint32_t>;
  U u;
  std::memcpy(&u, &v, sizeof u);
  u -= static_cast<U>(j) << Shift;
  F out;
  std::memcpy(&out, &u, sizeof out);
  return out;
}

struct Tables {
  alignas(64) double exp2[16];  // 2^(j/16), as table_bits
  alignas(64) double invc[16];  // 1 / centre of log_core's interval j
  alignas(64) double logc[16];  // log of that centre
  Tables() {
    for (int j = 0; j < 16; ++j) {
      const long double e = std::exp2(static_cast<long double>(j) / 16);
      exp2[j] = table_bits<48>(static_cast<double>(e), j);
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
  Table16 exp2, invc, logc;
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
  // x = m pi/2 + r with m even for sin (m = 2n: sin x = (-1)^n sin r) and odd for cos
  // (m = 2n + 1: cos x = -(-1)^n sin r), |r| <= pi/2: one polynomial per lane, no quadrant
  // blend of two. r is x less m pi/2 with pi/2 to 107 bits: |m| < 2^21 and float32 x never
  // come nearer than about 2^-30 to a multiple of pi/2, so r keeps about 50 correct bits.
  DLA_V512 static __m512d compute(__m512d x, const Regs&) {
    using trig_f64::kInvPi;
    const __m512d t = F == Float32Fn::Sin ? _mm512_mul_pd(x, set(kInvPi)) : _mm512_fmsub_pd(x, set(kInvPi), set(0.5));
    const __m512d n = _mm512_roundscale_pd(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m512d m = F == Float32Fn::Sin ? _mm512_add_pd(n, n) : _mm512_fmadd_pd(n, set(2.0), set(1.0));
    const __m512d r = _mm512_fnmadd_pd(m, set(kPio2Lo), _mm512_fnmadd_pd(m, set(kPio2Hi), x));
    const __m512d r2 = _mm512_mul_pd(r, r);
    // sin r = r + r^3 P(r^2) (trig_f64.h): within 2^-33.2 of sin r over |r| <= pi/2, so the final
    // rounding to float32 is the one that counts.
    const __m512d sin_r = _mm512_fmadd_pd(_mm512_mul_pd(r, r2), poly(r2, trig_f64::kSinF32P), r);
    // (-1)^n from n's last bit: n + 1.5 2^52 holds n in its low mantissa bits (|n| < 2^20).
    __m512i sign = _mm512_slli_epi64(_mm512_castpd_si512(_mm512_add_pd(n, set(0x1.8p52))), 63);
    if constexpr (F == Float32Fn::Cos) sign = _mm512_xor_si512(sign, _mm512_set1_epi64(INT64_MIN));
    return _mm512_xor_pd(sin_r, _mm512_castsi512_pd(sign));
  }
  static float scalar(float x) { return F == Float32Fn::Sin ? std::sin(x) : std::cos(x); }
};
template <> struct Kernel<Float32Fn::Sin> : SinCosKernel<Float32Fn::Sin> {};
template <> struct Kernel<Float32Fn::Cos> : SinCosKernel<Float32Fn::Cos> {};


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
  const Regs T = {load16(t.exp2), load16(t.invc), load16(t.logc)};
  int64_t i = 0;
  // Where no lane needs libm (exp), 64 floats a step: eight independent chains.
  if constexpr (K::kAllFast)
    for (; i + 64 <= n; i += 64) {
      const __m512 x0 = _mm512_loadu_ps(in + i), x1 = _mm512_loadu_ps(in + i + 16);
      const __m512 x2 = _mm512_loadu_ps(in + i + 32), x3 = _mm512_loadu_ps(in + i + 48);
      compute16<F>(x0, in + i, out + i, 0xffff, T);
      compute16<F>(x1, in + i + 16, out + i + 16, 0xffff, T);
      compute16<F>(x2, in + i + 32, out + i + 32, 0xffff, T);
      compute16<F>(x3, in + i + 48, out + i + 48, 0xffff, T);
    }
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

// tanh in float32 arithmetic, 16 lanes a vector (no float64 widening). a = |x| clamped to 10
// (tanh rounds to 1 in float32 from 9.01 on; NaN stays NaN) falls in one of 32 intervals
// numbered by its bits: j = bits(a) >> 22 less that of 2^-12, two per binade up to 16, with
// everything below 1.5 2^-12 in interval 0. On each, tanh a = hi + (lo + t P(t)), t = a - centre
// (exact: a and the centre share a binade), P of degree 6 and hi + lo the value at the centre
// to 48 bits, so the one rounding that counts at full weight is the last addition's; the
// inner term is at most about a fifth of the result, and its float32 roundings add at most
// 0.25 ulp (worst 0.75 ulp measured, benchmarks/accuracy.py; NumPy's 1.36). Interval 0 has
// centre 0 and P = 1 - t^2/3, relative error 2^-25 there (denormals and -0 included).
// The coefficients come from scripts/fit_tanh_f32.py (fitted for relative error, near-minimax;
// the fit itself is within 0.09 x 2^-24). The sign of x is or-ed in at the end.
struct TanhTables {
  alignas(64) float v[10][32];  // centre, hi, lo, c1 .. c7
};
constexpr TanhTables kTanh = {{
    // centre
    {0x0.0p+0f, 0x1.c00p-12f, 0x1.400p-11f, 0x1.c00p-11f, 0x1.400p-10f, 0x1.c00p-10f,
     0x1.400p-9f, 0x1.c00p-9f, 0x1.400p-8f, 0x1.c00p-8f, 0x1.400p-7f, 0x1.c00p-7f,
     0x1.400p-6f, 0x1.c00p-6f, 0x1.400p-5f, 0x1.c00p-5f, 0x1.400p-4f, 0x1.c00p-4f,
     0x1.400p-3f, 0x1.c00p-3f, 0x1.400p-2f, 0x1.c00p-2f, 0x1.400p-1f, 0x1.c00p-1f,
     0x1.400p+0f, 0x1.c00p+0f, 0x1.400p+1f, 0x1.c00p+1f, 0x1.400p+2f, 0x1.c00p+2f,
     0x1.400p+3f, 0x1.c00p+3f},
    // hi
    {0x0.0p+0f, 0x1.bffffe0000000p-12f, 0x1.3ffffe0000000p-11f, 0x1.bffff80000000p-11f, 0x1.3ffff60000000p-10f, 0x1.bfffe40000000p-10f,
     0x1.3fffd60000000p-9f, 0x1.bfff8e0000000p-9f, 0x1.3fff5a0000000p-8f, 0x1.bffe360000000p-8f, 0x1.3ffd660000000p-7f, 0x1.bff8da0000000p-7f,
     0x1.3ff5960000000p-6f, 0x1.bfe36c0000000p-6f, 0x1.3fd65c0000000p-5f, 0x1.bf8dce0000000p-5f, 0x1.3f59be0000000p-4f, 0x1.be38d80000000p-4f,
     0x1.3d6bc80000000p-3f, 0x1.b8fd040000000p-3f, 0x1.35f98a0000000p-2f, 0x1.a5729e0000000p-2f, 0x1.1bf47e0000000p-1f, 0x1.6866500000000p-1f,
     0x1.b2523c0000000p-1f, 0x1.e1fbfa0000000p-1f, 0x1.f925820000000p-1f, 0x1.ff112c0000000p-1f, 0x1.fff41a0000000p-1f, 0x1.ffffc80000000p-1f,
     0x1.000p+0f, 0x1.000p+0f},
    // lo
    {0x0.0p+0f, 0x1.b4f3600000000p-39f, -0x1.3555480000000p-36f, 0x1.b5559c0000000p-36f, -0x1.aaa90a0000000p-36f, -0x1.2aa64a0000000p-35f,
     0x1.556f5a0000000p-35f, -0x1.54c9500000000p-35f, -0x1.5485000000000p-33f, 0x1.59b5c80000000p-33f, -0x1.4850240000000p-32f, 0x1.9b5b700000000p-32f,
     -0x1.0a10e60000000p-32f, 0x1.b575de0000000p-31f, -0x1.483adc0000000p-32f, -0x1.71c0440000000p-31f, -0x1.836ef00000000p-29f, 0x1.9a5ae00000000p-31f,
     -0x1.3bdcf80000000p-29f, 0x1.6a7c8a0000000p-31f, 0x1.d4c2f40000000p-31f, 0x1.c90fc60000000p-27f, 0x1.577b200000000p-26f, 0x1.7198820000000p-26f,
     -0x1.2151860000000p-27f, -0x1.055ed40000000p-26f, 0x1.5321220000000p-27f, 0x1.9808720000000p-27f, -0x1.bdaebc0000000p-27f, 0x1.99e9620000000p-28f,
     -0x1.15f8a20000000p-28f, -0x1.7df29c0000000p-40f},
    // c1
    {0x1.000p+0f, 0x1.fffffa0000000p-1f, 0x1.fffff40000000p-1f, 0x1.ffffe80000000p-1f, 0x1.ffffce0000000p-1f, 0x1.ffff9e0000000p-1f,
     0x1.ffff380000000p-1f, 0x1.fffe780000000p-1f, 0x1.fffce00000000p-1f, 0x1.fff9e00000000p-1f, 0x1.fff3800000000p-1f, 0x1.ffe7800000000p-1f,
     0x1.ffce040000000p-1f, 0x1.ff9e0c0000000p-1f, 0x1.ff38340000000p-1f, 0x1.fe78c80000000p-1f, 0x1.fce33e0000000p-1f, 0x1.f9ec6c0000000p-1f,
     0x1.f3b3600000000p-1f, 0x1.e842ca0000000p-1f, 0x1.d115740000000p-1f, 0x1.a945ba0000000p-1f, 0x1.6284c40000000p-1f, 0x1.02500a0000000p-1f,
     0x1.1f25120000000p-2f, 0x1.d22ca20000000p-4f, 0x1.b3afec0000000p-6f, 0x1.dd37ce0000000p-9f, 0x1.7cca280000000p-13f, 0x1.be66b20000000p-19f,
     0x1.1693480000000p-27f, 0x1.7ec71c0000000p-39f},
    // c2
    {0x0.0p+0f, -0x1.b306680000000p-12f, -0x1.35d06e0000000p-11f, -0x1.b8be2a0000000p-11f, -0x1.3fffe60000000p-10f, -0x1.bfffbc0000000p-10f,
     -0x1.3fff980000000p-9f, -0x1.bffee60000000p-9f, -0x1.3ffe6e0000000p-8f, -0x1.bffbb00000000p-8f, -0x1.3ffaca0000000p-7f, -0x1.bff1b60000000p-7f,
     -0x1.3fd1920000000p-6f, -0x1.bf90060000000p-6f, -0x1.3f599a0000000p-5f, -0x1.be37940000000p-5f, -0x1.3d68f00000000p-4f, -0x1.b8ed0e0000000p-4f,
     -0x1.35cbae0000000p-3f, -0x1.a48ab20000000p-3f, -0x1.1992220000000p-2f, -0x1.5e0f080000000p-2f, -0x1.893b580000000p-2f, -0x1.6ba7cc0000000p-2f,
     -0x1.e7291e0000000p-3f, -0x1.b6d84c0000000p-4f, -0x1.adda2a0000000p-6f, -0x1.dc5a640000000p-9f, -0x1.7d19820000000p-13f, -0x1.becf8e0000000p-19f,
     -0x1.3016720000000p-27f, -0x1.a1d5500000000p-39f},
    // c3
    {-0x1.5555560000000p-2f, -0x1.035aae0000000p+2f, -0x1.159f0a0000000p+2f, -0x1.155f180000000p+2f, -0x1.553ab80000000p-2f, -0x1.54f0400000000p-2f,
     -0x1.54eafc0000000p-2f, -0x1.53c10a0000000p-2f, -0x1.53abda0000000p-2f, -0x1.4f04160000000p-2f, -0x1.4906d00000000p-2f, -0x1.25599a0000000p-2f,
     -0x1.5ff7b40000000p-2f, -0x1.4cae3e0000000p-2f, -0x1.531c540000000p-2f, -0x1.523e600000000p-2f, -0x1.4ca3d80000000p-2f, -0x1.457f4a0000000p-2f,
     -0x1.3550f40000000p-2f, -0x1.182bde0000000p-2f, -0x1.c18ff20000000p-3f, -0x1.16e9460000000p-3f, -0x1.2456460000000p-6f, 0x1.4f15c40000000p-4f,
     0x1.bba6520000000p-4f, 0x1.01b9e40000000p-4f, 0x1.16dda60000000p-6f, 0x1.3c68fa0000000p-9f, 0x1.fbff7e0000000p-14f, 0x1.29d9ce0000000p-19f,
     0x1.93006c0000000p-28f, 0x1.14df8c0000000p-39f},
    // c4
    {0x0.0p+0f, -0x1.1a0e7c0000000p+12f, -0x1.4edd600000000p+12f, -0x1.a538780000000p+11f, 0x1.c034340000000p-6f, 0x1.4b04480000000p-3f,
     0x1.356ff40000000p-4f, 0x1.4917480000000p-2f, 0x1.2dbb620000000p-3f, 0x1.4a67aa0000000p-1f, 0x1.92f70e0000000p-1f, 0x1.1884b20000000p+1f,
     -0x1.6127720000000p-2f, 0x1.8a98ee0000000p-3f, 0x1.ca69aa0000000p-6f, 0x1.adc06c0000000p-6f, 0x1.bce3dc0000000p-5f, 0x1.1be4d40000000p-4f,
     0x1.8b74920000000p-4f, 0x1.0522bc0000000p-3f, 0x1.43f11a0000000p-3f, 0x1.5c17c60000000p-3f, 0x1.1a64320000000p-3f, 0x1.f209340000000p-5f,
     -0x1.9c58640000000p-7f, -0x1.8169460000000p-6f, -0x1.07d2580000000p-7f, -0x1.39e9de0000000p-10f, -0x1.f4f35e0000000p-15f, -0x1.25c3680000000p-20f,
     -0x1.1579060000000p-29f, -0x1.7d43360000000p-41f},
    // c5
    {0x0.0p+0f, 0x1.6976ba0000000p+29f, 0x1.99b5820000000p+27f, 0x1.a396280000000p+27f, -0x1.7c5bea0000000p+10f, -0x1.48ef820000000p+12f,
     -0x1.705f740000000p+10f, -0x1.46fb400000000p+12f, -0x1.7377c00000000p+10f, -0x1.48246a0000000p+12f, -0x1.6d53000000000p+12f, -0x1.6cecba0000000p+14f,
     0x1.4eb4500000000p+10f, -0x1.d2d40e0000000p+9f, -0x1.0c9c3c0000000p+2f, 0x1.e0eea60000000p+4f, -0x1.8f57800000000p+1f, 0x1.d52a260000000p+0f,
     0x1.dc7bc40000000p-2f, -0x1.d2602c0000000p-6f, 0x1.af08cc0000000p-6f, 0x1.89ef4a0000000p-11f, -0x1.b879aa0000000p-5f, -0x1.e2ac2a0000000p-5f,
     -0x1.3ba9a80000000p-6f, 0x1.e4f5d40000000p-9f, 0x1.771cf60000000p-9f, 0x1.eefa180000000p-12f, 0x1.90d4da0000000p-16f, 0x1.d65e820000000p-22f,
     0x1.c5d4420000000p-31f, 0x1.37cafe0000000p-42f},
    // c6
    {0x0.0p+0f, -0x1.a4353e0000000p+37f, 0x1.0cf8220000000p+38f, 0x1.25b5a20000000p+37f, 0x1.a11c360000000p+15f, -0x1.bf3a0e0000000p+20f,
     -0x1.60d89e0000000p+16f, -0x1.d37b940000000p+19f, -0x1.083cf80000000p+15f, -0x1.c75dfe0000000p+18f, -0x1.707f980000000p+17f, -0x1.0655360000000p+19f,
     0x1.51d5da0000000p+14f, -0x1.4f97180000000p+13f, -0x1.fa446e0000000p+4f, 0x1.3773160000000p+7f, -0x1.8088a20000000p+3f, 0x1.2331d80000000p+2f,
     0x1.2dcd2e0000000p-1f, -0x1.9676ee0000000p-3f, -0x1.6344a80000000p-4f, -0x1.c3a7060000000p-5f, -0x1.80e9360000000p-6f, 0x1.a969f60000000p-7f,
     0x1.ee49e20000000p-7f, 0x1.11829e0000000p-9f, -0x1.6dfdd40000000p-11f, -0x1.49ba5e0000000p-13f, -0x1.36a5b80000000p-17f, -0x1.6db67c0000000p-23f,
     -0x1.5df5ba0000000p-31f, -0x1.e0dd480000000p-43f},
    // c7
    {0x0.0p+0f, -0x1.005f480000000p+52f, -0x1.ae97ac0000000p+41f, -0x1.de4de40000000p+48f, 0x1.04c3e80000000p+32f, 0x1.a4b8a60000000p+31f,
     0x1.8f87e80000000p+29f, 0x1.47c6020000000p+29f, 0x1.afc52c0000000p+27f, 0x1.7ff7380000000p+27f, 0x1.88b8d80000000p+29f, 0x1.8f47980000000p+31f,
     -0x1.67c18a0000000p+25f, 0x1.feda180000000p+24f, 0x1.2a9dc60000000p+15f, -0x1.0682760000000p+18f, 0x1.bfcfc60000000p+12f, -0x1.e070120000000p+11f,
     -0x1.8baa9a0000000p+7f, 0x1.fea57e0000000p+5f, 0x1.5565600000000p+1f, -0x1.df99f00000000p-1f, -0x1.2b11d00000000p-6f, 0x1.bae8f40000000p-7f,
     -0x1.fe789a0000000p-9f, -0x1.0483a20000000p-9f, 0x1.eb3f6e0000000p-15f, 0x1.5f65a00000000p-15f, 0x1.6025fa0000000p-19f, 0x1.a04f4c0000000p-25f,
     0x1.8a484a0000000p-33f, 0x1.0ee2100000000p-44f},
}};

struct Table32 {
  __m512 lo, hi;
};
DLA_V512 Table32 load32(const float* t) { return {_mm512_load_ps(t), _mm512_load_ps(t + 16)}; }
DLA_V512 __m512 lookup(const Table32& t, __m512i j) { return _mm512_permutex2var_ps(t.lo, j, t.hi); }

struct TanhRegs {
  Table32 v[10];
};

DLA_V512 __m512 tanh16(__m512 x, const TanhRegs& T) {
  const __m512 a = _mm512_min_ps(_mm512_set1_ps(10.0f), _mm512_abs_ps(x));  // NaN: a = NaN
  const __m512i j = _mm512_max_epi32(
      _mm512_sub_epi32(_mm512_srli_epi32(_mm512_castps_si512(a), 22), _mm512_set1_epi32((127 - 12) * 2)),
      _mm512_setzero_si512());
  const __m512 t = _mm512_sub_ps(a, lookup(T.v[0], j));
  __m512 p = _mm512_fmadd_ps(lookup(T.v[9], j), t, lookup(T.v[8], j));
  for (int k = 7; k >= 3; --k) p = _mm512_fmadd_ps(p, t, lookup(T.v[k], j));
  const __m512 v = _mm512_add_ps(lookup(T.v[1], j), _mm512_fmadd_ps(p, t, lookup(T.v[2], j)));
  // v | (x & sign): tanh is odd and v >= 0 (+0 for a = 0).
  return _mm512_castsi512_ps(_mm512_ternarylogic_epi32(_mm512_castps_si512(v), _mm512_castps_si512(x),
                                                       _mm512_set1_epi32(int32_t(0x80000000u)), 0xf8));
}

struct TanhKernel {
  static constexpr bool kAllFast = true;
  using Regs = TanhRegs;
  DLA_V512 static Regs regs() {
    TanhRegs T;
    for (int k = 0; k < 10; ++k) T.v[k] = load32(kTanh.v[k]);
    return T;
  }
  DLA_V512 static __mmask16 fast(__m512) { return 0xffff; }
  DLA_V512 static __m512 compute(__m512 x, const Regs& T) { return tanh16(x, T); }
  static float scalar(float x) { return std::tanh(x); }
};

// atanh in float32 arithmetic, 16 lanes a vector, for a = |x| < 1 (libm for the rest), in two
// forms computed for every lane and blended:
//   a < 1/2   a + a z P(z), z = a^2: the correction is at most a tenth of the result, so its
//             roundings weigh a tenth of theirs;
//   a >= 1/2  with b = 1 - a (exact), 2 atanh a = log(2 - b) - log b, two positive terms. With
//             b = 2^k m (m in [1, 2), interval j of 16 by m's top bits, c_j ~ 1/m, r = m c_j - 1,
//             |r| <= 1/31) and u = b - 1/4 (exact),
//               2 atanh a = [log 1.75 + log c_j - k ln2] + [log(1 - u/1.75) - log1p r],
//             where the first bracket is T_j - k ln2 with T_j and ln2 split so that
//             H = T_j,hi - k ln2_hi is exact, and the second is below 0.19 in size: the one
//             rounding at full weight is H + low's, on a result >= 1.09 (0.5 ulp of it, the
//             low part's roundings a few hundredths).
// P, log1p's R and Q are near-minimax fits from scripts/fit_atanh_f32.py.
// A float32 logarithm's table, 16 intervals of the significand m in [1, 2) by its top 4 bits:
// c_j ~ 1/m (float32), and T_j = add + sign log c_j split into hi (16 fraction bits) + lo, and
// ln2 likewise, so that H = T_j,hi + k ln2_hi is exact for |k| < 256 (below 2^8 in size,
// multiples of 2^-16: 24 bits).
struct LogTable32 {
  alignas(64) float cinv[16], thi[16], tlo[16];
  float ln2_hi, ln2_lo;
  LogTable32(long double add, int sign) {
    const long double ln2 = std::log(2.0L);
    for (int j = 0; j < 16; ++j) {
      cinv[j] = static_cast<float>(1.0L / (1.0L + (j + 0.5L) / 16));
      const long double t = add + sign * std::log(static_cast<long double>(cinv[j]));
      const long double hi = std::nearbyint(t * 65536) / 65536;
      thi[j] = static_cast<float>(hi);
      tlo[j] = static_cast<float>(t - hi);
    }
    const long double hi = std::nearbyint(ln2 * 65536) / 65536;
    ln2_hi = static_cast<float>(hi);
    ln2_lo = static_cast<float>(ln2 - hi);
  }
};
const LogTable32& atanh_tables() {  // T_j = log 1.75 + log c_j
  static const LogTable32 t(std::log(1.75L), 1);
  return t;
}
const LogTable32& acosh_tables() {  // T_j = ln2 - log c_j
  static const LogTable32 t(std::log(2.0L), -1);
  return t;
}

template <int N>
DLA_V512 __m512 poly32(__m512 t, const float (&c)[N]) {
  __m512 p = _mm512_set1_ps(c[N - 1]);
  for (int i = N - 2; i >= 0; --i) p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(c[i]));
  return p;
}

struct AtanhKernel {
  static constexpr bool kAllFast = false;
  static constexpr float kR[] = {-0x1.0p-1f, 0x1.55812p-2f, -0x1.ff5c62p-3f};  // log1p r = r + r^2 R(r)
  struct Regs {
    __m512 cinv, thi, tlo, ln2_hi, ln2_lo;
  };
  DLA_V512 static Regs regs() {
    const LogTable32& t = atanh_tables();
    return {_mm512_load_ps(t.cinv), _mm512_load_ps(t.thi), _mm512_load_ps(t.tlo), _mm512_set1_ps(-t.ln2_hi),
            _mm512_set1_ps(-t.ln2_lo)};
  }
  DLA_V512 static __mmask16 fast(__m512 x) { return abs_below(x, 1.0f); }
  DLA_V512 static __m512 compute(__m512 x, const Regs& T) {
    constexpr float kP[] = {0x1.55554p-2f, 0x1.99a676p-3f, 0x1.234d9ap-3f, 0x1.e3ffcap-4f, 0x1.a6be3p-5f, 0x1.693922p-3f};
    constexpr float kQ[] = {-0x1.24924ap-1f, -0x1.4e5e0cp-3f, -0x1.fd7d26p-5f, -0x1.b4ad26p-6f, -0x1.91e16p-7f, -0x1.84d4e6p-8f, -0x1.267c8ap-9f};
    const __m512 a = _mm512_abs_ps(x);
    const __m512 z = _mm512_mul_ps(a, a);
    const __m512 small = _mm512_fmadd_ps(_mm512_mul_ps(a, z), poly32(z, kP), a);
    const __m512 b = _mm512_sub_ps(_mm512_set1_ps(1.0f), a);
    const __m512 k = _mm512_getexp_ps(b);
    const __m512 m = _mm512_getmant_ps(b, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_src);
    const __m512i j = _mm512_srli_epi32(_mm512_castps_si512(b), 19);  // the permutes read its low 4 bits
    const __m512 r = _mm512_fmsub_ps(m, _mm512_permutexvar_ps(j, T.cinv), _mm512_set1_ps(1.0f));
    const __m512 log1p_r = _mm512_fmadd_ps(_mm512_mul_ps(r, r), poly32(r, AtanhKernel::kR), r);
    const __m512 u = _mm512_sub_ps(b, _mm512_set1_ps(0.25f));
    const __m512 low = _mm512_add_ps(_mm512_fmadd_ps(k, T.ln2_lo, _mm512_permutexvar_ps(j, T.tlo)),
                                     _mm512_fmsub_ps(u, poly32(u, kQ), log1p_r));
    const __m512 h = _mm512_fmadd_ps(k, T.ln2_hi, _mm512_permutexvar_ps(j, T.thi));
    const __m512 large = _mm512_mul_ps(_mm512_set1_ps(0.5f), _mm512_add_ps(h, low));
    const __m512 v = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(a, _mm512_set1_ps(0.5f), _CMP_LT_OQ), large, small);
    // v | (x & sign): atanh is odd and v >= 0 (+0 for a = 0).
    return _mm512_castsi512_ps(_mm512_ternarylogic_epi32(_mm512_castps_si512(v), _mm512_castps_si512(x),
                                                         _mm512_set1_epi32(int32_t(0x80000000u)), 0xf8));
  }
  static float scalar(float x) { return std::atanh(x); }
};

// acosh in float32 arithmetic, 16 lanes a vector, for 1 <= x <= FLT_MAX (libm for the rest),
// in two forms computed for every lane and blended:
//   x < 2   with d = x - 1 (exact), acosh x = sqrt(2d) (1 + d G(d)): sqrt(2d) = s + s' to twice
//           float32's precision (s' = (2d - s^2) / 2s, the residual exact by fma), and
//           s + (s' + s d G(d)) has its one full-weight rounding last (|d G| <= 0.07);
//   x >= 2  acosh x = log x + log(1 + sqrt(1 - v)), v = 1/x^2 (v = 0 once x^2 overflows: the
//           limit), = [T_j,hi + k ln2_hi] + [k ln2_lo + T_lo,j + log1p r + v K(v)] with the
//           table of atanh's form (T_j = ln2 - log c_j): the first bracket exact, the second
//           below 0.1 in size, the result >= 1.31.
// G and K are near-minimax fits from scripts/fit_acosh_f32.py; log1p's R is atanh's.
struct AcoshKernel {
  static constexpr bool kAllFast = false;
  using Regs = AtanhKernel::Regs;
  DLA_V512 static Regs regs() {
    const LogTable32& t = acosh_tables();
    return {_mm512_load_ps(t.cinv), _mm512_load_ps(t.thi), _mm512_load_ps(t.tlo), _mm512_set1_ps(t.ln2_hi),
            _mm512_set1_ps(t.ln2_lo)};
  }
  DLA_V512 static __mmask16 fast(__m512 x) {
    return _mm512_cmp_ps_mask(x, _mm512_set1_ps(1.0f), _CMP_GE_OQ) &
           _mm512_cmp_ps_mask(x, _mm512_set1_ps(0x1.fffffep127f), _CMP_LE_OQ);
  }
  DLA_V512 static __m512 compute(__m512 x, const Regs& T) {
    constexpr float kG[] = {-0x1.55554ep-4f, 0x1.33302cp-6f, -0x1.6d4992p-8f, 0x1.ea58b6p-10f, -0x1.4acf4cp-11f, 0x1.6eb83p-13f, -0x1.bfc3ecp-16f};
    constexpr float kK[] = {-0x1.fffff6p-3f, -0x1.8005d2p-4f, -0x1.a98ab8p-5f, -0x1.24a602p-5f, -0x1.073244p-6f, -0x1.4b332p-5f};
    const __m512 one = _mm512_set1_ps(1.0f);
    // Near 1. x = 1: s = 0, and s' = 0 times a finite 1/2s (s is raised to 2^-60 there): +0.
    const __m512 d = _mm512_sub_ps(x, one), d2 = _mm512_add_ps(d, d);
    const __m512 s = _mm512_sqrt_ps(d2);
    const __m512 s_lo = _mm512_mul_ps(_mm512_fnmadd_ps(s, s, d2),
                                      _mm512_div_ps(_mm512_set1_ps(0.5f), _mm512_max_ps(s, _mm512_set1_ps(0x1p-60f))));
    const __m512 near1 = _mm512_add_ps(s, _mm512_fmadd_ps(_mm512_mul_ps(s, d), poly32(d, kG), s_lo));
    // From 2 on.
    const __m512 v = _mm512_div_ps(one, _mm512_mul_ps(x, x));
    const __m512 k = _mm512_getexp_ps(x);
    const __m512 m = _mm512_getmant_ps(x, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_src);
    const __m512i j = _mm512_srli_epi32(_mm512_castps_si512(x), 19);  // the permutes read its low 4 bits
    const __m512 r = _mm512_fmsub_ps(m, _mm512_permutexvar_ps(j, T.cinv), one);
    const __m512 log1p_r = _mm512_fmadd_ps(_mm512_mul_ps(r, r), poly32(r, AtanhKernel::kR), r);
    const __m512 low = _mm512_add_ps(_mm512_fmadd_ps(k, T.ln2_lo, _mm512_permutexvar_ps(j, T.tlo)),
                                     _mm512_fmadd_ps(v, poly32(v, kK), log1p_r));
    const __m512 large = _mm512_add_ps(_mm512_fmadd_ps(k, T.ln2_hi, _mm512_permutexvar_ps(j, T.thi)), low);
    return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, _mm512_set1_ps(2.0f), _CMP_LT_OQ), large, near1);
  }
  static float scalar(float x) { return std::acosh(x); }
};

// log in float32 arithmetic, 16 lanes a vector, for positive finite normal x (libm for the
// rest: zeros, negatives, subnormals, inf, NaN). log_core's reduction on float32 bits: with
// t = bits(x) - bits(49/64), k = t >> 23, m = x 2^-k in [49/64, 49/32) and t's top 4 fraction
// bits number m's interval j (width 1/32 below 1, 1/16 above; j = 7, [63/64, 33/32), has
// c_j = 1). m c_j - 1 = r + r_lo exactly (|r| < 0.0313), and
//   log x = [k ln2_hi + T_j,hi] + r + [r_lo (1 - r) + k ln2_lo + T_j,lo + r^2 P(r)],  T_j = -log c_j,
// the first bracket exact (16 fraction bits, |k| <= 128), added to r by Fast2Sum (it is 0 or
// larger than |r|: 0.031 and up), so the one rounding at full weight is the last addition
// (within 0.5 ulp plus a few hundredths). The table and P (log_core's degree-3 fit rounded to
// float32) are log_f32_table.h's, shared with the AVX2 kernel.
struct LogKernel32 {
  static constexpr bool kAllFast = false;
  struct Regs {
    __m512 cinv, thi, tlo, ln2_hi, ln2_lo;
  };
  DLA_V512 static Regs regs() {
    const LogF32Table& t = log_f32_table();
    return {_mm512_load_ps(t.cinv), _mm512_load_ps(t.thi), _mm512_load_ps(t.tlo), _mm512_set1_ps(t.ln2_hi),
            _mm512_set1_ps(t.ln2_lo)};
  }
  // Not: QNaN, zeros, infinities, subnormals, negatives, SNaN.
  DLA_V512 static __mmask16 fast(__m512 x) { return __mmask16(~_mm512_fpclass_ps_mask(x, 0xff)); }
  DLA_V512 static __m512 compute(__m512 x, const Regs& T) {
    const __m512i xb = _mm512_castps_si512(x);
    const __m512i t = _mm512_sub_epi32(xb, _mm512_set1_epi32(0x3f440000));  // bits of 49/64
    const __m512i ki = _mm512_srai_epi32(t, 23);
    const __m512 m = _mm512_castsi512_ps(_mm512_sub_epi32(xb, _mm512_slli_epi32(ki, 23)));
    const __m512i j = _mm512_srli_epi32(t, 19);  // the permutes read its low 4 bits
    // m c_j - 1 = r + r_lo exactly: m c_j = p + r_lo by fma, and p - 1 exact (p in [1/2, 2]);
    // log1p(r + r_lo) = log1p r + r_lo (1 - r) to far below an ulp.
    const __m512 c = _mm512_permutexvar_ps(j, T.cinv);
    const __m512 p = _mm512_mul_ps(m, c);
    const __m512 r_lo = _mm512_fmsub_ps(m, c, p);
    const __m512 r = _mm512_sub_ps(p, _mm512_set1_ps(1.0f));
    const __m512 k = _mm512_cvtepi32_ps(ki);
    const __m512 hi = _mm512_fmadd_ps(k, T.ln2_hi, _mm512_permutexvar_ps(j, T.thi));
    const __m512 tail = _mm512_fmadd_ps(_mm512_mul_ps(r, r), poly32(r, kLogF32P),
                                        _mm512_fmadd_ps(k, T.ln2_lo, _mm512_permutexvar_ps(j, T.tlo)));
    const __m512 s = _mm512_add_ps(hi, r);
    const __m512 e = _mm512_add_ps(_mm512_sub_ps(hi, s), r);
    return _mm512_add_ps(s, _mm512_add_ps(e, _mm512_add_ps(_mm512_fnmadd_ps(r_lo, r, r_lo), tail)));
  }
  static float scalar(float x) { return std::log(x); }
};

// sinh in float32 arithmetic, 16 lanes a vector, on a = |x| clamped to 89.5 (sinh overflows
// float32 from 89.416 on; NaN stays NaN), in two forms, each computed where a lane needs it:
//   a < 1     a + a t P(t), t = a^2: the correction is at most 0.15 of the result, so its
//             roundings weigh 0.15 of theirs; P near-minimax (scripts/fit_sinh_f32.py), within
//             2^-24.9 of (sinh a / a - 1) / t with its float32 coefficients;
//   a >= 1    2 (e^a/4 - e^-a/4) with a = k ln2/32 + r (|r| <= ln2/64), e^a/4 = H + S,
//             H = 2^(k>>5) H_j exact, S = 2^(k>>5) (L_j + H_j p), H_j + L_j = 2^(j/32)/4 to 48
//             bits, p = e^r - 1 to r^3 (2^-30.7); e^-a/4 = (1/16) / (H + S), one division, at
//             most 16% of the result (a = 1), whose cancellation magnifies the small errors by
//             coth a <= 1.32. The one rounding at full weight is H's last addition.
// Worst 0.74 ulp on 10^6 inputs (benchmarks/accuracy.py; NumPy's 1.46). Evaluated in float64
// before (two 8-lane halves per 16 floats): 1.30-1.41x NumPy's time; in float32 with scalef for
// the scaling and a blend at the end, 1.08-1.15x; with the scaling as integer additions and the
// blend folded into the doubling (fewer operations on the multiply ports, which bound the
// loop), and each form skipped when no lane needs it: 0.99-1.02 on [-5, 5], 0.93-0.95 on
// [-80, 80], 0.35 on [-1, 1].
struct SinhKernel32 {
  static constexpr bool kAllFast = true;
  static constexpr float kP[] = {0x1.555556p-3f, 0x1.11111ep-7f, 0x1.a0091ap-13f, 0x1.78a2a4p-19f};
  struct Table {
    alignas(64) float hi[32], lo[32];
    Table() {
      for (int j = 0; j < 32; ++j) {
        const long double v = std::exp2(static_cast<long double>(j) / 32) / 4;
        const float h = static_cast<float>(v);
        // lo[0] would be 0, whose bits cannot be scaled by an exponent addition: 2^-70 instead
        // (2^-68 of the entry, far below the rounding).
        const float l = j == 0 ? 0x1p-70f : static_cast<float>(v - h);
        hi[j] = table_bits<18>(h, j);  // scaled by k << 18 below (0 <= q <= 129)
        lo[j] = table_bits<18>(l, j);
      }
    }
  };
  struct Regs {
    Table32 hi, lo;
  };
  DLA_V512 static Regs regs() {
    static const Table t;
    return {load32(t.hi), load32(t.lo)};
  }
  DLA_V512 static __mmask16 fast(__m512) { return 0xffff; }
  DLA_V512 static __m512 compute(__m512 x, const Regs& T) {
    const __m512 a = _mm512_min_ps(_mm512_set1_ps(89.5f), _mm512_abs_ps(x));  // min(c, NaN) is NaN
    // a < 1 by small(x), which carries x's sign; a vector whose lanes all fall on one side of 1
    // computes only that side's form.
    const __mmask16 is_small = _mm512_cmp_ps_mask(a, _mm512_set1_ps(1.0f), _CMP_LT_OQ);
    if (is_small == 0xffff) return small(x);
    // a >= 1. ln2/32 = kLn2Hi + kLn2Lo, kLn2Hi a multiple of 2^-16 below 2^-5: k kLn2Hi is exact for k < 2^13.
    constexpr float kShifter = 0x1.8p23f, kInvLn2x32 = 0x1.715476p+5f;
    constexpr float kLn2Hi = 0x1.63p-6f, kLn2Lo = -0x1.bd0106p-18f;
    const __m512 kf = _mm512_fmadd_ps(a, _mm512_set1_ps(kInvLn2x32), _mm512_set1_ps(kShifter));
    const __m512 k = _mm512_sub_ps(kf, _mm512_set1_ps(kShifter));
    const __m512 r = _mm512_fnmadd_ps(k, _mm512_set1_ps(kLn2Lo), _mm512_fnmadd_ps(k, _mm512_set1_ps(kLn2Hi), a));
    const __m512 p = _mm512_mul_ps(
        r, _mm512_fmadd_ps(r, _mm512_fmadd_ps(r, _mm512_set1_ps(1.0f / 6), _mm512_set1_ps(0.5f)), _mm512_set1_ps(1.0f)));
    const __m512i j = _mm512_castps_si512(kf);  // the permutes read its low 5 bits: k mod 32
    // k << 18: the shift drops the shifter's bits (its low 14 are 0) and leaves k (< 2^13).
    const __m512i k18 = _mm512_slli_epi32(j, 18);
    // e^a/4 = H + S, H = 2^(k>>5) H_j exact, kept apart until the last addition: rounded on its
    // own, it can lie a binade above the result and carry a whole ulp of it. A quarter, not a
    // half, so that H's exponent field stays below 255 up to a = 89.5 (k >> 5 <= 129); the
    // doubling at the end overflows where sinh does. The scaling by 2^(k>>5) is an integer
    // addition to the table entries' bits, off the multiplier ports that the rest keeps busy.
    const __m512 big = _mm512_castsi512_ps(_mm512_add_epi32(_mm512_castps_si512(lookup(T.hi, j)), k18));
    const __m512 lo = _mm512_castsi512_ps(_mm512_add_epi32(_mm512_castps_si512(lookup(T.lo, j)), k18));
    const __m512 rest = _mm512_fmadd_ps(big, p, lo);
    // e^-a/4 = 1/16 / (e^a/4): one division.
    const __m512 e_neg = _mm512_div_ps(_mm512_set1_ps(0.0625f), _mm512_add_ps(big, rest));
    // Doubled with x's sign, and merged into the small lanes by the same (masked) multiplication.
    const __m512 two = or_sign32(_mm512_set1_ps(2.0f), x);
    const __m512 sum = _mm512_add_ps(big, _mm512_sub_ps(rest, e_neg));
    if (is_small == 0) return _mm512_mul_ps(sum, two);
    return _mm512_mask_mul_ps(small(x), __mmask16(~is_small), sum, two);
  }
  DLA_V512 static __m512 small(__m512 x) {  // x + x t P(t), t = x^2: the form below 1, with x's sign
    const __m512 t = _mm512_mul_ps(x, x);
    return _mm512_fmadd_ps(_mm512_mul_ps(x, t), poly32(t, kP), x);
  }
  // v with the sign of x or-ed in (0xf8: A | (B & C)); v >= 0 or NaN.
  DLA_V512 static __m512 or_sign32(__m512 v, __m512 x) {
    return _mm512_castsi512_ps(_mm512_ternarylogic_epi32(_mm512_castps_si512(v), _mm512_castps_si512(x),
                                                         _mm512_set1_epi32(INT32_MIN), 0xf8));
  }
  static float scalar(float x) { return std::sinh(x); }
};

// Arguments outside a kernel's domain (log of a negative number, acosh of 1/2, atanh of 2):
// the lanes of `slow` outside `domain` get its NaN, libm's there (math_domain.h), instead of a
// call to libm per lane (log of data with negatives in it ran at 11x NumPy's time, acosh
// 1.6x). Returns those lanes, to take off `slow`.
DLA_V512 __mmask16 settle_outside(__m512 x, __mmask16 slow, float* out, const NanOutside<float>* domain) {
  if (!domain) return 0;
  const __mmask16 outside = slow & (_mm512_cmp_ps_mask(x, _mm512_set1_ps(domain->lo), _CMP_LT_OQ) |
                                    _mm512_cmp_ps_mask(x, _mm512_set1_ps(domain->hi), _CMP_GT_OQ));
  if (outside) _mm512_mask_storeu_ps(out, outside, _mm512_set1_ps(domain->nan));
  return outside;
}

template <class K>
__attribute__((noinline)) void fix_up32(__mmask16 slow, const float* xs, float* out) {
  for (int l = 0; l < 16; ++l)
    if (slow & (1u << l)) out[l] = K::scalar(xs[l]);
}

// The float32-arithmetic loops: 16 floats a step, the tail under a mask (idle lanes hold 0.5,
// on every fast range); lanes off the fast range are recomputed by libm from the saved
// arguments, so in == out works.
template <class K>
__attribute__((target(DLA_AVX512_TARGET))) void row32(const float* in, float* out, int64_t n,
                                                       const NanOutside<float>* domain) {
  const typename K::Regs T = K::regs();
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 x = _mm512_loadu_ps(in + i);
    __mmask16 slow = __mmask16(~K::fast(x));
    _mm512_storeu_ps(out + i, K::compute(x, T));
    if (!K::kAllFast && slow) slow &= __mmask16(~settle_outside(x, slow, out + i, domain));
    if (!K::kAllFast && slow) {
      alignas(64) float xs[16];
      _mm512_store_ps(xs, x);
      fix_up32<K>(slow, xs, out + i);
    }
  }
  if (i < n) {
    const __mmask16 live = __mmask16((1u << (n - i)) - 1);
    const __m512 x = _mm512_mask_loadu_ps(_mm512_set1_ps(0.5f), live, in + i);
    __mmask16 slow = live & ~K::fast(x);
    _mm512_mask_storeu_ps(out + i, live, K::compute(x, T));
    if (!K::kAllFast && slow) slow &= __mmask16(~settle_outside(x, slow, out + i, domain));
    if (!K::kAllFast && slow) {
      alignas(64) float xs[16];
      _mm512_store_ps(xs, x);
      fix_up32<K>(slow, xs, out + i);
    }
  }
}

// ---- pow -----------------------------------------------------------------------------------
// float32 pow in float64: x^y = 2^(y log2 x). log2 x = e + log2 m (getexp/getmant: m in [1, 2),
// float32 subnormals are normal in float64), with m = c (1 + r), c the centre of one of 16
// intervals: r = m / c - 1 by one fma with the rounded 1/c, |r| < 0.031, log2 c taken as
// -log2 of that rounded 1/c, so that only r's rounding and the series' cut enter; log2(1 + r)
// by its series to r^8 (cut 2^-43 relative: to r^7 measured 0.57 ulp), so t = y log2 x is within
// about 2^-43 of itself, and 2^t within |t| ln2 2^-43 <= 2^-36 (|t| < 150 for a float32 result);
// 2^t = 2^(k/16) 2^s, s = t - k/16 in [-1/32, 1/32], 2^s by its series to s^6 (cut 2^-50),
// 2^(k/16) from a table with k's high bits added to the exponent. Rounding that float64 to
// float32 is then a correct rounding but near ties: 0.5015 ulp measured over 2.3x10^6 pairs
// (NumPy's SVML loop 1.02, libmvec's powf 0.62). t is clamped to [-200, 200], beyond every float32 result (the
// conversion then gives inf or 0 and the subnormals, correctly rounded). Lanes with x <= 0
// (zeros, negative bases) or an infinite or NaN argument are libm's powf.
struct PowTables32 {
  alignas(64) double invc[16];   // 1 / (1 + (j + 1/2) / 16), rounded
  alignas(64) double log2c[16];  // -log2(invc[j]) of the rounded invc
  alignas(64) double exp2[16];   // 2^(j/16)
  PowTables32() {
    for (int j = 0; j < 16; ++j) {
      invc[j] = static_cast<double>(1.0L / (1.0L + (j + 0.5L) / 16));
      log2c[j] = static_cast<double>(-std::log2(static_cast<long double>(invc[j])));
      exp2[j] = static_cast<double>(std::exp2(j / 16.0L));
    }
  }
};
const PowTables32& pow_tables32() {
  static const PowTables32 t;
  return t;
}
struct PowRegs32 {
  Table16 invc, log2c, exp2;
};
// log2(1 + r) = sum over k of (-1)^(k+1) r^k / (k ln 2), k = 1..8; 2^s = sum of (s ln 2)^k / k!, k = 0..6.
constexpr double kInvLn2 = 0x1.71547652b82fep0;
constexpr double kLog2Series[8] = {kInvLn2, -kInvLn2 / 2, kInvLn2 / 3, -kInvLn2 / 4,
                                   kInvLn2 / 5, -kInvLn2 / 6, kInvLn2 / 7, -kInvLn2 / 8};
constexpr double kExp2Series[7] = {1.0, 0x1.62e42fefa39efp-1, 0x1.ebfbdff82c58fp-3, 0x1.c6b08d704a0c0p-5,
                                   0x1.3b2ab6fba4e77p-7, 0x1.5d87fe78a6731p-10, 0x1.430912f86c787p-13};

struct PowKernel32 {
  using Regs = PowRegs32;
  DLA_V512 static Regs regs() {
    const PowTables32& t = pow_tables32();
    return {load16(t.invc), load16(t.log2c), load16(t.exp2)};
  }
  static float scalar(float x, float y) { return std::pow(x, y); }
  DLA_V512 static __mmask8 fast(__m512d x, __m512d y) {
    return _mm512_cmp_pd_mask(x, set(0.0), _CMP_GT_OQ) & _mm512_cmp_pd_mask(x, set(INFINITY), _CMP_LT_OQ) &
           _mm512_cmp_pd_mask(_mm512_abs_pd(y), set(INFINITY), _CMP_LT_OQ);
  }
  DLA_V512 static __m512d compute(__m512d x, __m512d y, const PowRegs32& T) {
    const __m512d m = _mm512_getmant_pd(x, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_zero);
    const __m512d e = _mm512_getexp_pd(x);
    const __m512i j = _mm512_srli_epi64(_mm512_castpd_si512(m), 48);  // the top 4 bits of m's fraction
    const __m512d r = _mm512_fmsub_pd(m, lookup(T.invc, j), set(1.0));
    const __m512d log2x = _mm512_add_pd(_mm512_add_pd(e, lookup(T.log2c, j)), _mm512_mul_pd(r, poly(r, kLog2Series)));
    const __m512d t = _mm512_min_pd(_mm512_max_pd(_mm512_mul_pd(y, log2x), set(-200.0)), set(200.0));
    // k = round(16 t) in the low bits of the shifted sum; s = t - k/16.
    const __m512d shifted = fma(t, set(16.0), set(0x1.8p52));
    const __m512d kd = _mm512_sub_pd(shifted, set(0x1.8p52));
    const __m512d s = _mm512_fnmadd_pd(kd, set(1.0 / 16), t);
    const __m512i k = _mm512_sub_epi64(_mm512_castpd_si512(shifted), _mm512_castpd_si512(set(0x1.8p52)));
    // 2^(k/16) = table[k mod 16] with floor(k / 16) added to its exponent field.
    const __m512i high = _mm512_slli_epi64(_mm512_srai_epi64(k, 4), 52);
    const __m512d scale = _mm512_castsi512_pd(_mm512_add_epi64(_mm512_castpd_si512(lookup(T.exp2, k)), high));
    return _mm512_mul_pd(scale, poly(s, kExp2Series));
  }
};

// ---- atan2 ---------------------------------------------------------------------------------
// float32 atan2 in float64, the float64 row's method (math_avx512_f64.cpp) without its pairs:
// n = min(|y|, |x|), d = max; c = j/16 near n/d; n - c d and d + c n are exact in float64 (24-bit
// n and d, 4-bit c), z = their quotient through a reciprocal good to 2^-50, atan(z) by its
// series to z^9 (cut 2^-43 relative, |z| < 0.063), atan2 = sign(y) (K + s (atan(c) + atan(z)))
// with K and s as there. Within 2^-42 relative before the rounding to float32: 0.50 ulp. Zeros,
// infinities and NaNs are libm's atan2f (their signs and limits); every other pair of float32
// values is on the fast path (subnormals are normal in float64, and no quotient underflows).
struct Atan2Tables32 {
  alignas(64) double atan[16];  // atan(j/16)
  Atan2Tables32() {
    for (int j = 0; j < 16; ++j) atan[j] = static_cast<double>(std::atan(j / 16.0L));
  }
};
struct Atan2Regs32 {
  Table16 atan;
};
constexpr double kAtanSeries[4] = {-1.0 / 3, 1.0 / 5, -1.0 / 7, 1.0 / 9};  // (atan z - z) / z^3 in z^2
constexpr double kPio2 = 0x1.921fb54442d18p0, kPi = 0x1.921fb54442d18p1;

struct Atan2Kernel32 {
  using Regs = Atan2Regs32;
  DLA_V512 static Regs regs() {
    static const Atan2Tables32 t;
    return {load16(t.atan)};
  }
  static float scalar(float y, float x) { return std::atan2(y, x); }
  DLA_V512 static __mmask8 fast(__m512d y, __m512d x) {  // finite and nonzero
    return __mmask8(~(_mm512_fpclass_pd_mask(y, 0x9f) | _mm512_fpclass_pd_mask(x, 0x9f)));
  }
  DLA_V512 static __m512d compute(__m512d y, __m512d x, const Regs& T) {
    const Atan2Reduction red = atan2_reduce(y, x);
    const __m512d n = red.n, d = red.d, c = red.c;
    const __m512d z = _mm512_mul_pd(_mm512_fnmadd_pd(c, d, n), reciprocal_fine(fma(c, n, d)));
    const __m512d t = _mm512_mul_pd(z, z);
    const __m512d u = _mm512_add_pd(lookup(T.atan, red.j), fma(_mm512_mul_pd(z, t), poly(t, kAtanSeries), z));
    const __m512d su = _mm512_mask_xor_pd(u, atan2_minus(red), u, set(-0.0));
    const __m512d k = _mm512_mask_mov_pd(_mm512_maskz_mov_pd(atan2_half_pi(red), set(kPio2)), atan2_pi(red), set(kPi));
    const __m512d r = _mm512_add_pd(k, su);
    return _mm512_or_pd(r, _mm512_and_pd(y, set(-0.0)));  // r >= 0 takes y's sign
  }
};

// Two-argument float32 rows over a Kernel evaluated in float64: out[i] = f(a[i], b[i * b_step])
// (b_step 0: b[0] for the whole row), 16 values a step in two halves; lanes off the kernel's
// fast range are recomputed by its scalar (libm) function from the saved arguments.
template <class K>
__attribute__((noinline)) void fix_up2_32(__mmask16 slow, const float* as, const float* bs, float* out) {
  for (int l = 0; l < 16; ++l)
    if (slow & (1u << l)) out[l] = K::scalar(as[l], bs[l]);
}

DLA_V512 __m512d low_half(__m512 v) { return _mm512_cvtps_pd(_mm512_castps512_ps256(v)); }
DLA_V512 __m512d high_half(__m512 v) {
  return _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
}

template <class K>
__attribute__((target(DLA_AVX512_TARGET))) void row2_32(const float* a, const float* b, int64_t b_step, float* out,
                                                         int64_t n) {
  const typename K::Regs T = K::regs();
  const __m512 b_one = _mm512_set1_ps(b_step == 0 ? b[0] : 1.0f);
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 live = n - i >= 16 ? __mmask16(0xffff) : __mmask16((1u << (n - i)) - 1);
    const __m512 av = _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), live, a + i);
    const __m512 bv = b_step == 0 ? b_one : _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), live, b + i);
    const __m512d a0 = low_half(av), a1 = high_half(av), b0 = low_half(bv), b1 = high_half(bv);
    const __m256 r0 = _mm512_cvtpd_ps(K::compute(a0, b0, T));
    const __m256 r1 = _mm512_cvtpd_ps(K::compute(a1, b1, T));
    const __m512 r = _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(r0)), _mm256_castps_pd(r1), 1));
    _mm512_mask_storeu_ps(out + i, live, r);
    const __mmask16 fast = __mmask16(K::fast(a0, b0)) | __mmask16(K::fast(a1, b1) << 8);
    const __mmask16 slow = live & ~fast;
    if (slow) {
      alignas(64) float as[16], bs[16];
      _mm512_store_ps(as, av);
      _mm512_store_ps(bs, bv);
      fix_up2_32<K>(slow, as, bs, out + i);
    }
  }
}

}  // namespace

bool math_avx512_f32_pow_row(const float* x, const float* y, int64_t y_step, float* out, int64_t n) {
  if (vector_level() != VectorLevel::Avx512) return false;
  row2_32<PowKernel32>(x, y, y_step, out, n);
  return true;
}

bool math_avx512_f32_atan2_row(const float* y, const float* x, int64_t x_step, float* out, int64_t n) {
  if (vector_level() != VectorLevel::Avx512) return false;
  row2_32<Atan2Kernel32>(y, x, x_step, out, n);
  return true;
}

bool math_avx512_f32_row(Float32Fn fn, const float* in, float* out, int64_t n, const NanOutside<float>* domain) {
  if (vector_level() != VectorLevel::Avx512) return false;
  switch (fn) {
    case Float32Fn::Exp: row<Float32Fn::Exp>(in, out, n); return true;
    case Float32Fn::Log: row32<LogKernel32>(in, out, n, domain); return true;
    case Float32Fn::Sin: row<Float32Fn::Sin>(in, out, n); return true;
    case Float32Fn::Cos: row<Float32Fn::Cos>(in, out, n); return true;
    case Float32Fn::Sinh: row32<SinhKernel32>(in, out, n, domain); return true;
    case Float32Fn::Atanh: row32<AtanhKernel>(in, out, n, domain); return true;
    case Float32Fn::Acosh: row32<AcoshKernel>(in, out, n, domain); return true;
    case Float32Fn::Tanh: row32<TanhKernel>(in, out, n, domain); return true;
  }
  return false;
}

}  // namespace dla::cpu
