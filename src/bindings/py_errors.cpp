// py_errors.cpp — C++ exception -> Python exception mapping.
#include "bindings/py_errors.h"

#include <pybind11/pybind11.h>

#include <exception>
#include <new>
#include <stdexcept>

#include "core/errors.h"
#include "core/linalg.h"
#include "dlpack/copy_error.h"

namespace dla::py {
namespace {
PyObject* g_copy_error = nullptr;
PyObject* g_linalg_error = nullptr;
}

PyObject* copy_error_type() { return g_copy_error; }

void init_copy_error(PyObject* module) {
  PyObject* bases = PyTuple_Pack(2, PyExc_BufferError, PyExc_ValueError);
  g_copy_error = PyErr_NewExceptionWithDoc(
      "dlarray.CopyError",
      "A copy was needed but copy=False forbids it. Subclasses BufferError and ValueError, "
      "the two exceptions the array API standard names for this case.",
      bases, nullptr);
  Py_DECREF(bases);
  if (g_copy_error) PyModule_AddObjectRef(module, "CopyError", g_copy_error);
}

void init_linalg_error(PyObject* module) {
  g_linalg_error = PyErr_NewExceptionWithDoc(
      "dlarray.linalg.LinAlgError",
      "A linear algebra routine failed: a singular matrix (inv, solve), one that is not positive "
      "definite (cholesky), or no convergence (eig, eigh, svd). A ValueError, as NumPy's.",
      PyExc_ValueError, nullptr);
  if (g_linalg_error) PyModule_AddObjectRef(module, "LinAlgError", g_linalg_error);
}

void set_python_error_from_current() noexcept {
  try {
    throw;
  } catch (pybind11::error_already_set& e) {
    e.restore();
  } catch (const pybind11::builtin_exception& e) {
    e.set_error();
  } catch (const CopyForbidden& e) {
    PyErr_SetString(g_copy_error ? g_copy_error : PyExc_BufferError, e.what());
  } catch (const BufferError& e) {
    PyErr_SetString(PyExc_BufferError, e.what());
  } catch (const LinAlgError& e) {
    PyErr_SetString(g_linalg_error ? g_linalg_error : PyExc_ValueError, e.what());
  } catch (const ValueError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const TypeError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const IndexError& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const OverflowError& e) {
    PyErr_SetString(PyExc_OverflowError, e.what());
  } catch (const MemoryError& e) {
    PyErr_SetString(PyExc_MemoryError, e.what());
  } catch (const NotImplementedError& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
  } catch (const RuntimeError& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::length_error& e) {
    // A container asked for more elements than it can hold: memory, as NumPy reports it.
    PyErr_Format(PyExc_MemoryError, "%s", e.what());
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "dlarray: unknown C++ exception");
  }
}

}  // namespace dla::py
