// py_errors.h — turning C++ exceptions into Python exceptions, for pybind11 and raw C entry points.
//
// pybind11-bound functions get this through the translator registered in module.cpp; the
// raw CPython functions (from_dlpack, __dlpack__, the exchange table) call
// set_python_error_from_current() inside their catch(...) so that no C++ exception ever
// crosses the C boundary.
#pragma once
#include <Python.h>

namespace dla::py {

// dlarray.CopyError: raised when copy=False forbids a needed copy. It subclasses both
// BufferError and ValueError because the standard names each in different places.
PyObject* copy_error_type();
void init_copy_error(PyObject* module);

// dlarray.linalg.LinAlgError (a ValueError, as NumPy's): a failed factorization.
void init_linalg_error(PyObject* module);

// Sets the Python error for the exception being handled (call inside catch(...)).
void set_python_error_from_current() noexcept;

}  // namespace dla::py
