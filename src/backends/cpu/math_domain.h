// math_domain.h — where each real function of one argument is NaN (log of a negative number,
// asin of 2, acosh of 1/2): the one declaration of those domains, and the type that carries
// libm's NaN there to the rows.
//
// Vector rows meet such arguments in bulk (data with negatives in it), and sending each lane to
// libm's scalar function cost up to 11x NumPy's time. Every row that settles them in bulk, our
// own AVX-512 rows and the libmvec rows alike, reads the same two things from here: the domain
// (declared once, per OpId) and libm's NaN outside it (found once per function and dtype by
// install_vector_math, from the scalar loops the kernel table held before any was replaced, so
// that the NaN's sign and payload are exactly what the scalar path gives). Where libm returns
// different NaNs across the region, there is no NaN here and the rows keep calling libm.
#pragma once
#include <cmath>

#include "core/elementwise_ops.h"

namespace dla::cpu {

// Outside: x < lo or x > hi (NaN is neither, -0 is inside log's domain); `inside` is an
// argument in the domain, for rows that substitute one before calling a vector function.
struct RealDomain {
  bool bounded = false;
  double lo = -HUGE_VAL, hi = HUGE_VAL, inside = 0;
};

constexpr RealDomain domain_of(OpId op) {
  switch (op) {
    case OpId::log: case OpId::log2: case OpId::log10: return {true, 0.0, HUGE_VAL, 1.0};
    case OpId::log1p: return {true, -1.0, HUGE_VAL, 0.0};
    case OpId::asin: case OpId::acos: case OpId::atanh: return {true, -1.0, 1.0, 0.0};  // atanh(+-1) is +-inf
    case OpId::acosh: return {true, 1.0, HUGE_VAL, 2.0};
    default: return {};
  }
}

// A domain in a row's dtype with libm's NaN for every argument outside it. The rows take a
// pointer to one (vector_math.cpp holds them): null for functions without a domain, before
// install_vector_math has probed, and where libm's NaNs outside the domain differ.
template <class T>
struct NanOutside {
  T lo, hi, nan;
};

}  // namespace dla::cpu
