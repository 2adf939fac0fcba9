// promotion.h — type promotion, as constexpr data.
//
// kTable joins any two of the 13 computing dtypes. Where the array API standard defines the
// result (within a kind: bool, integers, floating) it is the standard's; where the standard
// leaves the pair open (bool with numbers, integers with floating, int64 with uint64) it is
// NumPy's, which PyTorch, CuPy, JAX and dpnp also follow for these pairs: bool takes the
// other dtype, an integer with a floating dtype gives the smallest floating dtype of that
// kind that holds the integer's values at NumPy's widths (int8/int16/uint8/uint16 with
// float32 -> float32, wider -> float64), and int64 with uint64 gives float64.
// Python scalars are "weak" (scalar_operand_type): they take the array's dtype when its kind
// holds them, and otherwise the default dtype of their own kind (int with a bool array ->
// int64, float with an integer or bool array -> float64, complex -> complex128); a complex
// scalar lifts a real floating array to the complex dtype of the same precision.
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

// Rows and columns in ScalarType order. The standard defines every entry within the blocks
// on the diagonal (bool; the eight integers but i* x u8; the four floating dtypes); the rest
// are NumPy's choices (see the header).
constexpr ScalarType kTable[kNumScalarTypes][kNumScalarTypes] = {
    //         b    i1   i2   i4   i8   u1   u2   u4   u8   f4   f8   c8   c16
    /* b   */ {b,   i1,  i2,  i4,  i8,  u1,  u2,  u4,  u8,  f4,  f8,  c8,  c16},
    /* i1  */ {i1,  i1,  i2,  i4,  i8,  i2,  i4,  i8,  f8,  f4,  f8,  c8,  c16},
    /* i2  */ {i2,  i2,  i2,  i4,  i8,  i2,  i4,  i8,  f8,  f4,  f8,  c8,  c16},
    /* i4  */ {i4,  i4,  i4,  i4,  i8,  i4,  i4,  i8,  f8,  f8,  f8,  c16, c16},
    /* i8  */ {i8,  i8,  i8,  i8,  i8,  i8,  i8,  i8,  f8,  f8,  f8,  c16, c16},
    /* u1  */ {u1,  i2,  i2,  i4,  i8,  u1,  u2,  u4,  u8,  f4,  f8,  c8,  c16},
    /* u2  */ {u2,  i4,  i4,  i4,  i8,  u2,  u2,  u4,  u8,  f4,  f8,  c8,  c16},
    /* u4  */ {u4,  i8,  i8,  i8,  i8,  u4,  u4,  u4,  u8,  f8,  f8,  c16, c16},
    /* u8  */ {u8,  f8,  f8,  f8,  f8,  u8,  u8,  u8,  u8,  f8,  f8,  c16, c16},
    /* f4  */ {f4,  f4,  f4,  f8,  f8,  f4,  f4,  f8,  f8,  f4,  f8,  c8,  c16},
    /* f8  */ {f8,  f8,  f8,  f8,  f8,  f8,  f8,  f8,  f8,  f8,  f8,  c16, c16},
    /* c8  */ {c8,  c8,  c8,  c16, c16, c8,  c8,  c16, c16, c8,  c16, c8,  c16},
    /* c16 */ {c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16},
};

constexpr bool symmetric() {
  for (int i = 0; i < kNumScalarTypes; ++i)
    for (int j = 0; j < kNumScalarTypes; ++j)
      if (kTable[i][j] != kTable[j][i]) return false;
  return true;
}
static_assert(symmetric(), "type promotion is commutative");

// Whether the standard itself defines the join of a and c (both of one kind, and not a signed
// integer with uint64): the rest of kTable is the choice shared with NumPy.
constexpr int kind_of(ScalarType t) { return t == b ? 0 : t <= u8 ? 1 : 2; }  // bool, integer, floating
constexpr bool standard_defines(ScalarType a, ScalarType c) {
  if (kind_of(a) != kind_of(c)) return false;
  const bool signed_a = a >= i1 && a <= i8, signed_c = c >= i1 && c <= i8;
  return !((signed_a && c == u8) || (signed_c && a == u8));
}

// The standard's joins stay within their kind; NumPy's choices are what leave it.
constexpr bool standard_joins_keep_kind() {
  for (int i = 0; i < kNumScalarTypes; ++i)
    for (int j = 0; j < kNumScalarTypes; ++j) {
      const auto x = static_cast<ScalarType>(i), y = static_cast<ScalarType>(j);
      if (standard_defines(x, y) && kind_of(kTable[i][j]) != kind_of(x)) return false;
    }
  return true;
}
static_assert(standard_joins_keep_kind(), "the standard's promotions stay within a kind");
}  // namespace promotion_detail

// The join of two computing dtypes (Other only when one of them is Other).
constexpr ScalarType promote_types_or_none(ScalarType a, ScalarType c) {
  if (a == ScalarType::Other || c == ScalarType::Other) return ScalarType::Other;
  return promotion_detail::kTable[static_cast<int>(a)][static_cast<int>(c)];
}

