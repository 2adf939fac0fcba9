// exp_log_f64.cpp — the float64 exp/log family for the vectorizer (see exp_log_f64.h).
#include "backends/cpu/exp_log_f64.h"
#include "core/cpu_features.h"
#include "backends/cpu/math_avx2_f64.h"
#include "backends/cpu/math_avx512_f64.h"

#include <cmath>
#include <cstring>

namespace dla::cpu {
namespace {

inline uint64_t bits_of(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
inline double from_bits(uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}

constexpr int kTable = 128;
constexpr double kShift = 0x1.8p52;                    // adding it rounds |v| < 2^51 to an integer
constexpr uint64_t kShiftBits = 0x4338000000000000ull;  // its bits: the integer sits in the low bits
constexpr double kLn2Hi = 0x1.62e42fefa39efp-1;         // ln 2 = kLn2Hi + kLn2Lo to ~2^-110
constexpr double kLn2Lo = 0x1.abc9e3b39803fp-56;
constexpr double kInvLn2N = 0x1.71547652b82fep0 * kTable;  // 128 / ln 2
constexpr uint64_t kLogOff = 0x3fe6000000000000ull;        // z = x / 2^k lies in [0.6875, 1.375)
constexpr uint64_t kExpField = 0xfffull << 52;             // sign and exponent bits
constexpr uint64_t kBias = 1023ull << 52;

struct Tables {
  double exp_hi[kTable], exp_lo[kTable];                    // 2^(j/128) = hi + lo
  double invc[kTable], logc_hi[kTable], logc_lo[kTable];  // 1/c rounded; -log(invc) = hi + lo
  Tables() {
    for (int j = 0; j < kTable; ++j) {
      const long double v = std::exp2(static_cast<long double>(j) / kTable);
      exp_hi[j] = static_cast<double>(v);
      exp_lo[j] = static_cast<double>(v - exp_hi[j]);
    }
    for (int i = 0; i < kTable; ++i) {
      // Interval i holds the z whose bits are kLogOff + [i, i + 1) * 2^45 (none crosses 1.0).
      const long double a = from_bits(kLogOff + (uint64_t(i) << 45));
      const long double b = from_bits(kLogOff + (uint64_t(i + 1) << 45));
      invc[i] = static_cast<double>(2.0L / (a + b));
      const long double logc = -std::log(static_cast<long double>(invc[i]));
      logc_hi[i] = static_cast<double>(logc);
      logc_lo[i] = static_cast<double>(logc - logc_hi[i]);
    }
  }
};
// Built on first use: the kernel table is filled during other files' static initialization.
const Tables& tables() {
  static const Tables t;
  return t;
}

// exp(x) / 2^halvings = (t + tail) * scale, |tail| < |t|: x = k ln2/128 + r, t + tail =
// 2^(j/128) (1 + p(r)) from the table and a degree-6 polynomial (p within 2^-60 relative).
struct ExpParts {
  double t, tail, scale;
};
__attribute__((always_inline)) inline ExpParts exp_parts(double x, uint64_t halvings, const Tables& T) {
  const double z = x * kInvLn2N;
  double kd = z + kShift;
  const uint64_t ki = bits_of(kd);
  kd -= kShift;
  double r = std::fma(-kd, kLn2Hi / kTable, x);
  r = std::fma(-kd, kLn2Lo / kTable, r);
  const uint64_t j = ki & (kTable - 1);
  // 2^(k >> 7) / 2^halvings built from k + (1023 - halvings) * 128 (non-negative on the fast
  // range: logical shifts only).
  const double scale = from_bits(((ki - kShiftBits + ((1023ull - halvings) << 7)) >> 7) << 52);
  const double p = r + r * r * (0.5 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720)))));
  return {T.exp_hi[j], std::fma(T.exp_hi[j], p, T.exp_lo[j]), scale};
}

// exp(x) for |x| < 707 (normal results; the caller recomputes the rest).
__attribute__((always_inline)) inline double exp_fast(double x, const Tables& T) {
  const ExpParts e = exp_parts(x, 0, T);
  return (e.t + e.tail) * e.scale;
}

