// py_linalg.cpp — the C++ entries of linalg_ops.h as Python functions: `matmul` in the
// namespace, the LAPACK forms and the diagonal view in `_core` under `_linalg_<name>` (wrapped
// by python/dlarray/linalg.py, which adds named tuples and the composed functions), and
// _linalg_ops() (the declaration table, for the tests and linalg.py).
#include "bindings/py_linalg.h"

#include <pybind11/pybind11.h>

#include <string>

#include "bindings/bindings.h"
#include "bindings/py_args.h"
#include "bindings/py_array.h"
#include "bindings/py_elementwise.h"
#include "core/linalg.h"

namespace dla::py {
namespace {

const char* space_name(LinalgSpace s) {
  switch (s) {
    case LinalgSpace::Main: return "main";
    case LinalgSpace::Extension: return "linalg";
    case LinalgSpace::Both: return "both";
  }
  return "?";
}
const char* form_name(LinalgForm f) {
  switch (f) {
    case LinalgForm::Blas: return "blas";
    case LinalgForm::Lapack: return "lapack";
    case LinalgForm::View: return "view";
    case LinalgForm::Composed: return "composed";
  }
  return "?";
}
const char* out_name(LinalgOut o) {
  switch (o) {
    case LinalgOut::Promoted: return "promoted";
    case LinalgOut::Same: return "same";
    case LinalgOut::Float: return "float";
    case LinalgOut::RealFloat: return "real float";
    case LinalgOut::ComplexFloat: return "complex float";
    case LinalgOut::Mixed: return "mixed";
    case LinalgOut::Index: return "index";
    case LinalgOut::Accumulate: return "accumulate";
  }
  return "?";
}

// The stub signature and summary of a row, as a docstring CPython turns into __text_signature__.
const char* doc_of(LinalgOpId id, const char* python_name) {
  static std::string docs[int(LinalgOpId::kCount)];
  const LinalgOpInfo& info = linalg_op_info(id);
  std::string& d = docs[int(id)];
  if (d.empty()) d = std::string(python_name) + "(" + info.params + ")\n--\n\n" + info.summary;
  return d.c_str();
}

}  // namespace

Array run_matmul(const Array& x1, const Array& x2) {
  const int64_t n = x2.ndim() >= 2 ? x2.shape(x2.ndim() - 1) : 1;
  if (x1.size() * n >= kReleaseGilFrom) {
    pyb::gil_scoped_release nogil;
    return matmul(x1, x2);
  }
  return matmul(x1, x2);
}

void bind_linalg(pyb::module_& m) {
  using pyb::arg;
  m.def(
      "matmul",
      [](pyb::handle x1, pyb::handle x2) { return wrap(run_matmul(unwrap(x1, "matmul: x1"), unwrap(x2, "matmul: x2"))); },
      arg("x1"), arg("x2"), pyb::pos_only(), doc_of(LinalgOpId::matmul, "matmul"));
  m.def(
      "_linalg_diagonal",
      [](pyb::handle x, pyb::handle offset) {
        return wrap(diagonal(unwrap(x, "diagonal: x"), int_arg(offset.ptr(), "diagonal", "offset")));
      },
      arg("x"), pyb::pos_only(), pyb::kw_only(), arg("offset") = 0, doc_of(LinalgOpId::diagonal, "diagonal"));
  m.def(
      "_linalg_ops",
      []() {
        pyb::list out;
        for (int i = 0; i < int(LinalgOpId::kCount); ++i) {
          const LinalgOpInfo& info = linalg_op_info(LinalgOpId(i));
          pyb::dict d;
          d["name"] = info.name;
          d["space"] = space_name(info.space);
          d["form"] = form_name(info.form);
          d["kinds"] = int(info.kinds);
          d["out"] = out_name(info.out);
          d["routines"] = info.routines;
          d["params"] = info.params;
          d["summary"] = info.summary;
          out.append(d);
        }
        return out;
      },
      "_linalg_ops()\n--\n\nThe linear algebra declaration table (for the tests and dlarray.linalg).");
}

}  // namespace dla::py
