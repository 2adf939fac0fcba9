// py_cuda_interface.cpp — __cuda_array_interface__ (CAI, version 3): Array's export and the import.
//
// CAI describes CUDA memory with the keys of NumPy's array interface plus `stream`: the
// producer names the stream on which the data is valid (None: no synchronisation needed, 1 the
// legacy default stream, 2 the per-thread default stream, 0 disallowed), and the consumer must
// order its own work after that stream before touching the data. We export our current stream
// and, importing, make our current stream wait on the producer's through an event, never a
// device-wide synchronisation. The data pointer names no device: the runtime is asked.
#include <Python.h>
#include <pybind11/pybind11.h>

#include <string>

#include "backends/gpu/gpu_backend.h"
#include "bindings/bindings.h"
#include "bindings/py_array.h"
#include "bindings/py_errors.h"
#include "bindings/py_interface_dict.h"
#include "core/errors.h"
#include "core/runtime.h"
#include "dlpack/type_strings.h"

namespace dla::py {
namespace {

constexpr const char* kName = "__cuda_array_interface__";
const InterfaceSpec kSpec{kName, 0, 3, false, false, false};
// CUDA's stream sentinels (cudaStreamLegacy, cudaStreamPerThread), the values CAI gives 1 and 2.
StreamHandle const kLegacyDefault = reinterpret_cast<StreamHandle>(0x1);
StreamHandle const kPerThreadDefault = reinterpret_cast<StreamHandle>(0x2);

// The backend whose memory CAI describes: CUDA. Tests point it at the ROCm slot, where the
// host-memory fake GPU (dlarray._fake_gpu) runs the same code on machines without a GPU.
DeviceKind g_kind = DeviceKind::CUDA;

gpu::Backend* cai_backend() { return gpu::backend_for(g_kind); }

pyb::object export_interface(const Array& a) {
  gpu::Backend* b = cai_backend();
  const Device d = a.device();
  // Device and managed memory; pinned host memory has __array_interface__ instead.
  const bool ours = b && (d.kind == b->device_kind() || (b->has_managed() && b->owns(d.kind) && d.kind != b->host_kind()));
  if (!ours)
    throw pyb::attribute_error(std::string(kName) + ": the array is on '" + d.str() +
                               "'; only CUDA device and managed memory has one");
  const std::string typestr = typestr_of(a.dtype());
  if (typestr.empty())
    throw pyb::attribute_error(std::string(kName) + ": dtype " + a.dtype().name() + " has no typestr; use DLPack");
  pyb::dict dict;
  dict["shape"] = pyb::reinterpret_steal<pyb::object>(interface_shape(a));
  dict["typestr"] = typestr;
  pyb::list descr;
  descr.append(pyb::make_tuple("", typestr));
  dict["descr"] = descr;
  // CAI asks for 0 as the pointer of an empty array.
  const uintptr_t ptr = a.size() == 0 ? 0 : reinterpret_cast<uintptr_t>(a.data());
  dict["data"] = pyb::make_tuple(ptr, a.readonly());
  dict["strides"] = pyb::reinterpret_steal<pyb::object>(interface_strides(a, false));
  // The data is valid on our current stream; our default stream is the legacy one (1).
  StreamHandle s = b->current_stream(d.index);
  if (s == nullptr || s == kLegacyDefault)
    dict["stream"] = 1;
  else
    dict["stream"] = pyb::reinterpret_steal<pyb::object>(PyLong_FromVoidPtr(s));
  dict["version"] = 3;
  return std::move(dict);
}

// The stream a producer named, as a native handle; nullptr when it asks for no synchronisation.
StreamHandle producer_stream(PyObject* v, const char* fname) {
  if (!v) return nullptr;
  if (!PyLong_Check(v) || PyBool_Check(v))
    throw TypeError(std::string(fname) + ": " + kName + " stream must be None or an int, got " + Py_TYPE(v)->tp_name);
  const long long s = PyLong_AsLongLong(v);
  if (s == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    throw ValueError(std::string(fname) + ": " + kName + " stream is out of range");
  }
  if (s == 0)
    throw ValueError(std::string(fname) + ": " + kName +
                     " stream 0 is disallowed by version 3 (ambiguous: use 1 for the legacy default stream, "
                     "2 for the per-thread default stream)");
  if (s < 0) throw ValueError(std::string(fname) + ": " + kName + " stream must be positive, got " + std::to_string(s));
  // (HIP has no such sentinels: under the test hook both name the default stream.)
  if (g_kind != DeviceKind::CUDA && s <= 2) return kDefaultStream;
  return s == 1 ? kLegacyDefault : s == 2 ? kPerThreadDefault : reinterpret_cast<StreamHandle>(s);
}

}  // namespace

bool import_cuda_interface(PyObject* obj, const char* fname, Array* out) {
  static PyObject* name = PyUnicode_InternFromString(kName);
  PyObject* iface = PyObject_GetAttr(obj, name);
  if (!iface) {
    // AttributeError is "not offered" (also how producers say "not for this array").
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw pybind11::error_already_set();
    PyErr_Clear();
    return false;
  }
  auto hold = pyb::reinterpret_steal<pyb::object>(iface);
  InterfaceLayout l = parse_interface_dict(iface, kSpec, fname);
  StreamHandle stream = l.version >= 3 ? producer_stream(l.stream, fname) : nullptr;

  gpu::Backend* b = cai_backend();
  if (!b || b->device_count() == 0) {
    std::string why = b ? b->why_unavailable() : "dlarray was built without CUDA";
    throw BufferError(std::string(fname) + ": " + kName + " describes CUDA memory, but no CUDA device is available" +
                      (why.empty() ? "" : " (" + why + ")"));
  }
  Device dev{b->device_kind(), 0};  // an empty array's NULL pointer lives nowhere: device 0
  if (l.base && !b->pointer_device(l.base, &dev))
    throw BufferError(std::string(fname) + ": " + kName + " data pointer " +
                      std::to_string(reinterpret_cast<uintptr_t>(l.base)) + " is not memory the CUDA runtime knows");
  if (stream) {
    // Our current stream (where everything we do with the data is queued) waits for the
    // producer's work through an event.
    Device gpu_dev{b->device_kind(), dev.index};
    b->stream_wait(gpu_dev, stream, nullptr);
  }
  *out = adopt_interface(l, dev, obj);
  return true;
}

void bind_cuda_interface(pyb::module_& m) {
  pyb::handle type(reinterpret_cast<PyObject*>(array_type()));
  // A property raising AttributeError off CUDA, so hasattr(x, "__cuda_array_interface__") is
  // False there (CuPy and Numba probe with hasattr).
  auto getter = pyb::cpp_function([](pyb::handle self) { return export_interface(unwrap(self.ptr(), "self")); });
  type.attr(kName) = pyb::module_::import("builtins").attr("property")(getter);
  // Tests: run CAI against another backend's memory kinds ("rocm": the fake GPU), or "cuda".
  m.def("_cai_backend", [](const std::string& kind) {
    if (kind != "cuda" && kind != "rocm") throw ValueError("_cai_backend: kind must be 'cuda' or 'rocm'");
    g_kind = kind == "cuda" ? DeviceKind::CUDA : DeviceKind::ROCM;
  });
}

}  // namespace dla::py
