// py_sycl_interface.cpp — __sycl_usm_array_interface__ (SUAI, version 1) and the `oneapi` bindings.
//
// SUAI is dpctl's protocol for SYCL USM memory: NumPy's keys with strides and offset counted in
// elements, and `syclobj`, the SYCL context the pointer belongs to, given as a filter string
// (the default context of the device it selects), a "SyclQueueRef"/"SyclContextRef" capsule,
// or an object whose _get_capsule() returns one (dpctl.SyclQueue). Import is zero-copy: onto
// the CPU when the caller asks for it and the host can read the memory (shared or host USM,
// or any USM of a CPU device), else as a `oneapi` array, which needs the memory to be in the
// default context our queues use. Export describes a `oneapi` array with a queue capsule.
#include <Python.h>
#include <pybind11/pybind11.h>

#include <string>

#include "backends/oneapi/sycl_runtime.h"
#include "bindings/bindings.h"
#include "bindings/py_array.h"
#include "bindings/py_errors.h"
#include "bindings/py_interface_dict.h"
#include "core/errors.h"
#include "dlpack/type_strings.h"

namespace dla::py {
namespace {

constexpr const char* kName = "__sycl_usm_array_interface__";
constexpr const char* kQueueCapsule = "SyclQueueRef";
constexpr const char* kContextCapsule = "SyclContextRef";
const InterfaceSpec kSpec{kName, 1, 1, true, true, false};

// The SYCL context a SUAI dictionary names, as a context reference we own, plus the producer's
// queue when it gave one (borrowed from the capsule, valid while `keep` lives).
struct SyclObj {
  void* ctx = nullptr;
  void* queue = nullptr;
  pyb::object keep;
  sycl::SyclRuntime* rt = nullptr;
  ~SyclObj() {
    if (rt) rt->delete_context(ctx);
  }
};

void resolve_syclobj(PyObject* obj, sycl::SyclRuntime* rt, const char* fname, SyclObj* out) {
  const std::string where = std::string(fname) + ": " + kName;
  out->rt = rt;
  pyb::object cap = pyb::reinterpret_borrow<pyb::object>(obj);
  if (PyUnicode_Check(obj)) {
    const char* filter = PyUnicode_AsUTF8(obj);
    if (!filter) throw pybind11::error_already_set();
    const int dev = rt->device_from_filter(filter);
    if (dev < 0) throw ValueError(where + " syclobj '" + filter + "' selects no SYCL device");
    out->ctx = rt->queue_context(rt->queue(dev));
    return;
  }
  if (!PyCapsule_CheckExact(obj)) {
    static PyObject* get_capsule = PyUnicode_InternFromString("_get_capsule");
    PyObject* c = PyObject_CallMethodNoArgs(obj, get_capsule);
    if (!c) {
      if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw pybind11::error_already_set();
      PyErr_Clear();
      throw TypeError(where + " syclobj must be a filter string, a SyclQueueRef or SyclContextRef capsule, or an "
                      "object with _get_capsule() (dpctl.SyclQueue), got " + Py_TYPE(obj)->tp_name);
    }
    cap = pyb::reinterpret_steal<pyb::object>(c);
    if (!PyCapsule_CheckExact(c))
      throw TypeError(where + " syclobj._get_capsule() returned a " + Py_TYPE(c)->tp_name + ", not a capsule");
  }
  const char* name = PyCapsule_GetName(cap.ptr());
  void* ref = name ? PyCapsule_GetPointer(cap.ptr(), name) : nullptr;
  if (!ref) {
    PyErr_Clear();
    throw TypeError(where + " syclobj capsule is empty or unnamed");
  }
  out->keep = cap;
  if (std::string(name) == kQueueCapsule) {
    out->queue = ref;
    out->ctx = rt->queue_context(ref);
  } else if (std::string(name) == kContextCapsule) {
    // Borrowed: the capsule (kept in `keep`) owns it; rt must not delete it.
    out->ctx = ref;
    out->rt = nullptr;
  } else {
    throw TypeError(where + " syclobj capsule is named '" + name + "'; expected 'SyclQueueRef' or 'SyclContextRef'");
  }
}

sycl::SyclRuntime* available_runtime(const char* fname) {
  sycl::SyclRuntime* rt = sycl::runtime();
  if (!rt || rt->device_count() == 0) {
    std::string why = rt ? rt->why_unavailable() : "dpctl is not installed";
    throw BufferError(std::string(fname) + ": " + kName + " describes SYCL USM memory, but no SYCL device is available (" +
                      why + ")");
  }
  return rt;
}

void release_queue_capsule(PyObject* cap) {
  // dpctl renames a capsule it takes over; only an unclaimed one still owns its queue.
  if (!PyCapsule_IsValid(cap, kQueueCapsule)) return;
  if (sycl::SyclRuntime* rt = sycl::runtime()) rt->delete_queue(PyCapsule_GetPointer(cap, kQueueCapsule));
}

pyb::object export_interface(const Array& a) {
  if (a.device().kind != DeviceKind::ONEAPI)
    throw pyb::attribute_error(std::string(kName) + ": the array is on '" + a.device().str() +
                               "'; only oneapi (SYCL USM) arrays have one");
  const std::string typestr = typestr_of(a.dtype());
  if (typestr.empty())
    throw pyb::attribute_error(std::string(kName) + ": dtype " + a.dtype().name() + " has no typestr; use DLPack");
  sycl::SyclRuntime* rt = sycl::runtime();
  pyb::dict d;
  d["shape"] = pyb::reinterpret_steal<pyb::object>(interface_shape(a));
  d["typestr"] = typestr;
  d["data"] = pyb::make_tuple(reinterpret_cast<uintptr_t>(a.data()), a.readonly());
  d["strides"] = pyb::reinterpret_steal<pyb::object>(interface_strides(a, true));
  d["offset"] = 0;
  void* q = rt->copy_queue(a.device().index);
  PyObject* cap = PyCapsule_New(q, kQueueCapsule, release_queue_capsule);
  if (!cap) {
    rt->delete_queue(q);
    throw pybind11::error_already_set();
  }
  d["syclobj"] = pyb::reinterpret_steal<pyb::object>(cap);
  d["version"] = 1;
  return std::move(d);
}

sycl::UsmKind usm_kind_from_name(const std::string& s) {
  if (s == "device") return sycl::UsmKind::Device;
  if (s == "shared") return sycl::UsmKind::Shared;
  if (s == "host") return sycl::UsmKind::Host;
  throw ValueError("usm_type must be 'device', 'shared' or 'host', got '" + s + "'");
}

}  // namespace

bool import_sycl_interface(PyObject* obj, const Device* want, const char* fname, Array* out) {
  static PyObject* name = PyUnicode_InternFromString(kName);
  PyObject* iface = PyObject_GetAttr(obj, name);
  if (!iface) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw pybind11::error_already_set();
    PyErr_Clear();
    return false;
  }
  auto hold = pyb::reinterpret_steal<pyb::object>(iface);
  InterfaceLayout l = parse_interface_dict(iface, kSpec, fname);
  if (!l.syclobj) throw ValueError(std::string(fname) + ": " + kName + " lacks the required key 'syclobj'");
  sycl::SyclRuntime* rt = available_runtime(fname);
  SyclObj so;
  resolve_syclobj(l.syclobj, rt, fname, &so);
  if (!so.ctx) throw ValueError(std::string(fname) + ": " + kName + " syclobj names no SYCL context");

