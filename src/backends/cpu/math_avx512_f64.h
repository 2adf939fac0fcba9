// math_avx512_f64.h — float64 transcendental rows written with AVX-512 intrinsics: tables of
// 16 entries held in registers (one permute per lookup, where a gather of a larger table costs
// the loop its speed), within 0.70 ulp at 0.74 to 1.15 times the time of NumPy's SVML loops
// (benchmarks/elementwise.py --transcendental; the figures in vector_math.cpp).
//
// log core: x = 2^k m, m in [0.75, 1.5) (getmant/getexp, which also take subnormals); 16
// intervals of m with c ~ their centre (c = 1 exactly for the one holding 1, so that log is
// exact to its last bits near 1); r = m/c - 1 as an exact double-double (|r| < 0.032);
// log x = k ln2 + log c + log1p(r), log1p from r - r^2/2 + r^3 Q(r), Q of degree 7 fitted on
// Chebyshev nodes (relative error 2^-50); the leading terms summed exactly, rounded once.
// log1p(x) runs the same core on 1 + x with the rounding error of that sum carried into r;
// log2 and log10 scale the double-double result by the constant in double-double.
// exp core: x = k ln2/16 + r as a pair, 2^(k/16) from a table as a pair, expm1(r) to r^7;
// exp, expm1 and tanh are built on it; sinh and cosh share its reduction and form e^x and e^-x
// from tables of 2^(j/16) and 2^(-j/16) and the even and odd parts of e^r (no division);
// asinh, acosh and atanh are built on the log core with double-double arguments. pow has a
// finer log of its own (two 16-entry reductions, log c from mpmath: pow_log_table_f64.h) good
// to about 2^-68, since y log x multiplies its error by up to 709, feeding the exp core with a
// double-double argument (0.52 ulp, NumPy's SVML loop 0.70 on the same pairs). tan, asin, acos and atan have their own
// reductions (sin and cos share tan's) and fitted polynomials (trig_kernels_f64.h, the kernels
// shared with the AVX2 rows). Each result is rounded once.
// Arguments off a kernel's fast range (zeros where the sign matters, negatives of log,
// infinities, NaN, overflow and subnormal results, sin's zeros, sin/cos/tan's |x| >= 2^20) are recomputed by
// glibc's scalar function, so every special case is libm's.
#pragma once
#include "backends/cpu/exp_log_f64.h"

namespace dla::cpu {

// out[i] = fn(in[i]) for a contiguous row (in and out may be the same memory), when this
// file has an AVX-512 loop for fn and the CPU has AVX-512 F/DQ; returns false otherwise.
// Arguments outside `domain` get domain->nan (null: libm's value, one lane at a time).
bool math_avx512_f64_row(ExpLogFn fn, const double* in, double* out, int64_t n, const NanOutside<double>* domain);

// out[i] = atan2(y[i], x[i * x_step]) (x_step 0: x[0] for the whole row; out may be y's
// memory), under the same conditions; returns false otherwise.
bool math_avx512_f64_atan2_row(const double* y, const double* x, int64_t x_step, double* out, int64_t n);

// out[i] = pow(x[i], y[i * y_step]), the same way.
bool math_avx512_f64_pow_row(const double* x, const double* y, int64_t y_step, double* out, int64_t n);

}  // namespace dla::cpu
