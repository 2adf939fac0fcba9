// py_elementwise.h — calling an elementwise operation from Python objects.
//
// Shared by the namespace functions (py_elementwise.cpp) and the Array operators
// (py_operators.cpp): Python objects become ElemArgs without allocating (a Python scalar
// stays a scalar), the plan is made with the GIL held, and the kernel runs with the GIL
// released once the output is large enough for that to pay.
#pragma once
#include <Python.h>

#include "core/elementwise.h"

namespace dla::py {

// Output size from which the GIL is released around the kernel.
constexpr int64_t kReleaseGilFrom = 16384;

// Fills *out from an Array or a Python bool/int/float/complex; false for anything else.
// Throws OverflowError for ints beyond the uint64/int64 range.
bool elem_arg_from(PyObject* o, ElemArg* out);

// Plans and runs `op`; returns a new reference (the result, or `inplace`'s object when
// inplace_obj is given). Throws like plan_elementwise.
PyObject* run_elementwise(OpId op, const ElemArg* args, int nargs, PyObject* inplace_obj = nullptr,
                          const Array* inplace = nullptr);

// Python's own name for an operand's type, for error messages.
const char* py_type_name(PyObject* o);

}  // namespace dla::py
