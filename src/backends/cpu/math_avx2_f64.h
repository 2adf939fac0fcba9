// math_avx2_f64.h — float64 sin, cos, tan, asin, acos, atan and atan2 on AVX2 + FMA CPUs, 4
// lanes a vector: the kernels the AVX-512 rows run too (trig_kernels_f64.h, constants in
// trig_f64.h), so the same values (sin, cos within 0.59 ulp; tan 0.69, asin, acos 0.62, atan
// 0.50, atan2 0.51; the last bit of tan, asin, acos, atan and atan2 rarely apart: divisions
// where AVX-512 takes reciprocal estimates), where glibc's scalar functions took 10-20 ms for 10^6.
#pragma once
#include <cstdint>

#include "backends/cpu/exp_log_f64.h"
#include "backends/cpu/math_domain.h"

namespace dla::cpu {

// out[i] = fn(in[i]) for a contiguous row (in == out allowed) and true, where fn is Sin, Cos,
// Tan, Asin, Acos or Atan and the CPU has AVX2 and FMA; false (nothing written) otherwise.
bool math_avx2_f64_row(ExpLogFn fn, const double* in, double* out, int64_t n, const NanOutside<double>* domain);

// out[i] = atan2(y[i], x[i * x_step]) (x_step 0 or 1) and true where the CPU has AVX2 and FMA.
bool math_avx2_f64_atan2_row(const double* y, const double* x, int64_t x_step, double* out, int64_t n);

}  // namespace dla::cpu
