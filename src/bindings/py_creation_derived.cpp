// py_creation_derived.cpp — creation functions built from another array or from positions:
// empty_like, zeros_like, ones_like, full_like, eye, linspace, meshgrid, tril, triu.
//
// (asarray, empty, zeros, ones, full, arange and from_dlpack are in py_creation.cpp and
// the DLPack bindings.)
#include <Python.h>

#include <string>
#include <vector>

#include "bindings/bindings.h"
#include "bindings/py_args.h"
#include "bindings/py_array.h"
#include "bindings/py_dtype_device.h"
#include "bindings/scalars.h"
#include "core/copy.h"
#include "core/creation.h"
#include "core/errors.h"
#include "core/fill.h"
#include "core/indexing.h"
#include "core/manipulation.h"

namespace dla::py {
namespace {

using pyb::arg;
using pyb::handle;
using pyb::object;

// A new array shaped like x, with dtype/device from the arguments or else from x.
Array like(const Array& x, handle dtype_h, handle device_h) {
  DType dt = x.dtype();
  Device dev = x.device();
  parse_optional_dtype(dtype_h, &dt);
  parse_optional_device(device_h, &dev);
  return Array::empty(x.shape(), dt, dev);
}

object filled_like(handle x, handle dtype_h, handle device_h, int64_t value) {
  Array out = like(unwrap(x, "x"), dtype_h, device_h);
  fill(out, Scalar::of_int(value));
  return wrap(std::move(out));
}

// A fill value: a Python number, a NumPy scalar or a 0-d array (its value).
Scalar fill_scalar(handle v, const char* fname) { return number_arg(v.ptr(), fname, "fill_value"); }

object full_like_py(handle x, handle fill_value, handle dtype_h, handle device_h) {
  Array out = like(unwrap(x, "full_like: x"), dtype_h, device_h);
  // Same kind rules as x[...] = fill_value (an int into an integer dtype must fit it).
  setitem(out, nullptr, 0, fill_scalar(fill_value, "full_like"));
  return wrap(std::move(out));
}

object eye_py(handle n_rows, handle n_cols, handle k, handle dtype_h, handle device_h) {
  const int64_t rows = dim_arg(n_rows.ptr(), "eye", "n_rows");
  const int64_t cols = n_cols.is_none() ? rows : dim_arg(n_cols.ptr(), "eye", "n_cols");
  DType dt = DType::of(ScalarType::Float64);
  const Device dev = device_or_default(device_h);
  parse_optional_dtype(dtype_h, &dt);
  return wrap(eye(rows, cols, saturating_int_arg(k.ptr(), "eye", "k"), dt, dev));
}

// start/stop: numbers (bool excluded, as NumPy's float conversion of the bounds), NumPy
// scalars or 0-d arrays.
Scalar linspace_bound(handle v, const char* what) {
  const Scalar s = number_arg(v.ptr(), "linspace", what);
  if (s.kind == Scalar::Kind::Bool)
    throw TypeError(std::string("linspace: ") + what + " must be an int, float or complex, got a bool");
  return s;
}

object linspace_py(handle start_h, handle stop_h, handle num_h, handle dtype_h, handle device_h, handle endpoint) {
  const Scalar start = linspace_bound(start_h, "start"), stop = linspace_bound(stop_h, "stop");
  const bool cplx = start.kind == Scalar::Kind::Complex || stop.kind == Scalar::Kind::Complex;
  DType dt = DType::of(cplx ? ScalarType::Complex128 : ScalarType::Float64);
  const Device dev = device_or_default(device_h);
  parse_optional_dtype(dtype_h, &dt);
  if (!PyBool_Check(endpoint.ptr())) throw TypeError("linspace: endpoint must be True or False");
  return wrap(linspace(start, stop, dim_arg(num_h.ptr(), "linspace", "num"), endpoint.ptr() == Py_True, dt, dev));
}

object meshgrid_py(pyb::args arrays, handle indexing_h) {
  std::vector<Array> xs = arrays_arg(arrays.ptr(), "meshgrid", "arrays");
  if (!PyUnicode_Check(indexing_h.ptr())) throw TypeError("meshgrid: indexing must be 'xy' or 'ij'");
  const std::string indexing = pyb::str(indexing_h);
  if (indexing != "xy" && indexing != "ij")
    throw ValueError("meshgrid: indexing must be 'xy' or 'ij', got '" + indexing + "'");
  const int n = static_cast<int>(xs.size());
  if (n > kMaxRank) throw ValueError("meshgrid: more than 64 arrays");
  for (Array& a : xs) {
    if (a.device() != xs[0].device()) throw ValueError("meshgrid: arrays are on different devices");
    a = reshape(a, Dims{-1}, -1);
  }
  // Output axis of input i: i itself, except that 'xy' swaps the first two.
  auto axis_of = [&](int i) { return indexing == "xy" && n >= 2 && i < 2 ? 1 - i : i; };
  Dims shape(n);
  for (int i = 0; i < n; ++i) shape[axis_of(i)] = xs[i].shape(0);
  // Every grid has the full shape: too big is an error before the first copy.
  for (const Array& a : xs) checked_nbytes(shape, a.dtype());
  std::vector<Array> out;
  for (int i = 0; i < n; ++i) {
    Dims strides(n, 0);
    strides[axis_of(i)] = xs[i].stride(0);
    // Copies, like NumPy's default: the grids are independent, writable arrays.
    out.push_back(copy_to(xs[i].view(shape, strides, xs[i].byte_offset()), xs[i].device()));
  }
  pyb::tuple t(out.size());
  for (size_t i = 0; i < out.size(); ++i) PyTuple_SET_ITEM(t.ptr(), i, wrap(out[i]).release().ptr());
  return std::move(t);
}

object tri_py(handle x, handle k, bool lower) {
  const char* fname = lower ? "tril" : "triu";
  return wrap(triangle(unwrap(x, fname), saturating_int_arg(k.ptr(), fname, "k"), lower));
}

}  // namespace

void bind_creation_derived(pyb::module_& m) {
  const auto none = pyb::none();
  m.def("empty_like", [](handle x, handle d, handle dev) { return wrap(like(unwrap(x, "empty_like: x"), d, dev)); },
        arg("x"), pyb::pos_only(), pyb::kw_only(), arg("dtype") = none, arg("device") = none,
        "empty_like(x, /, *, dtype=None, device=None)\n--\n\nAn uninitialised array with the shape of x.");
  m.def("zeros_like", [](handle x, handle d, handle dev) { return filled_like(x, d, dev, 0); }, arg("x"),
        pyb::pos_only(), pyb::kw_only(), arg("dtype") = none, arg("device") = none,
        "zeros_like(x, /, *, dtype=None, device=None)\n--\n\nAn array of zeros with the shape of x.");
  m.def("ones_like", [](handle x, handle d, handle dev) { return filled_like(x, d, dev, 1); }, arg("x"),
        pyb::pos_only(), pyb::kw_only(), arg("dtype") = none, arg("device") = none,
        "ones_like(x, /, *, dtype=None, device=None)\n--\n\nAn array of ones with the shape of x.");
  m.def("full_like", &full_like_py, arg("x"), pyb::pos_only(), arg("fill_value"), pyb::kw_only(),
        arg("dtype") = none, arg("device") = none,
        "full_like(x, /, fill_value, *, dtype=None, device=None)\n--\n\n"
        "An array with the shape of x filled with fill_value.");
  m.def("eye", &eye_py, arg("n_rows"), arg("n_cols") = none, pyb::pos_only(), pyb::kw_only(), arg("k") = 0,
        arg("dtype") = none, arg("device") = none,
        "eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None)\n--\n\n"
        "A 2-d array with ones on diagonal k and zeros elsewhere.");
  m.def("linspace", &linspace_py, arg("start"), arg("stop"), pyb::pos_only(), arg("num"), pyb::kw_only(),
        arg("dtype") = none, arg("device") = none, arg("endpoint") = true,
        "linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True)\n--\n\n"
        "num evenly spaced values from start to stop.");
  m.def("meshgrid", &meshgrid_py, arg("indexing") = "xy",
        "meshgrid(*arrays, indexing='xy')\n--\n\nCoordinate grids from 1-d coordinate arrays, as a tuple.");
  m.def("tril", [](handle x, handle k) { return tri_py(x, k, true); }, arg("x"), pyb::pos_only(), pyb::kw_only(),
        arg("k") = 0, "tril(x, /, *, k=0)\n--\n\nThe lower triangle of x's matrices (zeros above diagonal k).");
  m.def("triu", [](handle x, handle k) { return tri_py(x, k, false); }, arg("x"), pyb::pos_only(), pyb::kw_only(),
        arg("k") = 0, "triu(x, /, *, k=0)\n--\n\nThe upper triangle of x's matrices (zeros below diagonal k).");
}

}  // namespace dla::py
