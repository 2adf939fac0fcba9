// py_searching.cpp — argmax, argmin, count_nonzero, nonzero, searchsorted (the searching
// chapter; `where` is elementwise), with the signatures of DLA_SEARCH_SORT_OPS, plus
// _search_sort_ops() (the declaration table of all three chapters, for the tests).
#include <pybind11/pybind11.h>

#include <string>

#include "bindings/bindings.h"
#include "bindings/py_args.h"
#include "bindings/py_search_sort.h"

namespace dla::py {
namespace {

pyb::object call_arg_extreme(SearchSortOpId op, pyb::handle x_h, pyb::handle axis, pyb::handle keepdims_h) {
  const char* fname = search_sort_op_info(op).name;
  const Array& x = unwrap(x_h, op == SearchSortOpId::argmax ? "argmax: x" : "argmin: x");
  const bool has_axis = !axis.is_none();
  const int64_t a = has_axis ? int_arg(axis.ptr(), fname, "axis") : 0;
  const bool keepdims = bool_arg(keepdims_h.ptr(), fname, "keepdims");
  return wrap(without_gil_from(x.size(), [&] { return arg_extreme(op, x, has_axis, a, keepdims); }));
}

pyb::object call_count_nonzero(pyb::handle x_h, pyb::handle axis, pyb::handle keepdims_h) {
  const Array& x = unwrap(x_h, "count_nonzero: x");
  const Dims axes = reduction_axes_arg(axis.ptr(), x.ndim(), "count_nonzero");
  const bool keepdims = bool_arg(keepdims_h.ptr(), "count_nonzero", "keepdims");
  return wrap(without_gil_from(x.size(), [&] { return count_nonzero(x, axes, keepdims); }));
}

pyb::tuple call_nonzero(pyb::handle x_h) {
  const Array& x = unwrap(x_h, "nonzero: x");
  const std::vector<Array> parts = without_gil_from(x.size(), [&] { return nonzero(x); });
  pyb::tuple out(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) out[i] = wrap(parts[i]);
  return out;
}

pyb::object call_searchsorted(pyb::handle x1_h, pyb::handle x2_h, pyb::handle side, pyb::handle sorter_h) {
  const Array& x1 = unwrap(x1_h, "searchsorted: x1");
  const Array x2 = array_or_scalar(x2_h, &x1, "searchsorted", "x2");
  if (!PyUnicode_Check(side.ptr()))
    throw TypeError(std::string("searchsorted: side must be 'left' or 'right', got ") + py_type_name(side.ptr()));
  const std::string s = pyb::cast<std::string>(side);
  if (s != "left" && s != "right") throw ValueError("searchsorted: side must be 'left' or 'right', got '" + s + "'");
  const Array* sorter = sorter_h.is_none() ? nullptr : &unwrap(sorter_h, "searchsorted: sorter");
  return wrap(without_gil_from(x2.size() + x1.size(),
                               [&] { return searchsorted(x1, x2, s == "right", sorter); }));
}

const char* chapter_name(SearchChapter c) {
  switch (c) {
    case SearchChapter::Searching: return "searching";
    case SearchChapter::Sorting: return "sorting";
    case SearchChapter::Sets: return "sets";
    case SearchChapter::Selection: return "selection";
  }
  return "?";
}

}  // namespace

void bind_searching(pyb::module_& m) {
  using pyb::arg;
  for (SearchSortOpId op : {SearchSortOpId::argmax, SearchSortOpId::argmin})
    m.def(search_sort_op_info(op).name,
          [op](pyb::handle x, pyb::handle axis, pyb::handle keepdims) { return call_arg_extreme(op, x, axis, keepdims); },
          arg("x"), pyb::pos_only(), pyb::kw_only(), arg("axis") = pyb::none(), arg("keepdims") = false,
          search_sort_doc(op));
  m.def("count_nonzero", &call_count_nonzero, arg("x"), pyb::pos_only(), pyb::kw_only(), arg("axis") = pyb::none(),
        arg("keepdims") = false, search_sort_doc(SearchSortOpId::count_nonzero));
  m.def("nonzero", &call_nonzero, arg("x"), pyb::pos_only(), search_sort_doc(SearchSortOpId::nonzero));
  m.def("searchsorted", &call_searchsorted, arg("x1"), arg("x2"), pyb::pos_only(), pyb::kw_only(),
        arg("side") = "left", arg("sorter") = pyb::none(), search_sort_doc(SearchSortOpId::searchsorted));
  m.def(
      "_search_sort_ops",
      []() {
        pyb::list out;
        for (int i = 0; i < int(SearchSortOpId::kCount); ++i) {
          const SearchSortOpInfo& info = search_sort_op_info(SearchSortOpId(i));
          pyb::dict d;
          d["name"] = info.name;
          d["chapter"] = chapter_name(info.chapter);
          d["kinds"] = int(info.kinds);
          d["params"] = info.params;
          d["summary"] = info.summary;
          out.append(d);
        }
        return out;
      },
      "_search_sort_ops()\n--\n\nThe searching, sorting and set functions' declaration table (for the tests).");
}

}  // namespace dla::py
