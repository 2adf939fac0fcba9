// py_interface_dict.h — the dictionaries of NumPy's array-interface family, read once.
//
// __array_interface__ (v3), __cuda_array_interface__ (v0-v3) and __sycl_usm_array_interface__
// (v1) describe memory with the same keys: shape, typestr, data=(pointer, read_only), strides
// (None: C order) and a version, plus a few of their own (mask, offset, stream, syclobj). One
// parser checks them all, so every protocol gives the same errors for the same mistakes;
// what the pointer means (host, CUDA, SYCL memory) is the caller's business.
#pragma once
#include <Python.h>

#include <cstddef>
#include <cstdint>

#include "core/array.h"

namespace dla::py {

struct InterfaceSpec {
  const char* protocol;       // "__cuda_array_interface__", for messages
  int min_version, max_version;
  bool strides_in_elements;   // SUAI counts elements, the others bytes
  bool offset_in_elements;    // SUAI's "offset" (elements); NumPy's (bytes)
  bool data_may_be_buffer;    // NumPy's "data" may also be a buffer object (valid, unsupported here)
};

struct InterfaceLayout {
  DType dtype;
  Dims shape, strides;        // strides in elements
  char* base = nullptr;       // lowest byte any element reaches (the storage's start)
  int64_t offset = 0;         // elements from `base` to element [0, ..., 0]
  size_t nbytes = 0;          // bytes from `base` to one past the highest element
  int64_t version = 0;
  bool readonly = false;
  PyObject* stream = nullptr;   // borrowed from the dict: "stream", when present and not None
  PyObject* syclobj = nullptr;  // borrowed from the dict: "syclobj", when present and not None
};

// Reads `dict` (the attribute's value; the caller keeps it alive while using the borrowed
// fields). `fname` names the calling function in messages. TypeError for wrong types,
// ValueError for missing keys, bad versions, negative sizes and NULL data with elements,
// BufferError for what is well formed but not supported (masks, big-endian, unknown types).
InterfaceLayout parse_interface_dict(PyObject* dict, const InterfaceSpec& spec, const char* fname);

// An Array over the described memory on `device`, whose storage holds a reference to `owner`
// (the protocol's contract: the memory lives as long as the object that described it).
Array adopt_interface(const InterfaceLayout& l, Device device, PyObject* owner);

// The exporting side: the dict's shape tuple and strides (None when C-contiguous), in bytes
// or elements.
PyObject* interface_shape(const Array& a);
PyObject* interface_strides(const Array& a, bool in_elements);

}  // namespace dla::py

namespace dla::py {

// ---- the device protocols (py_cuda_interface.cpp, py_sycl_interface.cpp) ----

// Imports an object offering __cuda_array_interface__ or __sycl_usm_array_interface__ (looked
// up on the instance); false, with no error set, when it offers neither. `want` is the device
// the caller asked for (nullptr: where the memory is), which SUAI memory the host can read
// serves without a copy when it is the CPU. Other moves are the caller's business.
bool import_device_interface(PyObject* obj, const Device* want, const char* fname, Array* out);
bool import_cuda_interface(PyObject* obj, const char* fname, Array* out);
bool import_sycl_interface(PyObject* obj, const Device* want, const char* fname, Array* out);

}  // namespace dla::py
