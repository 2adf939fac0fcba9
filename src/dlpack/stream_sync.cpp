// stream_sync.cpp — stream validation and cross-stream ordering for DLPack exchange.
#include "dlpack/stream_sync.h"

#include <pybind11/pybind11.h>

#include <string>

#include "core/copy.h"
#include "core/errors.h"
#include "core/runtime.h"

namespace dla::py {
namespace {

// Sentinel handles with the CUDA runtime's meaning (cudaStreamLegacy, cudaStreamPerThread).
StreamHandle const kLegacyDefault = reinterpret_cast<StreamHandle>(0x1);
StreamHandle const kPerThreadDefault = reinterpret_cast<StreamHandle>(0x2);

bool is_gpu(DeviceKind k) { return k == DeviceKind::CUDA || k == DeviceKind::ROCM; }

}  // namespace

StreamRequest parse_stream_request(Device target, PyObject* stream) {
  StreamRequest req;
  const bool none = !stream || stream == Py_None;
  if (!is_gpu(target.kind)) {
    if (!none)
      throw ValueError("__dlpack__: stream must be None for arrays on '" + target.str() +
                       "' (streams exist only on CUDA and ROCm devices)");
    return req;
  }
  if (!none && !PyLong_Check(stream))
    throw TypeError("__dlpack__: stream must be an int or None");
  long long v = none ? (target.kind == DeviceKind::CUDA ? 1 : 0) : PyLong_AsLongLong(stream);
  if (v == -1 && PyErr_Occurred()) throw pybind11::error_already_set();
  if (v == -1) return req;  // consumer asks for no synchronisation
  if (v < -1) throw ValueError("__dlpack__: stream must be >= -1, got " + std::to_string(v));
  if (target.kind == DeviceKind::CUDA) {
    if (v == 0) throw ValueError("__dlpack__: stream=0 is ambiguous on CUDA; use 1 (legacy default) or 2 (per-thread)");
    req.consumer = v == 1 ? kLegacyDefault : v == 2 ? kPerThreadDefault : reinterpret_cast<StreamHandle>(v);
  } else {
    if (v == 1 || v == 2) throw ValueError("__dlpack__: stream values 1 and 2 are not valid on ROCm");
    req.consumer = reinterpret_cast<StreamHandle>(v);  // 0 is the default stream
  }
  req.sync = true;
  return req;
}

void make_consumer_wait(const Array& a, const StreamRequest& req) {
  if (!req.sync) return;
  Device d = a.device();
  DeviceRuntime& rt = runtime_for(d);
  rt.stream_wait(d, rt.current_stream(d.index), req.consumer);
}

Array copy_for_consumer(const Array& a, Device target, const StreamRequest& req) {
  // The copy must see our finished data and land in the consumer's stream order.
  Device src = a.device();
  if (is_gpu(src.kind)) {
    DeviceRuntime& rt = runtime_for(src);
    StreamHandle ours = rt.current_stream(src.index);
    if (req.sync) {
      rt.stream_wait(src, ours, req.consumer);
      return copy_to(a, target, req.consumer);
    }
    Array out = copy_to(a, target, ours);
    if (!is_gpu(target.kind)) rt.synchronize(src, ours);  // the host will read it next
    return out;
  }
  return copy_to(a, target, req.sync ? req.consumer : nullptr);
}

PyObject* consumer_stream_argument(Device src) {
  if (!is_gpu(src.kind)) return nullptr;
  DeviceRuntime* rt = find_runtime(src.kind);
  StreamHandle s = rt ? rt->current_stream(src.index) : nullptr;
  if (src.kind == DeviceKind::CUDA) {
    // Our default stream is the legacy default stream, which DLPack spells 1.
    if (s == nullptr || s == kLegacyDefault) return PyLong_FromLong(1);
    return PyLong_FromVoidPtr(s);
  }
  return s ? PyLong_FromVoidPtr(s) : PyLong_FromLong(0);
}

void order_after_peer(const Array& a, const DLPackExchangeAPI* api) {
  Device d = a.device();
  if (!is_gpu(d.kind)) return;
  void* theirs = nullptr;
  if (api->current_work_stream(static_cast<DLDeviceType>(d.kind), d.index, &theirs) != 0)
    throw pybind11::error_already_set();
  DeviceRuntime& rt = runtime_for(d);
  StreamHandle ours = rt.current_stream(d.index);
  if (theirs != ours) rt.stream_wait(d, theirs, ours);
}

}  // namespace dla::py
