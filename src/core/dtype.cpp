// dtype.cpp — classification and names of DLPack data types.
#include "core/dtype.h"

#include "core/checked_size.h"
#include "core/errors.h"

namespace dla {
namespace {

struct NamedType {
  const char* name;
  DLDataType dl;
};

// Every named type dlarray exposes. Order: the 13 computing dtypes, then storage types.
constexpr NamedType kNamed[] = {
    {"bool", {kDLBool, 8, 1}},
    {"int8", {kDLInt, 8, 1}},
    {"int16", {kDLInt, 16, 1}},
    {"int32", {kDLInt, 32, 1}},
    {"int64", {kDLInt, 64, 1}},
    {"uint8", {kDLUInt, 8, 1}},
    {"uint16", {kDLUInt, 16, 1}},
    {"uint32", {kDLUInt, 32, 1}},
    {"uint64", {kDLUInt, 64, 1}},
    {"float32", {kDLFloat, 32, 1}},
    {"float64", {kDLFloat, 64, 1}},
    {"complex64", {kDLComplex, 64, 1}},
    {"complex128", {kDLComplex, 128, 1}},
    {"float16", {kDLFloat, 16, 1}},
    {"bfloat16", {kDLBfloat, 16, 1}},
    {"float8_e3m4", {kDLFloat8_e3m4, 8, 1}},
    {"float8_e4m3", {kDLFloat8_e4m3, 8, 1}},
    {"float8_e4m3b11fnuz", {kDLFloat8_e4m3b11fnuz, 8, 1}},
    {"float8_e4m3fn", {kDLFloat8_e4m3fn, 8, 1}},
    {"float8_e4m3fnuz", {kDLFloat8_e4m3fnuz, 8, 1}},
    {"float8_e5m2", {kDLFloat8_e5m2, 8, 1}},
    {"float8_e5m2fnuz", {kDLFloat8_e5m2fnuz, 8, 1}},
    {"float8_e8m0fnu", {kDLFloat8_e8m0fnu, 8, 1}},
    {"float6_e2m3fn", {kDLFloat6_e2m3fn, 6, 1}},
    {"float6_e3m2fn", {kDLFloat6_e3m2fn, 6, 1}},
    {"float4_e2m1fn", {kDLFloat4_e2m1fn, 4, 1}},
};
constexpr size_t kNumNamed = sizeof(kNamed) / sizeof(kNamed[0]);

DType* build_named() {
  static DType table[kNumNamed];
  for (size_t i = 0; i < kNumNamed; ++i) table[i] = DType(kNamed[i].dl);
  return table;
}

ScalarType classify(DLDataType d) {
  if (d.lanes != 1) return ScalarType::Other;
  switch (d.code) {
    case kDLBool: return d.bits == 8 ? ScalarType::Bool : ScalarType::Other;
    case kDLInt:
      switch (d.bits) {
        case 8: return ScalarType::Int8;
        case 16: return ScalarType::Int16;
        case 32: return ScalarType::Int32;
        case 64: return ScalarType::Int64;
      }
      return ScalarType::Other;
    case kDLUInt:
      switch (d.bits) {
        case 8: return ScalarType::UInt8;
        case 16: return ScalarType::UInt16;
        case 32: return ScalarType::UInt32;
        case 64: return ScalarType::UInt64;
      }
      return ScalarType::Other;
    case kDLFloat:
      if (d.bits == 32) return ScalarType::Float32;
      if (d.bits == 64) return ScalarType::Float64;
      return ScalarType::Other;
    case kDLComplex:
      if (d.bits == 64) return ScalarType::Complex64;
      if (d.bits == 128) return ScalarType::Complex128;
      return ScalarType::Other;
  }
  return ScalarType::Other;
}

}  // namespace

DType::DType(DLDataType d) : dl(d), scalar(classify(d)) {}

DType DType::of(ScalarType s) {
  if (s == ScalarType::Other) throw TypeError("DType::of: storage types have no ScalarType");
  return DType(kNamed[static_cast<int>(s)].dl);
}

int64_t DType::nbytes_for(int64_t count) const { return checked_nbytes(count, *this); }

DTypeKind DType::kind() const {
  if (scalar == ScalarType::Bool) return DTypeKind::Bool;
  if (is_signed_integer(scalar)) return DTypeKind::SignedInt;
  if (is_unsigned_integer(scalar)) return DTypeKind::UnsignedInt;
  if (is_real_floating(scalar)) return DTypeKind::RealFloat;
  if (is_complex(scalar)) return DTypeKind::ComplexFloat;
  return DTypeKind::Storage;
}

std::string DType::name() const {
  for (const auto& n : kNamed)
    if (n.dl.code == dl.code && n.dl.bits == dl.bits && n.dl.lanes == dl.lanes) return n.name;
  // Unnamed but valid DLPack types (vector lanes, odd widths) still print usefully.
  std::string s = "dltype(code=" + std::to_string(dl.code) + ", bits=" + std::to_string(dl.bits);
  if (dl.lanes != 1) s += ", lanes=" + std::to_string(dl.lanes);
  return s + ")";
}

const DType* named_dtypes(size_t* count) {
  static const DType* table = build_named();
  *count = kNumNamed;
  return table;
}

DType dtype_from_name(const std::string& name) {
  for (const auto& n : kNamed)
    if (name == n.name) return DType(n.dl);
  throw TypeError("unknown dtype name '" + name + "'");
}

}  // namespace dla
