// py_args.cpp — see py_args.h.
#include "bindings/py_args.h"

#include <pybind11/pybind11.h>

#include <string>

#include "bindings/py_array.h"
#include "core/errors.h"

namespace dla::py {
namespace {

std::string type_name(PyObject* o) { return Py_TYPE(o)->tp_name; }


// The int64 value of an int or __index__ object; *overflow set to +-1 when it does not fit.
int64_t index_value(PyObject* o, const char* fname, const char* what, int* overflow) {
  if (PyBool_Check(o) || !PyIndex_Check(o))
    throw TypeError(std::string(fname) + ": " + what + " must be an integer, got " + type_name(o));
  PyObject* i = PyNumber_Index(o);
  if (!i) throw pybind11::error_already_set();
  *overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(i, overflow);
  Py_DECREF(i);
  return v;
}
// The items of a tuple or list, as a tuple: an item's __index__ may run Python code that
// changes a list under a loop over its items.
pybind11::tuple items_of(PyObject* o) {
  PyObject* t = PyList_Check(o) ? PyList_AsTuple(o) : (Py_INCREF(o), o);
  if (!t) throw pybind11::error_already_set();
  return pybind11::reinterpret_steal<pybind11::tuple>(t);
}
}  // namespace

int64_t int_arg(PyObject* o, const char* fname, const char* what) {
  int overflow;
  const int64_t v = index_value(o, fname, what, &overflow);
  if (overflow) throw OverflowError(std::string(fname) + ": " + what + " does not fit in 64 bits");
  return v;
}

int64_t saturating_int_arg(PyObject* o, const char* fname, const char* what) {
  int overflow;
  const int64_t v = index_value(o, fname, what, &overflow);
  if (overflow) return overflow > 0 ? INT64_MAX : INT64_MIN;
  return v;
}

std::vector<int64_t> ints_arg(PyObject* o, const char* fname, const char* what, bool allow_sequence) {
  std::vector<int64_t> out;
  if (allow_sequence && (PyTuple_Check(o) || PyList_Check(o))) {
    for (pybind11::handle item : items_of(o)) out.push_back(int_arg(item.ptr(), fname, what));
    return out;
  }
  if (PyBool_Check(o) || !PyIndex_Check(o))
    throw TypeError(std::string(fname) + ": " + what + " must be an integer" +
                    (allow_sequence ? " or a tuple of integers" : "") + ", got " + type_name(o));
  out.push_back(int_arg(o, fname, what));
  return out;
}

int64_t dim_arg(PyObject* o, const char* fname, const char* what) {
  int overflow;
  const int64_t v = index_value(o, fname, what, &overflow);
  if (overflow > 0)
    throw ValueError(std::string("array is too big; ") + fname + ": " + what + " " + pybind11::str(o).cast<std::string>() +
                     " is more than 2**63 - 1");
  if (overflow < 0)
    throw ValueError(std::string("negative dimensions are not allowed: ") + fname + ": " + what + " " +
                     pybind11::str(o).cast<std::string>());
  return v;
}

std::vector<int64_t> dims_arg(PyObject* o, const char* fname, const char* what) {
  std::vector<int64_t> out;
  if (PyTuple_Check(o) || PyList_Check(o)) {
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    if (n > kMaxRank)
      throw ValueError(std::string(fname) + ": " + what + " has " + std::to_string(n) + " entries; arrays have at most " +
                       std::to_string(kMaxRank) + " dimensions");
    for (pybind11::handle item : items_of(o)) out.push_back(dim_arg(item.ptr(), fname, what));
    return out;
  }
  if (PyBool_Check(o) || !PyIndex_Check(o))
    throw TypeError(std::string(fname) + ": " + what + " must be an integer or a tuple of integers, got " + type_name(o));
  out.push_back(dim_arg(o, fname, what));
  return out;
}

bool bool_arg(PyObject* o, const char* fname, const char* what) {
  if (!PyBool_Check(o)) throw TypeError(std::string(fname) + ": " + what + " must be a bool");
  return o == Py_True;
}

Dims reduction_axes_arg(PyObject* o, int ndim, const char* fname) {
  Dims axes;
  if (o == Py_None) {
    for (int d = 0; d < ndim; ++d) axes.push_back(d);
    return axes;
  }
  if (!PyTuple_Check(o) && (PyBool_Check(o) || !PyIndex_Check(o)))
    throw TypeError(std::string(fname) + ": axis must be an int, a tuple of ints or None, got " + type_name(o));
  for (int64_t a : ints_arg(o, fname, "axis")) {
    if (a < -ndim || a >= ndim)
      throw IndexError(std::string(fname) + ": axis " + std::to_string(a) + " is out of bounds for an array of " +
                       std::to_string(ndim) + " dimensions");
    if (a < 0) a += ndim;
    for (int64_t b : axes)
      if (b == a) throw ValueError(std::string(fname) + ": repeated axis " + std::to_string(a));
    axes.push_back(a);
  }
  return axes;
}

std::vector<Array> arrays_arg(PyObject* o, const char* fname, const char* what) {
  if (!PyTuple_Check(o) && !PyList_Check(o))
    throw TypeError(std::string(fname) + ": " + what + " must be a tuple or list of arrays, got " + type_name(o));
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
  PyObject** items = PySequence_Fast_ITEMS(o);
  std::vector<Array> out;
  out.reserve(static_cast<size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    Array* a = try_unwrap(items[i]);
    if (!a)
      throw TypeError(std::string(fname) + ": " + what + "[" + std::to_string(i) + "] must be a dlarray.Array, got " +
                      type_name(items[i]));
    out.push_back(*a);
  }
  return out;
}

int copy_arg(PyObject* o, const char* fname) {
  if (o == Py_None) return -1;
  if (o == Py_True) return 1;
  if (o == Py_False) return 0;
  throw TypeError(std::string(fname) + ": copy must be True, False or None");
}

}  // namespace dla::py
