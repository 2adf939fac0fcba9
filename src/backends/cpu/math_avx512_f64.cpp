// math_avx512_f64.cpp — the AVX-512 float64 log family (see math_avx512_f64.h), and the rows
// that run the trigonometric kernels shared with AVX2 (trig_kernels_f64.h) over Avx512F64.
#include "backends/cpu/math_avx512_f64.h"
#include "backends/cpu/math_avx512_common.h"
#include "backends/cpu/pow_log_table_f64.h"

#include <cmath>
#include <cstring>

namespace dla::cpu {
namespace {

using namespace avx512_math;

constexpr int kLogEntries = 16;
constexpr double kLogStep = 3.0 / 64;  // [0.75, 1.5) in 16 intervals
// ln 2 = kLn2Hi + kLn2Lo with kLn2Hi of 42 bits, so that k kLn2Hi is exact for |k| < 2^11.
constexpr double kLn2Hi = 0x1.62e42fefa3800p-1;
constexpr double kLn2Lo = 0x1.ef35793c7673p-45;
constexpr double kLog2eHi = 0x1.71547652b82fep0, kLog2eLo = 0x1.777d0ffda0d24p-56;   // 1/ln 2
constexpr double kLog10eHi = 0x1.bcb7b1526e50ep-2, kLog10eLo = 0x1.95355baaafad3p-57;  // 1/ln 10
// P(r) ~ (log1p(r) - r) / r^2 on [-0.0315, 0.0315], least squares on 400 Chebyshev nodes in
// 200-bit arithmetic (mpmath); max error 2^-56.2, i.e. 2^-61 of log1p(r) at the ends.
constexpr double kP[9] = {-0x1.0000000000000p-1, 0x1.555555555551dp-2,  -0x1.ffffffffffee3p-3,
                          0x1.9999999b087ddp-3,  -0x1.5555555785f6ap-3, 0x1.249234d5f938ap-3,
                          -0x1.ffffcfbb51caep-4, 0x1.c7f1897634769p-4,  -0x1.9a72aa34e6d14p-4};

constexpr int kExpEntries = 16;
// ln2 / 16 = kLn2d16Hi + kLn2d16Lo with kLn2d16Hi of 37 bits: k kLn2d16Hi is exact for |k| < 2^16.
constexpr double kInvLn2d16 = 0x1.71547652b82fep+4;
constexpr double kLn2d16Hi = 0x1.62e42fefa0000p-5;
constexpr double kLn2d16Lo = 0x1.cf79abc9e3b3ap-44;
// E(r) ~ (expm1(r) - r) / r^2 on [-ln2/32, ln2/32], fitted as kP; max error 2^-53, i.e.
// 2^-58 of expm1(r).
constexpr double kE[6] = {0x1.0000000000001p-1, 0x1.5555555555556p-3,  0x1.55555554e8d7ap-5,
                          0x1.11111110c60f8p-7, 0x1.6c17ede6663f0p-10, 0x1.a01b393b56b8dp-13};

// f(j/16) = hi[j] + lo[j] for j < 16, evaluated in long double (the exp tables).
struct PairTable16 {
  alignas(64) double hi[16];
  alignas(64) double lo[16];
  explicit PairTable16(long double (*f)(long double)) {
    for (int j = 0; j < 16; ++j) {
      const long double v = f(static_cast<long double>(j) / 16);
      hi[j] = static_cast<double>(v);
      lo[j] = static_cast<double>(v - hi[j]);
    }
  }
};
static_assert(kExpEntries == 16, "the exp table is a PairTable16");
const PairTable16& exp_table() {  // 2^(j/16)
  static const PairTable16 t([](long double v) { return std::exp2(v); });
  return t;
}

struct LogTable {
  alignas(64) double invc[kLogEntries];
  // -log(invc) = logc_hi + logc_lo, logc_hi a multiple of 2^-42 like k kLn2Hi, so that their
  // sum is exact (both below 2^11 in magnitude).
  alignas(64) double logc_hi[kLogEntries];
  alignas(64) double logc_lo[kLogEntries];
  LogTable() {
    for (int j = 0; j < kLogEntries; ++j) {
      const long double a = 0.75L + j * static_cast<long double>(kLogStep), b = a + kLogStep;
      // The interval holding 1 takes c = 1: there log x = log1p(r) with r = x - 1 exact.
      invc[j] = (a <= 1.0L && 1.0L < b) ? 1.0 : static_cast<double>(2.0L / (a + b));
      const long double logc = -std::log(static_cast<long double>(invc[j]));
      logc_hi[j] = static_cast<double>(std::nearbyint(std::ldexp(logc, 42)) * 0x1p-42L);
      logc_lo[j] = static_cast<double>(logc - logc_hi[j]);
    }
  }
};
const LogTable& log_table() {
  static const LogTable t;
  return t;
}

struct LogRegs {
  Table16 invc, logc_hi, logc_lo;
};

struct DD {
  __m512d hi, lo;  // value hi + lo, unevaluated
};

// log(x + x_lo) for positive finite x (subnormals included), |x_lo| up to a few ulp(x) (it
// only enters r_lo, and the term r_lo r^2 left out of log1p(r + r_lo) stays near 2^-60 for
// |x_lo| <= 2 ulp(x)), as hi + lo with |lo| <= ulp(hi) and an error near 2^-60 of the result
// (header: the method).
template <bool kHasLo>
DLA_V512 DD log_core(__m512d x, __m512d x_lo, const LogRegs& T) {
  const __m512d m = _mm512_getmant_pd(x, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_src);
  const __m512d k = _mm512_sub_pd(_mm512_getexp_pd(x), _mm512_getexp_pd(m));
  // m 4/3 lies in [1, 2): its top 4 fraction bits number the interval (the permutes read
  // only the low 4 bits of each index).
  const __m512i j = _mm512_srli_epi64(_mm512_castpd_si512(_mm512_mul_pd(m, set(4.0 / 3))), 48);
  const __m512d invc = lookup(T.invc, j), logc_hi = lookup(T.logc_hi, j), logc_lo = lookup(T.logc_lo, j);
  // r = m invc - 1 = r + r_lo exactly: p is within [0.96, 1.04], so p - 1 is exact.
  const __m512d p = _mm512_mul_pd(m, invc);
  const __m512d r = _mm512_sub_pd(p, set(1.0));
  __m512d r_lo = _mm512_fmsub_pd(m, invc, p);
  if constexpr (kHasLo) r_lo = fma(_mm512_scalef_pd(x_lo, _mm512_sub_pd(_mm512_setzero_pd(), k)), invc, r_lo);
  const __m512d q = poly(r, kP);
  // log1p(r + r_lo) = r + r_lo (1 - r) + r^2 P(r), to 2^-61 relative.
  const __m512d tail = _mm512_mul_pd(_mm512_mul_pd(r, r), q);
  const __m512d lo_r = _mm512_fnmadd_pd(r, r_lo, r_lo);
  // w = k ln2 + log c is exact (both terms multiples of 2^-42); |w| >= 0.04 > |r| unless
  // w = 0 (the interval c = 1), so a fast two-sum adds r exactly.
  const __m512d w = fma(k, set(kLn2Hi), logc_hi);
  const __m512d h = _mm512_add_pd(w, r);
  const __m512d h_err = _mm512_add_pd(_mm512_sub_pd(w, h), r);
  __m512d lo = fma(k, set(kLn2Lo), logc_lo);
  lo = _mm512_add_pd(_mm512_add_pd(lo, h_err), _mm512_add_pd(lo_r, tail));
  return {h, lo};
}

// (hi + lo) (c_hi + c_lo), rounded once: hi c_hi exact inside one fma with the small terms.
DLA_V512 __m512d scale_dd(DD v, double c_hi, double c_lo) {
  return fma(v.hi, set(c_hi), fma(v.hi, set(c_lo), _mm512_mul_pd(v.lo, set(c_hi))));
}

struct ExpRegs {
  Table16 hi, lo;
};

// exp(x) = 2^e (t_hi + t_lo) (1 + r + r_lo + q) for |x| < 709: x = k ln2/16 + r + r_lo,
// |r| <= ln2/32, t = 2^(j/16) (j = k mod 16, e = k div 16), q = r^2 E(r) ~ expm1(r) - r.
// Each part is returned unscaled, so that a caller can form 2^e t_hi - 1 exactly.
struct ExpParts {
  __m512d e, t_hi, t_lo, r, r_lo, q;
};
// x = k ln2/16 + r: k = x 16/ln2 rounded by the shifter 1.5 2^52 (one fma; |x| < 2^46), as a
// double and as the integer whose low 4 bits index the tables (j, the shifted value's bits),
// and e = k/16, unrounded: it is only used as scalef's exponent, which scalef floors itself.
struct ExpReduction {
  __m512d kd, e;
  __m512i ki;
};
DLA_V512 ExpReduction exp_reduce(__m512d x) {
  const __m512d shifted = fma(x, set(kInvLn2d16), set(0x1.8p52));
  const __m512d kd = _mm512_sub_pd(shifted, set(0x1.8p52));
  return {kd, _mm512_mul_pd(kd, set(1.0 / kExpEntries)), _mm512_castpd_si512(shifted)};
}
// exp(x + x_lo) with kHasLo (|x_lo| <= ulp(x): pow's y log x as a pair), x_lo joining the low
// part of the constant in r + r_lo.
template <bool kHasLo = false>
DLA_V512 ExpParts exp_core(__m512d x, const ExpRegs& T, __m512d x_lo = __m512d{}) {
  const ExpReduction red = exp_reduce(x);
  const __m512d kd = red.kd, e = red.e;
  const __m512i ki = red.ki;
  // x - k kLn2d16Hi is exact (a multiple of x's last bit, below 2^-5 in magnitude); the low
  // part of the constant makes r + r_lo (a fast two-sum).
  const __m512d r_hi = _mm512_fnmadd_pd(kd, set(kLn2d16Hi), x);
  const __m512d m = kHasLo ? _mm512_fmsub_pd(kd, set(kLn2d16Lo), x_lo) : _mm512_mul_pd(kd, set(kLn2d16Lo));
  const __m512d r = _mm512_sub_pd(r_hi, m);
  const __m512d r_lo = _mm512_sub_pd(_mm512_sub_pd(r_hi, r), m);
  const __m512d q = _mm512_mul_pd(_mm512_mul_pd(r, r), poly(r, kE));
  return {e, lookup(T.hi, ki), lookup(T.lo, ki), r, r_lo, q};
}

// exp's value from its parts: 2^e (t_hi + t_hi (r + r_lo + q) + t_lo (1 + r)), the small
// terms summed first and added to t_hi once.
DLA_V512 __m512d exp_value(const ExpParts& p) {
  const __m512d inner = fma(p.t_hi, p.r, fma(p.t_hi, _mm512_add_pd(p.q, p.r_lo), fma(p.t_lo, p.r, p.t_lo)));
  return _mm512_scalef_pd(_mm512_add_pd(p.t_hi, inner), p.e);
}

// Per function: the vector on its fast range, the lanes on that range, and libm for the rest.
template <ExpLogFn F>
struct Kernel;

template <ExpLogFn F>
struct LogKernel {
  DLA_V512 static __mmask8 fast(__m512d x) {
    // Not NaN, zero, infinite or negative (fpclass categories 0x01 0x02 0x04 0x08 0x10 0x40 0x80).
    return __mmask8(~_mm512_fpclass_pd_mask(x, 0xdf));
  }
  DLA_V512 static __m512d compute(__m512d x, const LogRegs& T) {
    const DD v = log_core<false>(x, x, T);
    if constexpr (F == ExpLogFn::Log) return _mm512_add_pd(v.hi, v.lo);
    else if constexpr (F == ExpLogFn::Log2) return scale_dd(v, kLog2eHi, kLog2eLo);
    else return scale_dd(v, kLog10eHi, kLog10eLo);
  }
  static double scalar(double x) {
    return F == ExpLogFn::Log ? std::log(x) : F == ExpLogFn::Log2 ? std::log2(x) : std::log10(x);
  }
};
template <> struct Kernel<ExpLogFn::Log> : LogKernel<ExpLogFn::Log> {};
template <> struct Kernel<ExpLogFn::Log2> : LogKernel<ExpLogFn::Log2> {};
template <> struct Kernel<ExpLogFn::Log10> : LogKernel<ExpLogFn::Log10> {};

template <>
struct Kernel<ExpLogFn::Log1p> {
  DLA_V512 static __mmask8 fast(__m512d x) {
    return _mm512_cmp_pd_mask(x, set(-1.0), _CMP_GT_OQ) & _mm512_cmp_pd_mask(x, set(HUGE_VAL), _CMP_LT_OQ) &
           _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_NEQ_OQ);
  }
  DLA_V512 static __m512d compute(__m512d x, const LogRegs& T) {
    // 1 + x = u + u_lo exactly (two-sum); the core folds u_lo into r.
    const __m512d one = set(1.0);
    const __m512d u = _mm512_add_pd(one, x);
    const __m512d b = _mm512_sub_pd(u, one);
    const __m512d u_lo = _mm512_add_pd(_mm512_sub_pd(one, _mm512_sub_pd(u, b)), _mm512_sub_pd(x, b));
    const DD v = log_core<true>(u, u_lo, T);
    return _mm512_add_pd(v.hi, v.lo);
  }
  static double scalar(double x) { return std::log1p(x); }
};

// expm1(x) as hi + lo for |x| < 709: (a - 1) + a r + 2^e (t_lo (1 + r) + t_hi (r_lo + q)),
// a = 2^e t_hi. a - 1 = s + s_err (two-sum) and a r = ar + ar_err exactly; |s| > |ar| unless
// s = 0 (|2^(k/16) - 1| > 0.043 for k != 0, |r| < 0.0217), so a fast two-sum adds them: near 0
// nothing cancels, and only the small terms are rounded.
DLA_V512 DD expm1_dd(__m512d x, const ExpRegs& T) {
  const ExpParts p = exp_core(x, T);
  const __m512d one = set(1.0);
  const __m512d a = _mm512_scalef_pd(p.t_hi, p.e);
  const __m512d s = _mm512_sub_pd(a, one);
  const __m512d bb = _mm512_sub_pd(s, a);
  const __m512d s_err = _mm512_sub_pd(_mm512_sub_pd(a, _mm512_sub_pd(s, bb)), _mm512_add_pd(one, bb));
  const __m512d ar = _mm512_mul_pd(a, p.r);
  const __m512d ar_err = _mm512_fmsub_pd(a, p.r, ar);
  const __m512d h = _mm512_add_pd(s, ar);
  const __m512d h_err = _mm512_add_pd(_mm512_sub_pd(s, h), ar);
  const __m512d rest = _mm512_scalef_pd(fma(p.t_hi, _mm512_add_pd(p.q, p.r_lo), fma(p.t_lo, p.r, p.t_lo)), p.e);
  const __m512d lo = _mm512_add_pd(_mm512_add_pd(s_err, h_err), _mm512_add_pd(ar_err, rest));
  // lo holds r^2/2, not small next to h: renormalized (|h| > |lo|) for the callers that
  // divide by the pair.
  const __m512d sum = _mm512_add_pd(h, lo);
  return {sum, _mm512_add_pd(_mm512_sub_pd(h, sum), lo)};
}

// a + b = s + err exactly, any magnitudes.
DLA_V512 DD two_sum(__m512d a, __m512d b) {
  const __m512d s = _mm512_add_pd(a, b);
  const __m512d bb = _mm512_sub_pd(s, a);
  return {s, _mm512_add_pd(_mm512_sub_pd(a, _mm512_sub_pd(s, bb)), _mm512_sub_pd(b, bb))};
}

// n / (d.hi + d.lo) as a double-double, for n = n.hi + n.lo (to about 2^-56 relative).
// q = n.hi / d.hi is one hardware division: its latency (13 cycles measured) is below that of
// the reciprocal estimate, a Newton step and the product, and the loops are latency-bound. The
// residual n.hi - q d.hi is exact (fma); rem / d is below 2^-52 of q, so a 14-bit reciprocal
// (computed beside the division) makes it to 2^-66.
DLA_V512 DD div_dd(DD n, DD d) {
  const __m512d q = _mm512_div_pd(n.hi, d.hi);
  const __m512d rem = _mm512_add_pd(_mm512_fnmadd_pd(q, d.hi, n.hi), _mm512_fnmadd_pd(q, d.lo, n.lo));
  return {q, _mm512_mul_pd(rem, _mm512_rcp14_pd(d.hi))};
}

// exp(x) = 2^e (t_hi + t_hi (r + r_lo + q) + t_lo (1 + r)), the small terms summed first and
// added to t_hi once; below -708.39 (subnormal results, where scalef would round twice) and
// above 709.78, libm.
template <>
struct Kernel<ExpLogFn::Exp> {
  DLA_V512 static __mmask8 fast(__m512d x) {
    return _mm512_cmp_pd_mask(x, set(-708.39), _CMP_GT_OQ) & _mm512_cmp_pd_mask(x, set(709.7), _CMP_LT_OQ);
  }
  DLA_V512 static __m512d compute(__m512d x, const ExpRegs& T) { return exp_value(exp_core(x, T)); }
  static double scalar(double x) { return std::exp(x); }
};

template <>
struct Kernel<ExpLogFn::Expm1> {
  // Not NaN, infinite or zero (the sign of -0), and |x| < 709 (beyond, libm: overflow).
  DLA_V512 static __mmask8 fast(__m512d x) {
    return __mmask8(~_mm512_fpclass_pd_mask(x, 0x9f)) &
           _mm512_cmp_pd_mask(_mm512_abs_pd(x), set(709.0), _CMP_LT_OQ);
  }
  DLA_V512 static __m512d compute(__m512d x, const ExpRegs& T) {
    const DD e = expm1_dd(x, T);
    return _mm512_add_pd(e.hi, e.lo);
  }
  static double scalar(double x) { return std::expm1(x); }
};

// tanh a, a = |x|: 1 - 1/(H + 1/2), H = exp(2a) / 2, with a clamped to 20 (tanh rounds to 1
// from 19.07 on), and its series below 1/16, rounded once from a pair. The series runs under
// a branch: few vectors of ordinary data hold such a lane, and the loops are bound by their
// number of operations (iterations overlap), not by the chain of one vector.
template <>
struct Kernel<ExpLogFn::Tanh> {
  // Not NaN, infinite or zero (libm keeps the sign of -0 and gives the limits).
  DLA_V512 static __mmask8 fast(__m512d x) { return __mmask8(~_mm512_fpclass_pd_mask(x, 0x9f)); }
  DLA_V512 static __m512d compute(__m512d x, const ExpRegs& T) {
    const __m512d a = _mm512_abs_pd(x);
    // tanh a = 1 - 1/(H + 1/2), H = exp(2a)/2 as a pair (D = H + 1/2 by a fast two-sum,
    // H > 1/2), 1/D = q + q_lo by one division and its residual, 1 - q by a fast two-sum:
    // fewer operations than expm1(2a) / (expm1(2a) + 2), and the loop is bound by their
    // number. The pair's error (2^-60 of H, the rounding of its first-order term) reaches
    // the result through 1 - 1/D, which cancels as a falls: from a = 1/16 on it stays below
    // 2^-62, 1/32 ulp of tanh a.
    // H = s (hh + hl), s = 2^(e-1), hh + hl = 2^(j/16) exp(r) normalized: D = s hh + 1/2
    // rounded by one fma, and its error s hh + (1/2 - d) exactly by another (1/2 - d is
    // exact for d >= 1, and so is the result, d's rounding error), with no scaling of the pair.
    const ExpParts p = exp_core(_mm512_mul_pd(set(2.0), _mm512_min_pd(a, set(20.0))), T);
    const __m512d inner = fma(p.t_hi, p.r, fma(p.t_hi, _mm512_add_pd(p.q, p.r_lo), fma(p.t_lo, p.r, p.t_lo)));
    const __m512d hh = _mm512_add_pd(p.t_hi, inner);  // |inner| < 0.03 t_hi: a fast two-sum
    const __m512d hl = _mm512_add_pd(_mm512_sub_pd(p.t_hi, hh), inner);
    const __m512d half = set(0.5), one = set(1.0);
    const __m512d sc = _mm512_scalef_pd(half, p.e);
    const __m512d d = fma(hh, sc, half);
    const __m512d d_lo = fma(hl, sc, fma(hh, sc, _mm512_sub_pd(half, d)));
    // 1/D = q + q_lo: q = 1/d rounded is itself 1/d to 2^-53, enough for the correction
    // (2^-52 of q, D being normalized).
    const __m512d q = _mm512_div_pd(one, d);
    const __m512d q_lo = _mm512_mul_pd(_mm512_fnmadd_pd(q, d_lo, _mm512_fnmadd_pd(q, d, one)), q);
    const __m512d s = _mm512_sub_pd(one, q);  // q < 1: a fast two-sum
    __m512d y = _mm512_add_pd(s, _mm512_sub_pd(_mm512_sub_pd(_mm512_sub_pd(one, s), q), q_lo));
    // Below 1/16 (1.25% of the lanes of a uniform [-5, 5], so the branch is rarely taken),
    // the Taylor series a + a^3 P(a^2) to a^15: the first term left out is 2^-65 of a.
    const __mmask8 small = _mm512_cmp_pd_mask(a, set(0.0625), _CMP_LT_OQ);
    if (small) {
      constexpr double kTanhP[] = {-1.0 / 3, 2.0 / 15, -17.0 / 315, 62.0 / 2835, -1382.0 / 155925, 21844.0 / 6081075,
                                   -929569.0 / 638512875};
      const __m512d t = _mm512_mul_pd(a, a);
      y = _mm512_mask_mov_pd(y, small, fma(_mm512_mul_pd(a, t), estrin(t, kTanhP), a));
    }
    return _mm512_or_pd(y, _mm512_and_pd(x, set(-0.0)));  // y >= 0: the sign of x
  }
  static double scalar(double x) { return std::tanh(x); }
};

// sinh and cosh of a = |x| from one reduction a = k ln2/16 + r + r_lo (k >= 0, e = k div 16,
// j = k mod 16), T = 2^(j/16) / 2 and T' = 2^(-j/16) / 2 from two tables as pairs, and
// B = 2^(-2e) T':
//   cosh a / 2^e = T e^r + B e^-r = P cosh r + M sinh r,
//   sinh a / 2^e = T e^r - B e^-r = M cosh r + P sinh r,   P = T + B, M = T - B,
// with cosh r - 1 = t C(t) and sinh r - r = r t S(t), t = r^2 (three terms each, fitted by
// scripts/fit_coshsinh_f64.py): no division, and one short polynomial pair in t serves both
// exponentials. P = T_hi + B_hi and M = T_hi - B_hi are fast two-sums (T_hi >= 1/2 >= B_hi).
// The result is formed unscaled, rounded once, and scaled by 2^e (exact, or the overflow
// from 710.4758 on: a is clamped to 710.5, where both overflow). Where 2^(-2e) underflows
// (e > 511), B is far below an ulp of T and only its share is lost.
// cosh: P plus the rest (below 0.03 P) in one rounding; the rest's own rounding errors stay
// near 2^-57 of the result, and r_lo (below 2^-59) is left out (M r_lo below 2^-59 of P).
// sinh: M + P r cancels as a falls to the first intervals (k = 1: M = 0.043, |P r| < 0.022),
// so M and P r are exact pairs (P r by an fma) summed by a fast two-sum (|M| > |P r|, or
// M = 0 for k = 0, where sinh a = P r + P (r_lo + r t S) with P = 1 exactly), and the low
// parts of P, M and r join the rest: within about 2^-60 of the result down to a = 0 (a
// subnormal a included: there r = a and t = 0), with no series.
constexpr double kCoshC[3] = {0x1.0000000000000p-1, 0x1.55555555006c6p-5, 0x1.6c17db5e1289dp-10};
constexpr double kSinhS[3] = {0x1.5555555555555p-3, 0x1.11111110f8869p-7, 0x1.a01ae4f1fb585p-13};

// The second table holds T' 2^ceil(j/8): as 2^(-2e) 2^(-ceil(j/8)) = 2^floor(-k/8), B is that
// entry scaled by one scalef of -k/8 (scalef takes the floor of its exponent), and 2^e is
// one scalef of k/16: no separate e.
const PairTable16& half_exp_table() {  // 2^(j/16) / 2
  static const PairTable16 t([](long double v) { return std::exp2(v - 1); });
  return t;
}
const PairTable16& half_exp_neg_table() {  // 2^(ceil(j/8) - j/16) / 2
  static const PairTable16 t([](long double v) { return std::exp2(std::ceil(v * 2) - v - 1); });
  return t;
}
struct SinhCoshRegs {
  Table16 hi, lo, neg_hi, neg_lo;
};
DLA_V512 void load_regs(SinhCoshRegs* r) {
  const PairTable16 &t = half_exp_table(), &u = half_exp_neg_table();
  *r = {load16(t.hi), load16(t.lo), load16(u.hi), load16(u.lo)};
}

template <ExpLogFn F>
struct SinhCoshKernel {
  // Not NaN, infinite or zero (libm keeps the sign of -0 and gives the limits).
  DLA_V512 static __mmask8 fast(__m512d x) { return __mmask8(~_mm512_fpclass_pd_mask(x, 0x9f)); }
  DLA_V512 static __m512d compute(__m512d x, const SinhCoshRegs& T) {
    constexpr bool kSinh = F == ExpLogFn::Sinh;
    // a = min(|x|, 710.5): one range operation (the smaller magnitude, sign cleared).
    const __m512d a = _mm512_range_pd(x, set(710.5), 0x0a);
    const ExpReduction red = exp_reduce(a);
    const __m512d kd = red.kd;
    const __m512i ki = red.ki;
    const __m512d r_hi = _mm512_fnmadd_pd(kd, set(kLn2d16Hi), a);  // exact (exp_core)
    const __m512d r = _mm512_fnmadd_pd(kd, set(kLn2d16Lo), r_hi);
    const __m512d t = _mm512_mul_pd(r, r);
    const __m512d ch = _mm512_mul_pd(t, poly(t, kCoshC));  // cosh r - 1
    const __m512d rt = _mm512_mul_pd(r, t);
    const __m512d s2 = _mm512_scalef_pd(set(1.0), _mm512_mul_pd(kd, set(-0.125)));
    const __m512d t_hi = lookup(T.hi, ki), t_lo = lookup(T.lo, ki);
    const __m512d b_hi = _mm512_mul_pd(lookup(T.neg_hi, ki), s2), b_lo0 = lookup(T.neg_lo, ki);
    const __m512d p = _mm512_add_pd(t_hi, b_hi), m = _mm512_sub_pd(t_hi, b_hi);
    const __m512d p_lo = _mm512_add_pd(_mm512_sub_pd(b_hi, _mm512_sub_pd(p, t_hi)), fma(b_lo0, s2, t_lo));
    __m512d y;
    if constexpr (kSinh) {
      // sinh r - r, with r_lo = a - k ln2/16 - r (to 2^-89)
      const __m512d r_lo = _mm512_fnmadd_pd(kd, set(kLn2d16Lo), _mm512_sub_pd(r_hi, r));
      const __m512d sh = fma(rt, poly(t, kSinhS), r_lo);
      const __m512d m_err = _mm512_sub_pd(_mm512_sub_pd(t_hi, m), b_hi);
      const __m512d pr = _mm512_mul_pd(p, r);
      const __m512d pr_err = _mm512_fmsub_pd(p, r, pr);
      const __m512d h = _mm512_add_pd(m, pr);  // |m| > |pr| or m = 0
      const __m512d h_err = _mm512_add_pd(_mm512_sub_pd(m, h), pr);
      const __m512d rest = fma(p_lo, r, fma(p, sh, fma(m, ch, _mm512_fnmadd_pd(b_lo0, s2, t_lo))));
      y = _mm512_add_pd(h, _mm512_add_pd(_mm512_add_pd(h_err, m_err), _mm512_add_pd(pr_err, rest)));
    } else {
      // sinh r
      const __m512d sh = fma(rt, poly(t, kSinhS), r);
      y = _mm512_add_pd(p, fma(m, sh, fma(p, ch, p_lo)));
    }
    y = _mm512_scalef_pd(y, red.e);
    if constexpr (kSinh) return with_sign_of(y, x);
    return y;
  }
  static double scalar(double x) { return F == ExpLogFn::Sinh ? std::sinh(x) : std::cosh(x); }
};
template <> struct Kernel<ExpLogFn::Sinh> : SinhCoshKernel<ExpLogFn::Sinh> {};
template <> struct Kernel<ExpLogFn::Cosh> : SinhCoshKernel<ExpLogFn::Cosh> {};

// asinh, acosh, atanh of a = |x| through the log core on a double-double argument:
// asinh a = log(a + sqrt(a^2 + 1)), acosh a = log(a + sqrt(a^2 - 1)) with a^2 -+ 1 exact as a
// pair (so the cancellation near 1 costs nothing), atanh a = log((1 + a) / (1 - a)) / 2 with
// the quotient as a pair; beyond 2^28 asinh and acosh are log(a) + ln 2 (the rest is below
// 2^-56 of it: asinh blends the two forms, acosh recomputes such lanes under a branch, which
// leaves fewer operations on ordinary data). The logarithm's argument is a pair whose low part is good to about 2^-66
// (a 14-bit reciprocal times a correction of an ulp), and the log core is accurate relative
// to log1p(r) near 1, so the result is within 2^-66 / a relative of it: below a = 2^-8
// (where that passes 2^-58) the Taylor series to a^7 (the first term left out is 2^-67 of
// a), under a branch, since so few lanes need it.
constexpr double kLn2 = 0x1.62e42fefa39efp-1, kLn2Tail = 0x1.abc9e3b39803fp-56;
constexpr double kSeriesBound = 0x1p-8;
template <ExpLogFn F>
struct InverseHyperbolicKernel {
  DLA_V512 static __mmask8 fast(__m512d x) {
    const __mmask8 finite_nonzero = __mmask8(~_mm512_fpclass_pd_mask(x, 0x9f));
    if constexpr (F == ExpLogFn::Asinh) return finite_nonzero;
    else if constexpr (F == ExpLogFn::Acosh) return finite_nonzero & _mm512_cmp_pd_mask(x, set(1.0), _CMP_GT_OQ);
    else return finite_nonzero & _mm512_cmp_pd_mask(_mm512_abs_pd(x), set(1.0), _CMP_LT_OQ);
  }
  DLA_V512 static __m512d compute(__m512d x, const LogRegs& T) {
    const __m512d one = set(1.0);
    if constexpr (F == ExpLogFn::Acosh) {
      // x > 1 (at 1 exactly, libm: 0). x^2 - 1 = hi + lo exactly (hi = p - 1 is exact for
      // p >= 1), its square root as a pair (root > 0), u = x + root (x >= root) renormalized,
      // and the log core on u + u_lo. lo reaches 2^-27.5 of hi (x = 1 + d: p's rounding error
      // is below both d^2 and 2^-53, hi = 2d), so the correction (hi - root^2 + lo) / (2 root)
      // is up to 2^-28.5 of root: a reciprocal to 2^-28 (one Newton step, no division) leaves
      // 2^-56.5 of it where that is largest, 0.54 ulp measured at worst. From 2^28 on log(x) + ln 2, under a branch (rarely
      // taken): the lanes there are computed again, and the main form's values for them (x^2
      // may overflow) are dropped.
      const __m512d p = _mm512_mul_pd(x, x);
      const __m512d hi = _mm512_sub_pd(p, one);
      const __m512d lo = _mm512_add_pd(_mm512_sub_pd(_mm512_sub_pd(p, hi), one), _mm512_fmsub_pd(x, x, p));
      const __m512d root = _mm512_sqrt_pd(hi);
      const __m512d root_lo =
          _mm512_mul_pd(_mm512_add_pd(_mm512_fnmadd_pd(root, root, hi), lo), reciprocal(_mm512_add_pd(root, root)));
      const __m512d u = _mm512_add_pd(x, root);
      const __m512d u_sum_lo = _mm512_add_pd(_mm512_add_pd(_mm512_sub_pd(x, u), root), root_lo);
      // Renormalized: root_lo may be far above an ulp of root (x^2 - 1's low part near 1).
      const __m512d un = _mm512_add_pd(u, u_sum_lo);
      const DD v = log_core<true>(un, _mm512_add_pd(_mm512_sub_pd(u, un), u_sum_lo), T);
      __m512d y = _mm512_add_pd(v.hi, v.lo);
      const __mmask8 large = _mm512_cmp_pd_mask(x, set(0x1p28), _CMP_GE_OQ);
      if (large) {
        const DD w = log_core<false>(x, x, T);
        const __m512d h = _mm512_add_pd(w.hi, set(kLn2));  // w.hi >= 19 > ln 2: a fast two-sum
        const __m512d w_lo = _mm512_add_pd(_mm512_add_pd(_mm512_sub_pd(w.hi, h), set(kLn2)), _mm512_add_pd(w.lo, set(kLn2Tail)));
        y = _mm512_mask_mov_pd(y, large, _mm512_add_pd(h, w_lo));
      }
      return y;
    }
    const __m512d a = _mm512_abs_pd(x);
    const __m512d a2 = _mm512_mul_pd(a, a);
    if constexpr (F == ExpLogFn::Atanh) {
      // 1 +- a as pairs: a < 1, fast two-sums.
      const __m512d na = _mm512_sub_pd(_mm512_setzero_pd(), a);
      const __m512d nh = _mm512_add_pd(one, a), dh = _mm512_add_pd(one, na);
      const DD n = {nh, _mm512_add_pd(_mm512_sub_pd(one, nh), a)}, d = {dh, _mm512_add_pd(_mm512_sub_pd(one, dh), na)};
      // q = n / d: q.hi is the rounded quotient and |q.lo| stays within about an ulp of it,
      // which the log core takes as it is (the low part only enters r_lo, whose size does not
      // matter at that scale), so the core starts right after the division.
      const DD q = div_dd(n, d);
      const DD v = log_core<true>(q.hi, q.lo, T);
      __m512d y = _mm512_mul_pd(set(0.5), _mm512_add_pd(v.hi, v.lo));
      const __mmask8 small = _mm512_cmp_pd_mask(a, set(kSeriesBound), _CMP_LT_OQ);
      if (small) {  // rarely taken: the series costs nothing on most vectors
        constexpr double kInvOdd[] = {1.0 / 3, 1.0 / 5, 1.0 / 7};
        y = _mm512_mask_mov_pd(y, small, fma(_mm512_mul_pd(a, a2), estrin(a2, kInvOdd), a));
      }
      return _mm512_or_pd(y, _mm512_and_pd(x, set(-0.0)));
    } else {
      // Beyond 2^28, log(a) + ln 2; below, a held at 1 in the unused pair (a^2 stays finite).
      const __mmask8 large = _mm512_cmp_pd_mask(a, set(0x1p28), _CMP_GE_OQ);
      const __m512d b = _mm512_mask_blend_pd(large, a, one);
      const __m512d p = _mm512_mul_pd(b, b);
      const __m512d p_err = _mm512_fmsub_pd(b, b, p);
      // a^2 + 1 = s + s_lo (a two-sum).
      const DD sq = two_sum(p, one);
      __m512d un, u_lo;
      {
        // root = sqrt(a^2 + 1) >= 1 > a: u = b + root.hi by a fast two-sum. The pair's low
        // part is within an ulp of root here (a^2 + 1 is a pair below half an ulp), so the
        // correction (z - root^2) / (2 root) only needs a 14-bit reciprocal (2^-67 of root),
        // and the log core starts on u right after the square root, the correction beside it.
        const __m512d root = _mm512_sqrt_pd(sq.hi);
        const __m512d res = _mm512_add_pd(_mm512_fnmadd_pd(root, root, sq.hi), _mm512_add_pd(sq.lo, p_err));
        const __m512d root_lo = _mm512_mul_pd(res, _mm512_mul_pd(set(0.5), _mm512_rcp14_pd(root)));
        un = _mm512_add_pd(b, root);
        u_lo = _mm512_add_pd(_mm512_add_pd(_mm512_sub_pd(root, un), b), root_lo);
      }
      const DD v = log_core<true>(_mm512_mask_blend_pd(large, un, a), _mm512_maskz_mov_pd(__mmask8(~large), u_lo), T);
      // + ln 2 where large (v.hi >= 19 > ln 2: a fast two-sum).
      const __m512d add = _mm512_maskz_mov_pd(large, set(kLn2));
      const __m512d h = _mm512_add_pd(v.hi, add);
      const __m512d lo = _mm512_add_pd(_mm512_add_pd(_mm512_sub_pd(v.hi, h), add),
                                       _mm512_add_pd(v.lo, _mm512_maskz_mov_pd(large, set(kLn2Tail))));
      __m512d y = _mm512_add_pd(h, lo);
      const __mmask8 small = _mm512_cmp_pd_mask(a, set(kSeriesBound), _CMP_LT_OQ);
      if (small) {  // rarely taken
        constexpr double kC[] = {-1.0 / 6, 3.0 / 40, -5.0 / 112};
        y = _mm512_mask_mov_pd(y, small, fma(_mm512_mul_pd(a, a2), estrin(a2, kC), a));
      }
      return _mm512_or_pd(y, _mm512_and_pd(x, set(-0.0)));
    }
  }
  static double scalar(double x) {
    return F == ExpLogFn::Asinh ? std::asinh(x) : F == ExpLogFn::Acosh ? std::acosh(x) : std::atanh(x);
  }
};
template <> struct Kernel<ExpLogFn::Asinh> : InverseHyperbolicKernel<ExpLogFn::Asinh> {};
template <> struct Kernel<ExpLogFn::Acosh> : InverseHyperbolicKernel<ExpLogFn::Acosh> {};
template <> struct Kernel<ExpLogFn::Atanh> : InverseHyperbolicKernel<ExpLogFn::Atanh> {};

// ---- atan, atan2, tan, sin, cos, asin, acos -----------------------------------------------
// The kernels of trig_kernels_f64.h (their derivations there) over Avx512F64: each is already a
// Kernel (fast, compute(x, table), scalar); atan's four register tables are its Regs.
using trig_kernels::NoTable;
using AtanRegs = Avx512F64::AtanTable;
DLA_V512 void load_regs(NoTable*) {}
DLA_V512 void load_regs(AtanRegs* r) { *r = Avx512F64::atan_table(); }

template <> struct Kernel<ExpLogFn::Atan> : trig_kernels::Atan<Avx512F64> {};
template <> struct Kernel<ExpLogFn::Tan> : trig_kernels::Tan<Avx512F64> {};
template <> struct Kernel<ExpLogFn::Sin> : trig_kernels::SinCos<Avx512F64, false> {};
template <> struct Kernel<ExpLogFn::Cos> : trig_kernels::SinCos<Avx512F64, true> {};
template <> struct Kernel<ExpLogFn::Asin> : trig_kernels::ArcSine<Avx512F64, false> {};
template <> struct Kernel<ExpLogFn::Acos> : trig_kernels::ArcSine<Avx512F64, true> {};

// atan2 as two_argument_row's kernel (no by-product for fast).
struct Atan2Kernel {
  using Shared = trig_kernels::Atan2<Avx512F64>;
  using Regs = AtanRegs;
  static double scalar(double y, double x) { return Shared::scalar(y, x); }
  DLA_V512 static __mmask8 fast(__m512d y, __m512d x, __m512d) { return Shared::fast(y, x); }
  DLA_V512 static __m512d compute(__m512d y, __m512d x, const AtanRegs& T, __m512d*) { return Shared::compute(y, x, T); }
};

// The row: full vectors, then the tail under a mask (its idle lanes hold 1.0, on every fast
// range); lanes off the fast range are recomputed from the saved arguments, so in == out works.
DLA_V512 void load_regs(LogRegs* r) {
  const LogTable& t = log_table();
  *r = {load16(t.invc), load16(t.logc_hi), load16(t.logc_lo)};
}
DLA_V512 void load_regs(ExpRegs* r) {
  const PairTable16& t = exp_table();
  *r = {load16(t.hi), load16(t.lo)};
}

// Arguments outside a function's domain (log of a negative number, asin of 2, acosh of 1/2):
// the lanes of `slow` outside `domain` get its NaN, libm's there (math_domain.h), instead of
// a call to libm per lane (data with such values ran at 1.25-1.6x NumPy's time). Returns
// those lanes, to take off `slow`.
DLA_V512 __mmask8 settle_outside(__m512d x, __mmask8 slow, double* out, const NanOutside<double>* domain) {
  if (!domain) return 0;
  const __mmask8 outside = slow & (_mm512_cmp_pd_mask(x, set(domain->lo), _CMP_LT_OQ) |
                                   _mm512_cmp_pd_mask(x, set(domain->hi), _CMP_GT_OQ));
  if (outside) _mm512_mask_storeu_pd(out, outside, set(domain->nan));
  return outside;
}

// Lanes off the fast range of a vector (slow mask) are recomputed by libm from the saved x.
template <ExpLogFn F>
__attribute__((noinline)) void fix_up(__mmask8 slow, const double* xs, double* out) {
  for (int l = 0; l < 8; ++l)
    if (slow & (1u << l)) out[l] = Kernel<F>::scalar(xs[l]);
}

// Two independent vectors a step: the kernels are long dependency chains, and interleaving
// two of them keeps the FMA units busy (measured 10-25% faster than one a step).
template <ExpLogFn F, class Regs>
__attribute__((target(DLA_AVX512_TARGET))) void row(const double* in, double* out, int64_t n,
                                                     const NanOutside<double>* domain) {
  Regs T;
  load_regs(&T);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512d x0 = _mm512_loadu_pd(in + i), x1 = _mm512_loadu_pd(in + i + 8);
    const __m512d y0 = Kernel<F>::compute(x0, T), y1 = Kernel<F>::compute(x1, T);
    _mm512_storeu_pd(out + i, y0);
    _mm512_storeu_pd(out + i + 8, y1);
    __mmask8 slow0 = __mmask8(~Kernel<F>::fast(x0)), slow1 = __mmask8(~Kernel<F>::fast(x1));
    if (slow0) slow0 &= __mmask8(~settle_outside(x0, slow0, out + i, domain));
    if (slow1) slow1 &= __mmask8(~settle_outside(x1, slow1, out + i + 8, domain));
    if (slow0 | slow1) {
      alignas(64) double xs[16];
      _mm512_store_pd(xs, x0);
      _mm512_store_pd(xs + 8, x1);
      if (slow0) fix_up<F>(slow0, xs, out + i);
      if (slow1) fix_up<F>(slow1, xs + 8, out + i + 8);
    }
  }
  for (; i < n; i += 8) {
    const __mmask8 live = n - i >= 8 ? __mmask8(0xff) : __mmask8((1u << (n - i)) - 1);
    const __m512d x = _mm512_mask_loadu_pd(set(1.0), live, in + i);
    _mm512_mask_storeu_pd(out + i, live, Kernel<F>::compute(x, T));
    __mmask8 slow = live & ~Kernel<F>::fast(x);
    if (slow) slow &= __mmask8(~settle_outside(x, slow, out + i, domain));
    if (slow) {
      alignas(64) double xs[8];
      _mm512_store_pd(xs, x);
      fix_up<F>(slow, xs, out + i);
    }
  }
}

