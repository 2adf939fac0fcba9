// py_search_sort.h — what the searching, sorting and set bindings share: docstrings made from
// the declaration table (search_sort_ops.h), running the core with the GIL released for large
// inputs, and reading an "array or Python scalar" argument.
#pragma once
#include <pybind11/pybind11.h>

#include <deque>
#include <string>

#include "bindings/py_array.h"
#include "bindings/py_elementwise.h"
#include "core/errors.h"
#include "core/search_sort.h"

namespace dla::py {
namespace pyb = pybind11;

// "name(params)\n--\n\nsummary": CPython turns the first line into __text_signature__.
inline const char* search_sort_doc(SearchSortOpId op) {
  static std::deque<std::string> docs;  // pybind11 keeps the pointer
  const SearchSortOpInfo& info = search_sort_op_info(op);
  docs.push_back(std::string(info.name) + "(" + info.params + ")\n--\n\n" + info.summary);
  return docs.back().c_str();
}

// f() with the GIL released when `size` elements make that worth it.
template <class F>
auto without_gil_from(int64_t size, F&& f) {
  if (size >= kReleaseGilFrom) {
    pyb::gil_scoped_release nogil;
    return f();
  }
  return f();
}

// An Array argument, or a Python bool/int/float/complex made a 0-d array by the scalar rules
// next to `partner`; null partner: the argument must be an array.
inline Array array_or_scalar(pyb::handle h, const Array* partner, const char* fname, const char* what) {
  ElemArg e;
  if (!elem_arg_from(h.ptr(), &e) || (e.tag == ElemArg::Tag::Scalar && !partner))
    throw TypeError(std::string(fname) + ": " + what + " must be an array" + (partner ? " or a Python scalar" : "") +
                    ", got " + py_type_name(h.ptr()));
  if (e.tag == ElemArg::Tag::Array) return *e.array;
  return scalar_as_array(e.scalar, e.kind, *partner, fname, what);
}

}  // namespace dla::py
