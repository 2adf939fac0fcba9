// float32_math.cpp — float32 exp, log, sin and cos on AVX2 + FMA, 8 lanes a vector (see
// float32_math.h); on AVX-512 the loops of math_avx512_f32.cpp run instead.
#include "backends/cpu/float32_math.h"
#include "core/cpu_features.h"
#include "backends/cpu/log_f32_table.h"
#include "backends/cpu/math_avx512_f32.h"
#include "backends/cpu/trig_f64.h"

#include "backends/cpu/avx2_row.h"

#include <immintrin.h>

#include <cmath>

namespace dla::cpu {
namespace {

using avx2_math::poly;
using avx2_math::row;

DLA_V256 __m256 set1(float v) { return _mm256_set1_ps(v); }
DLA_V256 __m256d set1d(double v) { return _mm256_set1_pd(v); }


// A 16-entry float table in two registers. A lookup permutes both by the index's low 3 bits and
// blends on its bit 3, which `high` holds in the sign bit (the index shifted left by 28, or the
// bits it was cut from shifted so; one per index, shared by that index's lookups).
struct Table16 {
  __m256 lo, hi;
};
DLA_V256 Table16 load16(const float* t) { return {_mm256_loadu_ps(t), _mm256_loadu_ps(t + 8)}; }
DLA_V256 __m256 lookup(const Table16& t, __m256i j, __m256 high) {
  return _mm256_blendv_ps(_mm256_permutevar8x32_ps(t.lo, j), _mm256_permutevar8x32_ps(t.hi, j), high);
}

// ---- exp -----------------------------------------------------------------------------------
// In float32 arithmetic: x = k ln2/16 + r, |r| <= ln2/32, with ln2/16 in two parts (x less k
// times the first is exact, k <= 2048); exp x = 2^(k/16) (1 + p), p = r + r^2 Q(r) (Taylor to
// r^4: the first term left out is below 2^-34 of the result), 2^(j/16) (j = k mod 16) from a
// table as hi + lo (48 bits), the result hi + (hi p + lo) with floor(k/16) added to its
// exponent field: the last addition is the one rounding at full weight, the inner fma's and
// r's roundings weigh 0.022 of theirs, so within 0.5 + 0.05 ulp (0.51 measured over
// benchmarks/accuracy.py's inputs; NumPy's AVX2 loop 2.28). Lanes below -104 are 0 (exp rounds
// to it there, -inf included); lanes in [-104, -87) (subnormal results), above 88.7 (the
// overflow edge) and NaN are libm's expf.
struct ExpTables {
  alignas(32) float hi[16], lo[16];
  float ln2_16_hi, ln2_16_lo;
  ExpTables() {
    for (int j = 0; j < 16; ++j) {
      const long double v = std::exp2(j / 16.0L);
      hi[j] = static_cast<float>(v);
      lo[j] = static_cast<float>(v - hi[j]);
    }
    const long double c = std::log(2.0L) / 16;
    ln2_16_hi = static_cast<float>(c);
    ln2_16_lo = static_cast<float>(c - ln2_16_hi);
  }
};

struct ExpKernel {
  struct Regs {
    Table16 hi, lo;
    __m256 ln2_16_hi, ln2_16_lo;
  };
  DLA_V256 static Regs regs() {
    static const ExpTables t;
    return {load16(t.hi), load16(t.lo), set1(t.ln2_16_hi), set1(t.ln2_16_lo)};
  }
  // Lanes the vector computes (beside the zeros it settles itself); false for NaN.
  DLA_V256 static __m256 fast(__m256 x) {
    return _mm256_and_ps(_mm256_cmp_ps(x, set1(-87.0f), _CMP_GE_OQ), _mm256_cmp_ps(x, set1(88.7f), _CMP_LE_OQ));
  }
  DLA_V256 static __m256 settled(__m256 x) { return _mm256_cmp_ps(x, set1(-104.0f), _CMP_LT_OQ); }
  DLA_V256 static __m256 compute(__m256 x, const Regs& T) {
    constexpr float kShifter = 0x1.8p23f;  // adding it leaves round(v) in the low bits (|v| < 2^22)
    const __m256 zero = settled(x);
    const __m256 kf = _mm256_fmadd_ps(x, set1(0x1.715476p+4f), set1(kShifter));  // 16/ln2
    const __m256 kd = _mm256_sub_ps(kf, set1(kShifter));
    const __m256 r = _mm256_fnmadd_ps(kd, T.ln2_16_lo, _mm256_fnmadd_ps(kd, T.ln2_16_hi, x));
    const __m256i kbits = _mm256_castps_si256(kf);
    const __m256 high = _mm256_castsi256_ps(_mm256_slli_epi32(kbits, 28));
    const __m256 th = lookup(T.hi, kbits, high), tl = lookup(T.lo, kbits, high);
    constexpr float kQ[] = {0.5f, 1.0f / 6, 1.0f / 24};
    const __m256 p = _mm256_fmadd_ps(_mm256_mul_ps(r, r), poly(r, kQ), r);
    const __m256 v = _mm256_add_ps(th, _mm256_fmadd_ps(th, p, tl));
    // floor(k/16) into the exponent field: k is kf's bits less the shifter's.
    const __m256i k = _mm256_sub_epi32(kbits, _mm256_castps_si256(set1(kShifter)));
    const __m256i scaled = _mm256_add_epi32(_mm256_castps_si256(v), _mm256_slli_epi32(_mm256_srai_epi32(k, 4), 23));
    return _mm256_andnot_ps(zero, _mm256_castsi256_ps(scaled));
  }
  static float scalar(float x) { return std::exp(x); }
};

// ---- log -----------------------------------------------------------------------------------
// math_avx512_f32.cpp's float32 log (LogKernel32) at 8 lanes, the same operations in the same
// order, so the same values (0.51 ulp measured; NumPy's AVX2 loop 2.6): with t = bits(x) -
// bits(49/64), x = 2^k m, m in [49/64, 49/32), and t's top 4 fraction bits number 16 intervals of
// m with centres c (1 for the one holding 1); m/c - 1 = r + r_lo exactly (an fma and a Sterbenz
// subtraction), log x = (k ln2_hi + log c_hi) + r + (r_lo (1 - r) + r^2 P(r) + k ln2_lo + log c_lo)
// with the first sum exact-ish and the last addition the one rounding at full weight.
// Positive normal x only: zeros, subnormals, infinities and NaN are libm's logf, negatives its
// NaN (math_domain.h).
struct LogKernel {
  struct Regs {
    Table16 cinv, thi, tlo;
    __m256 ln2_hi, ln2_lo;
  };
  DLA_V256 static Regs regs() {
    const LogF32Table& t = log_f32_table();
    return {load16(t.cinv), load16(t.thi), load16(t.tlo), set1(t.ln2_hi), set1(t.ln2_lo)};
  }
  // Positive normal finite: bits(x) - bits(FLT_MIN) below bits(inf) - bits(FLT_MIN), unsigned
  // (an unsigned compare as a signed one of both sides with the sign bit flipped).
  DLA_V256 static __m256 fast(__m256 x) {
    const __m256i flip = _mm256_set1_epi32(INT32_MIN);
    const __m256i t = _mm256_xor_si256(_mm256_sub_epi32(_mm256_castps_si256(x), _mm256_set1_epi32(0x00800000)), flip);
    return _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(0x7f000000 ^ INT32_MIN), t));
  }
  DLA_V256 static __m256 settled(__m256) { return _mm256_setzero_ps(); }
  DLA_V256 static __m256 compute(__m256 x, const Regs& T) {
    const __m256i xb = _mm256_castps_si256(x);
    const __m256i t = _mm256_sub_epi32(xb, _mm256_set1_epi32(0x3f440000));  // bits of 49/64
    const __m256i ki = _mm256_srai_epi32(t, 23);
    const __m256 m = _mm256_castsi256_ps(_mm256_sub_epi32(xb, _mm256_slli_epi32(ki, 23)));
    const __m256i j = _mm256_srli_epi32(t, 19);                        // its low 3 bits: the permutes
    const __m256 high = _mm256_castsi256_ps(_mm256_slli_epi32(t, 9));  // its bit 3 (t's bit 22)
    const __m256 c = lookup(T.cinv, j, high);
    const __m256 p = _mm256_mul_ps(m, c);
    const __m256 r_lo = _mm256_fmsub_ps(m, c, p);
    const __m256 r = _mm256_sub_ps(p, set1(1.0f));
    const __m256 k = _mm256_cvtepi32_ps(ki);
    const __m256 hi = _mm256_fmadd_ps(k, T.ln2_hi, lookup(T.thi, j, high));
    const __m256 tail = _mm256_fmadd_ps(_mm256_mul_ps(r, r), poly(r, kLogF32P),
                                        _mm256_fmadd_ps(k, T.ln2_lo, lookup(T.tlo, j, high)));
    const __m256 s = _mm256_add_ps(hi, r);
    const __m256 e = _mm256_add_ps(_mm256_sub_ps(hi, s), r);
    return _mm256_add_ps(s, _mm256_add_ps(e, _mm256_add_ps(_mm256_fnmadd_ps(r_lo, r, r_lo), tail)));
  }
  static float scalar(float x) { return std::log(x); }
};