// ---- pow -----------------------------------------------------------------------------------
// x^y = exp(y log x), with log x as a double-double good to about 2^-68 of itself: the error
// of log x is multiplied by y, and |y log x| reaches 709, so the log core's 2^-60 (up to 5 ulp
// there) will not do. x = 2^k m, m in [0.75, 1.5); m is reduced twice through 16-entry
// register tables (pow_log_table_f64.h, log c to 2^-95 from mpmath; a table of log c from x87
// long double cost up to 0.6 ulp, a gather of one 128-entry table a third of the loop's
// time): r1 = m/c1 - 1 as the log core, then r = (1 + r1)/c2 - 1 with c2 = 1 + round(224 r1)/224,
// r + r_lo exact, |r| < 0.0023, c1 = c2 = 1 around 1 (so that near 1, r = x - 1 exactly).
// log x = k ln2 + log c1 + log c2 + log1p(r + r_lo), log1p = r - r^2/2 + r^3 (1/3 - r/4 + ... -
// r^5/8) + r_lo (1 - r + r^2): the first sum exact (multiples of 2^-42), r and r^2/2 added by
// exact two-sums, the rest (below 2^-24 of the result) in the low part; the series' cut is
// 2^-78 against |log x| > 2^-9 wherever c1 c2 != 1 (relative 2^-69), and where c1 = c2 = 1
// everything is relative to r. t = y log x = t_hi + t_lo (t_lo by an fma), exp(t_hi + t_lo) by
// the exp core's reduction with t_lo folded into r + r_lo. 0.516 ulp measured over 4x10^6
// pairs (NumPy's SVML loop 0.70). Negative bases: |x|^y with the sign of an odd integer y,
// libm's NaN for the rest. Lanes with a zero, infinite or NaN argument, or t off exp's normal
// range (overflow, subnormal results), are libm's pow.

