// stream_sync.h — the DLPack stream rules, shared by producer and consumer paths.
//
// Stream values (array API 2023.12, DLPack 1.3): on CPU only None; on CUDA None/1 legacy
// default, 2 per-thread default, 0 invalid, -1 no synchronisation, > 2 a handle; on ROCm
// None/0 default, 1 and 2 invalid. A producer makes the consumer's stream wait on an
// event recorded on its own stream, never a device-wide synchronisation. Pinned host memory
// takes only None and, like managed memory with None, is handed over with our stream
// finished, since its consumer reads it from the host.
// Plain C++: the Python glue (reading `stream=`, making the int a producer is handed) is in
// src/bindings/py_dlpack.cpp.
#pragma once
#include <cstdint>
#include <optional>

#include "core/array.h"
#include "dlpack/dlpack.h"

namespace dla {

struct StreamRequest {
  bool sync = false;                 // false for CPU and for stream=-1
  bool host = false;                 // a host consumer of pinned/managed memory: finish our work first
  StreamHandle consumer = nullptr;   // the consumer's stream (native handle, or kDefaultStream)
};

// Whether `stream=` may be anything but None for exports on `target` (CUDA, CUDA managed, ROCm).
bool takes_stream_values(Device target);
// Validates a `stream=` value for exports on `target` (nullopt: None); ValueError on misuse.
StreamRequest stream_request(Device target, std::optional<int64_t> stream);
// Producer side, zero-copy: consumer's stream waits for our pending work on `a`.
void make_consumer_wait(const Array& a, const StreamRequest& req);
// Producer side, a copy was needed: ordered after our work, performed on the consumer's stream.
Array copy_for_consumer(const Array& a, Device target, const StreamRequest& req);
// Consumer side: the `stream=` value to pass a producer on `src`, or nullopt (None) for CPU.
std::optional<intptr_t> consumer_stream_value(Device src);
// Consumer side through a peer's C table: our stream waits for the peer's current stream.
// False when the peer's current_work_stream failed (it has set its error for the caller).
bool order_after_peer(const Array& a, const DLPackExchangeAPI* api);

}  // namespace dla