// ---- sin, cos --------------------------------------------------------------------------------
// math_avx512_f32.cpp's method at 4 float64 lanes: x = m pi/2 + r with m even for sin (m = 2n,
// sin x = (-1)^n sin r) and odd for cos (m = 2n + 1, cos x = -(-1)^n sin r), |r| <= pi/2, pi/2
// to 107 bits; sin r = r + r^3 P(r^2) within 2^-33.2 (trig_f64.h), one polynomial per
// lane and no quadrant blend; rounded once to float32 (0.50 ulp plus near-ties). Lanes with
// |x| >= 2^20, zeros (the reduction would lose -0's sign), infinities and NaN are libm's.
template <bool Cos>
struct SinCosKernel {
  struct Regs {};
  DLA_V256 static Regs regs() { return {}; }
  DLA_V256 static __m256 fast(__m256 x) {
    const __m256 a = _mm256_andnot_ps(set1(-0.0f), x);
    return _mm256_and_ps(_mm256_cmp_ps(a, set1(0x1p20f), _CMP_LT_OQ), _mm256_cmp_ps(a, _mm256_setzero_ps(), _CMP_NEQ_UQ));
  }
  DLA_V256 static __m256 settled(__m256) { return _mm256_setzero_ps(); }
  DLA_V256 static __m256d half(__m256d x) {
    using trig_f64::kInvPi, trig_f64::kPio2Hi, trig_f64::kPio2Lo;
    const __m256d t = Cos ? _mm256_fmsub_pd(x, set1d(kInvPi), set1d(0.5)) : _mm256_mul_pd(x, set1d(kInvPi));
    const __m256d n = _mm256_round_pd(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m256d m = Cos ? _mm256_fmadd_pd(n, set1d(2.0), set1d(1.0)) : _mm256_add_pd(n, n);
    const __m256d r = _mm256_fnmadd_pd(m, set1d(kPio2Lo), _mm256_fnmadd_pd(m, set1d(kPio2Hi), x));
    const __m256d r2 = _mm256_mul_pd(r, r);
    const __m256d sin_r = _mm256_fmadd_pd(_mm256_mul_pd(r, r2), poly(r2, trig_f64::kSinF32P), r);
    // (-1)^n from n's last bit: n + 1.5 2^52 holds n in its low mantissa bits (|n| < 2^20).
    __m256i sign = _mm256_slli_epi64(_mm256_castpd_si256(_mm256_add_pd(n, set1d(0x1.8p52))), 63);
    if constexpr (Cos) sign = _mm256_xor_si256(sign, _mm256_set1_epi64x(INT64_MIN));
    return _mm256_xor_pd(sin_r, _mm256_castsi256_pd(sign));
  }
  DLA_V256 static __m256 compute(__m256 x, const Regs&) {
    const __m128 lo = _mm256_cvtpd_ps(half(_mm256_cvtps_pd(_mm256_castps256_ps128(x))));
    const __m128 hi = _mm256_cvtpd_ps(half(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1))));
    return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
  }
  static float scalar(float x) { return Cos ? std::cos(x) : std::sin(x); }
};

}  // namespace

