// exp_log_f64.h — float64 exp, log, log2 and log10 written for the compiler's vectorizer,
// within 0.56 ulp (glibc's libmvec versions reach 2.6 ulp, its scalar ones are 5 to 10
// times slower than a vector loop).
//
// exp: x = k ln2/128 + r, |r| <= ln2/256; exp(x) = 2^(k/128) (1 + p(r)) with 2^(j/128)
// from a 128-entry table held as a sum of two doubles, and a degree-5 polynomial.
// log: x = 2^k z with z in [0.6875, 1.375), a 128-entry table of c ~ z and 1/c; log(x) =
// k ln2 + log(c) + log1p(z/c - 1), the leading terms summed in double-double; |x - 1| <
// 2^-5 instead takes log1p(x - 1) from a degree-13 series (x - 1 is exact there), because
// there the result is tiny and the table's absolute error would show. log2 and log10
// multiply log's double-double result by the constant in double-double, rounding once.
// sinh, cosh, tanh: a Taylor series below 0.5, exp(a)/2 -+ exp(-a)/2 in double-double above,
// tanh their double-double quotient; asinh, acosh, atanh: series near 0, else log of a
// double-double argument (a + sqrt(a^2 +- 1), (1 + a)/(1 - a)); each rounded once.
// Arguments off the fast range (exp: |x| >= 707, where results overflow or turn subnormal;
// log: zero, negatives, subnormals, infinities, NaN) are recomputed by glibc's scalar
// function, so every special case is libm's. Tables are computed at start-up from x87
// long double (64-bit significand).
#pragma once
#include <cstdint>

#include "backends/cpu/math_domain.h"

namespace dla::cpu {

enum class ExpLogFn : uint8_t { Exp, Expm1, Log, Log2, Log10, Log1p, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh,
                               Atan, Asin, Acos, Tan, Sin, Cos };  // the last six: math_avx2_f64.h, math_avx512_f64.h

// out[i] = fn(in[i]) for a contiguous row; in and out may be the same memory. On AVX-512 the
// functions math_avx512_f64.h covers run there (faster, same bound), and store domain->nan for
// arguments outside fn's domain (math_domain.h; null: libm's scalar function there too).
void exp_log_f64_row(ExpLogFn fn, const double* in, double* out, int64_t n, const NanOutside<double>* domain);

// Whether the vector variants can run here (AVX2 and FMA, or AVX-512).
bool exp_log_f64_available();

}  // namespace dla::cpu
