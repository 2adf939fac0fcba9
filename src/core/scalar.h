// scalar.h — a host scalar of any computing dtype, and reading/writing one element.
//
// Python numbers enter the core as a Scalar (kept in the widest type of their kind) and
// are stored into an element of a given dtype by store_scalar; load_scalar reads back.
#pragma once
#include <complex>
#include <cstdint>

#include "core/dtype.h"

namespace dla {

struct Scalar {
  enum class Kind : uint8_t { Bool, Int, UInt, Float, Complex } kind = Kind::Int;
  bool b = false;
  int64_t i = 0;   // Kind::Int
  uint64_t u = 0;  // Kind::UInt (values above INT64_MAX)
  double f = 0;
  std::complex<double> c;

  static Scalar of_bool(bool v) { Scalar s; s.kind = Kind::Bool; s.b = v; return s; }
  static Scalar of_int(int64_t v) { Scalar s; s.kind = Kind::Int; s.i = v; return s; }
  static Scalar of_uint(uint64_t v) { Scalar s; s.kind = Kind::UInt; s.u = v; return s; }
  static Scalar of_float(double v) { Scalar s; s.kind = Kind::Float; s.f = v; return s; }
  static Scalar of_complex(std::complex<double> v) { Scalar s; s.kind = Kind::Complex; s.c = v; return s; }

  double as_double() const;
  std::complex<double> as_complex() const;
};

// Writes s into one element of dtype d at dst (C casting rules; integer overflow wraps).
// Throws TypeError for storage-only dtypes other than float16/bfloat16.
void store_scalar(const DType& d, const Scalar& s, void* dst);
// Reads one element of dtype d at src.
Scalar load_scalar(const DType& d, const void* src);
// Whether an integer Python value fits the integer dtype d.
bool int_fits(const DType& d, const Scalar& s);

}  // namespace dla