bool float32_math_available() {
  const VectorLevel level = vector_level();
  return level == VectorLevel::Avx512 || level == VectorLevel::Avx2Fma;
}

void float32_math_row(Float32Fn fn, const float* in, float* out, int64_t n, const NanOutside<float>* domain) {
  if (math_avx512_f32_row(fn, in, out, n, domain)) return;
  switch (fn) {
    case Float32Fn::Exp: return row<ExpKernel, float>(in, out, n, domain, 0.5f);
    case Float32Fn::Log: return row<LogKernel, float>(in, out, n, domain, 0.5f);
    case Float32Fn::Sin: return row<SinCosKernel<false>, float>(in, out, n, domain, 0.5f);
    case Float32Fn::Cos: return row<SinCosKernel<true>, float>(in, out, n, domain, 0.5f);
    // AVX-512 only (math_avx512_f32.h); the policy never sends them here on other CPUs.
    case Float32Fn::Sinh: for (int64_t i = 0; i < n; ++i) out[i] = std::sinh(in[i]); return;
    case Float32Fn::Atanh: for (int64_t i = 0; i < n; ++i) out[i] = std::atanh(in[i]); return;
    case Float32Fn::Acosh: for (int64_t i = 0; i < n; ++i) out[i] = std::acosh(in[i]); return;
    case Float32Fn::Tanh: for (int64_t i = 0; i < n; ++i) out[i] = std::tanh(in[i]); return;
  }
}

}  // namespace dla::cpu
