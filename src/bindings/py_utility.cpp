// py_utility.cpp — all() and any() (the utility chapter's boolean reductions).
#include <pybind11/pybind11.h>

#include <string>

#include "bindings/bindings.h"
#include "bindings/py_args.h"
#include "bindings/py_array.h"
#include "core/errors.h"
#include "core/logical_reduce.h"

namespace dla::py {
namespace {

pyb::object reduce(pyb::handle x, pyb::handle axis, pyb::handle keepdims, bool is_all) {
  const char* fname = is_all ? "all" : "any";
  const Array& a = unwrap(x, is_all ? "all: x" : "any: x");
  const bool kd = bool_arg(keepdims.ptr(), fname, "keepdims");
  return wrap(logical_reduce(a, reduction_axes_arg(axis.ptr(), a.ndim(), fname), kd, is_all));
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
