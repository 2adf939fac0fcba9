// py_sets.cpp — isin and unique_all / unique_counts / unique_inverse / unique_values (the set
// chapter), with the signatures of DLA_SEARCH_SORT_OPS. The unique functions return named
// tuples with the standard's field names (UniqueAllResult, UniqueCountsResult,
// UniqueInverseResult, made with collections.namedtuple and exported from dlarray._core).
#include <pybind11/pybind11.h>

#include "bindings/bindings.h"
#include "bindings/py_args.h"
#include "bindings/py_search_sort.h"

namespace dla::py {
namespace {

// The result types live as long as the interpreter (never destroyed: module teardown order).
pyb::handle g_all_result, g_counts_result, g_inverse_result;

pyb::object call_isin(pyb::handle x1_h, pyb::handle x2_h, pyb::handle invert_h) {
  Array* a1 = try_unwrap(x1_h.ptr());
  Array* a2 = try_unwrap(x2_h.ptr());
  if (!a1 && !a2) throw TypeError(std::string("isin: at least one of x1 and x2 must be an array, got ") +
                                  py_type_name(x1_h.ptr()) + " and " + py_type_name(x2_h.ptr()));
  const Array x1 = a1 ? *a1 : array_or_scalar(x1_h, a2, "isin", "x1");
  const Array x2 = a2 ? *a2 : array_or_scalar(x2_h, a1, "isin", "x2");
  const bool invert = bool_arg(invert_h.ptr(), "isin", "invert");
  return wrap(without_gil_from(x1.size() + x2.size(), [&] { return isin(x1, x2, invert); }));
}

pyb::object call_unique(SearchSortOpId op, pyb::handle x_h) {
  const SearchSortOpInfo& info = search_sort_op_info(op);
  const std::string what = std::string(info.name) + ": x";
  const Array& x = unwrap(x_h, what.c_str());
  UniqueParts r = without_gil_from(x.size(), [&] { return unique(op, x); });
  switch (op) {
    case SearchSortOpId::unique_all:
      return g_all_result(wrap(r.values), wrap(r.indices), wrap(r.inverse), wrap(r.counts));
    case SearchSortOpId::unique_counts: return g_counts_result(wrap(r.values), wrap(r.counts));
    case SearchSortOpId::unique_inverse: return g_inverse_result(wrap(r.values), wrap(r.inverse));
    default: return wrap(r.values);
  }
}

pyb::handle named_tuple(pyb::module_& m, const char* name, const char* fields) {
  pyb::object t = pyb::module_::import("collections").attr("namedtuple")(name, fields);
  t.attr("__module__") = "dlarray";
  m.attr(name) = t;
  return t.release();
}

}  // namespace

void bind_sets(pyb::module_& m) {
  using pyb::arg;
  g_all_result = named_tuple(m, "UniqueAllResult", "values indices inverse_indices counts");
  g_counts_result = named_tuple(m, "UniqueCountsResult", "values counts");
  g_inverse_result = named_tuple(m, "UniqueInverseResult", "values inverse_indices");
  m.def("isin", &call_isin, arg("x1"), arg("x2"), pyb::pos_only(), pyb::kw_only(), arg("invert") = false,
        search_sort_doc(SearchSortOpId::isin));
  for (SearchSortOpId op : {SearchSortOpId::unique_all, SearchSortOpId::unique_counts, SearchSortOpId::unique_inverse,
                            SearchSortOpId::unique_values})
    m.def(search_sort_op_info(op).name, [op](pyb::handle x) { return call_unique(op, x); }, arg("x"), pyb::pos_only(),
          search_sort_doc(op));
}

}  // namespace dla::py
