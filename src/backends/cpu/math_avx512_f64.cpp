// math_avx512_f64.cpp — the AVX-512 float64 log family (see math_avx512_f64.h).
#include "backends/cpu/math_avx512_f64.h"
#include "backends/cpu/cpu_features.h"

#include <immintrin.h>

#include <cmath>
#include <cstring>

namespace dla::cpu {
namespace {

// Every helper carries the loops' target: intrinsics only inline into functions compiled for it.
#define DLA_V512 __attribute__((target(DLA_AVX512_TARGET), always_inline)) inline

constexpr int kLogEntries = 16;
constexpr double kLogStep = 3.0 / 64;  // [0.75, 1.5) in 16 intervals
// ln 2 = kLn2Hi + kLn2Lo with kLn2Hi of 42 bits, so that k kLn2Hi is exact for |k| < 2^11.
constexpr double kLn2Hi = 0x1.62e42fefa3800p-1;
constexpr double kLn2Lo = 0x1.ef35793c7673p-45;
constexpr double kLog2eHi = 0x1.71547652b82fep0, kLog2eLo = 0x1.777d0ffda0d24p-56;   // 1/ln 2
constexpr double kLog10eHi = 0x1.bcb7b1526e50ep-2, kLog10eLo = 0x1.95355baaafad3p-57;  // 1/ln 10
// P(r) ~ (log1p(r) - r) / r^2 on [-0.0315, 0.0315], least squares on 400 Chebyshev nodes in
// 200-bit arithmetic (mpmath); max error 2^-50.2, i.e. 2^-55 of log1p(r) at the ends.
constexpr double kP[8] = {-0x1.ffffffffffff2p-2, 0x1.555555555551dp-2,  -0x1.000000006b9a2p-2,
                          0x1.9999999b087ddp-3,  -0x1.555544ca1dc77p-3, 0x1.249234d5f938ap-3,
                          -0x1.00682a830dd75p-3, 0x1.c7f1897634769p-4};

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

// A 16-entry table in two registers; lookups are one permute.
struct Table16 {
  __m512d lo, hi;
};
DLA_V512 Table16 load16(const double* t) { return {_mm512_load_pd(t), _mm512_load_pd(t + 8)}; }
DLA_V512 __m512d lookup(const Table16& t, __m512i j) { return _mm512_permutex2var_pd(t.lo, j, t.hi); }

struct LogRegs {
  Table16 invc, logc_hi, logc_lo;
};

struct DD {
  __m512d hi, lo;  // value hi + lo, unevaluated
};

DLA_V512 __m512d set(double v) { return _mm512_set1_pd(v); }
DLA_V512 __m512d fma(__m512d a, __m512d b, __m512d c) { return _mm512_fmadd_pd(a, b, c); }

// log(x + x_lo) for positive finite x (subnormals included), |x_lo| <= ulp(x) / 2, as
// hi + lo with |lo| <= ulp(hi) and an error near 2^-60 of the result (header: the method).
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
  __m512d q = set(kP[7]);
  for (int i = 6; i >= 0; --i) q = fma(q, r, set(kP[i]));
  // log1p(r + r_lo) = r + r_lo (1 - r) + r^2 P(r), to 2^-55 relative.
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

// (hi + lo) (c_hi + c_lo), rounded once.
DLA_V512 __m512d scale_dd(DD v, double c_hi, double c_lo) {
  const __m512d p = _mm512_mul_pd(v.hi, set(c_hi));
  const __m512d e = _mm512_fmsub_pd(v.hi, set(c_hi), p);
  return _mm512_add_pd(p, _mm512_add_pd(e, fma(v.hi, set(c_lo), _mm512_mul_pd(v.lo, set(c_hi)))));
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

// The row: full vectors, then the tail under a mask (its idle lanes hold 1.0, on every fast
// range); lanes off the fast range are recomputed from the saved arguments, so in == out works.
template <ExpLogFn F>
__attribute__((target(DLA_AVX512_TARGET))) void row(const double* in, double* out, int64_t n) {
  const LogTable& t = log_table();
  const LogRegs T{load16(t.invc), load16(t.logc_hi), load16(t.logc_lo)};
  for (int64_t i = 0; i < n; i += 8) {
    const __mmask8 live = n - i >= 8 ? __mmask8(0xff) : __mmask8((1u << (n - i)) - 1);
    const __m512d x = _mm512_mask_loadu_pd(set(1.0), live, in + i);
    _mm512_mask_storeu_pd(out + i, live, Kernel<F>::compute(x, T));
    const __mmask8 slow = live & ~Kernel<F>::fast(x);
    if (slow) {
      alignas(64) double xs[8];
      _mm512_store_pd(xs, x);
      for (int l = 0; l < 8; ++l)
        if (slow & (1u << l)) out[i + l] = Kernel<F>::scalar(xs[l]);
    }
  }
}

}  // namespace

bool math_avx512_f64_row(ExpLogFn fn, const double* in, double* out, int64_t n) {
  if (vector_level() != VectorLevel::Avx512) return false;
  switch (fn) {
    case ExpLogFn::Log: row<ExpLogFn::Log>(in, out, n); return true;
    case ExpLogFn::Log2: row<ExpLogFn::Log2>(in, out, n); return true;
    case ExpLogFn::Log10: row<ExpLogFn::Log10>(in, out, n); return true;
    case ExpLogFn::Log1p: row<ExpLogFn::Log1p>(in, out, n); return true;
    default: return false;
  }
}

}  // namespace dla::cpu