struct DoubleDouble {
  double hi, lo;  // the value is hi + lo, unevaluated
};

// log(x) for positive normal finite x.
__attribute__((always_inline)) inline DoubleDouble log_fast(double x, const Tables& T) {
  // Near 1: log1p(t), t = x - 1 exact, from the series to t^13.
  const double t = x - 1.0;
  const double q =
      t * t *
      (-0.5 + t * (1.0 / 3 + t * (-0.25 + t * (0.2 + t * (-1.0 / 6 + t * (1.0 / 7 + t * (-0.125 + t * (1.0 / 9 +
      t * (-0.1 + t * (1.0 / 11 + t * (-1.0 / 12 + t * (1.0 / 13))))))))))));
  // Elsewhere: x = 2^k z, log x = k ln2 + log c + log1p(r), r = z/c - 1, |r| < 2^-8.
  const uint64_t ix = bits_of(x);
  const uint64_t u = ix - kLogOff + kBias;  // (k + 1023) << 52 | (z's bits - kLogOff)
  const uint64_t i = (u >> 45) & (kTable - 1);
  const double z = from_bits(ix - (u & kExpField) + kBias);
  const double k = from_bits((u >> 52) + kShiftBits) - kShift - 1023.0;
  const double r = std::fma(z, T.invc[i], -1.0);
  const double poly =
      r * r * (-0.5 + r * (1.0 / 3 + r * (-0.25 + r * (0.2 + r * (-1.0 / 6 + r * (1.0 / 7 + r * (-0.125)))))));
  const double a = k * kLn2Hi;  // k ln2 = a + a_err + k kLn2Lo
  const double a_err = std::fma(k, kLn2Hi, -a);
  const double s = a + T.logc_hi[i];  // two-sum of a and log c
  const double sb = s - a;
  const double s_err = (a - (s - sb)) + (T.logc_hi[i] - sb);
  const double h = s + r;  // two-sum of s and r
  const double hb = h - s;
  const double h_err = (s - (h - hb)) + (r - hb);
  const double l = h_err + s_err + a_err + std::fma(k, kLn2Lo, T.logc_lo[i]) + poly;
  // A select written on the bits: a conditional here would be sunk into branches that
  // keep the loop from vectorizing.
  const uint64_t near_one = uint64_t(0) - uint64_t(std::fabs(t) < 0x1p-5);
  return {from_bits((bits_of(t) & near_one) | (bits_of(h) & ~near_one)),
          from_bits((bits_of(q) & near_one) | (bits_of(l) & ~near_one))};
}

// (hi + lo) * (c_hi + c_lo), rounded once.
__attribute__((always_inline)) inline double scale_dd(double hi, double lo, double c_hi, double c_lo) {
  const double p = hi * c_hi;
  const double e = std::fma(hi, c_hi, -p);
  return p + (e + std::fma(hi, c_lo, lo * c_hi));
}
constexpr double kLog2eHi = 0x1.71547652b82fep0, kLog2eLo = 0x1.777d0ffda0d24p-56;   // 1/ln 2
constexpr double kLog10eHi = 0x1.bcb7b1526e50ep-2, kLog10eLo = 0x1.95355baaafad3p-57;  // 1/ln 10

// ---- the hyperbolic functions, from the same exp and log in double-double -------------------
// Each evaluates its result as an unevaluated sum hi + lo accurate to about 2^-59 relative and
// rounds it once (within about 0.52 ulp). Both branches of a range split are computed and one
// is selected on the bits, so that the loops vectorize.

// Selects a where take is all ones, b where it is zero.
__attribute__((always_inline)) inline double pick(uint64_t take, double a, double b) {
  return from_bits((bits_of(a) & take) | (bits_of(b) & ~take));
}
__attribute__((always_inline)) inline uint64_t mask(bool c) { return uint64_t(0) - uint64_t(c); }

