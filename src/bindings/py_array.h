// py_array.h — the bridge between dla::Array and the Python type `dlarray.Array`.
//
// wrap() makes a Python object owning an Array (wrap_view, one viewing another object's);
// unwrap() finds the Array inside one with an exact type check first (the hot path of every
// operator) and a subclass check after.
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
// A view of the array in `owner_obj` (`owner` is that array), built in place in the new
// object: its storage is borrowed, not counted, and the new object keeps the object that
// holds the counted reference alive instead (as NumPy's views keep their base). For views
// made straight from a Python array: x[i], x[1:3], x.T.
pyb::object wrap_view(PyObject* owner_obj, const Array& owner, int64_t byte_offset, DimsView shape,
                      DimsView strides);
// The Array inside `h`, or nullptr when `h` is not a dlarray.Array. Inline for the exact
// type (every array attribute's and operator's first step: one comparison and one load,
// with no call frame around them); subclasses and odd layouts go to try_unwrap_other.
Array* try_unwrap_other(PyObject* h);
extern PyTypeObject* g_simple_array_type;  // dlarray.Array once bind_array has checked its layout
inline Array* try_unwrap(PyObject* h) {
  if (Py_TYPE(h) == g_simple_array_type)
    return static_cast<Array*>(reinterpret_cast<pyb::detail::instance*>(h)->simple_value_holder[0]);
  return try_unwrap_other(h);
}
// As try_unwrap, raising TypeError naming `what` when h is not an Array.
Array& unwrap(pyb::handle h, const char* what = "argument");

}  // namespace dla::py
