// float32_math.h — float32 exp, log, sin and cos on AVX2 + FMA CPUs, written with intrinsics
// 8 lanes a vector (on AVX-512 the loops of math_avx512_f32.h run instead):
//   exp  in float32 arithmetic, x = k ln2/16 + r, a 16-entry table of 2^(j/16) as hi + lo, so
//        that only the last addition rounds at full weight: within 0.5 + 0.05 ulp;
//   log  in float32 arithmetic, math_avx512_f32.h's log at 8 lanes (the same values): 0.51 ulp;
//   sin, cos  evaluated in float64 (x = m pi/2 + r, one polynomial per lane), rounded once:
//        0.5 ulp but in rare near-ties.
// NumPy's own AVX2 float32 loops for these reach 1.4 to 2.6 ulp. Off each fast range (exp:
// x < -87 or > 88.7, where results are subnormal or overflow, and NaN, with x < -104 settled
// to 0 in the vector; log: x <= 0, subnormals, infinities, NaN; sin/cos: |x| >= 2^20, zeros,
// infinities, NaN) glibc's scalar float32 function gives the value, so special cases are libm's,
// and log of a negative number takes libm's NaN from math_domain.h without calling it.
#pragma once
#include <cstdint>

#include "backends/cpu/math_domain.h"

namespace dla::cpu {

// Sinh, Atanh, Acosh and Tanh have AVX-512 loops only (math_avx512_f32.h); elsewhere libm's scalar values.
enum class Float32Fn : uint8_t { Exp, Log, Sin, Cos, Sinh, Atanh, Acosh, Tanh };

// out[i] = fn(in[i]) for a contiguous row; in and out may be the same memory. On AVX-512 the
// loops of math_avx512_f32.h run instead. Both store domain->nan for arguments outside fn's
// domain (math_domain.h; null: libm's scalar function there too).
void float32_math_row(Float32Fn fn, const float* in, float* out, int64_t n, const NanOutside<float>* domain);

// Whether the vector variants can run here (AVX2 and FMA, or AVX-512).
bool float32_math_available();

}  // namespace dla::cpu
