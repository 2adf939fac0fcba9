// promotion.h — the array API type promotion rules, as constexpr data.
//
// kPromotion is the standard's four tables (signed, unsigned, mixed signed/unsigned,
// floating) merged into one 13 x 13 lattice join; `Other` marks the pairs the standard
// leaves undefined (bool with numeric, integer with floating, int64 with uint64), which
// every caller turns into a TypeError. Python scalars have their own rules
// (scalar_operand_type): they take the array's dtype, except that a complex scalar lifts a
// real floating array to the complex dtype of the same precision (2024.12 and later).
#pragma once
#include <string>

#include "core/dtype.h"
#include "core/errors.h"

namespace dla {

namespace promotion_detail {
constexpr ScalarType b = ScalarType::Bool, i1 = ScalarType::Int8, i2 = ScalarType::Int16,
                     i4 = ScalarType::Int32, i8 = ScalarType::Int64, u1 = ScalarType::UInt8,
                     u2 = ScalarType::UInt16, u4 = ScalarType::UInt32, u8 = ScalarType::UInt64,
                     f4 = ScalarType::Float32, f8 = ScalarType::Float64, c8 = ScalarType::Complex64,
                     c16 = ScalarType::Complex128, __ = ScalarType::Other;

// Rows and columns in ScalarType order.
constexpr ScalarType kTable[kNumScalarTypes][kNumScalarTypes] = {
    //         b   i1  i2  i4  i8  u1  u2  u4  u8  f4   f8   c8   c16
    /* b   */ {b,  __, __, __, __, __, __, __, __, __,  __,  __,  __},
    /* i1  */ {__, i1, i2, i4, i8, i2, i4, i8, __, __,  __,  __,  __},
    /* i2  */ {__, i2, i2, i4, i8, i2, i4, i8, __, __,  __,  __,  __},
    /* i4  */ {__, i4, i4, i4, i8, i4, i4, i8, __, __,  __,  __,  __},
    /* i8  */ {__, i8, i8, i8, i8, i8, i8, i8, __, __,  __,  __,  __},
    /* u1  */ {__, i2, i2, i4, i8, u1, u2, u4, u8, __,  __,  __,  __},
    /* u2  */ {__, i4, i4, i4, i8, u2, u2, u4, u8, __,  __,  __,  __},
    /* u4  */ {__, i8, i8, i8, i8, u4, u4, u4, u8, __,  __,  __,  __},
    /* u8  */ {__, __, __, __, __, u8, u8, u8, u8, __,  __,  __,  __},
    /* f4  */ {__, __, __, __, __, __, __, __, __, f4,  f8,  c8,  c16},
    /* f8  */ {__, __, __, __, __, __, __, __, __, f8,  f8,  c16, c16},
    /* c8  */ {__, __, __, __, __, __, __, __, __, c8,  c16, c8,  c16},
    /* c16 */ {__, __, __, __, __, __, __, __, __, c16, c16, c16, c16},
};

constexpr bool symmetric() {
  for (int i = 0; i < kNumScalarTypes; ++i)
    for (int j = 0; j < kNumScalarTypes; ++j)
      if (kTable[i][j] != kTable[j][i]) return false;
  return true;
}
static_assert(symmetric(), "type promotion is commutative");
}  // namespace promotion_detail

// The join of two computing dtypes, or ScalarType::Other where the standard defines none.
constexpr ScalarType promote_types_or_none(ScalarType a, ScalarType c) {
  if (a == ScalarType::Other || c == ScalarType::Other) return ScalarType::Other;
  return promotion_detail::kTable[static_cast<int>(a)][static_cast<int>(c)];
}

// As above, throwing TypeError naming both dtypes when the pair is undefined.
inline ScalarType promote_types(ScalarType a, ScalarType c) {
  ScalarType r = promote_types_or_none(a, c);
  if (r == ScalarType::Other)
    throw TypeError("no type promotion is defined between " + DType::of(a).name() + " and " +
                    DType::of(c).name() + " (mixed kinds, or int64 with uint64); convert one with astype");
  return r;
}

// can_cast(from, to): whether `from` promotes to `to` with some dtype, i.e. whether
// promoting `from` with `to` gives `to`.
constexpr bool can_cast_types(ScalarType from, ScalarType to) {
  return promote_types_or_none(from, to) == to;
}

// The kinds of Python scalar that may meet an array.
enum class PyScalarKind : uint8_t { Bool, Int, Float, Complex };

// The dtype a Python scalar takes next to an array of dtype `a`, or Other when the
// combination is not allowed (bool with numeric, int with bool, float with integer,
// complex with integer or bool). Range checks of ints are the caller's (OverflowError).
constexpr ScalarType scalar_operand_type(ScalarType a, PyScalarKind k) {
  switch (k) {
    case PyScalarKind::Bool: return a == ScalarType::Bool ? a : ScalarType::Other;
    case PyScalarKind::Int:
      return a == ScalarType::Bool || a == ScalarType::Other ? ScalarType::Other : a;
    case PyScalarKind::Float:
      return a >= ScalarType::Float32 && a <= ScalarType::Complex128 ? a : ScalarType::Other;
    case PyScalarKind::Complex:
      if (a == ScalarType::Float32) return ScalarType::Complex64;
      if (a == ScalarType::Float64) return ScalarType::Complex128;
      return a == ScalarType::Complex64 || a == ScalarType::Complex128 ? a : ScalarType::Other;
  }
  return ScalarType::Other;
}

inline const char* py_scalar_kind_name(PyScalarKind k) {
  switch (k) {
    case PyScalarKind::Bool: return "bool";
    case PyScalarKind::Int: return "int";
    case PyScalarKind::Float: return "float";
    case PyScalarKind::Complex: return "complex";
  }
  return "?";
}

}  // namespace dla