// libm's pow of a negative base and a non-integer exponent (its NaN, sign bit included).
double pow_domain_nan() {
  static const double nan = [] {
    volatile double minus_two = -2.0, half = 0.5;  // computed at run time, as libm does it
    return std::pow(minus_two, half);
  }();
  return nan;
}
constexpr double kPowQ[6] = {1.0 / 3, -1.0 / 4, 1.0 / 5, -1.0 / 6, 1.0 / 7, -1.0 / 8};  // (log1p r - r + r^2/2) / r^3

struct PowRegs {
  ExpRegs exp;
  Table16 invc1, logc1_hi, logc1_lo, invc2, logc2_hi, logc2_lo;
  double nan;
};

// log|x| as hi + lo, for finite nonzero x (subnormals included).
DLA_V512 DD pow_log(__m512d x, const PowRegs& T) {
  const __m512d one = set(1.0);
  const __m512d m = _mm512_getmant_pd(x, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_zero);
  const __m512d k = _mm512_sub_pd(_mm512_getexp_pd(x), _mm512_getexp_pd(m));
  // Level 1, as the log core: m 4/3 in [1, 2), its top 4 fraction bits. r1 + r1_lo = m invc1 - 1
  // exactly (p1 is within 0.032 of 1, so p1 - 1 is exact).
  const __m512i j1 = _mm512_srli_epi64(_mm512_castpd_si512(_mm512_mul_pd(m, set(4.0 / 3))), 48);
  const __m512d invc1 = lookup(T.invc1, j1);
  const __m512d p1 = _mm512_mul_pd(m, invc1);
  const __m512d r1 = _mm512_sub_pd(p1, one);
  const __m512d r1_lo = _mm512_fmsub_pd(m, invc1, p1);
  // Level 2: n = round(224 r1) in [-7, 7], entry n + 8 in the low bits of the shifted value.
  // r2 = (1 + r1) invc2 - 1 = r1 invc2 + (invc2 - 1): the product split exactly, and its sum with
  // invc2 - 1 (a multiple of 2^-53) exact, being below 2^-8 and a multiple of ulp(r1 invc2)
  // (>= 2^-61 where n != 0; n = 0 has invc2 = 1).
  const __m512i j2 = _mm512_castpd_si512(fma(r1, set(kPowLevel2Scale), set(0x1.8p52 + 8)));
  const __m512d invc2 = lookup(T.invc2, j2);
  const __m512d q = _mm512_mul_pd(r1, invc2);
  const __m512d q_err = _mm512_fmsub_pd(r1, invc2, q);
  const __m512d r = _mm512_add_pd(q, _mm512_sub_pd(invc2, one));
  const __m512d r_lo = fma(r1_lo, invc2, q_err);
  // w = k ln2 + log c1 + log c2 exactly (multiples of 2^-42 below 2^11); |w| > 2^-8 > |r|
  // unless w = 0 (c1 = c2 = 1): fast two-sums below.
  const __m512d w = _mm512_add_pd(fma(k, set(kLn2Hi), lookup(T.logc1_hi, j1)), lookup(T.logc2_hi, j2));
  const __m512d h1 = _mm512_add_pd(w, r);
  const __m512d h1_err = _mm512_add_pd(_mm512_sub_pd(w, h1), r);
  const __m512d half_r = _mm512_mul_pd(r, set(-0.5));
  const __m512d h2 = _mm512_mul_pd(half_r, r);  // -r^2/2 = h2 + h2_err exactly
  const __m512d h2_err = _mm512_fmsub_pd(half_r, r, h2);
  const __m512d hi = _mm512_add_pd(h1, h2);
  const __m512d hi_err = _mm512_add_pd(_mm512_sub_pd(h1, hi), h2);
  const __m512d r2 = _mm512_mul_pd(r, r);
  const __m512d series = _mm512_mul_pd(_mm512_mul_pd(r2, r), poly(r, kPowQ));
  const __m512d lo_r = fma(r_lo, _mm512_sub_pd(r2, r), r_lo);
  const __m512d logc_lo = _mm512_add_pd(lookup(T.logc1_lo, j1), lookup(T.logc2_lo, j2));
  const __m512d lo = _mm512_add_pd(_mm512_add_pd(fma(k, set(kLn2Lo), logc_lo), _mm512_add_pd(h1_err, hi_err)),
                                   _mm512_add_pd(_mm512_add_pd(h2_err, lo_r), series));
  return {hi, lo};
}

