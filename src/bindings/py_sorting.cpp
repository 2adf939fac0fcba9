// py_sorting.cpp — sort and argsort (the sorting chapter), with the signatures of
// DLA_SEARCH_SORT_OPS.
#include <pybind11/pybind11.h>

#include "bindings/bindings.h"
#include "bindings/py_args.h"
#include "bindings/py_search_sort.h"

namespace dla::py {
namespace {

pyb::object call_sort(SearchSortOpId op, pyb::handle x_h, pyb::handle axis, pyb::handle descending_h,
                      pyb::handle stable_h) {
  const char* fname = search_sort_op_info(op).name;
  const Array& x = unwrap(x_h, op == SearchSortOpId::sort ? "sort: x" : "argsort: x");
  const int64_t a = int_arg(axis.ptr(), fname, "axis");
  const bool descending = bool_arg(descending_h.ptr(), fname, "descending");
  const bool stable = bool_arg(stable_h.ptr(), fname, "stable");
  return wrap(without_gil_from(x.size(), [&] { return sort_along(op, x, a, descending, stable); }));
}

}  // namespace

void bind_sorting(pyb::module_& m) {
  using pyb::arg;
  for (SearchSortOpId op : {SearchSortOpId::argsort, SearchSortOpId::sort})
    m.def(search_sort_op_info(op).name,
          [op](pyb::handle x, pyb::handle axis, pyb::handle descending, pyb::handle stable) {
            return call_sort(op, x, axis, descending, stable);
          },
          arg("x"), pyb::pos_only(), pyb::kw_only(), arg("axis") = -1, arg("descending") = false,
          arg("stable") = true, search_sort_doc(op));
}

}  // namespace dla::py
