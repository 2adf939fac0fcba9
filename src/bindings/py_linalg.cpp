// py_linalg.cpp — the C++ entries of linalg_ops.h as Python functions: `matmul` in the
// namespace; the LAPACK forms, the diagonal view and LinAlgError in the submodule
// `_core._linalg` (re-exported by python/dlarray/linalg.py, which adds the named tuples and the
// composed functions); and _linalg_ops(), the declaration table, for the tests.
#include "bindings/py_linalg.h"

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "bindings/bindings.h"
#include "bindings/py_args.h"
#include "bindings/py_array.h"
#include "bindings/py_elementwise.h"
#include "bindings/py_errors.h"
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

// LAPACK work grows as n^3: release the GIL from a small input size on.
constexpr int64_t kLapackReleaseGilFrom = 1024;

template <class F>
auto without_gil_if_large(const Array& x, F&& f) -> decltype(f()) {
  if (x.size() >= kLapackReleaseGilFrom) {
    pyb::gil_scoped_release nogil;
    return f();
  }
  return f();
}

pyb::tuple as_tuple(const std::vector<Array>& parts) {
  pyb::tuple t(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) t[i] = wrap(parts[i]);
  return t;
}

// The LAPACK forms of one argument x (and their options), under dlarray._core._linalg.
void bind_lapack_forms(pyb::module_& la) {
  using pyb::arg;
  la.def(
      "cholesky",
      [](pyb::handle x, pyb::handle upper) {
        const Array& a = unwrap(x, "cholesky: x");
        const bool up = bool_arg(upper.ptr(), "cholesky", "upper");
        return wrap(without_gil_if_large(a, [&] { return cholesky(a, up); }));
      },
      arg("x"), pyb::pos_only(), pyb::kw_only(), arg("upper") = false, doc_of(LinalgOpId::cholesky, "cholesky"));
  la.def(
      "inv", [](pyb::handle x) {
        const Array& a = unwrap(x, "inv: x");
        return wrap(without_gil_if_large(a, [&] { return inv(a); }));
      },
      arg("x"), pyb::pos_only(), doc_of(LinalgOpId::inv, "inv"));
  la.def(
      "det", [](pyb::handle x) {
        const Array& a = unwrap(x, "det: x");
        return wrap(without_gil_if_large(a, [&] { return det(a); }));
      },
      arg("x"), pyb::pos_only(), doc_of(LinalgOpId::det, "det"));
  la.def(
      "solve",
      [](pyb::handle x1, pyb::handle x2) {
        const Array& a = unwrap(x1, "solve: x1");
        const Array& b = unwrap(x2, "solve: x2");
        return wrap(without_gil_if_large(a, [&] { return solve(a, b); }));
      },
      arg("x1"), arg("x2"), pyb::pos_only(), doc_of(LinalgOpId::solve, "solve"));
  la.def(
      "svdvals", [](pyb::handle x) {
        const Array& a = unwrap(x, "svdvals: x");
        return wrap(without_gil_if_large(a, [&] { return svd(a, false, false)[0]; }));
      },
      arg("x"), pyb::pos_only(), doc_of(LinalgOpId::svdvals, "svdvals"));
  la.def(
      "eigvalsh", [](pyb::handle x) {
        const Array& a = unwrap(x, "eigvalsh: x");
        return wrap(without_gil_if_large(a, [&] { return eigh(a, false)[0]; }));
      },
      arg("x"), pyb::pos_only(), doc_of(LinalgOpId::eigvalsh, "eigvalsh"));
  la.def(
      "eigvals", [](pyb::handle x) {
        const Array& a = unwrap(x, "eigvals: x");
        return wrap(without_gil_if_large(a, [&] { return eig(a, false)[0]; }));
      },
      arg("x"), pyb::pos_only(), doc_of(LinalgOpId::eigvals, "eigvals"));
  // Tuple results: python/dlarray/linalg.py makes them the standard's named tuples.
  la.def(
      "_slogdet", [](pyb::handle x) {
        const Array& a = unwrap(x, "slogdet: x");
        return as_tuple(without_gil_if_large(a, [&] { return slogdet(a); }));
      },
      arg("x"), pyb::pos_only(), doc_of(LinalgOpId::slogdet, "_slogdet"));
  la.def(
      "_eigh", [](pyb::handle x) {
        const Array& a = unwrap(x, "eigh: x");
        return as_tuple(without_gil_if_large(a, [&] { return eigh(a, true); }));
      },
      arg("x"), pyb::pos_only(), doc_of(LinalgOpId::eigh, "_eigh"));
  la.def(
      "_eig", [](pyb::handle x) {
        const Array& a = unwrap(x, "eig: x");
        return as_tuple(without_gil_if_large(a, [&] { return eig(a, true); }));
      },
      arg("x"), pyb::pos_only(), doc_of(LinalgOpId::eig, "_eig"));
  la.def(
      "_qr",
      [](pyb::handle x, bool complete) {
        const Array& a = unwrap(x, "qr: x");
        return as_tuple(without_gil_if_large(a, [&] { return qr(a, complete); }));
      },
      arg("x"), arg("complete"), "_qr(x, complete)\n--\n\nQ and R (complete: Q is M x M).");
  la.def(
      "_svd",
      [](pyb::handle x, bool full_matrices) {
        const Array& a = unwrap(x, "svd: x");
        return as_tuple(without_gil_if_large(a, [&] { return svd(a, full_matrices, true); }));
      },
      arg("x"), arg("full_matrices"), "_svd(x, full_matrices)\n--\n\nU, S, Vh.");
  la.def(
      "_two_norm_by_dot",
      [](pyb::handle x) -> pyb::object {
        const Array& a = unwrap(x, "vector_norm: x");
        std::optional<Array> r;
        if (a.size() >= kReleaseGilFrom) {  // as matmul: a long dot runs without the GIL
          pyb::gil_scoped_release nogil;
          r = two_norm_by_dot(a);
        } else {
          r = two_norm_by_dot(a);
        }
        return r ? wrap(std::move(*r)) : pyb::none();
      },
      arg("x"), "_two_norm_by_dot(x)\n--\n\nsqrt(x . x) over all elements, or None (see linalg.h).");
  la.def(
      "vector_norm",
      [](pyb::handle x, pyb::handle axis, pyb::handle keepdims, pyb::handle ord) -> pyb::object {
        const Array& a = unwrap(x, "vector_norm: x");
        PyObject* o = ord.ptr();
        if (PyBool_Check(o) || !(PyLong_Check(o) || PyFloat_Check(o)))
          throw TypeError(std::string("vector_norm: ord must be an int or a float, got ") + Py_TYPE(o)->tp_name);
        const double p = PyFloat_Check(o) ? PyFloat_AS_DOUBLE(o) : PyLong_AsDouble(o);
        if (p == -1.0 && PyErr_Occurred()) throw pyb::error_already_set();  // an int beyond a double
        const bool keep = bool_arg(keepdims.ptr(), "vector_norm", "keepdims");
        const Dims axes = reduction_axes_arg(axis.ptr(), a.ndim(), "vector_norm");
        return wrap(without_gil_if_large(a, [&] { return vector_norm(a, axes, keep, p); }));
      },
      arg("x"), arg("axis"), arg("keepdims"), arg("ord"),
      "vector_norm(x, axis, keepdims, ord)\n--\n\nlinalg.vector_norm with every argument given (linalg.h).");
  la.def(
      "diagonal",
      [](pyb::handle x, pyb::handle offset) {
        return wrap(diagonal(unwrap(x, "diagonal: x"), int_arg(offset.ptr(), "diagonal", "offset")));
      },
      arg("x"), pyb::pos_only(), pyb::kw_only(), arg("offset") = 0, doc_of(LinalgOpId::diagonal, "diagonal"));
}

