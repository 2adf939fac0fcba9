// py_interface_dict.cpp — parsing and building the array-interface family's dictionaries.
#include "bindings/py_interface_dict.h"

#include <pybind11/pybind11.h>

#include <string>

#include "core/errors.h"
#include "core/storage.h"
#include "dlpack/type_strings.h"

namespace dla::py {
namespace {

// The storage's deleter: drops the reference to the producer (from any thread, at exit too).
void release_producer(void* ctx, void*) {
  if (Py_IsInitialized()) {
    PyGILState_STATE st = PyGILState_Ensure();
    Py_DECREF(static_cast<PyObject*>(ctx));
    PyGILState_Release(st);
  }
}

struct Reader {
  PyObject* d;
  const InterfaceSpec& spec;
  const char* fname;

  std::string where() const { return std::string(fname) + ": " + spec.protocol; }
  int64_t integer(PyObject* v, const std::string& what) const {
    if (!PyLong_Check(v) || PyBool_Check(v))
      throw TypeError(where() + " " + what + " must be an integer, got " + Py_TYPE(v)->tp_name);
    long long r = PyLong_AsLongLong(v);
    if (r == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      throw ValueError(where() + " " + what + " is out of range");
    }
    return r;
  }
  PyObject* require(const char* key) const {
    PyObject* v = PyDict_GetItemString(d, key);
    if (!v) throw ValueError(where() + " lacks the required key '" + key + "'");
    return v;
  }
  PyObject* optional(const char* key) const {
    PyObject* v = PyDict_GetItemString(d, key);
    return v == Py_None ? nullptr : v;
  }
};

}  // namespace

InterfaceLayout parse_interface_dict(PyObject* d, const InterfaceSpec& spec, const char* fname) {
  if (!PyDict_Check(d))
    throw TypeError(std::string(fname) + ": " + spec.protocol + " must be a dict, got " + Py_TYPE(d)->tp_name);
  Reader r{d, spec, fname};
  InterfaceLayout l;
  l.version = r.integer(r.require("version"), "version");
  if (l.version < spec.min_version || l.version > spec.max_version)
    throw ValueError(r.where() + " version " + std::to_string(l.version) + " is not supported (expected " +
                     (spec.min_version == spec.max_version
                          ? std::to_string(spec.max_version)
                          : std::to_string(spec.min_version) + " to " + std::to_string(spec.max_version)) +
                     ")");
  PyObject* shape_obj = r.require("shape");
  if (!PyTuple_Check(shape_obj)) throw TypeError(r.where() + " shape must be a tuple of integers");
  const int ndim = static_cast<int>(PyTuple_GET_SIZE(shape_obj));
  if (ndim > kMaxRank) throw ValueError(r.where() + " has more than 64 dimensions");
  l.shape = Dims(ndim);
  for (int i = 0; i < ndim; ++i) {
    l.shape[i] = r.integer(PyTuple_GET_ITEM(shape_obj, i), "shape entry");
    if (l.shape[i] < 0) throw ValueError(r.where() + " shape entry " + std::to_string(i) + " is negative");
  }
  const int64_t count = checked_numel(l.shape);
  PyObject* typestr = r.require("typestr");
  if (!PyUnicode_Check(typestr)) throw TypeError(r.where() + " typestr must be a str");
  try {
    l.dtype = dtype_from_typestr(PyUnicode_AsUTF8(typestr));
  } catch (const BufferError& e) {
    throw BufferError(r.where() + " " + e.what());
  }
  if (r.optional("mask")) throw BufferError(r.where() + " with a mask is not supported (mask must be None)");
  PyObject* data = r.require("data");
  if (!PyTuple_Check(data) || PyTuple_GET_SIZE(data) != 2 || !PyLong_Check(PyTuple_GET_ITEM(data, 0)))
  {
    if (spec.data_may_be_buffer)
      throw BufferError(r.where() + " data must be a (pointer, read_only) tuple; other forms are not supported");
    throw TypeError(r.where() + " data must be a (pointer: int, read_only: bool) tuple");
  }
  PyObject* ptr_obj = PyTuple_GET_ITEM(data, 0);
  int overflow = 0;
  const long long signed_ptr = PyLong_AsLongLongAndOverflow(ptr_obj, &overflow);
  if (overflow < 0 || (overflow == 0 && signed_ptr < 0))
    throw ValueError(r.where() + " data pointer is not a valid address (negative)");
  char* ptr = static_cast<char*>(PyLong_AsVoidPtr(ptr_obj));
  if (!ptr && PyErr_Occurred()) {
    PyErr_Clear();
    throw ValueError(r.where() + " data pointer is not a valid address");
  }
  const int readonly = PyObject_IsTrue(PyTuple_GET_ITEM(data, 1));
  if (readonly < 0) throw pybind11::error_already_set();
  l.readonly = readonly;
  const int64_t item = l.dtype.itemsize();
  int64_t offset_bytes = 0;
  if (PyObject* off = r.optional("offset")) {
    offset_bytes = r.integer(off, "offset") * (spec.offset_in_elements ? item : 1);
    if (offset_bytes < 0) throw ValueError(r.where() + " offset is negative");
  }
  if (!ptr && count > 0)
    throw ValueError(r.where() + " data pointer is NULL but the array has " + std::to_string(count) + " elements");

  l.strides = contiguous_strides(l.shape);
  if (PyObject* st = r.optional("strides")) {
    if (!PyTuple_Check(st) || PyTuple_GET_SIZE(st) != ndim)
      throw TypeError(r.where() + " strides must be None or a tuple with one integer per dimension");
    for (int i = 0; i < ndim; ++i) {
      const int64_t s = r.integer(PyTuple_GET_ITEM(st, i), "strides entry");
      if (spec.strides_in_elements) {
        l.strides[i] = s;
      } else {
        if (s % item != 0)
          throw BufferError(r.where() + " strides must be multiples of the item size (" + std::to_string(item) +
                            " bytes)");
        l.strides[i] = s / item;
      }
    }
  }
  // The storage spans every byte the view can reach; negative strides reach below element 0.
  int64_t low = 0, high = 0;
  for (int i = 0; i < ndim && count > 0; ++i) {
    const int64_t reach = (l.shape[i] - 1) * l.strides[i] * item;
    (reach < 0 ? low : high) += reach;
  }
  l.base = ptr ? ptr + offset_bytes + low : nullptr;
  l.offset = -low / item;
  l.nbytes = count > 0 ? static_cast<size_t>(high - low + item) : 0;
  l.stream = r.optional("stream");
  l.syclobj = r.optional("syclobj");
  return l;
}

Array adopt_interface(const InterfaceLayout& l, Device device, PyObject* owner) {
  Py_INCREF(owner);
  StoragePtr storage = Storage::adopt(DataPtr{l.base, owner, &release_producer}, l.nbytes, device);
  Array a(std::move(storage), l.offset * l.dtype.itemsize(), l.shape, l.strides, l.dtype);
  if (l.readonly) a.set_readonly(true);
  return a;
}

PyObject* interface_shape(const Array& a) {
  PyObject* t = PyTuple_New(a.ndim());
  for (int i = 0; t && i < a.ndim(); ++i) PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(a.shape(i)));
  return t;
}

PyObject* interface_strides(const Array& a, bool in_elements) {
  if (a.is_c_contiguous()) Py_RETURN_NONE;  // None means C order, as the protocols define it
  PyObject* t = PyTuple_New(a.ndim());
  for (int i = 0; t && i < a.ndim(); ++i)
    PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(a.stride(i) * (in_elements ? 1 : a.itemsize())));
  return t;
}

}  // namespace dla::py

namespace dla::py {

bool import_device_interface(PyObject* obj, const Device* want, const char* fname, Array* out) {
  return import_cuda_interface(obj, fname, out) || import_sycl_interface(obj, want, fname, out);
}

}  // namespace dla::py
