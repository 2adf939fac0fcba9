// py_utility.cpp — all() and any() (the utility chapter's boolean reductions).
#include <pybind11/pybind11.h>

#include <string>

#include "bindings/bindings.h"
#include "bindings/py_array.h"
#include "core/errors.h"
#include "core/logical_reduce.h"

namespace dla::py {
namespace {

// None -> every axis; an int or a tuple of ints -> normalized, checked, distinct axes.
Dims parse_axes(pyb::handle axis, int ndim, const char* fname) {
  Dims axes;
  if (axis.is_none()) {
    for (int d = 0; d < ndim; ++d) axes.push_back(d);
    return axes;
  }
  auto add = [&](pyb::handle h) {
    if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr()))
      throw TypeError(std::string(fname) + ": axis must be an int, a tuple of ints or None");
    int64_t a = h.cast<int64_t>();
    if (a < -ndim || a >= ndim)
      throw IndexError(std::string(fname) + ": axis " + std::to_string(a) + " is out of bounds for an array of " +
                       std::to_string(ndim) + " dimensions");
    if (a < 0) a += ndim;
    for (int64_t b : axes)
      if (b == a) throw ValueError(std::string(fname) + ": repeated axis " + std::to_string(a));
    axes.push_back(a);
  };
  if (PyTuple_Check(axis.ptr())) {
    for (pyb::handle h : axis) add(h);
  } else {
    add(axis);
  }
  return axes;
}

pyb::object reduce(pyb::handle x, pyb::handle axis, pyb::handle keepdims, bool is_all) {
  const char* fname = is_all ? "all" : "any";
  const Array& a = unwrap(x, is_all ? "all: x" : "any: x");
  if (!PyBool_Check(keepdims.ptr())) throw TypeError(std::string(fname) + ": keepdims must be a bool");
  return wrap(logical_reduce(a, parse_axes(axis, a.ndim(), fname), keepdims.ptr() == Py_True, is_all));
}

}  // namespace

void bind_utility(pyb::module_& m) {
  using pyb::arg;
  m.def("all", [](pyb::handle x, pyb::handle axis, pyb::handle kd) { return reduce(x, axis, kd, true); },
        arg("x"), pyb::pos_only(), pyb::kw_only(), arg("axis") = pyb::none(), arg("keepdims") = false,
        "all(x, /, *, axis=None, keepdims=False)\n--\n\nWhether every element along the axes is true (nonzero).");
  m.def("any", [](pyb::handle x, pyb::handle axis, pyb::handle kd) { return reduce(x, axis, kd, false); },
        arg("x"), pyb::pos_only(), pyb::kw_only(), arg("axis") = pyb::none(), arg("keepdims") = false,
        "any(x, /, *, axis=None, keepdims=False)\n--\n\nWhether any element along the axes is true (nonzero).");
}

}  // namespace dla::py
