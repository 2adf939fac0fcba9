// py_exchange_api.cpp — the DLPackExchangeAPI dlarray publishes, and the lookup of peers' tables.
//
// Every function here is a C entry point: each body is wrapped so that a C++ exception
// becomes an error return (SetError for the allocator, a Python exception otherwise).
#include "bindings/py_exchange_api.h"

#include <pybind11/pybind11.h>

#ifdef __linux__
#include <sys/uio.h>
#include <unistd.h>
#endif

#include <cerrno>
#include <mutex>
#include <new>
#include <string>

#include "bindings/fastcall.h"
#include "bindings/py_array.h"
#include "bindings/py_errors.h"
#include "core/errors.h"
#include "core/runtime.h"
#include "dlpack/counters.h"
#include "dlpack/dlpack_core.h"

namespace dla::py {
namespace {

int managed_tensor_allocator(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
                             void (*SetError)(void* error_ctx, const char* kind, const char* message)) {
  bump(dlpack_counters().table_allocator);
  try {
    if (!prototype || !out) throw ValueError("managed_tensor_allocator: NULL prototype or out");
    if (prototype->ndim < 0 || prototype->ndim > kMaxRank)
      throw ValueError("managed_tensor_allocator: ndim out of range");
    if (prototype->ndim > 0 && !prototype->shape) throw ValueError("managed_tensor_allocator: NULL shape");
    Dims shape(prototype->shape, prototype->shape ? prototype->ndim : 0);
    Device device = device_from_dl(prototype->device);
    check_dl_dtype(prototype->dtype);
    DType dtype(prototype->dtype);
    // nullptr: the device's current stream (which then stays alive as long as this memory).
    Array a = Array::empty(shape, dtype, device, nullptr);
    *out = export_versioned(a, 0);
    return 0;
  } catch (const std::exception& e) {
    const char* kind = dynamic_cast<const MemoryError*>(&e)   ? "MemoryError"
                       : dynamic_cast<const BufferError*>(&e) ? "BufferError"
                       : dynamic_cast<const TypeError*>(&e)   ? "TypeError"
                       : dynamic_cast<const std::bad_alloc*>(&e) ? "MemoryError"
                                                                 : "ValueError";
    if (out) *out = nullptr;
    if (SetError) SetError(error_ctx, kind, e.what());
    return -1;
  } catch (...) {
    if (out) *out = nullptr;
    if (SetError) SetError(error_ctx, "RuntimeError", "dlarray: unknown error in managed_tensor_allocator");
    return -1;
  }
}

int managed_tensor_from_py_object_no_sync(void* py_object, DLManagedTensorVersioned** out) {
  bump(dlpack_counters().table_managed_from_py);
  try {
    Array* a = py_object ? try_unwrap(static_cast<PyObject*>(py_object)) : nullptr;
    if (!a) throw TypeError("managed_tensor_from_py_object_no_sync: object is not a dlarray.Array");
    *out = export_versioned(*a, 0);
    return 0;
  } catch (...) {
    if (out) *out = nullptr;
    set_python_error_from_current();
    return -1;
  }
}

int managed_tensor_to_py_object_no_sync(DLManagedTensorVersioned* tensor, void** out_py_object) {
  bump(dlpack_counters().table_managed_to_py);
  try {
    // import_versioned owns `tensor` from here on, on failure too (it calls the deleter).
    Array a = import_versioned(tensor);
    *out_py_object = wrap(std::move(a)).release().ptr();
    return 0;
  } catch (...) {
    if (out_py_object) *out_py_object = nullptr;
    set_python_error_from_current();
    return -1;
  }
}

int dltensor_from_py_object_no_sync(void* py_object, DLTensor* out) {
  bump(dlpack_counters().table_dltensor_from_py);
  Array* a = py_object ? try_unwrap(static_cast<PyObject*>(py_object)) : nullptr;
  if (!a) {
    PyErr_SetString(PyExc_TypeError, "dltensor_from_py_object_no_sync: object is not a dlarray.Array");
    return -1;
  }
  if (a->dtype().is_subbyte()) {
    try {
      check_exportable(*a);
    } catch (...) {
      set_python_error_from_current();
      return -1;
    }
  }
  fill_borrowed(*a, out);
  return 0;
}

int current_work_stream(DLDeviceType device_type, int32_t device_id, void** out_current_stream) {
  bump(dlpack_counters().table_current_work_stream);
  try {
    *out_current_stream = nullptr;
    Device d = device_from_dl(DLDevice{device_type, device_id});
    if (d.kind == DeviceKind::CPU) return 0;
    *out_current_stream = runtime_for(d).current_stream(d.index);
    return 0;
  } catch (...) {
    set_python_error_from_current();
    return -1;
  }
}

const DLPackExchangeAPI kApi = {
    {{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION}, nullptr},
    &managed_tensor_allocator,
    &managed_tensor_from_py_object_no_sync,
    &managed_tensor_to_py_object_no_sync,
    &dltensor_from_py_object_no_sync,
    &current_work_stream,
};

// Whether n bytes at p can be read. A peer's table address is a number anyone can set
// (`__c_dlpack_exchange_api__ = 1`); the kernel copies through it or reports EFAULT
// instead of the process faulting. Where it cannot tell (no such call, or forbidden),
// the address is trusted, as it was before this check.
bool readable(const void* p, size_t n) {
#ifdef __linux__
  alignas(16) char buf[sizeof(DLPackExchangeAPI)];
  if (n > sizeof(buf)) return false;
  iovec local{buf, n}, remote{const_cast<void*>(p), n};
  const ssize_t r = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
  if (r == static_cast<ssize_t>(n)) return true;
  return r < 0 && (errno == ENOSYS || errno == EPERM);
#else
  (void)p;
  (void)n;
  return true;
#endif
}

// The major-1 table reachable from header h, or nullptr with *problem saying why not.
// A newer major may change the table's layout: walk back through prev_api (a bounded
// walk, so a cycle cannot hang the import) to one we understand.
const DLPackExchangeAPI* usable(const DLPackExchangeAPIHeader* h, const char** problem) {
  for (int hops = 0; hops < 16; ++hops, h = h->prev_api) {
    if (!h) {
      *problem = hops ? "no table in its prev_api chain has major version 1" : "the address is 0 (NULL)";
      return nullptr;
    }
    if (reinterpret_cast<uintptr_t>(h) % alignof(DLPackExchangeAPIHeader) != 0) {
      *problem = "the address is not aligned for a DLPackExchangeAPIHeader";
      return nullptr;
    }
    if (!readable(h, sizeof(DLPackExchangeAPIHeader))) {
      *problem = "the address is not readable memory";
      return nullptr;
    }
    if (h->version.major != DLPACK_MAJOR_VERSION) continue;
    auto* api = reinterpret_cast<const DLPackExchangeAPI*>(h);
    if (!readable(api, sizeof(DLPackExchangeAPI))) {
      *problem = "the table is not readable memory";
      return nullptr;
    }
    if (!api->managed_tensor_from_py_object_no_sync || !api->managed_tensor_to_py_object_no_sync ||
        !api->current_work_stream) {
      *problem = "the table lacks a function DLPack requires (NULL pointer)";
      return nullptr;
    }
    return api;
  }
  *problem = "no table of major version 1 within 16 prev_api links";
  return nullptr;
}

// The table a type publishes (the 1.3 capsule attribute first, then the 1.2 int). When it
// publishes a value that cannot be a table, *problem says why (and nullptr is returned).
const DLPackExchangeAPI* lookup(PyTypeObject* type, const char** problem) {
  PyObject* t = reinterpret_cast<PyObject*>(type);
  PyObject* err_type, *err_value, *err_tb;
  PyErr_Fetch(&err_type, &err_value, &err_tb);
  const DLPackExchangeAPI* found = nullptr;
  *problem = nullptr;
  if (PyObject* cap = PyObject_GetAttrString(t, "__dlpack_c_exchange_api__")) {
    if (PyCapsule_IsValid(cap, "dlpack_exchange_api"))
      found = usable(static_cast<const DLPackExchangeAPIHeader*>(PyCapsule_GetPointer(cap, "dlpack_exchange_api")),
                     problem);
    else
      *problem = "__dlpack_c_exchange_api__ is not a capsule named 'dlpack_exchange_api'";
    Py_DECREF(cap);
  }
  PyErr_Clear();
  if (!found) {
    if (PyObject* addr = PyObject_GetAttrString(t, "__c_dlpack_exchange_api__")) {
      if (!PyLong_Check(addr) || PyBool_Check(addr)) {
        *problem = "__c_dlpack_exchange_api__ is not an int (an address)";
      } else if (_PyLong_Sign(addr) < 0) {
        *problem = "__c_dlpack_exchange_api__ is a negative int, not an address";
      } else {
        void* p = PyLong_AsVoidPtr(addr);
        if (!p && PyErr_Occurred()) *problem = "__c_dlpack_exchange_api__ is too large to be an address";
        else found = usable(static_cast<const DLPackExchangeAPIHeader*>(p), problem);
      }
      Py_DECREF(addr);
    }
    PyErr_Clear();
  }
  if (found) *problem = nullptr;
  PyErr_Restore(err_type, err_value, err_tb);
  return found;
}

// A tiny cache, filled round-robin: the hot case is the same one or two peer types over
// and over. Types are kept alive by a strong reference so an address is never reused under
// us, and an entry is trusted only while the type's attribute-cache version tag is
// unchanged: setting __dlpack_c_exchange_api__ on a type after its first import (tvm-ffi
// does so for older PyTorch) invalidates the tag, and the next import looks again.
struct CacheEntry {
  PyTypeObject* type = nullptr;
  unsigned int tag = 0;
  const DLPackExchangeAPI* api = nullptr;
  const char* problem = nullptr;
};
constexpr int kCacheSize = 8;
CacheEntry g_cache[kCacheSize];
int g_cache_next = 0;

}  // namespace

const DLPackExchangeAPI* dlarray_exchange_api() { return &kApi; }

const DLPackExchangeAPI* peer_exchange_api(PyTypeObject* type, const char** problem) {
  const char* unused;
  if (!problem) problem = &unused;
  for (auto& e : g_cache) {
    if (e.type != type) continue;
    const unsigned int tag = type_version_tag(type);
    if (tag == 0 || tag != e.tag) {
      e.api = lookup(type, &e.problem);  // the attribute lookup gives the type a fresh tag
      e.tag = type_version_tag(type);
    }
    *problem = e.problem;
    return e.api;
  }
  const DLPackExchangeAPI* api = lookup(type, problem);
  CacheEntry& slot = g_cache[g_cache_next];
  g_cache_next = (g_cache_next + 1) % kCacheSize;
  PyObject* evicted = reinterpret_cast<PyObject*>(slot.type);
  Py_INCREF(reinterpret_cast<PyObject*>(type));
  slot.type = type;
  slot.tag = type_version_tag(type);
  slot.api = api;
  slot.problem = *problem;
  Py_XDECREF(evicted);  // last: releasing a type may run arbitrary code
  return api;
}

}  // namespace dla::py
