// elementwise_ops.h — THE declaration of every elementwise operation.
//
// One row per operation: name, arity, how its operands' dtypes combine (Sig), which dtype
// kinds it accepts (after promotion), what dtype it returns, the element functor (in
// elementwise_functors.h) and the parameter list of its array API stub. Everything else is
// generated from this table: the CPU kernel table (src/backends/cpu/elementwise_kernels.h),
// the namespace functions and their text signatures (src/bindings/py_elementwise.cpp), the
// operators of dlarray.Array (py_operators.cpp) and the test tables (tests read
// dlarray._core._elementwise_ops()). Adding an operation is adding a row and a functor.
#pragma once
#include <cstdint>

#include "core/dtype.h"

namespace dla {

// Dtype kinds, as a bit set over the promoted (compute) dtype.
enum KindBits : uint8_t {
  kKindBool = 1,
  kKindSigned = 2,
  kKindUnsigned = 4,
  kKindRealFloat = 8,
  kKindComplex = 16,
  kKindInt = kKindSigned | kKindUnsigned,
  kKindReal = kKindInt | kKindRealFloat,       // "real-valued"
  kKindFloat = kKindRealFloat | kKindComplex,  // "floating-point"
  kKindNumeric = kKindReal | kKindComplex,
  kKindIntOrBool = kKindInt | kKindBool,
  kKindAny = kKindNumeric | kKindBool,
};

constexpr uint8_t kind_bit(ScalarType s) {
  switch (s) {
    case ScalarType::Bool: return kKindBool;
    case ScalarType::Int8: case ScalarType::Int16: case ScalarType::Int32: case ScalarType::Int64:
      return kKindSigned;
    case ScalarType::UInt8: case ScalarType::UInt16: case ScalarType::UInt32: case ScalarType::UInt64:
      return kKindUnsigned;
    case ScalarType::Float32: case ScalarType::Float64: return kKindRealFloat;
    case ScalarType::Complex64: case ScalarType::Complex128: return kKindComplex;
    case ScalarType::Other: break;
  }
  return 0;
}

// How operand dtypes combine into the compute dtype.
enum class Sig : uint8_t {
  Uniform,  // all operands (arrays and Python scalars) promote together
  Where,    // (condition: bool array, x1, x2): x1 and x2 promote together
  Clip,     // (x, min, max): x's dtype rules; bounds are converted to it, None = unbounded
};

// The dtype of the result, given the compute dtype.
enum class Res : uint8_t {
  Same,  // the compute dtype
  Bool,  // bool
  Real,  // the real dtype of the same precision for complex, else the compute dtype
};

#define DLA_P1 "x, /"
#define DLA_P2 "x1, x2, /"

// X(name, arity, sig, kinds, result, functor, params, summary)
#define DLA_ELEMENTWISE_OPS(X)                                                                          \
  X(abs, 1, Uniform, kKindNumeric, Real, AbsF, DLA_P1, "Absolute value of each element.")              \
  X(acos, 1, Uniform, kKindFloat, Same, AcosF, DLA_P1, "Principal inverse cosine, in radians.")       \
  X(acosh, 1, Uniform, kKindFloat, Same, AcoshF, DLA_P1, "Inverse hyperbolic cosine.")                 \
  X(add, 2, Uniform, kKindNumeric, Same, AddF, DLA_P2, "x1 + x2.")                                     \
  X(asin, 1, Uniform, kKindFloat, Same, AsinF, DLA_P1, "Principal inverse sine, in radians.")          \
  X(asinh, 1, Uniform, kKindFloat, Same, AsinhF, DLA_P1, "Inverse hyperbolic sine.")                   \
  X(atan, 1, Uniform, kKindFloat, Same, AtanF, DLA_P1, "Principal inverse tangent, in radians.")       \
  X(atan2, 2, Uniform, kKindRealFloat, Same, Atan2F, DLA_P2, "Inverse tangent of x1/x2, quadrant-aware.") \
  X(atanh, 1, Uniform, kKindFloat, Same, AtanhF, DLA_P1, "Inverse hyperbolic tangent.")                \
  X(bitwise_and, 2, Uniform, kKindIntOrBool, Same, BitAndF, DLA_P2, "x1 & x2.")                        \
  X(bitwise_left_shift, 2, Uniform, kKindInt, Same, ShiftLeftF, DLA_P2,                                 \
    "x1 << x2 (0 when x2 is negative or at least the bit width).")                                      \
  X(bitwise_invert, 1, Uniform, kKindIntOrBool, Same, BitInvertF, DLA_P1, "~x.")                       \
  X(bitwise_or, 2, Uniform, kKindIntOrBool, Same, BitOrF, DLA_P2, "x1 | x2.")                          \
  X(bitwise_right_shift, 2, Uniform, kKindInt, Same, ShiftRightF, DLA_P2,                               \
    "x1 >> x2, arithmetic for signed integers.")                                                        \
  X(bitwise_xor, 2, Uniform, kKindIntOrBool, Same, BitXorF, DLA_P2, "x1 ^ x2.")                        \
  X(ceil, 1, Uniform, kKindReal, Same, CeilF, DLA_P1, "Smallest integer-valued number >= x.")          \
  X(clip, 3, Clip, kKindReal, Same, ClipF, "x, /, min=None, max=None",                                  \
    "Clamp each element to [min, max]; NaN in any operand gives NaN.")                                  \
  X(conj, 1, Uniform, kKindNumeric, Same, ConjF, DLA_P1, "Complex conjugate (real input is returned unchanged).") \
  X(copysign, 2, Uniform, kKindRealFloat, Same, CopysignF, DLA_P2, "Magnitude of x1 with the sign of x2.") \
  X(cos, 1, Uniform, kKindFloat, Same, CosF, DLA_P1, "Cosine.")                                        \
  X(cosh, 1, Uniform, kKindFloat, Same, CoshF, DLA_P1, "Hyperbolic cosine.")                           \
  X(divide, 2, Uniform, kKindFloat, Same, DivideF, DLA_P2,                                              \
    "x1 / x2 (floating-point operands; convert integers with astype).")                                 \
  X(equal, 2, Uniform, kKindAny, Bool, EqualF, DLA_P2, "x1 == x2.")                                    \
  X(exp, 1, Uniform, kKindFloat, Same, ExpF, DLA_P1, "e raised to x.")                                 \
  X(expm1, 1, Uniform, kKindFloat, Same, Expm1F, DLA_P1, "exp(x) - 1, accurate near 0.")               \
  X(floor, 1, Uniform, kKindReal, Same, FloorF, DLA_P1, "Largest integer-valued number <= x.")         \
  X(floor_divide, 2, Uniform, kKindReal, Same, FloorDivideF, DLA_P2,                                    \
    "x1 // x2, rounded towards -infinity (integer division by zero gives 0).")                          \
  X(greater, 2, Uniform, kKindReal, Bool, GreaterF, DLA_P2, "x1 > x2.")                                \
  X(greater_equal, 2, Uniform, kKindReal, Bool, GreaterEqualF, DLA_P2, "x1 >= x2.")                    \
  X(hypot, 2, Uniform, kKindRealFloat, Same, HypotF, DLA_P2, "sqrt(x1**2 + x2**2) without undue overflow.") \
  X(imag, 1, Uniform, kKindComplex, Real, ImagF, DLA_P1, "Imaginary component.")                       \
  X(isfinite, 1, Uniform, kKindNumeric, Bool, IsfiniteF, DLA_P1, "Whether each element is finite.")    \
  X(isinf, 1, Uniform, kKindNumeric, Bool, IsinfF, DLA_P1, "Whether each element is infinite.")        \
  X(isnan, 1, Uniform, kKindNumeric, Bool, IsnanF, DLA_P1, "Whether each element is NaN.")             \
  X(less, 2, Uniform, kKindReal, Bool, LessF, DLA_P2, "x1 < x2.")                                      \
  X(less_equal, 2, Uniform, kKindReal, Bool, LessEqualF, DLA_P2, "x1 <= x2.")                          \
  X(log, 1, Uniform, kKindFloat, Same, LogF, DLA_P1, "Natural logarithm.")                             \
  X(log1p, 1, Uniform, kKindFloat, Same, Log1pF, DLA_P1, "log(1 + x), accurate near 0.")               \
  X(log2, 1, Uniform, kKindFloat, Same, Log2F, DLA_P1, "Base-2 logarithm.")                            \
  X(log10, 1, Uniform, kKindFloat, Same, Log10F, DLA_P1, "Base-10 logarithm.")                         \
  X(logaddexp, 2, Uniform, kKindRealFloat, Same, LogaddexpF, DLA_P2, "log(exp(x1) + exp(x2)) without overflow.") \
  X(logical_and, 2, Uniform, kKindBool, Bool, LogicalAndF, DLA_P2, "Logical AND.")                     \
  X(logical_not, 1, Uniform, kKindBool, Bool, LogicalNotF, DLA_P1, "Logical NOT.")                     \
  X(logical_or, 2, Uniform, kKindBool, Bool, LogicalOrF, DLA_P2, "Logical OR.")                        \
  X(logical_xor, 2, Uniform, kKindBool, Bool, LogicalXorF, DLA_P2, "Logical XOR.")                     \
  X(maximum, 2, Uniform, kKindReal, Same, MaximumF, DLA_P2, "Elementwise maximum; NaN propagates.")    \
  X(minimum, 2, Uniform, kKindReal, Same, MinimumF, DLA_P2, "Elementwise minimum; NaN propagates.")    \
  X(multiply, 2, Uniform, kKindNumeric, Same, MultiplyF, DLA_P2, "x1 * x2.")                           \
  X(negative, 1, Uniform, kKindNumeric, Same, NegativeF, DLA_P1, "-x.")                                \
  X(nextafter, 2, Uniform, kKindRealFloat, Same, NextafterF, DLA_P2,                                    \
    "Next representable value after x1 in the direction of x2.")                                        \
  X(not_equal, 2, Uniform, kKindAny, Bool, NotEqualF, DLA_P2, "x1 != x2.")                             \
  X(positive, 1, Uniform, kKindNumeric, Same, PositiveF, DLA_P1, "+x.")                                \
  X(pow, 2, Uniform, kKindNumeric, Same, PowF, DLA_P2,                                                  \
    "x1 ** x2 (integers: negative exponents give the truncated quotient).")                            \
  X(real, 1, Uniform, kKindNumeric, Real, RealF, DLA_P1, "Real component.")                            \
  X(reciprocal, 1, Uniform, kKindFloat, Same, ReciprocalF, DLA_P1, "1 / x.")                           \
  X(remainder, 2, Uniform, kKindReal, Same, RemainderF, DLA_P2,                                         \
    "x1 % x2 with the sign of x2, as Python's % (integer division by zero gives 0).")                  \
  X(round, 1, Uniform, kKindNumeric, Same, RoundF, DLA_P1, "Round to the nearest integer, ties to even.") \
  X(sign, 1, Uniform, kKindNumeric, Same, SignF, DLA_P1, "Sign: -1, 0 or +1 (x / abs(x) for complex).")    \
  X(signbit, 1, Uniform, kKindRealFloat, Bool, SignbitF, DLA_P1, "Whether the sign bit is set.")       \
  X(sin, 1, Uniform, kKindFloat, Same, SinF, DLA_P1, "Sine.")                                          \
  X(sinh, 1, Uniform, kKindFloat, Same, SinhF, DLA_P1, "Hyperbolic sine.")                             \
  X(square, 1, Uniform, kKindNumeric, Same, SquareF, DLA_P1, "x * x.")                                 \
  X(sqrt, 1, Uniform, kKindFloat, Same, SqrtF, DLA_P1, "Correctly rounded square root.")               \
  X(subtract, 2, Uniform, kKindNumeric, Same, SubtractF, DLA_P2, "x1 - x2.")                           \
  X(tan, 1, Uniform, kKindFloat, Same, TanF, DLA_P1, "Tangent.")                                       \
  X(tanh, 1, Uniform, kKindFloat, Same, TanhF, DLA_P1, "Hyperbolic tangent.")                          \
  X(trunc, 1, Uniform, kKindReal, Same, TruncF, DLA_P1, "Round towards zero.")                         \
  X(where, 3, Where, kKindAny, Same, WhereF, "condition, x1, x2, /",                                     \
    "Elements of x1 where condition is True, else of x2.")

enum class OpId : uint8_t {
#define DLA_OP_ENUM(name, ...) name,
  DLA_ELEMENTWISE_OPS(DLA_OP_ENUM)
#undef DLA_OP_ENUM
};

struct OpInfo {
  const char* name;
  int arity;
  Sig sig;
  uint8_t kinds;
  Res result;
  const char* params;   // the stub's parameter list, for the text signature
  const char* summary;  // first docstring line
};

constexpr OpInfo kOps[] = {
#define DLA_OP_INFO(name, arity, sig, kinds, res, functor, params, summary) \
  {#name, arity, Sig::sig, kinds, Res::res, params, summary},
    DLA_ELEMENTWISE_OPS(DLA_OP_INFO)
#undef DLA_OP_INFO
};
constexpr int kNumOps = sizeof(kOps) / sizeof(kOps[0]);

constexpr const OpInfo& op_info(OpId op) { return kOps[static_cast<int>(op)]; }

// The result dtype of `op` for a compute dtype it accepts.
constexpr ScalarType op_result_type(OpId op, ScalarType compute) {
  switch (op_info(op).result) {
    case Res::Same: return compute;
    case Res::Bool: return ScalarType::Bool;
    case Res::Real:
      if (compute == ScalarType::Complex64) return ScalarType::Float32;
      if (compute == ScalarType::Complex128) return ScalarType::Float64;
      return compute;
  }
  return compute;
}

// "numeric", "real-valued floating-point", ... for error messages.
const char* kinds_description(uint8_t kinds);

}  // namespace dla