struct PowKernel {
  using Regs = PowRegs;
  static double scalar(double x, double y) { return std::pow(x, y); }
  // x finite and nonzero, y finite, and y log|x| on exp's fast range (as Kernel<Exp>).
  DLA_V512 static __mmask8 fast(__m512d x, __m512d y, __m512d t) {
    return __mmask8(~(_mm512_fpclass_pd_mask(x, 0x9f) | _mm512_fpclass_pd_mask(y, 0x99))) &
           _mm512_cmp_pd_mask(t, set(-708.39), _CMP_GT_OQ) & _mm512_cmp_pd_mask(t, set(709.7), _CMP_LT_OQ);
  }
  // The result, and t = y log|x| for fast().
  DLA_V512 static __m512d compute(__m512d x, __m512d y, const PowRegs& R, __m512d* t_out) {
    const DD l = pow_log(x, R);
    const __m512d t = _mm512_mul_pd(y, l.hi);
    const __m512d t_lo = fma(y, l.lo, _mm512_fmsub_pd(y, l.hi, t));
    *t_out = t;
    // exp(t + t_lo); garbage for |t| >= 2^46 or NaN, which are slow lanes.
    const __m512d magnitude = exp_value(exp_core<true>(t, R.exp, t_lo));
    // Negative bases: odd integer y negates, a non-integer y gives libm's NaN.
    const __mmask8 negative = _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_LT_OQ);
    if (!negative) return magnitude;
    const __m512d half_y = _mm512_mul_pd(y, set(0.5));
    const __mmask8 integer = _mm512_cmp_pd_mask(_mm512_roundscale_pd(y, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), y, _CMP_EQ_OQ);
    const __mmask8 even = _mm512_cmp_pd_mask(
        _mm512_roundscale_pd(half_y, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), half_y, _CMP_EQ_OQ);
    const __m512d signed_result = _mm512_mask_xor_pd(magnitude, negative & integer & ~even, magnitude, set(-0.0));
    return _mm512_mask_mov_pd(signed_result, negative & ~integer, set(R.nan));
  }
};

