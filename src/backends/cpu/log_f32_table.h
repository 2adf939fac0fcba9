// log_f32_table.h — the table and polynomial of the float32-arithmetic log, shared by its
// 16-lane (math_avx512_f32.cpp) and 8-lane (float32_math.cpp) kernels so that both give the
// same values: for the 16 intervals of m (width 1/32 below 1, 1/16 above, the one holding 1
// with centre 1), the rounded reciprocal of each centre c and -log c in two parts, and ln 2 in
// two parts, each high part with 16 fraction bits (so that k ln2_hi + thi is exact, |k| <= 128).
#pragma once
#include <cmath>

namespace dla::cpu {

struct LogF32Table {
  alignas(64) float cinv[16], thi[16], tlo[16];
  float ln2_hi, ln2_lo;
  LogF32Table() {
    for (int j = 0; j < 16; ++j) {
      const long double a = j < 7 ? 49.0L / 64 + j / 32.0L : 33.0L / 32 + (j - 8) / 16.0L;
      const long double b = j < 7 ? a + 1 / 32.0L : a + 1 / 16.0L;
      cinv[j] = j == 7 ? 1.0f : static_cast<float>(2.0L / (a + b));
      const long double t = -std::log(static_cast<long double>(cinv[j]));
      const long double hi = std::nearbyint(t * 65536) / 65536;
      thi[j] = static_cast<float>(hi) + 0.0f;  // +0 for j = 7
      tlo[j] = static_cast<float>(t - hi) + 0.0f;
    }
    const long double ln2 = std::log(2.0L);
    const long double hi = std::nearbyint(ln2 * 65536) / 65536;
    ln2_hi = static_cast<float>(hi);
    ln2_lo = static_cast<float>(ln2 - hi);
  }
};

inline const LogF32Table& log_f32_table() {
  static const LogF32Table t;
  return t;
}

// log1p(r) = r + r^2 P(r) on the intervals' range of r: math_avx512_f64.cpp's log_core fit
// rounded to float32.
inline constexpr float kLogF32P[4] = {-0x1.fffffce266967p-2f, 0x1.55555daea518cp-2f, -0x1.0033b438cf402p-2f,
                                      0x1.995e8ae23b8f0p-3f};

}  // namespace dla::cpu
