// elementwise.h — running an elementwise operation: dtypes, broadcasting, output, kernel.
//
// A call goes in two steps so that the bindings can drop the GIL in between:
//   plan_elementwise  resolves the compute and result dtypes (promotion table, Python
//                     scalar rules, the op's dtype kinds), the broadcast shape, the output
//                     (fresh, in the inputs' memory order, or the in-place left operand)
//                     and which inputs must first be converted to the compute dtype;
//   execute_elementwise converts those inputs and runs the device's kernel.
// Python scalars never become arrays: they travel as one element in the plan (stride 0).
#pragma once
#include <cstdint>

#include "core/array.h"
#include "core/elementwise_ops.h"
#include "core/half.h"
#include "core/promotion.h"
#include "core/scalar.h"

namespace dla {

// One operand as the caller holds it: an array, a scalar, or (clip's bounds) nothing. A
// scalar is weak (a Python number: promotion.h's scalar rules) unless `typed` (a NumPy scalar
// such as np.float32(2), which promotes as a 0-d array of `dtype` would, as in NumPy 2).
struct ElemArg {
  enum class Tag : uint8_t { Array, Scalar, None } tag = Tag::None;
  const Array* array = nullptr;
  Scalar scalar;
  PyScalarKind kind = PyScalarKind::Int;
  bool typed = false;
  DType dtype;  // a typed scalar's dtype

  static ElemArg of(const Array& a) {
    ElemArg e;
    e.tag = Tag::Array;
    e.array = &a;
    return e;
  }
  static ElemArg of(const Scalar& s, PyScalarKind k) {
    ElemArg e;
    e.tag = Tag::Scalar;
    e.scalar = s;
    e.kind = k;
    return e;
  }
};

struct ElementwisePlan {
  OpId op{};
  ScalarType compute = ScalarType::Other;  // the kernel's input dtype
  ScalarType result = ScalarType::Other;   // the kernel's output dtype
  // float16 / bfloat16 operations (beyond the standard): the kernel is the float32 one
  // (compute == Float32); the operands marked `half` and, when result is Float32, the
  // output are stored in this type, and the executor converts them block by block
  // (float32 registers, one rounding at the end).
  Half half = Half::None;
  bool half_output() const { return half != Half::None && result == ScalarType::Float32; }
  Array out;
  // An in-place operation whose result dtype is not the left operand's (x_float32 *= 0.5 with a
  // float64 operand): `out` is a fresh array, converted into `write_back` after the kernel.
  Array write_back;
  bool has_write_back = false;
  int nin = 0;
  struct Input {
    // When !is_scalar: the operand, broadcastable to out's shape. The caller's array is
    // referenced, not copied (the plan lives within the call); a converted or copied
    // operand is held in `owned`.
    const Array* given = nullptr;
    Array owned;
    bool use_owned = false;
    bool is_scalar = false;
    bool needs_cast = false;               // the array's dtype differs from the kernel's
    bool half = false;                     // stored as plan.half: converted block by block
    ScalarType dtype = ScalarType::Other;  // the kernel's dtype for this input
    alignas(16) unsigned char value[16];   // is_scalar: the element, already converted
    const Array& array() const { return use_owned ? owned : *given; }
    void hold(Array a) {
      owned = std::move(a);
      use_owned = true;
    }
  } in[3];
  int64_t numel = 0;  // out.size(), computed once
  int64_t size() const { return numel; }
};

// A plan's operands (the output first, then each input) as byte strides over the output's
// shape, the axes put in the output's memory order (largest stride outermost), so that a
// Fortran-ordered or transposed output, and inputs laid out like it, coalesce into
// contiguous rows. Broadcast axes and Python scalars have stride 0; a scalar's base is its
// value in the plan. Every device's executor starts from this.
struct ElementwiseOperands {
  int count = 0;  // 1 + plan.nin
  Dims shape;
  int64_t strides[4][kMaxRank];
  char* base[4] = {};
};
void elementwise_operands(ElementwisePlan& plan, ElementwiseOperands* out);

// Throws TypeError / ValueError / OverflowError as the standard names them. `inplace` is
// the left operand of an in-place operator: it becomes the output and must keep its dtype
// and shape.
ElementwisePlan plan_elementwise(OpId op, const ElemArg* args, int nargs, const Array* inplace = nullptr);
void execute_elementwise(ElementwisePlan& plan);

// Convenience for C++ callers (no GIL concerns).
Array elementwise(OpId op, const Array& a);
Array elementwise(OpId op, const Array& a, const Array& b);

// Per-device execution. The CPU backend registers itself; other devices raise
// NotImplementedError until their backend registers an executor.
using ElementwiseExecutor = void (*)(ElementwisePlan& plan);

}  // namespace dla
