// stream_sync.cpp — stream validation and cross-stream ordering for DLPack exchange.
#include "dlpack/stream_sync.h"

#include <string>

#include "core/copy.h"
#include "core/errors.h"
#include "core/runtime.h"

namespace dla {
namespace {

// Sentinel handles with the CUDA runtime's meaning (cudaStreamLegacy, cudaStreamPerThread).
StreamHandle const kLegacyDefault = reinterpret_cast<StreamHandle>(0x1);
StreamHandle const kPerThreadDefault = reinterpret_cast<StreamHandle>(0x2);

bool is_gpu(DeviceKind k) { return k == DeviceKind::CUDA || k == DeviceKind::ROCM; }

}  // namespace

bool takes_stream_values(Device target) {
  return target.kind == DeviceKind::CUDA || target.kind == DeviceKind::CUDAManaged || target.kind == DeviceKind::ROCM;
}

StreamRequest stream_request(Device target, std::optional<int64_t> stream) {
  StreamRequest req;
  const bool none = !stream;
  // Managed memory is device memory to a CUDA consumer that names its stream.
  const bool cuda_rules = target.kind == DeviceKind::CUDA || (target.kind == DeviceKind::CUDAManaged && !none);
  if (!cuda_rules && target.kind != DeviceKind::ROCM) {
    if (!none)
      throw ValueError("__dlpack__: stream must be None for arrays on '" + target.str() +
                       "' (streams exist only on CUDA and ROCm devices)");
    req.host = target.kind != DeviceKind::CPU;
    return req;
  }
  const int64_t v = none ? (cuda_rules ? 1 : 0) : *stream;
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

std::optional<intptr_t> consumer_stream_value(Device src) {
  if (!is_gpu(src.kind)) return std::nullopt;
  DeviceRuntime* rt = find_runtime(src.kind);
  StreamHandle s = rt ? rt->current_stream(src.index) : nullptr;
  if (src.kind == DeviceKind::CUDA) {
    // Our default stream is the legacy default stream, which DLPack spells 1.
    if (s == nullptr || s == kLegacyDefault) return 1;
    return reinterpret_cast<intptr_t>(s);
  }
  return s ? reinterpret_cast<intptr_t>(s) : 0;
}

bool order_after_peer(const Array& a, const DLPackExchangeAPI* api) {
  Device d = a.device();
  if (!is_gpu(d.kind)) return true;
  void* theirs = nullptr;
  if (api->current_work_stream(static_cast<DLDeviceType>(d.kind), d.index, &theirs) != 0) return false;
  // The peer's NULL is its default stream; to our runtime NULL would mean our current one.
  runtime_for(d).stream_wait(d, theirs ? theirs : kDefaultStream, nullptr);
  return true;
}

}  // namespace dla
