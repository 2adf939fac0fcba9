// stream_sync.h — the DLPack stream rules, shared by producer and consumer paths.
//
// Stream values (array API 2023.12, DLPack 1.3): on CPU only None; on CUDA None/1 legacy
// default, 2 per-thread default, 0 invalid, -1 no synchronisation, > 2 a handle; on ROCm
// None/0 default, 1 and 2 invalid. A producer makes the consumer's stream wait on an
// event recorded on its own stream, never a device-wide synchronisation. Pinned host memory
// takes only None and, like managed memory with None, is handed over with our stream
// finished, since its consumer reads it from the host.
#pragma once
#include <Python.h>

#include "core/array.h"
#include "dlpack/dlpack.h"

namespace dla::py {

struct StreamRequest {
  bool sync = false;                 // false for CPU and for stream=-1
  bool host = false;                 // a host consumer of pinned/managed memory: finish our work first
  StreamHandle consumer = nullptr;   // the consumer's stream (native handle, or kDefaultStream)
};

// Validates `stream` (may be nullptr/None) for exports on `target`; ValueError/TypeError on misuse.
StreamRequest parse_stream_request(Device target, PyObject* stream);
// Producer side, zero-copy: consumer's stream waits for our pending work on `a`.
void make_consumer_wait(const Array& a, const StreamRequest& req);
// Producer side, a copy was needed: ordered after our work, performed on the consumer's stream.
Array copy_for_consumer(const Array& a, Device target, const StreamRequest& req);
// Consumer side: the `stream=` value to pass a producer on `src` (new reference), or nullptr for CPU.
PyObject* consumer_stream_argument(Device src);
// Consumer side through a peer's C table: our stream waits for the peer's current stream.
void order_after_peer(const Array& a, const DLPackExchangeAPI* api);

}  // namespace dla::py