// exp(x) / 2^halvings as hi + lo, for 0 <= x < 710.8 and halvings 1 or 2 (folded into the
// power of two, so that exp(x) / 4 stays finite up to sinh's overflow threshold).
__attribute__((always_inline)) inline DoubleDouble scaled_exp_dd(double x, uint64_t halvings, const Tables& T) {
  const ExpParts p = exp_parts(x, halvings, T);
  const double s = p.t + p.tail;
  const double e = (p.t - s) + p.tail;  // exact: |t| >= |tail|
  return {s * p.scale, e * p.scale};
}

// hi + lo = a + b exactly.
__attribute__((always_inline)) inline DoubleDouble two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

// (nh + nl) / (dh + dl), rounded once.
__attribute__((always_inline)) inline double div_dd(double nh, double nl, double dh, double dl) {
  const double q = nh / dh;
  const double rem = std::fma(-q, dh, nh) + (nl - q * dl);
  return q + rem / dh;
}

// sinh and cosh of a = |x| as double-double pairs (a < 710.5), to be multiplied by *twice. Below 0.5 the Taylor series,
// sinh a = a + c, cosh a = 1 + d (c, d within 2^-52 of themselves and at most 0.13 of the
// result); above, exp(a)/2 -+ exp(-a)/2 with 1/exp(a) corrected to double-double.
__attribute__((always_inline)) inline void sinh_cosh_dd(double a, const Tables& T, DoubleDouble* sh, DoubleDouble* ch,
                                                      double* twice) {
  const double a2 = a * a;
  const double c = a * a2 *
                   (1.0 / 6 + a2 * (1.0 / 120 + a2 * (1.0 / 5040 + a2 * (1.0 / 362880 + a2 * (1.0 / 39916800 +
                   a2 * (1.0 / 6227020800 + a2 * (1.0 / 1307674368000 + a2 * (1.0 / 355687428096000))))))));
  const double d = a2 * (0.5 + a2 * (1.0 / 24 + a2 * (1.0 / 720 + a2 * (1.0 / 40320 + a2 * (1.0 / 3628800 +
                   a2 * (1.0 / 479001600 + a2 * (1.0 / 87178291200 + a2 * (1.0 / 20922789888000))))))));
  // Near the overflow threshold exp(a)/4 is formed (exp(-a) is then far below its last bit),
  // and the sum doubled when it is rounded: *twice.
  const uint64_t top = uint64_t(a >= 709.0);
  const DoubleDouble e = scaled_exp_dd(a, 1 + top, T);  // exp(a)/2, or /4 at the top
  const double q = 1.0 / e.hi;                              // 2 exp(-a), to double-double:
  const double ql = q * (std::fma(-q, e.hi, 1.0) - q * e.lo);
  const DoubleDouble sd = two_sum(e.hi, -0.25 * q), cd = two_sum(e.hi, 0.25 * q);  // exp(-a)/2 = q/4
  const double s_lo = sd.lo + (e.lo - 0.25 * ql), c_lo = cd.lo + (e.lo + 0.25 * ql);
  const uint64_t series = mask(a < 0.5);
  // Series pairs normalized, so that a quotient of them (tanh) may treat lo as small.
  const DoubleDouble sn = two_sum(a, c), cn = two_sum(1.0, d);
  *sh = {pick(series, sn.hi, sd.hi), pick(series, sn.lo, s_lo)};
  *ch = {pick(series, cn.hi, cd.hi), pick(series, cn.lo, c_lo)};
  *twice = pick(uint64_t(0) - top, 2.0, 1.0);
}

// log(hi + lo) for positive normal hi, as double-double: log(hi) + lo / hi.
__attribute__((always_inline)) inline DoubleDouble log_dd(DoubleDouble v, const Tables& T) {
  const DoubleDouble l = log_fast(v.hi, T);
  return {l.hi, l.lo + v.lo / v.hi};
}