DLA_V512 void load_regs(PowRegs* R) {
  load_regs(&R->exp);
  R->invc1 = load16(kPowLogLevel1.invc);
  R->logc1_hi = load16(kPowLogLevel1.logc_hi);
  R->logc1_lo = load16(kPowLogLevel1.logc_lo);
  R->invc2 = load16(kPowLogLevel2.invc);
  R->logc2_hi = load16(kPowLogLevel2.logc_hi);
  R->logc2_lo = load16(kPowLogLevel2.logc_lo);
  R->nan = pow_domain_nan();
}

// ---- the two-argument rows (atan2, pow) ----------------------------------------------------
// out[i] = K(a[i], b[i * b_step]) (b_step 0: b[0] for the whole row; out may be a's memory):
// two independent vectors a step while 16 remain (as the one-argument rows), then masked
// ones; lanes off the kernel's fast range are recomputed by K::scalar (libm) from the saved
// arguments. K::compute may leave a by-product for K::fast in its last argument (pow's
// y log x).
template <class K>
__attribute__((noinline)) void fix_up2(__mmask8 slow, const double* as, const double* bs, double* out) {
  for (int l = 0; l < 8; ++l)
    if (slow & (1u << l)) out[l] = K::scalar(as[l], bs[l]);
}

template <class K>
__attribute__((target(DLA_AVX512_TARGET))) void two_argument_row(const double* a, const double* b, int64_t b_step,
                                                                  double* out, int64_t n) {
  typename K::Regs R;
  load_regs(&R);
  const __m512d b_one = set(b_step == 0 ? b[0] : 1.0);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512d a0 = _mm512_loadu_pd(a + i), a1 = _mm512_loadu_pd(a + i + 8);
    const __m512d b0 = b_step == 0 ? b_one : _mm512_loadu_pd(b + i);
    const __m512d b1 = b_step == 0 ? b_one : _mm512_loadu_pd(b + i + 8);
    __m512d aux0, aux1;
    const __m512d r0 = K::compute(a0, b0, R, &aux0), r1 = K::compute(a1, b1, R, &aux1);
    _mm512_storeu_pd(out + i, r0);
    _mm512_storeu_pd(out + i + 8, r1);
    const __mmask8 slow0 = __mmask8(~K::fast(a0, b0, aux0)), slow1 = __mmask8(~K::fast(a1, b1, aux1));
    if (slow0 | slow1) {
      alignas(64) double as[16], bs[16];
      _mm512_store_pd(as, a0);
      _mm512_store_pd(as + 8, a1);
      _mm512_store_pd(bs, b0);
      _mm512_store_pd(bs + 8, b1);
      if (slow0) fix_up2<K>(slow0, as, bs, out + i);
      if (slow1) fix_up2<K>(slow1, as + 8, bs + 8, out + i + 8);
    }
  }
  for (; i < n; i += 8) {
    const __mmask8 live = n - i >= 8 ? __mmask8(0xff) : __mmask8((1u << (n - i)) - 1);
    const __m512d av = _mm512_mask_loadu_pd(set(1.0), live, a + i);
    const __m512d bv = b_step == 0 ? b_one : _mm512_mask_loadu_pd(set(1.0), live, b + i);
    __m512d aux;
    _mm512_mask_storeu_pd(out + i, live, K::compute(av, bv, R, &aux));
    const __mmask8 slow = live & ~K::fast(av, bv, aux);
    if (slow) {
      alignas(64) double as[8], bs[8];
      _mm512_store_pd(as, av);
      _mm512_store_pd(bs, bv);
      fix_up2<K>(slow, as, bs, out + i);
    }
  }
}

}  // namespace

