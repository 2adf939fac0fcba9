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
#include "core/half.h"

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

// ---- float16 and bfloat16 (beyond the standard) --------------------------------------------
// Within the floating kind only, like every floating dtype (bool and integer dtypes do not
// promote with them): float16 as NumPy (with float32 -> float32, float64 -> float64,
// complex64 -> complex64, ...), bfloat16 as PyTorch (the same, and with float16 -> float32).
// Python scalars take their dtype as they take float32's (int, float), and a complex scalar
// gives complex64.

// The join of any two dtypes that compute (the 13 and the two half types); false if none.
inline bool promote_dtypes(const DType& a, const DType& b, DType* out) {
  const Half ha = half_of(a), hb = half_of(b);
  if (ha == Half::None && hb == Half::None) {
    const ScalarType r = promote_types_or_none(a.scalar, b.scalar);
    if (r == ScalarType::Other) return false;
    *out = DType::of(r);
    return true;
  }
  if (ha != Half::None && hb != Half::None) {
    *out = ha == hb ? a : DType::of(ScalarType::Float32);
    return true;
  }
  const DType& other = ha == Half::None ? a : b;
  if (!is_floating(other.scalar)) return false;
  *out = other;
  return true;
}

// As above, throwing TypeError naming both dtypes.
inline DType promote_dtypes(const DType& a, const DType& b) {
  DType r;
  if (!promote_dtypes(a, b, &r))
    throw TypeError("no type promotion is defined between " + a.name() + " and " + b.name() +
                    " (mixed kinds, or int64 with uint64); convert one with astype");
  return r;
}

// scalar_operand_type for any dtype that computes; false where the combination is refused.
inline bool scalar_operand_dtype(const DType& a, PyScalarKind k, DType* out) {
  if (half_of(a) != Half::None) {
    if (k == PyScalarKind::Bool) return false;
    *out = k == PyScalarKind::Complex ? DType::of(ScalarType::Complex64) : a;
    return true;
  }
  if (!a.computes()) return false;
  const ScalarType r = scalar_operand_type(a.scalar, k);
  if (r == ScalarType::Other) return false;
  *out = DType::of(r);
  return true;
}

// Whether the dtype takes part in computation: the 13 standard dtypes and the two half types.
inline bool dtype_computes(const DType& d) { return d.computes() || half_of(d) != Half::None; }

}  // namespace dla
