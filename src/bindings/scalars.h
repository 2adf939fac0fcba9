// scalars.h — Python numbers <-> dla::Scalar and single elements.
#pragma once
#include <pybind11/pybind11.h>

#include "core/dtype.h"
#include "core/scalar.h"

namespace dla::py {
namespace pyb = pybind11;

// The Python object (bool/int/float/complex) for one element of dtype d at p.
pyb::object scalar_to_python(const DType& d, const void* p);
// Whether h is a Python bool/int/float/complex (not an array, not a NumPy scalar array).
bool is_python_scalar(PyObject* h);
// Converts a Python bool/int/float/complex; throws TypeError otherwise and OverflowError
// for ints outside [-2**63, 2**64).
Scalar scalar_from_python(PyObject* h);

}  // namespace dla::py