bool math_avx512_f64_atan2_row(const double* y, const double* x, int64_t x_step, double* out, int64_t n) {
  if (vector_level() != VectorLevel::Avx512) return false;
  two_argument_row<Atan2Kernel>(y, x, x_step, out, n);
  return true;
}

bool math_avx512_f64_pow_row(const double* x, const double* y, int64_t y_step, double* out, int64_t n) {
  if (vector_level() != VectorLevel::Avx512) return false;
  two_argument_row<PowKernel>(x, y, y_step, out, n);
  return true;
}

bool math_avx512_f64_row(ExpLogFn fn, const double* in, double* out, int64_t n, const NanOutside<double>* domain) {
  if (vector_level() != VectorLevel::Avx512) return false;
  switch (fn) {
    case ExpLogFn::Log: row<ExpLogFn::Log, LogRegs>(in, out, n, domain); return true;
    case ExpLogFn::Log2: row<ExpLogFn::Log2, LogRegs>(in, out, n, domain); return true;
    case ExpLogFn::Log10: row<ExpLogFn::Log10, LogRegs>(in, out, n, domain); return true;
    case ExpLogFn::Log1p: row<ExpLogFn::Log1p, LogRegs>(in, out, n, domain); return true;
    case ExpLogFn::Exp: row<ExpLogFn::Exp, ExpRegs>(in, out, n, domain); return true;
    case ExpLogFn::Expm1: row<ExpLogFn::Expm1, ExpRegs>(in, out, n, domain); return true;
    case ExpLogFn::Sinh: row<ExpLogFn::Sinh, SinhCoshRegs>(in, out, n, domain); return true;
    case ExpLogFn::Cosh: row<ExpLogFn::Cosh, SinhCoshRegs>(in, out, n, domain); return true;
    case ExpLogFn::Tanh: row<ExpLogFn::Tanh, ExpRegs>(in, out, n, domain); return true;
    case ExpLogFn::Asinh: row<ExpLogFn::Asinh, LogRegs>(in, out, n, domain); return true;
    case ExpLogFn::Acosh: row<ExpLogFn::Acosh, LogRegs>(in, out, n, domain); return true;
    case ExpLogFn::Atanh: row<ExpLogFn::Atanh, LogRegs>(in, out, n, domain); return true;
    case ExpLogFn::Atan: row<ExpLogFn::Atan, AtanRegs>(in, out, n, domain); return true;
    case ExpLogFn::Tan: row<ExpLogFn::Tan, NoTable>(in, out, n, domain); return true;
    case ExpLogFn::Sin: row<ExpLogFn::Sin, NoTable>(in, out, n, domain); return true;
    case ExpLogFn::Cos: row<ExpLogFn::Cos, NoTable>(in, out, n, domain); return true;
    case ExpLogFn::Asin: row<ExpLogFn::Asin, NoTable>(in, out, n, domain); return true;
    case ExpLogFn::Acos: row<ExpLogFn::Acos, NoTable>(in, out, n, domain); return true;
    default: return false;
  }
}

}  // namespace dla::cpu
