// py_manipulation.cpp — the 15 manipulation functions of the array API namespace.
//
// Argument parsing only; the layout work is in src/core/manipulation.cpp.
#include <Python.h>

#include <string>
#include <vector>

#include "bindings/bindings.h"
#include "bindings/py_args.h"
#include "bindings/py_array.h"
#include "core/broadcast.h"
#include "core/errors.h"
#include "core/manipulation.h"
#include "core/promotion.h"

namespace dla::py {
namespace {

using pyb::arg;
using pyb::handle;
using pyb::object;

// The dtype concat and stack produce for their inputs.
DType joined_dtype(const std::vector<Array>& xs, const char* fname) {
  if (xs.empty()) throw ValueError(std::string(fname) + ": need at least one array");
  // The array API promotion table; storage-only dtypes join only with themselves.
  DType d = xs[0].dtype();
  for (const Array& a : xs) {
    if (a.dtype() == d) continue;
    if (!a.dtype().computes() || !d.computes())
      throw TypeError(std::string(fname) + ": arrays of dtypes " + d.name() + " and " + a.dtype().name() +
                      " cannot be joined");
    d = DType::of(promote_types(d.scalar, a.dtype().scalar));
  }
  return d;
}

Dims shape_arg(handle h, const char* fname) {
  if (!PyTuple_Check(h.ptr()) && !PyList_Check(h.ptr()))
    throw TypeError(std::string(fname) + ": shape must be a tuple of integers, got " + Py_TYPE(h.ptr())->tp_name);
  std::vector<int64_t> v = dims_arg(h.ptr(), fname, "shape");
  return Dims(v.data(), static_cast<int>(v.size()));
}

object tuple_of(const std::vector<Array>& xs) {
  pyb::tuple out(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) PyTuple_SET_ITEM(out.ptr(), i, wrap(xs[i]).release().ptr());
  return std::move(out);
}

object tuple_of(const Dims& d) {
  pyb::tuple out(d.size());
  for (int i = 0; i < d.size(); ++i) PyTuple_SET_ITEM(out.ptr(), i, PyLong_FromLongLong(d[i]));
  return std::move(out);
}

object broadcast_arrays_py(pyb::args arrays) {
  std::vector<Array> xs = arrays_arg(arrays.ptr(), "broadcast_arrays", "arrays");
  Dims shape;
  for (const Array& a : xs) shape = broadcast_shapes(shape, a.shape());
  for (Array& a : xs) a = broadcast_to(a, shape);
  return tuple_of(xs);
}

object broadcast_shapes_py(pyb::args shapes) {
  Dims shape;
  for (handle s : shapes) shape = broadcast_shapes(shape, shape_arg(s, "broadcast_shapes"));
  return tuple_of(shape);
}

object broadcast_to_py(handle x, handle shape) {
  return wrap(broadcast_to(unwrap(x, "broadcast_to: x"), shape_arg(shape, "broadcast_to")));
}

object concat_py(handle arrays, handle axis) {
  std::vector<Array> xs = arrays_arg(arrays.ptr(), "concat", "arrays");
  const DType d = joined_dtype(xs, "concat");
  if (axis.is_none()) return wrap(concat(xs, 0, true, d));
  return wrap(concat(xs, int_arg(axis.ptr(), "concat", "axis"), false, d));
}

object expand_dims_py(handle x, handle axis) {
  return wrap(expand_dims(unwrap(x, "expand_dims: x"), ints_arg(axis.ptr(), "expand_dims", "axis")));
}

object flip_py(handle x, handle axis) {
  const Array& a = unwrap(x, "flip: x");
  if (axis.is_none()) return wrap(flip(a, {}, true));
  return wrap(flip(a, ints_arg(axis.ptr(), "flip", "axis"), false));
}

object moveaxis_py(handle x, handle source, handle destination) {
  return wrap(moveaxis(unwrap(x, "moveaxis: x"), ints_arg(source.ptr(), "moveaxis", "source"),
                       ints_arg(destination.ptr(), "moveaxis", "destination")));
}

object permute_dims_py(handle x, handle axes) {
  return wrap(permute_dims(unwrap(x, "permute_dims: x"), ints_arg(axes.ptr(), "permute_dims", "axes")));
}

object repeat_py(handle x, handle repeats, handle axis) {
  const Array& a = unwrap(x, "repeat: x");
  std::vector<int64_t> counts;
  if (Array* r = try_unwrap(repeats.ptr())) {
    if (!r->dtype().computes() || !is_integer(r->dtype().scalar))
      throw TypeError("repeat: a repeats array must have an integer dtype, got " + r->dtype().name());
    if (r->ndim() > 1) throw ValueError("repeat: a repeats array must be 1-d, got shape " + shape_str(r->shape()));
    pyb::list values = pyb::reinterpret_borrow<object>(repeats).attr("tolist")();
    if (r->ndim() == 0) values = pyb::list(pyb::make_tuple(values));
    for (handle v : values) counts.push_back(dim_arg(v.ptr(), "repeat", "repeats"));
  } else {
    counts.push_back(dim_arg(repeats.ptr(), "repeat", "repeats"));
  }
  if (axis.is_none()) return wrap(repeat(a, counts, false, 0));
  return wrap(repeat(a, counts, true, int_arg(axis.ptr(), "repeat", "axis")));
}

object reshape_py(handle x, handle shape, handle copy) {
  const Array& a = unwrap(x, "reshape: x");
  Dims s = PyTuple_Check(shape.ptr()) || PyList_Check(shape.ptr())
               ? shape_arg(shape, "reshape")
               : Dims{dim_arg(shape.ptr(), "reshape", "shape")};
  return wrap(reshape(a, s, copy_arg(copy.ptr(), "reshape")));
}

object roll_py(handle x, handle shift, handle axis) {
  const Array& a = unwrap(x, "roll: x");
  std::vector<int64_t> shifts = ints_arg(shift.ptr(), "roll", "shift");
  std::vector<int64_t> axes;
  if (!axis.is_none()) axes = ints_arg(axis.ptr(), "roll", "axis");
  return wrap(roll(a, shifts, axes, axis.is_none()));
}

object squeeze_py(handle x, handle axis) {
  return wrap(squeeze(unwrap(x, "squeeze: x"), ints_arg(axis.ptr(), "squeeze", "axis")));
}

object stack_py(handle arrays, handle axis) {
  std::vector<Array> xs = arrays_arg(arrays.ptr(), "stack", "arrays");
  return wrap(stack(xs, int_arg(axis.ptr(), "stack", "axis"), joined_dtype(xs, "stack")));
}

object tile_py(handle x, handle repetitions) {
  return wrap(tile(unwrap(x, "tile: x"), dims_arg(repetitions.ptr(), "tile", "repetitions")));
}

object unstack_py(handle x, handle axis) {
  return tuple_of(unstack(unwrap(x, "unstack: x"), int_arg(axis.ptr(), "unstack", "axis")));
}

}  // namespace

void bind_manipulation(pyb::module_& m) {
  const auto none = pyb::none();
  m.def("broadcast_arrays", &broadcast_arrays_py,
        "broadcast_arrays(*arrays)\n--\n\nThe arrays broadcast against each other (read-only views), as a tuple.");
  m.def("broadcast_shapes", &broadcast_shapes_py,
        "broadcast_shapes(*shapes)\n--\n\nThe shape that the given shapes broadcast to.");
  m.def("broadcast_to", &broadcast_to_py, arg("x"), pyb::pos_only(), arg("shape"),
        "broadcast_to(x, /, shape)\n--\n\nA read-only view of x broadcast to shape.");
  m.def("concat", &concat_py, arg("arrays"), pyb::pos_only(), pyb::kw_only(), arg("axis") = 0,
        "concat(arrays, /, *, axis=0)\n--\n\nJoin arrays along an existing axis (axis=None: flattened).");
  m.def("expand_dims", &expand_dims_py, arg("x"), pyb::pos_only(), arg("axis"),
        "expand_dims(x, /, axis)\n--\n\nA view of x with length-1 axes inserted at the given positions.");
  m.def("flip", &flip_py, arg("x"), pyb::pos_only(), pyb::kw_only(), arg("axis") = none,
        "flip(x, /, *, axis=None)\n--\n\nA view of x reversed along the given axes (all when None).");
  m.def("moveaxis", &moveaxis_py, arg("x"), arg("source"), arg("destination"), pyb::pos_only(),
        "moveaxis(x, source, destination, /)\n--\n\nA view of x with axes moved to new positions.");
  m.def("permute_dims", &permute_dims_py, arg("x"), pyb::pos_only(), arg("axes"),
        "permute_dims(x, /, axes)\n--\n\nA view of x with its axes permuted.");
  m.def("repeat", &repeat_py, arg("x"), arg("repeats"), pyb::pos_only(), pyb::kw_only(), arg("axis") = none,
        "repeat(x, repeats, /, *, axis=None)\n--\n\nEach element of x repeated (along axis, or flattened).");
  m.def("reshape", &reshape_py, arg("x"), pyb::pos_only(), arg("shape"), pyb::kw_only(), arg("copy") = none,
        "reshape(x, /, shape, *, copy=None)\n--\n\nx with a new shape: a view when possible unless copy=True; "
        "copy=False raises ValueError when a view is impossible.");
  m.def("roll", &roll_py, arg("x"), pyb::pos_only(), arg("shift"), pyb::kw_only(), arg("axis") = none,
        "roll(x, /, shift, *, axis=None)\n--\n\nx with elements shifted cyclically along axes.");
  m.def("squeeze", &squeeze_py, arg("x"), pyb::pos_only(), arg("axis"),
        "squeeze(x, /, axis)\n--\n\nA view of x without the given length-1 axes.");
  m.def("stack", &stack_py, arg("arrays"), pyb::pos_only(), pyb::kw_only(), arg("axis") = 0,
        "stack(arrays, /, *, axis=0)\n--\n\nJoin arrays of one shape along a new axis.");
  m.def("tile", &tile_py, arg("x"), arg("repetitions"), pyb::pos_only(),
        "tile(x, repetitions, /)\n--\n\nx repeated along each axis.");
  m.def("unstack", &unstack_py, arg("x"), pyb::pos_only(), pyb::kw_only(), arg("axis") = 0,
        "unstack(x, /, *, axis=0)\n--\n\nViews of x's slices along axis, as a tuple.");
}

}  // namespace dla::py
