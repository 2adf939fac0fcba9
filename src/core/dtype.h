// dtype.h — the runtime dtype tag: any DLPack DLDataType, classified.
//
// A DType is the DLDataType itself (so every code, width and lane count round-trips
// through DLPack) plus a ScalarType for the dtypes that have kernels. Everything else
// (float16, bfloat16, fp8/fp6/fp4, opaque handles, vector lanes) is storage: it can be
// created, viewed, copied and exchanged. float16 and bfloat16 (scalar == Other too) also
// compute, in float32, through the elementwise plans and reductions (core/half.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "dlpack/dlpack.h"

namespace dla {

// The 13 array API dtypes, in the order the promotion tables use. Storage-only
// types are `Other`.
enum class ScalarType : uint8_t {
  Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64,
  Float32, Float64, Complex64, Complex128,
  Other,
};
constexpr int kNumScalarTypes = 13;

enum class DTypeKind : uint8_t { Bool, SignedInt, UnsignedInt, RealFloat, ComplexFloat, Storage };

struct DType {
  DLDataType dl{kDLFloat, 64, 1};
  ScalarType scalar = ScalarType::Float64;

  DType() = default;
  explicit DType(DLDataType d);
  static DType of(ScalarType s);

  bool computes() const { return scalar != ScalarType::Other; }
  DTypeKind kind() const;
  // Bits of one element including lanes; sub-byte types (fp4, fp6, int4) report < 8.
  int64_t bits() const { return int64_t(dl.bits) * dl.lanes; }
  bool is_subbyte() const { return bits() % 8 != 0; }
  // Bytes per element; only meaningful when !is_subbyte().
  int64_t itemsize() const { return bits() / 8; }
  // Bytes needed for `count` packed elements; ValueError when they do not fit in int64
  // (checked_size.h).
  int64_t nbytes_for(int64_t count) const;
  std::string name() const;

  bool operator==(const DType& o) const {
    return dl.code == o.dl.code && dl.bits == o.dl.bits && dl.lanes == o.dl.lanes;
  }
  bool operator!=(const DType& o) const { return !(*this == o); }
};

// Parses names such as "float32", "bfloat16", "float8_e4m3fn"; throws TypeError otherwise.
DType dtype_from_name(const std::string& name);
// Every DLPack type code dlarray knows by name (for the Python namespace).
const DType* named_dtypes(size_t* count);

inline bool is_integer(ScalarType s) { return s >= ScalarType::Int8 && s <= ScalarType::UInt64; }
inline bool is_signed_integer(ScalarType s) { return s >= ScalarType::Int8 && s <= ScalarType::Int64; }
inline bool is_unsigned_integer(ScalarType s) { return s >= ScalarType::UInt8 && s <= ScalarType::UInt64; }
inline bool is_real_floating(ScalarType s) { return s == ScalarType::Float32 || s == ScalarType::Float64; }
inline bool is_complex(ScalarType s) { return s == ScalarType::Complex64 || s == ScalarType::Complex128; }
inline bool is_floating(ScalarType s) { return is_real_floating(s) || is_complex(s); }

}  // namespace dla
