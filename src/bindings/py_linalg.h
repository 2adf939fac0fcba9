// py_linalg.h — matmul from Python objects, shared by the namespace function and the `@`
// operators of dlarray.Array (py_operators.cpp).
#pragma once
#include <Python.h>

#include "core/array.h"

namespace dla::py {

// x1 @ x2 as a new Array, with the GIL released for large products. Throws like dla::matmul.
Array run_matmul(const Array& x1, const Array& x2);

}  // namespace dla::py
