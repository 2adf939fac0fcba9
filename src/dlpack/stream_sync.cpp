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
  // Managed memory is device memory to a CUDA consumer that names its stream.
  const bool cuda_rules = target.kind == DeviceKind::CUDA || (target.kind == DeviceKind::CUDAManaged && !none);
  if (!cuda_rules && target.kind != DeviceKind::ROCM) {
    if (!none)
      throw ValueError("__dlpack__: stream must be None for arrays on '" + target.str() +
                       "' (streams exist only on CUDA and ROCm devices)");
    req.host = target.kind != DeviceKind::CPU;
    return req;
  }
  if (!none && !PyLong_Check(stream))
    throw TypeError("__dlpack__: stream must be an int or None");
  long long v = none ? (cuda_rules ? 1 : 0) : PyLong_AsLongLong(stream);
  if (v == -1 && PyErr_Occurred()) throw pybind11::error_already_set();
  if (v == -1) return req;  // consumer asks for no synchronisation
  if (v < -1) throw ValueError("__dlpack__: stream must be >= -1, got " + std::to_string(v));
  if (cuda_rules) {
    if (v == 0) throw ValueError("__dlpack__: stream=0 is ambiguous on CUDA; use 1 (legacy default) or 2 (per-thread)");
    req.consumer = v == 1 ? kLegacyDefault : v == 2 ? kPerThreadDefault : reinterpret_cast<StreamHandle>(v);
  } else {
    if (v == 1 || v == 2) throw ValueError("__dlpack__: stream values 1 and 2 are not valid on ROCm");
    req.consumer = v == 0 ? kDefaultStream : reinterpret_cast<StreamHandle>(v);
  }
  req.sync = true;
  return req;
}

void make_consumer_wait(const Array& a, const StreamRequest& req) {
  if (req.host) {
    sync_for_host(a.device());
    return;
  }
  if (!req.sync) return;
  Device d = a.device();
  DeviceRuntime& rt = runtime_for(d);
  rt.stream_wait(d, rt.current_stream(d.index), req.consumer);
}

Array copy_for_consumer(const Array& a, Device target, const StreamRequest& req) {
  // The copy must see our finished data and land in the consumer's stream order.
  Device src = a.device();
  if (!src.host_accessible()) {
    DeviceRuntime& rt = runtime_for(src);
    if (req.sync) {
      // Queued on the consumer's stream behind our pending work. (From another device of
      // ours, copy_bytes itself orders the copy after that device's current stream.)
      if (find_runtime(target.kind) == &rt && target.index == src.index) rt.stream_wait(src, nullptr, req.consumer);
      return copy_to(a, target, req.consumer);
    }
    Array out = copy_to(a, target, nullptr);
    if (target.host_accessible()) rt.synchronize(src, nullptr);  // the host reads it next
    return out;
  }
  sync_for_host(src);  // pinned/managed sources may still be written by our queued work
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
  // The peer's NULL is its default stream; to our runtime NULL would mean our current one.
  runtime_for(d).stream_wait(d, theirs ? theirs : kDefaultStream, nullptr);
}

}  // namespace dla::py