// sqrt(hi + lo) as double-double (hi > 0).
__attribute__((always_inline)) inline DoubleDouble sqrt_dd(DoubleDouble v) {
  const double s = std::sqrt(v.hi);
  const double lo = (std::fma(-s, s, v.hi) + v.lo) / (2.0 * s);
  return {s, pick(mask(s > 0.0), lo, 0.0)};  // sqrt(0): no 0/0
}

constexpr double kLn2 = 0x1.62e42fefa39efp-1;

// asinh(a), a = |x| finite: below 0.125 the series; to 2^28, log(a + sqrt(a^2 + 1)) in
// double-double; above, log(a) + ln 2 (the rest is below 2^-56 relative).
__attribute__((always_inline)) inline double asinh_abs(double a, const Tables& T) {
  const double a2 = a * a;
  const double series =
      a + a * a2 *
              (-1.0 / 6 + a2 * (3.0 / 40 + a2 * (-5.0 / 112 + a2 * (35.0 / 1152 + a2 * (-63.0 / 2816 +
              a2 * (231.0 / 13312 + a2 * (-143.0 / 10240 + a2 * (6435.0 / 557056 + a2 * (-12155.0 / 1245184)))))))));
  const double big = pick(mask(a < 0x1p28), a, 1.0);  // keeps a^2 finite in the unused branch
  const DoubleDouble sq = two_sum(big * big, 1.0);
  const DoubleDouble root = sqrt_dd({sq.hi, sq.lo + std::fma(big, big, -(big * big))});
  const DoubleDouble u = two_sum(big, root.hi);
  // One log for both ranges: of u, or of a itself with ln 2 added after.
  const uint64_t small = mask(a < 0.125), large = mask(a >= 0x1p28);
  const DoubleDouble l = log_dd({pick(large, a, u.hi), pick(large, 0.0, u.lo + root.lo)}, T);
  const DoubleDouble shifted = two_sum(l.hi, kLn2);
  const double hi = pick(large, shifted.hi, l.hi), lo = pick(large, shifted.lo + l.lo + kLn2Lo, l.lo);
  return pick(small, series, hi + lo);
}

// acosh(a), a >= 1 finite: log(a + sqrt(a^2 - 1)) with a^2 - 1 exact in double-double (so the
// cancellation near 1 costs nothing); above 2^28, log(a) + ln 2.
__attribute__((always_inline)) inline double acosh_ge1(double a, const Tables& T) {
  const double big = pick(mask(a < 0x1p28), a, 1.0);
  const double p = big * big;
  const DoubleDouble sq = two_sum(p, -1.0);
  const DoubleDouble root = sqrt_dd({sq.hi, sq.lo + std::fma(big, big, -p)});
  const DoubleDouble u = two_sum(big, root.hi);
  const uint64_t large = mask(a >= 0x1p28);
  const DoubleDouble l = log_dd({pick(large, a, u.hi), pick(large, 0.0, u.lo + root.lo)}, T);
  const DoubleDouble shifted = two_sum(l.hi, kLn2);
  return pick(large, shifted.hi, l.hi) + pick(large, shifted.lo + l.lo + kLn2Lo, l.lo);
}

// atanh(a), 0 <= a < 1: below 0.0625 the series; above, log((1 + a) / (1 - a)) / 2 with the
// quotient in double-double.
__attribute__((always_inline)) inline double atanh_abs(double a, const Tables& T) {
  const double a2 = a * a;
  const double series = a + a * a2 *
      (1.0 / 3 + a2 * (1.0 / 5 + a2 * (1.0 / 7 + a2 * (1.0 / 9 + a2 * (1.0 / 11 + a2 * (1.0 / 13 + a2 * (1.0 / 15 +
      a2 * (1.0 / 17))))))));
  const DoubleDouble n = two_sum(1.0, a), d = two_sum(1.0, -a);
  const double q = n.hi / d.hi;
  const double ql = (std::fma(-q, d.hi, n.hi) + (n.lo - q * d.lo)) / d.hi;
  const DoubleDouble l = log_dd({q, ql}, T);
  return pick(mask(a < 0.0625), series, 0.5 * (l.hi + l.lo));
}

