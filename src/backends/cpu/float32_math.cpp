// float32_math.cpp — float32 exp/log/sin/cos through float64 arithmetic (see float32_math.h).
#include "backends/cpu/float32_math.h"
#include "backends/cpu/cpu_features.h"
#include "backends/cpu/math_avx512_f32.h"

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
// Bitwise select (a conditional would be sunk into branches that stop the vectorizer).
inline double select(bool c, double a, double b) {
  const uint64_t m = uint64_t(0) - uint64_t(c);
  return from_bits((bits_of(a) & m) | (bits_of(b) & ~m));
}

constexpr double kShift = 0x1.8p52;  // adding it rounds |v| < 2^51 to an integer in the low bits
constexpr uint64_t kShiftBits = 0x4338000000000000ull;
constexpr double kLn2Hi = 0x1.62e42fefa39efp-1, kLn2Lo = 0x1.abc9e3b39803fp-56;
constexpr double kInvLn2 = 0x1.71547652b82fep0;
constexpr double kPio2Hi = 0x1.921fb54442d18p0, kPio2Lo = 0x1.1a62633145c07p-54;
constexpr double kInvPio2 = 0x1.45f306dc9c883p-1;
constexpr uint64_t kSqrtHalfBits = 0x3fe6a09e667f3bcdull;
constexpr uint64_t kBias = 1023ull << 52;
constexpr uint64_t kExpField = 0xfffull << 52;

__attribute__((always_inline)) inline float exp_via_double(float xf) {
  // Clamped by selects (fmin/fmax would not vectorize); NaN passes and is restored below.
  const double xd = xf;
  const double x = select(xd < -200.0, -200.0, select(xd > 200.0, 200.0, xd));
  double kd = x * kInvLn2 + kShift;
  const uint64_t ki = bits_of(kd);
  kd -= kShift;
  double r = std::fma(-kd, kLn2Hi, x);
  r = std::fma(-kd, kLn2Lo, r);
  const double p =
      1.0 + r * (1.0 + r * (1.0 / 2 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720 + r *
      (1.0 / 5040 + r * (1.0 / 40320 + r * (1.0 / 362880 + r * (1.0 / 3628800 + r * (1.0 / 39916800)))))))))));
  const double scale = from_bits((ki - kShiftBits + 1023) << 52);
  return float(select(xf != xf, double(xf), p * scale));
}

__attribute__((always_inline)) inline float log_via_double(float xf) {
  // Positive finite x only (the caller recomputes the rest); float32 subnormals are normal here.
  const uint64_t ix = bits_of(double(xf));
  const uint64_t u = ix - kSqrtHalfBits + kBias;  // (k + 1023) << 52 | m's offset bits
  const double k = from_bits((u >> 52) + kShiftBits) - kShift - 1023.0;
  const double m = from_bits(ix - (u & kExpField) + kBias);
  const double f = m - 1.0;
  const double s = f / (2.0 + f);
  const double s2 = s * s;
  const double t = s2 * (1.0 / 3 + s2 * (1.0 / 5 + s2 * (1.0 / 7 + s2 * (1.0 / 9 + s2 * (1.0 / 11 + s2 *
                   (1.0 / 13 + s2 * (1.0 / 15 + s2 * (1.0 / 17))))))));
  return float(std::fma(k, kLn2Hi, 2.0 * s + 2.0 * s * t));
}

// sin(x) (cos_shift 0) or cos(x) (cos_shift 1) for |x| < 2^28.
__attribute__((always_inline)) inline float sincos_via_double(float xf, uint64_t cos_shift) {
  const double x = xf;
  double kd = x * kInvPio2 + kShift;
  const uint64_t q = bits_of(kd) + cos_shift;
  kd -= kShift;
  double r = std::fma(-kd, kPio2Hi, x);
  r = std::fma(-kd, kPio2Lo, r);
  const double r2 = r * r;
  // r times a positive factor: sin(-0) keeps its sign (r + r^3 (...) would give +0).
  const double sin_r =
      r * (1.0 + r2 * (-1.0 / 6 + r2 * (1.0 / 120 + r2 * (-1.0 / 5040 + r2 * (1.0 / 362880 + r2 *
      (-1.0 / 39916800 + r2 * (1.0 / 6227020800.0)))))));
  const double cos_r =
      1.0 + r2 * (-0.5 + r2 * (1.0 / 24 + r2 * (-1.0 / 720 + r2 * (1.0 / 40320 + r2 * (-1.0 / 3628800 + r2 *
      (1.0 / 479001600 + r2 * (-1.0 / 87178291200.0)))))));
  // Quadrant q: sin x = sin r, cos r, -sin r, -cos r for q = 0, 1, 2, 3 (cos: q + 1).
  const double v = select((q & 1) != 0, cos_r, sin_r);
  return float(from_bits(bits_of(v) ^ ((q & 2) << 62)));
}

