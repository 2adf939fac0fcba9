// scalar.cpp — storing and loading single elements of every computing dtype.
#include "core/scalar.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/errors.h"
#include "core/half.h"

namespace dla {

double Scalar::as_double() const {
  switch (kind) {
    case Kind::Bool: return b ? 1.0 : 0.0;
    case Kind::Int: return double(i);
    case Kind::UInt: return double(u);
    case Kind::Float: return f;
    case Kind::Complex: return c.real();
  }
  return 0;
}

std::complex<double> Scalar::as_complex() const {
  return kind == Kind::Complex ? c : std::complex<double>(as_double(), 0.0);
}

namespace {
// A double as int64_t or uint64_t without undefined behaviour: NaN gives 0, values beyond the
// range saturate, and a negative value for uint64_t wraps through int64_t (-1.0 -> 2**64 - 1,
// as NumPy's conversion gives).
template <class T>
T int_of_double(double f) {
  if (std::isnan(f)) return T(0);
  if (f >= 0x1p63) return std::is_signed_v<T> ? std::numeric_limits<T>::max()
                                               : f >= 0x1p64 ? std::numeric_limits<T>::max() : T(f);
  if (f < -0x1p63) return T(std::numeric_limits<int64_t>::min());
  return T(int64_t(f));
}

template <class T>
T as_int(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::Bool: return T(s.b);
    case Scalar::Kind::Int: return T(s.i);
    case Scalar::Kind::UInt: return T(s.u);
    case Scalar::Kind::Float: return int_of_double<T>(s.f);
    case Scalar::Kind::Complex: return int_of_double<T>(s.c.real());
  }
  return T(0);
}
template <class T>
void put(void* dst, T v) {
  std::memcpy(dst, &v, sizeof(T));
}
template <class T>
T get(const void* src) {
  T v;
  std::memcpy(&v, src, sizeof(T));
  return v;
}
}  // namespace

void store_scalar(const DType& d, const Scalar& s, void* dst) {
  switch (d.scalar) {
    case ScalarType::Bool: {
      bool v = s.kind == Scalar::Kind::Complex ? (s.c != std::complex<double>(0, 0))
               : s.kind == Scalar::Kind::Float ? s.f != 0
               : s.kind == Scalar::Kind::Bool  ? s.b
               : s.kind == Scalar::Kind::Int   ? s.i != 0
                                               : s.u != 0;
      return put<uint8_t>(dst, v ? 1 : 0);
    }
    // Integers wrap as C does for in-range values (through int64/uint64, see int_of_double).
    case ScalarType::Int8: return put<int8_t>(dst, int8_t(as_int<int64_t>(s)));
    case ScalarType::Int16: return put<int16_t>(dst, int16_t(as_int<int64_t>(s)));
    case ScalarType::Int32: return put<int32_t>(dst, int32_t(as_int<int64_t>(s)));
    case ScalarType::Int64: return put<int64_t>(dst, as_int<int64_t>(s));
    case ScalarType::UInt8: return put<uint8_t>(dst, uint8_t(as_int<uint64_t>(s)));
    case ScalarType::UInt16: return put<uint16_t>(dst, uint16_t(as_int<uint64_t>(s)));
    case ScalarType::UInt32: return put<uint32_t>(dst, uint32_t(as_int<uint64_t>(s)));
    case ScalarType::UInt64: return put<uint64_t>(dst, as_int<uint64_t>(s));
    case ScalarType::Float32: return put<float>(dst, float(s.as_double()));
    case ScalarType::Float64: return put<double>(dst, s.as_double());
    case ScalarType::Complex64: return put<std::complex<float>>(dst, std::complex<float>(s.as_complex()));
    case ScalarType::Complex128: return put<std::complex<double>>(dst, s.as_complex());
    case ScalarType::Other: break;
  }
  if (d.dl.code == kDLFloat && d.dl.bits == 16 && d.dl.lanes == 1)
    return put<uint16_t>(dst, float_to_float16(float(s.as_double())));
  if (d.dl.code == kDLBfloat && d.dl.bits == 16 && d.dl.lanes == 1)
    return put<uint16_t>(dst, float_to_bfloat16(float(s.as_double())));
  throw TypeError("cannot store a Python number into storage-only dtype " + d.name());
}

Scalar load_scalar(const DType& d, const void* src) {
  switch (d.scalar) {
    case ScalarType::Bool: return Scalar::of_bool(get<uint8_t>(src) != 0);
    case ScalarType::Int8: return Scalar::of_int(get<int8_t>(src));
    case ScalarType::Int16: return Scalar::of_int(get<int16_t>(src));
    case ScalarType::Int32: return Scalar::of_int(get<int32_t>(src));
    case ScalarType::Int64: return Scalar::of_int(get<int64_t>(src));
    case ScalarType::UInt8: return Scalar::of_int(get<uint8_t>(src));
    case ScalarType::UInt16: return Scalar::of_int(get<uint16_t>(src));
    case ScalarType::UInt32: return Scalar::of_int(get<uint32_t>(src));
    case ScalarType::UInt64: return Scalar::of_uint(get<uint64_t>(src));
    case ScalarType::Float32: return Scalar::of_float(get<float>(src));
    case ScalarType::Float64: return Scalar::of_float(get<double>(src));
    case ScalarType::Complex64: return Scalar::of_complex(std::complex<double>(get<std::complex<float>>(src)));
    case ScalarType::Complex128: return Scalar::of_complex(get<std::complex<double>>(src));
    case ScalarType::Other: break;
  }
  if (d.dl.code == kDLFloat && d.dl.bits == 16 && d.dl.lanes == 1)
    return Scalar::of_float(float16_to_float(get<uint16_t>(src)));
  if (d.dl.code == kDLBfloat && d.dl.bits == 16 && d.dl.lanes == 1)
    return Scalar::of_float(bfloat16_to_float(get<uint16_t>(src)));
  throw TypeError("cannot read elements of storage-only dtype " + d.name());
}

bool int_fits(const DType& d, const Scalar& s) {
  if (s.kind == Scalar::Kind::Bool) return true;
  const bool neg = s.kind == Scalar::Kind::Int && s.i < 0;
  const uint64_t mag = s.kind == Scalar::Kind::UInt ? s.u : (neg ? 0 : uint64_t(s.i));
  switch (d.scalar) {
    case ScalarType::Int8: return s.kind == Scalar::Kind::Int && s.i >= INT8_MIN && s.i <= INT8_MAX;
    case ScalarType::Int16: return s.kind == Scalar::Kind::Int && s.i >= INT16_MIN && s.i <= INT16_MAX;
    case ScalarType::Int32: return s.kind == Scalar::Kind::Int && s.i >= INT32_MIN && s.i <= INT32_MAX;
    case ScalarType::Int64: return s.kind == Scalar::Kind::Int;
    case ScalarType::UInt8: return !neg && mag <= UINT8_MAX;
    case ScalarType::UInt16: return !neg && mag <= UINT16_MAX;
    case ScalarType::UInt32: return !neg && mag <= UINT32_MAX;
    case ScalarType::UInt64: return !neg;
    default: return true;
  }
}

}  // namespace dla
