// exp_log_f64.cpp — the float64 exp/log family for the vectorizer (see exp_log_f64.h).
#include "backends/cpu/exp_log_f64.h"
#include "backends/cpu/cpu_features.h"

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

// exp(x) for |x| < 707 (normal results; the caller recomputes the rest).
__attribute__((always_inline)) inline double exp_fast(double x, const Tables& T) {
  const double z = x * kInvLn2N;
  double kd = z + kShift;
  const uint64_t ki = bits_of(kd);
  kd -= kShift;
  double r = std::fma(-kd, kLn2Hi / kTable, x);
  r = std::fma(-kd, kLn2Lo / kTable, r);
  const uint64_t j = ki & (kTable - 1);
  // 2^(k >> 7) built from k + 1023 * 128 (non-negative on the fast range: logical shifts only).
  const double scale = from_bits(((ki - kShiftBits + (1023ull << 7)) >> 7) << 52);
  const double p = r + r * r * (0.5 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120))));
  const double tail = std::fma(T.exp_hi[j], p, T.exp_lo[j]);
  return (T.exp_hi[j] + tail) * scale;
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

template <ExpLogFn F>
__attribute__((always_inline)) inline void block(const double* x, double* y, int64_t m, const Tables& T) {
  if constexpr (F == ExpLogFn::Exp) {
DLA_IVDEP
    for (int64_t i = 0; i < m; ++i) y[i] = exp_fast(x[i], T);
    for (int64_t i = 0; i < m; ++i)
      if (!(std::fabs(x[i]) < 707.0)) y[i] = std::exp(x[i]);
  } else {
DLA_IVDEP
    for (int64_t i = 0; i < m; ++i) {
      const DoubleDouble v = log_fast(x[i], T);
      if constexpr (F == ExpLogFn::Log) y[i] = v.hi + v.lo;
      else if constexpr (F == ExpLogFn::Log2) y[i] = scale_dd(v.hi, v.lo, kLog2eHi, kLog2eLo);
      else y[i] = scale_dd(v.hi, v.lo, kLog10eHi, kLog10eLo);
    }
    for (int64_t i = 0; i < m; ++i) {
      if (x[i] >= 0x1p-1022 && x[i] <= 0x1.fffffffffffffp1023) continue;
      y[i] = F == ExpLogFn::Log ? std::log(x[i]) : F == ExpLogFn::Log2 ? std::log2(x[i]) : std::log10(x[i]);
    }
  }
}

// Blocks through a stack copy of the input, so that the fix-up pass still sees the
// arguments when out is in.
#define DLA_EXP_LOG_ROW(NAME, ISA)                                                              \
  __attribute__((target(ISA))) void NAME(ExpLogFn fn, const double* in, double* out, int64_t n) { \
    constexpr int64_t kBlock = 256;                                                             \
    double x[kBlock];                                                                           \
    const Tables& T = tables();                                                                 \
    for (int64_t i0 = 0; i0 < n; i0 += kBlock) {                                                \
      const int64_t m = n - i0 < kBlock ? n - i0 : kBlock;                                      \
      std::memcpy(x, in + i0, sizeof(double) * size_t(m));                                      \
      switch (fn) {                                                                             \
        case ExpLogFn::Exp: block<ExpLogFn::Exp>(x, out + i0, m, T); break;                        \
        case ExpLogFn::Log: block<ExpLogFn::Log>(x, out + i0, m, T); break;                        \
        case ExpLogFn::Log2: block<ExpLogFn::Log2>(x, out + i0, m, T); break;                      \
        case ExpLogFn::Log10: block<ExpLogFn::Log10>(x, out + i0, m, T); break;                    \
      }                                                                                         \
    }                                                                                           \
  }
DLA_EXP_LOG_ROW(row_avx512, DLA_AVX512_TARGET)
DLA_EXP_LOG_ROW(row_avx2, "avx2,fma")
#undef DLA_EXP_LOG_ROW

using RowFn = void (*)(ExpLogFn, const double*, double*, int64_t);
RowFn row() {
  switch (vector_level()) {
    case VectorLevel::Avx512: return &row_avx512;
    case VectorLevel::Avx2Fma: return &row_avx2;
    default: return nullptr;
  }
}

}  // namespace

bool exp_log_f64_available() { return row() != nullptr; }

void exp_log_f64_row(ExpLogFn fn, const double* in, double* out, int64_t n) { row()(fn, in, out, n); }

}  // namespace dla::cpu