template <ExpLogFn F>
__attribute__((always_inline)) inline void block(const double* x, double* y, int64_t m, const Tables& T) {
  if constexpr (F == ExpLogFn::Exp) {
DLA_IVDEP
    for (int64_t i = 0; i < m; ++i) y[i] = exp_fast(x[i], T);
    for (int64_t i = 0; i < m; ++i)
      if (!(std::fabs(x[i]) < 707.0)) y[i] = std::exp(x[i]);
  } else if constexpr (F == ExpLogFn::Expm1) {
DLA_IVDEP
    for (int64_t i = 0; i < m; ++i) {
      // (t scale - 1) + tail scale, the first sum exact (two-sum). Below 0.025 the two parts
      // cancel (t = 2^(k/128), |k| <= 4, against a tail of up to half of t - 1, whose rounding
      // then weighs up to twice: 1.8 ulp measured near 0.0027), so there the series
      // x + x^2 (1/2 + x/6 + ... + x^7/9!), whose first term left out is below 2^-61 of it.
      const double a = x[i];
      const ExpParts e = exp_parts(pick(mask(std::fabs(a) < 707.0), a, 0.0), 0, T);
      const DoubleDouble s = two_sum(e.t * e.scale, -1.0);
      const double table_form = s.hi + (s.lo + e.tail * e.scale);
      const double series = std::fma(a * a, 0.5 + a * (1.0 / 6 + a * (1.0 / 24 + a * (1.0 / 120 + a * (1.0 / 720 +
                                     a * (1.0 / 5040 + a * (1.0 / 40320 + a * (1.0 / 362880))))))), a);
      y[i] = pick(mask(std::fabs(a) < 0.025), series, table_form);
    }
    for (int64_t i = 0; i < m; ++i)
      if (!(std::fabs(x[i]) < 707.0) || x[i] == 0.0) y[i] = std::expm1(x[i]);
  } else if constexpr (F == ExpLogFn::Sinh || F == ExpLogFn::Cosh || F == ExpLogFn::Tanh) {
DLA_IVDEP
    for (int64_t i = 0; i < m; ++i) {
      const double a = pick(mask(std::fabs(x[i]) < 710.5), std::fabs(x[i]), 0.0);  // the rest is recomputed below
      DoubleDouble sh, ch;
      double twice;
      sinh_cosh_dd(a, T, &sh, &ch, &twice);
      if constexpr (F == ExpLogFn::Sinh) y[i] = std::copysign((sh.hi + sh.lo) * twice, x[i]);
      else if constexpr (F == ExpLogFn::Cosh) y[i] = (ch.hi + ch.lo) * twice;
      else y[i] = std::copysign(div_dd(sh.hi, sh.lo, ch.hi, ch.lo), x[i]);
    }
    for (int64_t i = 0; i < m; ++i) {
      // Zero (the sign of -0), and beyond 710.5: tanh is +-1 there, sinh/cosh overflow.
      if (std::fabs(x[i]) < 710.5 && x[i] != 0.0) continue;
      y[i] = F == ExpLogFn::Sinh ? std::sinh(x[i]) : F == ExpLogFn::Cosh ? std::cosh(x[i]) : std::tanh(x[i]);
    }
  } else if constexpr (F == ExpLogFn::Asinh || F == ExpLogFn::Acosh || F == ExpLogFn::Atanh) {
DLA_IVDEP
    for (int64_t i = 0; i < m; ++i) {
      const double a = std::fabs(x[i]);
      if constexpr (F == ExpLogFn::Asinh) {
        y[i] = std::copysign(asinh_abs(pick(mask((a >= 0x1p-1022) & (a <= 0x1.fffffffffffffp1023)), a, 1.0), T), x[i]);
      } else if constexpr (F == ExpLogFn::Acosh) {
        y[i] = acosh_ge1(pick(mask((x[i] >= 1.0) & (x[i] <= 0x1.fffffffffffffp1023)), x[i], 1.0), T);
      } else {
        y[i] = std::copysign(atanh_abs(pick(mask((a >= 0x1p-1022) & (a < 1.0)), a, 0.5), T), x[i]);
      }
    }
    for (int64_t i = 0; i < m; ++i) {
      const double a = std::fabs(x[i]);
      if constexpr (F == ExpLogFn::Asinh) {
        if (a >= 0x1p-1022 && a <= 0x1.fffffffffffffp1023) continue;
        y[i] = std::asinh(x[i]);  // zero, subnormal (asinh x = x there), inf, NaN
      } else if constexpr (F == ExpLogFn::Acosh) {
        if (x[i] >= 1.0 && x[i] <= 0x1.fffffffffffffp1023) continue;
        y[i] = std::acosh(x[i]);
      } else {
        if (a >= 0x1p-1022 && a < 1.0) continue;
        y[i] = std::atanh(x[i]);
      }
    }
  } else {
DLA_IVDEP
    for (int64_t i = 0; i < m; ++i) {
      if constexpr (F == ExpLogFn::Log1p) {
        // 1 + x = u.hi + u.lo exactly; log of the pair. Off (-1, inf) or at 0, libm below.
        const double a = pick(mask((x[i] > -1.0) & (x[i] <= 0x1.fffffffffffffp1023)), x[i], 1.0);
        const DoubleDouble u = two_sum(1.0, a);
        const DoubleDouble v = log_dd({pick(mask(u.hi >= 0x1p-1022), u.hi, 1.0), u.lo}, T);
        y[i] = v.hi + v.lo;
        continue;
      }
      const DoubleDouble v = log_fast(x[i], T);
      if constexpr (F == ExpLogFn::Log) y[i] = v.hi + v.lo;
      else if constexpr (F == ExpLogFn::Log2) y[i] = scale_dd(v.hi, v.lo, kLog2eHi, kLog2eLo);
      else y[i] = scale_dd(v.hi, v.lo, kLog10eHi, kLog10eLo);
    }
    for (int64_t i = 0; i < m; ++i) {
      if constexpr (F == ExpLogFn::Log1p) {
        const double u = 1.0 + x[i];
        if (x[i] > -1.0 && x[i] <= 0x1.fffffffffffffp1023 && x[i] != 0.0 && u >= 0x1p-1022) continue;
        y[i] = std::log1p(x[i]);
        continue;
      }
      if (x[i] >= 0x1p-1022 && x[i] <= 0x1.fffffffffffffp1023) continue;
      y[i] = F == ExpLogFn::Log ? std::log(x[i]) : F == ExpLogFn::Log2 ? std::log2(x[i]) : std::log10(x[i]);
    }
  }
}

