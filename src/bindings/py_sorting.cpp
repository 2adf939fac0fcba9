// py_sorting.cpp — sort and argsort (the sorting chapter) and NumPy's partition and
// argpartition (beyond the standard), with the signatures of DLA_SEARCH_SORT_OPS.
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

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

// kth as NumPy takes it: an integer, or a sequence (tuple, list, 1-d array) of integers; never
// a bool (NumPy refuses those as positions too).
std::vector<int64_t> kth_arg(pyb::handle h, const char* fname) {
  std::vector<int64_t> out;
  PyObject* o = h.ptr();
  if (PyBool_Check(o)) throw ValueError(std::string(fname) + ": kth must be an integer, not a bool");
  if (PyIndex_Check(o)) {
    // (An array of several integers has __index__ too, which refuses: then it is a sequence.)
    PyObject* i = PyNumber_Index(o);
    if (i) {
      Py_DECREF(i);
      out.push_back(int_arg(o, fname, "kth"));
      return out;
    }
    PyErr_Clear();
  }
  PyObject* it = PyObject_GetIter(o);
  if (!it) {
    PyErr_Clear();
    throw TypeError(std::string(fname) + ": kth must be an integer or a sequence of integers, got " + py_type_name(o));
  }
  Py_DECREF(it);
  // A snapshot (tuple, list, 1-d array, any iterable): an item's __index__ cannot change it.
  const pyb::tuple items(pyb::reinterpret_borrow<pyb::object>(h));
  for (pyb::handle item : items) {
    if (PyBool_Check(item.ptr())) throw ValueError(std::string(fname) + ": kth must hold integers, not bools");
    out.push_back(int_arg(item.ptr(), fname, "kth"));
  }
  return out;
}

pyb::object call_partition(SearchSortOpId op, pyb::handle x_h, pyb::handle kth_h, pyb::handle axis) {
  const char* fname = search_sort_op_info(op).name;
  const Array& x = unwrap(x_h, op == SearchSortOpId::partition ? "partition: x" : "argpartition: x");
  const std::vector<int64_t> kth = kth_arg(kth_h, fname);
  const bool has_axis = !axis.is_none();
  const int64_t a = has_axis ? int_arg(axis.ptr(), fname, "axis") : 0;
  return wrap(without_gil_from(x.size(), [&] { return partition_along(op, x, kth, has_axis, a); }));
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
  for (SearchSortOpId op : {SearchSortOpId::argpartition, SearchSortOpId::partition})
    m.def(search_sort_op_info(op).name,
          [op](pyb::handle x, pyb::handle kth, pyb::handle axis) { return call_partition(op, x, kth, axis); },
          arg("x"), arg("kth"), pyb::pos_only(), pyb::kw_only(), arg("axis") = -1, search_sort_doc(op));
}

}  // namespace dla::py
