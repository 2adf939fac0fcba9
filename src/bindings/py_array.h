// py_array.h — the bridge between dla::Array and the Python type `dlarray.Array`.
//
// wrap() makes a Python object owning an Array; unwrap() finds the Array inside one with
// an exact type check first (the hot path of every operator) and a subclass check after.
#pragma once
#include <pybind11/pybind11.h>

#include "core/array.h"

namespace dla::py {
namespace pyb = pybind11;

// The registered Python type object; valid after bind_array().
PyTypeObject* array_type();
// A new Python Array object owning `a` (moved in; a const& is copied first). Two overloads
// rather than one by-value parameter: a result is moved once, into its object, not twice.
pyb::object wrap(Array&& a);
pyb::object wrap(const Array& a);
// The Array inside `h`, or nullptr when `h` is not a dlarray.Array.
Array* try_unwrap(PyObject* h);
// As try_unwrap, raising TypeError naming `what` when h is not an Array.
Array& unwrap(pyb::handle h, const char* what = "argument");

}  // namespace dla::py
