// py_statistical.cpp — the statistical functions (cumulative_prod ... var), one namespace
// function per row of DLA_REDUCTION_OPS, with the stub's signature as text signature, plus
// _reduction_ops() (the declaration table, for the tests).
#include <pybind11/pybind11.h>

#include <cmath>
#include <deque>
#include <string>

#include "bindings/bindings.h"
#include "bindings/py_args.h"
#include "bindings/py_array.h"
#include "bindings/py_dtype_device.h"
#include "bindings/py_elementwise.h"
#include "core/errors.h"
#include "core/reduction.h"

namespace dla::py {
namespace {

double correction_arg(pyb::handle h, const char* fname) {
  if (PyBool_Check(h.ptr()) || !(PyLong_Check(h.ptr()) || PyFloat_Check(h.ptr()) || PyIndex_Check(h.ptr())))
    throw TypeError(std::string(fname) + ": correction must be an int or a float");
  const double c = PyFloat_Check(h.ptr()) ? PyFloat_AsDouble(h.ptr()) : double(int_arg(h.ptr(), fname, "correction"));
  if (std::isnan(c)) throw ValueError(std::string(fname) + ": correction must not be NaN");
  return c;
}

// Runs f with the GIL released when the input is large enough for it to matter.
template <class F>
Array maybe_without_gil(const Array& x, F&& f) {
  if (x.size() >= kReleaseGilFrom) {
    pyb::gil_scoped_release nogil;
    return f();
  }
  return f();
}

pyb::object call_reduce(ReduceOpId op, pyb::handle x_h, pyb::handle axis, pyb::handle dtype_h, pyb::handle correction_h,
                        pyb::handle keepdims_h) {
  const ReduceOpInfo& info = reduce_op_info(op);
  const std::string what = std::string(info.name) + ": x";
  const Array& x = unwrap(x_h, what.c_str());
  const Dims axes = reduction_axes_arg(axis.ptr(), x.ndim(), info.name);
  DType dtype;
  const bool has_dtype = dtype_h && parse_optional_dtype(dtype_h, &dtype);
  const double correction = correction_h ? correction_arg(correction_h, info.name) : 0.0;
  const bool keepdims = bool_arg(keepdims_h.ptr(), info.name, "keepdims");
  return wrap(maybe_without_gil(x, [&] { return reduce(op, x, axes, keepdims, has_dtype ? &dtype : nullptr, correction); }));
}

pyb::object call_scan(ReduceOpId op, pyb::handle x_h, pyb::handle axis, pyb::handle dtype_h, pyb::handle initial_h) {
  const ReduceOpInfo& info = reduce_op_info(op);
  const std::string what = std::string(info.name) + ": x";
  const Array& x = unwrap(x_h, what.c_str());
  const bool has_axis = !axis.is_none();
  const int64_t a = has_axis ? int_arg(axis.ptr(), info.name, "axis") : 0;
  DType dtype;
  const bool has_dtype = parse_optional_dtype(dtype_h, &dtype);
  const bool include_initial = bool_arg(initial_h.ptr(), info.name, "include_initial");
  return wrap(maybe_without_gil(
      x, [&] { return scan(op, x, has_axis, a, has_dtype ? &dtype : nullptr, include_initial); }));
}

const char* form_name(ReduceForm f) {
  switch (f) {
    case ReduceForm::Fold: return "fold";
    case ReduceForm::Mean: return "mean";
    case ReduceForm::Moment: return "moment";
    case ReduceForm::Scan: return "scan";
  }
  return "?";
}

}  // namespace

void bind_statistical(pyb::module_& m) {
  using pyb::arg;
  static std::deque<std::string> docs;  // pybind11 keeps the pointer
  for (int i = 0; i < int(ReduceOpId::kCount); ++i) {
    const ReduceOpId op = ReduceOpId(i);
    const ReduceOpInfo& info = reduce_op_info(op);
    docs.push_back(std::string(info.name) + "(" + info.params + ")\n--\n\n" + info.summary);
    const char* doc = docs.back().c_str();
    const bool has_dtype = info.out == ReduceOut::Accumulate;  // sum, prod, cumulative_*: the `dtype` argument
    switch (info.form) {
      case ReduceForm::Scan:
        m.def(info.name,
              [op](pyb::handle x, pyb::handle axis, pyb::handle dtype, pyb::handle initial) {
                return call_scan(op, x, axis, dtype, initial);
              },
              arg("x"), pyb::pos_only(), pyb::kw_only(), arg("axis") = pyb::none(), arg("dtype") = pyb::none(),
              arg("include_initial") = false, doc);
        break;
      case ReduceForm::Moment:
        m.def(info.name,
              [op](pyb::handle x, pyb::handle axis, pyb::handle correction, pyb::handle keepdims) {
                return call_reduce(op, x, axis, pyb::handle(), correction, keepdims);
              },
              arg("x"), pyb::pos_only(), pyb::kw_only(), arg("axis") = pyb::none(), arg("correction") = 0.0,
              arg("keepdims") = false, doc);
        break;
      case ReduceForm::Fold:
      case ReduceForm::Mean:
        if (has_dtype) {
          m.def(info.name,
                [op](pyb::handle x, pyb::handle axis, pyb::handle dtype, pyb::handle keepdims) {
                  return call_reduce(op, x, axis, dtype, pyb::handle(), keepdims);
                },
                arg("x"), pyb::pos_only(), pyb::kw_only(), arg("axis") = pyb::none(), arg("dtype") = pyb::none(),
                arg("keepdims") = false, doc);
        } else {
          m.def(info.name,
                [op](pyb::handle x, pyb::handle axis, pyb::handle keepdims) {
                  return call_reduce(op, x, axis, pyb::handle(), pyb::handle(), keepdims);
                },
                arg("x"), pyb::pos_only(), pyb::kw_only(), arg("axis") = pyb::none(), arg("keepdims") = false, doc);
        }
        break;
    }
  }
  m.def(
      "_reduction_ops",
      []() {
        pyb::list out;
        for (int i = 0; i < int(ReduceOpId::kCount); ++i) {
          const ReduceOpInfo& info = reduce_op_info(ReduceOpId(i));
          pyb::dict d;
          d["name"] = info.name;
          d["form"] = form_name(info.form);
          d["kinds"] = int(info.kinds);
          d["params"] = info.params;
          d["summary"] = info.summary;
          out.append(d);
        }
        return out;
      },
      "_reduction_ops()\n--\n\nThe statistical functions' declaration table (for the tests).");
  m.def(
      "_tally",
      [](pyb::handle x, pyb::handle weights, int64_t bins) {
        const Array& xa = unwrap(x, "_tally: x");
        const Array* wa = weights.is_none() ? nullptr : &unwrap(weights, "_tally: weights");
        Array counts;
        {
          pyb::gil_scoped_release unlocked;  // a pass over 10^6 values or more
          counts = tally(xa, wa, bins);
        }
        return wrap(std::move(counts));
      },
      pyb::arg("x"), pyb::arg("weights"), pyb::arg("bins"),
      "_tally(x, weights, bins)\n--\n\nbincount's counts (or float64 weight sums) of x's int32/int64 values in "
      "[0, bins) (dlarray.bincount and histogram; NotImplementedError where the device has no kernel).");
  m.def(
      "_nan_extreme",
      [](pyb::handle x_h, pyb::handle axis, pyb::handle keepdims_h, bool is_max) {
        const char* fname = is_max ? "nanmax" : "nanmin";
        const Array& x = unwrap(x_h, is_max ? "nanmax: x" : "nanmin: x");
        const Dims axes = reduction_axes_arg(axis.ptr(), x.ndim(), fname);
        const bool keepdims = bool_arg(keepdims_h.ptr(), fname, "keepdims");
        return wrap(maybe_without_gil(x, [&] { return nan_extreme(x, axes, keepdims, is_max); }));
      },
      pyb::arg("x"), pyb::arg("axis"), pyb::arg("keepdims"), pyb::arg("is_max"),
      "_nan_extreme(x, axis, keepdims, is_max)\n--\n\nnanmax (is_max) or nanmin of a real floating x in one "
      "NaN-skipping pass (dlarray.nanmax and nanmin; NotImplementedError where the device has no such fold).");
}

}  // namespace dla::py