  sycl::PointerInfo info;
  if (l.base) {
    info = rt->pointer_info(l.base, so.ctx);
    if (info.kind == sycl::UsmKind::Unknown || info.device < 0)
      throw BufferError(std::string(fname) + ": " + kName + " data pointer is not USM memory of the syclobj's context");
  } else {
    info.device = so.queue ? std::max(rt->queue_device(so.queue), 0) : 0;
    info.host_readable = true;
  }
  // The producer's queued work may still write the memory: SUAI has no stream to order after.
  if (so.queue) rt->wait_queue(so.queue);
  Device dev{DeviceKind::ONEAPI, info.device};
  if (want && want->kind == DeviceKind::CPU && info.host_readable) {
    dev = Device{};
  } else if (!rt->is_our_context(so.ctx, info.device)) {
    throw BufferError(std::string(fname) + ": " + kName +
                      " memory belongs to a SYCL context other than the device's default one, which dlarray's "
                      "queues cannot use" + (info.host_readable ? " (ask for device='cpu' to read it from the host)" : ""));
  }
  *out = adopt_interface(l, dev, obj);
  return true;
}

void bind_sycl_interface(pyb::module_& m) {
  pyb::handle type(reinterpret_cast<PyObject*>(array_type()));
  auto getter = pyb::cpp_function([](pyb::handle self) { return export_interface(unwrap(self.ptr(), "self")); });
  type.attr(kName) = pyb::module_::import("builtins").attr("property")(getter);

  m.def("_oneapi_configure", [](const std::string& path) { sycl::configure(path); },
        "Point the oneapi device kind at dpctl's libDPCTLSyclInterface (loaded on first use).");
  m.def("_oneapi_device_count", []() {
    sycl::SyclRuntime* rt = sycl::runtime();
    return rt ? rt->device_count() : 0;
  });
  m.def("_oneapi_why_unavailable", []() -> std::string {
    sycl::SyclRuntime* rt = sycl::runtime();
    return rt ? rt->why_unavailable() : "dpctl is not installed";
  });
  m.def("_oneapi_set_usm_type", [](const std::string& kind) { sycl::set_default_usm_kind(usm_kind_from_name(kind)); });
  m.def("_oneapi_get_usm_type", []() {
    sycl::SyclRuntime* rt = sycl::runtime();
    return std::string(rt ? rt->usm_kind_name(sycl::default_usm_kind()) : "device");
  });
  m.def("_oneapi_usm_type", [](pyb::handle x) -> std::string {
    const Array& a = unwrap(x, "x");
    sycl::SyclRuntime* rt = sycl::runtime();
    if (a.device().kind != DeviceKind::ONEAPI || !rt)
      throw ValueError("usm_type: the array is on '" + a.device().str() + "', not a oneapi device");
    void* ctx = rt->queue_context(rt->queue(a.device().index));
    sycl::PointerInfo info = rt->pointer_info(a.storage()->data(), ctx);
    rt->delete_context(ctx);
    return rt->usm_kind_name(info.kind);
  });
}

}  // namespace dla::py
