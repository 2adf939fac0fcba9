// float32_math.h — float32 exp, log, sin and cos evaluated in float64 arithmetic by loops
// written for the compiler's vectorizer.
//
// The float64 value carries a relative error below 2^-44, so rounding it to float32 gives
// the correctly rounded result but in rare near-ties (within 0.5 + 2^-20 ulp), where
// libmvec's float32 versions reach 2 to 3.8 ulp and NumPy's 1.4 to 3. No tables:
//   exp  x = k ln2 + r, |r| <= ln2/2, degree-11 series, scaled by 2^k (x clamped to
//        [-200, 200], which float32 overflows or flushes all the same);
//   log  x = 2^k m, m in [sqrt(1/2), sqrt 2), log m = 2 atanh(s), s = (m-1)/(m+1), series;
//   sin, cos  x = k pi/2 + r with pi/2 in two parts (exact enough for |x| < 2^28),
//        series for sin and cos of r, chosen and signed by k mod 4.
// Off their fast range (log: x <= 0, infinities, NaN; sin/cos: |x| >= 2^28, infinities,
// NaN) glibc's scalar float32 function gives the value, so special cases are libm's.
#pragma once
#include <cstdint>

#include "backends/cpu/math_domain.h"

namespace dla::cpu {

// Sinh, Atanh, Acosh and Tanh have AVX-512 loops only (math_avx512_f32.h); elsewhere libm's scalar values.
enum class Float32Fn : uint8_t { Exp, Log, Sin, Cos, Sinh, Atanh, Acosh, Tanh };

// out[i] = fn(in[i]) for a contiguous row; in and out may be the same memory. On AVX-512 the
// loops of math_avx512_f32.h run instead (faster, same bound), and store domain->nan for
// arguments outside fn's domain (math_domain.h; null: libm's scalar function there too).
void float32_math_row(Float32Fn fn, const float* in, float* out, int64_t n, const NanOutside<float>* domain);

// Whether the vector variants can run here (AVX2 and FMA, or AVX-512).
bool float32_math_available();

}  // namespace dla::cpu
