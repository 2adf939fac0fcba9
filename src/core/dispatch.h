// dispatch.h — from a runtime ScalarType to a C++ type, in one place.
//
// visit_scalar(s, f) calls f(TypeTag<T>{}) with T the C++ element type of s; kernels are
// written once as templates and instantiated through this switch.
#pragma once
#include <complex>
#include <cstdint>

#include "core/dtype.h"
#include "core/errors.h"

namespace dla {

template <class T>
struct TypeTag {
  using type = T;
};

template <class F>
decltype(auto) visit_scalar(ScalarType s, F&& f) {
  switch (s) {
    case ScalarType::Bool: return f(TypeTag<bool>{});
    case ScalarType::Int8: return f(TypeTag<int8_t>{});
    case ScalarType::Int16: return f(TypeTag<int16_t>{});
    case ScalarType::Int32: return f(TypeTag<int32_t>{});
    case ScalarType::Int64: return f(TypeTag<int64_t>{});
    case ScalarType::UInt8: return f(TypeTag<uint8_t>{});
    case ScalarType::UInt16: return f(TypeTag<uint16_t>{});
    case ScalarType::UInt32: return f(TypeTag<uint32_t>{});
    case ScalarType::UInt64: return f(TypeTag<uint64_t>{});
    case ScalarType::Float32: return f(TypeTag<float>{});
    case ScalarType::Float64: return f(TypeTag<double>{});
    case ScalarType::Complex64: return f(TypeTag<std::complex<float>>{});
    case ScalarType::Complex128: return f(TypeTag<std::complex<double>>{});
    case ScalarType::Other: break;
  }
  throw TypeError("operation not defined for storage-only dtypes");
}

template <class T>
struct ScalarTypeOf;
#define DLA_SCALAR_TYPE_OF(T, S) \
  template <>                    \
  struct ScalarTypeOf<T> {       \
    static constexpr ScalarType value = ScalarType::S; \
  };
DLA_SCALAR_TYPE_OF(bool, Bool)
DLA_SCALAR_TYPE_OF(int8_t, Int8)
DLA_SCALAR_TYPE_OF(int16_t, Int16)
DLA_SCALAR_TYPE_OF(int32_t, Int32)
DLA_SCALAR_TYPE_OF(int64_t, Int64)
DLA_SCALAR_TYPE_OF(uint8_t, UInt8)
DLA_SCALAR_TYPE_OF(uint16_t, UInt16)
DLA_SCALAR_TYPE_OF(uint32_t, UInt32)
DLA_SCALAR_TYPE_OF(uint64_t, UInt64)
DLA_SCALAR_TYPE_OF(float, Float32)
DLA_SCALAR_TYPE_OF(double, Float64)
DLA_SCALAR_TYPE_OF(std::complex<float>, Complex64)
DLA_SCALAR_TYPE_OF(std::complex<double>, Complex128)
#undef DLA_SCALAR_TYPE_OF

}  // namespace dla
