// scalars.h — Python numbers <-> dla::Scalar and single elements.
#pragma once
#include <pybind11/pybind11.h>

#include <cstring>
#include <type_traits>

#include "core/dtype.h"
#include "core/scalar.h"

namespace dla::py {
namespace pyb = pybind11;

// One element of C++ type T (a standard dtype's) at p as a new Python bool/int/float/complex
// (nullptr with the error set on failure). Inline, for loops over many (tolist).
template <class T>
PyObject* element_to_python(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::is_same_v<T, bool>) return Py_NewRef(v ? Py_True : Py_False);
  else if constexpr (std::is_floating_point_v<T>) return PyFloat_FromDouble(double(v));
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) return PyLong_FromLongLong(v);
  else if constexpr (std::is_integral_v<T>) return PyLong_FromUnsignedLongLong(v);
  else return PyComplex_FromDoubles(double(v.real()), double(v.imag()));
}

// The Python object (bool/int/float/complex) for one element of dtype d at p.
pyb::object scalar_to_python(const DType& d, const void* p);
// Whether h is a Python bool/int/float/complex (not an array, not a NumPy scalar array).
bool is_python_scalar(PyObject* h);
// Converts a Python bool/int/float/complex; throws TypeError otherwise and OverflowError
// for ints outside [-2**63, 2**64).
Scalar scalar_from_python(PyObject* h);

// NumPy scalars (np.float32(2), np.int64(3), np.bool_(True), ...) are typed, as NumPy 2 treats
// them (NEP 50): they promote as a 0-d array of their dtype would. Whether h is one whose dtype
// dlarray has (not np.str_, np.datetime64, np.longdouble ...); fills *dtype and *value if so.
// Looks numpy up in sys.modules only: an object cannot be a NumPy scalar before numpy is imported.
bool numpy_scalar_from(PyObject* h, DType* dtype, Scalar* value);
// numpy.generic once numpy is imported (kept for the process), else nullptr.
PyTypeObject* numpy_generic_type();
// Only the dtype (result_type, can_cast and dtype= arguments take NumPy scalars as dtypes).
bool numpy_scalar_dtype(PyObject* h, DType* dtype);

// A number argument (fill values, linspace's and arange's bounds): a Python number, a NumPy
// scalar or a 0-d array (its value, read on the host), as NumPy takes them wherever a Python
// number goes. TypeError naming `fname` and `what` for anything else, ValueError for an n-d
// array. `*dtype`, when given, is set to the value's dtype (Python numbers: their kind's
// default dtype).
Scalar number_arg(PyObject* h, const char* fname, const char* what, DType* dtype = nullptr);

}  // namespace dla::py
