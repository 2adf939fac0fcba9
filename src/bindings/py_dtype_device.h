// py_dtype_device.h — Python objects for dtypes and devices, and argument parsing for both.
#pragma once
#include <pybind11/pybind11.h>

#include "core/device.h"
#include "core/dtype.h"

namespace dla::py {
namespace pyb = pybind11;

// The canonical Python dtype object (dlarray.float32, ...) for d; the same object each time.
pyb::object dtype_object(const DType& d);
// dtype_object(d) as a borrowed pointer, valid for the life of the process (the objects are
// never freed), for every new array object's dtype slot (py_array.cpp): a table lookup for
// the dtypes with kernels, a small cache for the others.
PyObject* dtype_object_ptr(const DType& d);
// Accepts a dlarray dtype object or a dtype name string; TypeError otherwise.
DType parse_dtype(pyb::handle h);
// None -> nullopt-like false; returns true and sets *out when a dtype was given.
bool parse_optional_dtype(pyb::handle h, DType* out);

pyb::object device_object(const Device& d);
// Accepts a dlarray.Device, a string ("cpu", "cuda:0"), or a (DLDeviceType, id) pair.
Device parse_device_arg(pyb::handle h);
bool parse_optional_device(pyb::handle h, Device* out);

// The device creation functions use when they are given none (and asarray for Python
// scalars and sequences): the calling thread's `with dlarray.default_device(...)` device,
// else the process-wide one (dlarray.set_default_device, DLARRAY_DEFAULT_DEVICE), else cpu.
Device default_device();
// Creation: h's device, or default_device() when h is None.
Device device_or_default(pyb::handle h);

}  // namespace dla::py