// Blocks through a stack copy of the input, so that the fix-up pass still sees the
// arguments when out is in. Arguments outside `domain` (log of a negative number) are
// replaced in the copy by one inside it, on every function's fast range, and get the
// domain's NaN afterwards: without a branch or a libm call per lane (acosh of normal data,
// mostly below 1, took 1.39x NumPy's time).
#define DLA_EXP_LOG_ROW(NAME, ISA)                                                              \
  __attribute__((target(ISA))) void NAME(ExpLogFn fn, const double* in, double* out, int64_t n, \
                                         const NanOutside<double>* domain) {                  \
    constexpr int64_t kBlock = 256;                                                             \
    double x[kBlock];                                                                           \
    unsigned char outside[kBlock];                                                              \
    const Tables& T = tables();                                                                 \
    for (int64_t i0 = 0; i0 < n; i0 += kBlock) {                                                \
      const int64_t m = n - i0 < kBlock ? n - i0 : kBlock;                                      \
      int any_outside = 0;                                                                      \
      if (domain) {                                                                             \
        const double lo = domain->lo, hi = domain->hi;                                         \
        const double inside = std::isfinite(hi) ? lo + 0.75 * (hi - lo) : lo + 1.5;             \
        for (int64_t k = 0; k < m; ++k) {                                                       \
          const double v = in[i0 + k];                                                          \
          const int o = int(v < lo) | int(v > hi);                                              \
          any_outside |= o;                                                                     \
          outside[k] = static_cast<unsigned char>(o);                                           \
          x[k] = o ? inside : v;                                                                \
        }                                                                                       \
      } else {                                                                                  \
        std::memcpy(x, in + i0, sizeof(double) * size_t(m));                                    \
      }                                                                                         \
      switch (fn) {                                                                             \
        case ExpLogFn::Exp: block<ExpLogFn::Exp>(x, out + i0, m, T); break;                        \
        case ExpLogFn::Expm1: block<ExpLogFn::Expm1>(x, out + i0, m, T); break;                    \
        case ExpLogFn::Log: block<ExpLogFn::Log>(x, out + i0, m, T); break;                        \
        case ExpLogFn::Log2: block<ExpLogFn::Log2>(x, out + i0, m, T); break;                      \
        case ExpLogFn::Log10: block<ExpLogFn::Log10>(x, out + i0, m, T); break;                    \
        case ExpLogFn::Log1p: block<ExpLogFn::Log1p>(x, out + i0, m, T); break;                    \
        case ExpLogFn::Sinh: block<ExpLogFn::Sinh>(x, out + i0, m, T); break;                      \
        case ExpLogFn::Cosh: block<ExpLogFn::Cosh>(x, out + i0, m, T); break;                      \
        case ExpLogFn::Tanh: block<ExpLogFn::Tanh>(x, out + i0, m, T); break;                      \
        case ExpLogFn::Asinh: block<ExpLogFn::Asinh>(x, out + i0, m, T); break;                    \
        case ExpLogFn::Acosh: block<ExpLogFn::Acosh>(x, out + i0, m, T); break;                    \
        case ExpLogFn::Atanh: block<ExpLogFn::Atanh>(x, out + i0, m, T); break;                    \
        /* math_avx2_f64.h / math_avx512_f64.h run these; libm's values if asked here */          \
        case ExpLogFn::Atan: for (int64_t i = 0; i < m; ++i) out[i0 + i] = std::atan(x[i]); break; \
        case ExpLogFn::Asin: for (int64_t i = 0; i < m; ++i) out[i0 + i] = std::asin(x[i]); break; \
        case ExpLogFn::Acos: for (int64_t i = 0; i < m; ++i) out[i0 + i] = std::acos(x[i]); break; \
        case ExpLogFn::Tan: for (int64_t i = 0; i < m; ++i) out[i0 + i] = std::tan(x[i]); break; \
        case ExpLogFn::Sin: for (int64_t i = 0; i < m; ++i) out[i0 + i] = std::sin(x[i]); break; \
        case ExpLogFn::Cos: for (int64_t i = 0; i < m; ++i) out[i0 + i] = std::cos(x[i]); break; \
      }                                                                                         \
      if (any_outside)                                                                          \
        for (int64_t k = 0; k < m; ++k) out[i0 + k] = outside[k] ? domain->nan : out[i0 + k];   \
    }                                                                                           \
  }
DLA_EXP_LOG_ROW(row_avx512, DLA_AVX512_TARGET)
DLA_EXP_LOG_ROW(row_avx2, "avx2,fma")
#undef DLA_EXP_LOG_ROW

using RowFn = void (*)(ExpLogFn, const double*, double*, int64_t, const NanOutside<double>*);
RowFn row() {
  switch (vector_level()) {
    case VectorLevel::Avx512: return &row_avx512;
    case VectorLevel::Avx2Fma: return &row_avx2;
    default: return nullptr;
  }
}

}  // namespace

bool exp_log_f64_available() { return row() != nullptr; }

void exp_log_f64_row(ExpLogFn fn, const double* in, double* out, int64_t n, const NanOutside<double>* domain) {
  if (!math_avx512_f64_row(fn, in, out, n, domain) && !math_avx2_f64_row(fn, in, out, n, domain))
    row()(fn, in, out, n, domain);
}

}  // namespace dla::cpu