template <Float32Fn F>
__attribute__((always_inline)) inline void block(const float* x, float* y, int64_t m) {
DLA_IVDEP
  for (int64_t i = 0; i < m; ++i) {
    if constexpr (F == Float32Fn::Exp) y[i] = exp_via_double(x[i]);
    else if constexpr (F == Float32Fn::Log) y[i] = log_via_double(x[i]);
    else y[i] = sincos_via_double(x[i], F == Float32Fn::Cos ? 1 : 0);
  }
  if constexpr (F == Float32Fn::Log) {
    for (int64_t i = 0; i < m; ++i)
      if (!(x[i] > 0.0f && x[i] <= 0x1.fffffep127f)) y[i] = std::log(x[i]);
  } else if constexpr (F != Float32Fn::Exp) {
    for (int64_t i = 0; i < m; ++i)
      if (!(std::fabs(x[i]) < 0x1p28f)) y[i] = F == Float32Fn::Sin ? std::sin(x[i]) : std::cos(x[i]);
  }
}

// Blocks through a stack copy of the input, so that the fix-up pass still sees the
// arguments when out is in.
#define DLA_FLOAT32_ROW(NAME, ISA)                                                               \
  __attribute__((target(ISA))) void NAME(Float32Fn fn, const float* in, float* out, int64_t n) { \
    constexpr int64_t kBlock = 256;                                                              \
    float x[kBlock];                                                                             \
    for (int64_t i0 = 0; i0 < n; i0 += kBlock) {                                                 \
      const int64_t m = n - i0 < kBlock ? n - i0 : kBlock;                                       \
      std::memcpy(x, in + i0, sizeof(float) * size_t(m));                                        \
      switch (fn) {                                                                              \
        case Float32Fn::Exp: block<Float32Fn::Exp>(x, out + i0, m); break;                       \
        case Float32Fn::Log: block<Float32Fn::Log>(x, out + i0, m); break;                       \
        case Float32Fn::Sin: block<Float32Fn::Sin>(x, out + i0, m); break;                       \
        case Float32Fn::Cos: block<Float32Fn::Cos>(x, out + i0, m); break;                       \
        case Float32Fn::Sinh: for (int64_t i = 0; i < m; ++i) out[i0 + i] = std::sinh(x[i]); break; \
        case Float32Fn::Atanh: for (int64_t i = 0; i < m; ++i) out[i0 + i] = std::atanh(x[i]); break; \
        case Float32Fn::Acosh: for (int64_t i = 0; i < m; ++i) out[i0 + i] = std::acosh(x[i]); break; \
        case Float32Fn::Tanh: for (int64_t i = 0; i < m; ++i) out[i0 + i] = std::tanh(x[i]); break;   \
      }                                                                                          \
    }                                                                                            \
  }
DLA_FLOAT32_ROW(row_avx512, DLA_AVX512_TARGET)
DLA_FLOAT32_ROW(row_avx2, "avx2,fma")
#undef DLA_FLOAT32_ROW

using RowFn = void (*)(Float32Fn, const float*, float*, int64_t);
RowFn row() {
  switch (vector_level()) {
    case VectorLevel::Avx512: return &row_avx512;
    case VectorLevel::Avx2Fma: return &row_avx2;
    default: return nullptr;
  }
}

}  // namespace

bool float32_math_available() { return row() != nullptr; }

void float32_math_row(Float32Fn fn, const float* in, float* out, int64_t n, const NanOutside<float>* domain) {
  if (!math_avx512_f32_row(fn, in, out, n, domain)) row()(fn, in, out, n);
}

}  // namespace dla::cpu