// As above, throwing TypeError naming both dtypes when one of them does not compute.
inline ScalarType promote_types(ScalarType a, ScalarType c) {
  ScalarType r = promote_types_or_none(a, c);
  if (r == ScalarType::Other)
    throw TypeError("no type promotion is defined between " + DType::of(a).name() + " and " +
                    DType::of(c).name() + " (a storage-only dtype); convert it with astype");
  return r;
}

// can_cast(from, to): whether `from` promotes to `to` with some dtype, i.e. whether
// promoting `from` with `to` gives `to` (with the table above, NumPy's "safe" casting).
constexpr bool can_cast_types(ScalarType from, ScalarType to) {
  return promote_types_or_none(from, to) == to;
}

// The kinds of Python scalar that may meet an array.
enum class PyScalarKind : uint8_t { Bool, Int, Float, Complex };  // in the order of kinds

// The dtype a Python scalar takes next to an array of dtype `a` (Other only when a is Other):
// a's dtype when a's kind holds the scalar's kind (bool < integer < real floating < complex),
// else the default dtype of the scalar's kind, and a complex scalar with a real floating array
// the complex dtype of a's precision. Range checks of ints are the caller's (OverflowError).
constexpr ScalarType scalar_operand_type(ScalarType a, PyScalarKind k) {
  if (a == ScalarType::Other) return a;
  switch (k) {
    case PyScalarKind::Bool: return a;
    case PyScalarKind::Int: return a == ScalarType::Bool ? ScalarType::Int64 : a;
    case PyScalarKind::Float: return a >= ScalarType::Float32 ? a : ScalarType::Float64;
    case PyScalarKind::Complex:
      if (a == ScalarType::Float32) return ScalarType::Complex64;
      return a == ScalarType::Complex64 ? a : ScalarType::Complex128;
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
// float16 as NumPy (with float32 -> float32, float64 -> float64, complex64 -> complex64, ...),
// bfloat16 as PyTorch (the same, and with float16 -> float32). With bool and integer dtypes,
// each as its home library: float16 at NumPy's widths (bool, int8 and uint8 keep float16,
// int16 and uint16 give float32, wider integers float64), bfloat16 as PyTorch (kept with every
// integer and bool). Python scalars take their dtype as they take float32's (bool, int,
// float), and a complex scalar gives complex64.

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
  const DType& half = ha == Half::None ? b : a;
  const DType& other = ha == Half::None ? a : b;
  if (!other.computes()) return false;
  if (half_of(half) == Half::BFloat16 && !is_floating(other.scalar)) {
    *out = half;
    return true;
  }
  switch (other.scalar) {
    case ScalarType::Bool: case ScalarType::Int8: case ScalarType::UInt8: *out = half; return true;
    case ScalarType::Int16: case ScalarType::UInt16: *out = DType::of(ScalarType::Float32); return true;
    case ScalarType::Int32: case ScalarType::UInt32: case ScalarType::Int64: case ScalarType::UInt64:
      *out = DType::of(ScalarType::Float64);
      return true;
    default: *out = other; return true;  // floating: the wider one
  }
}

// As above, throwing TypeError naming both dtypes.
inline DType promote_dtypes(const DType& a, const DType& b) {
  DType r;
  if (!promote_dtypes(a, b, &r))
    throw TypeError("no type promotion is defined between " + a.name() + " and " + b.name() +
                    " (a storage-only dtype); convert it with astype");
  return r;
}

// scalar_operand_type for any dtype that computes; false only for a storage-only dtype.
inline bool scalar_operand_dtype(const DType& a, PyScalarKind k, DType* out) {
  if (half_of(a) != Half::None) {
    *out = k == PyScalarKind::Complex ? DType::of(ScalarType::Complex64) : a;
    return true;
  }
  if (!a.computes()) return false;
  const ScalarType r = scalar_operand_type(a.scalar, k);
  if (r == ScalarType::Other) return false;
  *out = DType::of(r);
  return true;
}

// The order of kinds NumPy's same_kind casting follows: bool < integer < real floating (the half
// types too) < complex; 4 for storage-only dtypes, which convert to nothing here.
inline int kind_rank(const DType& d) {
  if (half_of(d) != Half::None) return 2;
  switch (d.kind()) {
    case DTypeKind::Bool: return 0;
    case DTypeKind::SignedInt: case DTypeKind::UnsignedInt: return 1;
    case DTypeKind::RealFloat: return 2;
    case DTypeKind::ComplexFloat: return 3;
    default: return 4;
  }
}
constexpr int kind_rank(PyScalarKind k) { return static_cast<int>(k); }  // Bool, Int, Float, Complex

// NumPy's same_kind casting, which in-place operators use: within a kind (float64 -> float32,
// int64 -> int8) or up the order of kinds (int64 -> float32), never down (float -> int).
inline bool same_kind_cast(const DType& from, const DType& to) {
  return kind_rank(from) <= kind_rank(to) && kind_rank(to) < 4;
}

// Whether the dtype takes part in computation: the 13 standard dtypes and the two half types.
inline bool dtype_computes(const DType& d) { return d.computes() || half_of(d) != Half::None; }

}  // namespace dla
