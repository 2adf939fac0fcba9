// math_avx512_f32.h — float32 exp, log, sin, cos, sinh, atanh, acosh and tanh written with AVX-512
// intrinsics. exp, sin, cos: 16 floats a step, widened to two float64 vectors,
// evaluated with short polynomials whose float64 error (below 2^-28 relative) is far under half
// a float32 ulp, and rounded once back to float32. The result is the correctly rounded one except in near-ties
// (at most 0.55 ulp), at about the time of NumPy's own AVX-512 float32 loops (whose
// errors reach 1.3 to 2.6 ulp), where libmvec's float32 versions reach 1.4 to 3.8 ulp.
//
//   exp   x = k ln2/16 + r (|r| <= ln2/32), k by adding 1.5 2^52 (no rounding or conversion
//         instructions), 2^(k/16) from a 16-entry table whose entries take k << 48 as an
//         integer add, degree-4 Taylor;
//   sin, cos  x = m pi/2 + r with pi/2 in two float64 parts (exact enough for |x| < 2^20), m
//         even for sin and odd for cos, one sine polynomial (|r| <= pi/2) signed by m's half;
// exp clamps x (to +-150: the float32 results are already 0 or inf there) and needs no other
// care. Lanes off the fast range of the others (NaN, infinities, zeros where
// the sign matters, log's x <= 0, sin/cos's |x| >= 2^20, atanh's |x| >= 1, acosh's x < 1 and
// inf) take glibc's scalar float function, so every special case is libm's.
//
// log, tanh, atanh, acosh and sinh instead stay in float32 (16 lanes a vector; in float64 they came to
// 1.1 to 1.6 times NumPy's time): forms whose last addition is the only rounding at full
// weight, the rest carried as a small term, within 0.75, 0.65 and 0.63 ulp (NumPy's 1.36, 1.33,
// 1.16) at 0.7 to 1.0 times NumPy's time; log within 0.52 ulp (NumPy's 3.05) at 0.75 (in
// float64, 1.24); sinh within 0.74 ulp (NumPy's 1.46) at 0.93-1.08 (0.35 when all 16 lanes are
// below 1; in float64, 1.30-1.41).
// Coefficients from scripts/fit_{tanh,atanh,acosh,sinh}_f32.py:
//   sinh  a + a t P(t) below 1; above, 2 (e^a/4 - e^-a/4) from a 32-entry 2^(j/32) table as
//         hi + lo, e^a/4 kept as an exact part and a small one, e^-a/4 by one division;
//   tanh  piecewise polynomials on 32 intervals of |x| numbered by its bits, the value at each
//         centre as hi + lo;
//   atanh a + a z P(z) below 1/2; above, log(2 - b) - log b (b = 1 - |x| exact) with a 16-entry
//         log table whose large part is exact;
//   log   x = 2^k m, m in [49/64, 49/32) in 16 intervals (k, m, the interval by integer
//         operations on x's bits), m c_j - 1 = r + r_lo exact, log x = [k ln2 - log c_j]_hi
//         + r + small terms, the first exact and added to r by Fast2Sum (libm for subnormals);
//   acosh sqrt(2d) (1 + d G(d)) below 2 (d = x - 1, the root to twice float32's precision);
//         above, log x + log(1 + sqrt(1 - 1/x^2)), the log from the same kind of table.
#pragma once
#include <cstdint>

#include "backends/cpu/float32_math.h"

namespace dla::cpu {

// out[i] = fn(in[i]) for a contiguous row (in and out may be the same memory) when the CPU
// has AVX-512 F/DQ; returns false otherwise. Arguments outside `domain` get domain->nan
// (null: libm's value, one lane at a time).
bool math_avx512_f32_row(Float32Fn fn, const float* in, float* out, int64_t n, const NanOutside<float>* domain);

// out[i] = pow(x[i], y[i * y_step]) (y_step 0: y[0] for the whole row; out may be x's memory),
// under the same conditions; returns false otherwise. Evaluated in float64 (the .cpp's pow section).
bool math_avx512_f32_pow_row(const float* x, const float* y, int64_t y_step, float* out, int64_t n);
// out[i] = atan2(y[i], x[i * x_step]), the same way.
bool math_avx512_f32_atan2_row(const float* y, const float* x, int64_t x_step, float* out, int64_t n);

}  // namespace dla::cpu