// vecdot as a raw METH_FASTCALL function: its common call, two real vectors and the default
// axis, goes straight to matmul (the Python checks around that call cost more than the product
// itself: 0.75 us against NumPy's dot at 0.55 for 10 elements); every other call goes to the
// Python composition, dlarray.linalg._vecdot_composed, which checks and reports all.
PyObject* vecdot_fastcall(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  try {
    if (nargs == 2 && !kwnames) {
      const Array* a = try_unwrap(args[0]);
      const Array* b = try_unwrap(args[1]);
      auto real = [](const Array* x) {  // real numeric (bool: the composition names the error)
        const DType d = x->dtype();
        return d.computes() && !is_complex(d.scalar) && d.scalar != ScalarType::Bool;
      };
      if (a && b && a->ndim() == 1 && b->ndim() == 1 && a->shape(0) == b->shape(0) && real(a) && real(b))
        return wrap(run_matmul(*a, *b)).release().ptr();
    }
    static PyObject* composed = nullptr;  // kept for the process, as the module is
    if (!composed) {
      PyObject* mod = PyImport_ImportModule("dlarray.linalg");
      if (!mod) return nullptr;
      composed = PyObject_GetAttrString(mod, "_vecdot_composed");
      Py_DECREF(mod);
      if (!composed) return nullptr;
    }
    return PyObject_Vectorcall(composed, args, size_t(nargs), kwnames);
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}
PyMethodDef g_vecdot_def = {"vecdot", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&vecdot_fastcall)),
                            METH_FASTCALL | METH_KEYWORDS, nullptr};

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
  g_vecdot_def.ml_doc = doc_of(LinalgOpId::vecdot, "vecdot");
  PyObject* vecdot = PyCFunction_NewEx(&g_vecdot_def, nullptr, m.attr("__name__").ptr());
  if (!vecdot) throw pyb::error_already_set();
  m.attr("vecdot") = pyb::reinterpret_steal<pyb::object>(vecdot);
  pyb::module_ la = m.def_submodule("_linalg", "The C++ entries of dlarray.linalg (see python/dlarray/linalg.py).");
  init_linalg_error(la.ptr());
  bind_lapack_forms(la);
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
