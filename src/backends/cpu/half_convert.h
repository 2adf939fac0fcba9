// half_convert.h — float16 / bfloat16 <-> float32 for whole rows on the CPU, with the
// hardware's conversions where it has them (F16C for float16, AVX2 for the bfloat16 bit
// arithmetic); same results as core/half.h's scalar functions (round to nearest even; a
// NaN stays a quiet NaN, its payload aside).
#pragma once
#include <cstdint>

#include "core/half.h"

namespace dla::cpu {

// dst[i] = src[i * stride] as float32 (stride in bytes).
void widen_half_row(Half h, const char* src, int64_t stride, float* dst, int64_t n);
// dst[i * stride] = src[i] rounded to the half type (stride in bytes).
void narrow_half_row(Half h, const float* src, char* dst, int64_t stride, int64_t n);

}  // namespace dla::cpu
