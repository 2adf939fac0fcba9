// py_pickle.cpp — the byte-level halves of pickling and copying an Array.
//
// The protocol itself (__reduce_ex__, __copy__, __deepcopy__) is in python/dlarray/_array_methods.py;
// these two functions move the bytes, for every dtype (storage-only ones included, which the
// buffer protocol cannot describe) and every device (a device array travels through the host).
#include <pybind11/pybind11.h>

#include <cstring>

#include "bindings/bindings.h"
#include "bindings/py_args.h"
#include "bindings/py_array.h"
#include "bindings/py_dtype_device.h"
#include "core/copy.h"
#include "core/errors.h"
#include "core/runtime.h"

namespace dla::py {
namespace {

// x's values, row-major on the host, as a 1-D uint8 Array over that copy's memory: when x is
// already a row-major host array no byte is copied, and pickle protocol 5 can send it out of band.
pyb::object host_bytes(pyb::handle x_h) {
  const Array& x = unwrap(x_h, "_host_bytes: x");
  Array host;
  if (x.device().host_accessible()) {
    sync_for_host(x.device());  // pinned/managed memory: queued device work may still write it
    host = ascontiguous(x);
  } else {
    host = copy_to(x, Device{});
  }
  static const DType u8 = dtype_from_name("uint8");
  return wrap(host.view(Dims{host.nbytes()}, Dims{1}, host.byte_offset(), u8));
}

// A new Array of `shape` and `dtype` on `device` holding the row-major bytes of `buffer`.
pyb::object array_from_bytes(pyb::handle buffer, pyb::handle shape_h, pyb::handle dtype_h, pyb::handle device_h) {
  const std::vector<int64_t> extents = ints_arg(shape_h.ptr(), "_array_from_bytes", "shape");
  Dims shape;
  for (int64_t e : extents) shape.push_back(e);
  const DType dtype = parse_dtype(dtype_h);
  const Device device = parse_device_arg(device_h);
  Py_buffer view;
  if (PyObject_GetBuffer(buffer.ptr(), &view, PyBUF_C_CONTIGUOUS) != 0) throw pyb::error_already_set();
  struct Release {
    Py_buffer* v;
    ~Release() { PyBuffer_Release(v); }
  } release{&view};
  Array out = Array::empty(shape, dtype, Device{});
  if (view.len != out.nbytes())
    throw ValueError("_array_from_bytes: " + std::to_string(view.len) + " bytes cannot hold shape " +
                     shape_str(shape) + " of " + dtype.name() + " (" + std::to_string(out.nbytes()) + " bytes)");
  if (view.len > 0) std::memcpy(out.data(), view.buf, size_t(view.len));
  return wrap(device == Device{} ? out : copy_to(out, device));
}

}  // namespace

void bind_pickle(pyb::module_& m) {
  m.def("_host_bytes", &host_bytes, pyb::arg("x"));
  m.def("_array_from_bytes", &array_from_bytes, pyb::arg("buffer"), pyb::arg("shape"), pyb::arg("dtype"),
        pyb::arg("device"));
}

}  // namespace dla::py
