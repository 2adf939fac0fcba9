// math_avx2_f64.h — float64 sin, cos, tan, asin and acos on AVX2 + FMA CPUs, 4 lanes a vector:
// the AVX-512 kernels' operations (math_avx512_f64.cpp, constants in trig_f64.h) in the same
// order, so the same values (sin, cos within 0.59 ulp; tan 0.69, asin, acos 0.62; tan's, asin's
// and acos's last bit rarely apart: a division where AVX-512 takes a reciprocal estimate), where
// glibc's scalar functions took 16-20 ms for 10^6.
#pragma once
#include <cstdint>

#include "backends/cpu/exp_log_f64.h"
#include "backends/cpu/math_domain.h"

namespace dla::cpu {

// out[i] = fn(in[i]) for a contiguous row (in == out allowed) and true, where fn is Sin, Cos,
// Tan, Asin or Acos and the CPU has AVX2 and FMA; false (nothing written) otherwise.
bool math_avx2_f64_row(ExpLogFn fn, const double* in, double* out, int64_t n, const NanOutside<double>* domain);

}  // namespace dla::cpu
