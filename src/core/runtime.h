// runtime.h — what a device backend provides besides memory: streams, copies, events.
//
// One DeviceRuntime per device kind is registered at module load (the CPU one always;
// CUDA and ROCm when their backend is compiled in). Cross-device copies go through the
// runtime of the device side. The CPU runtime has no streams: StreamHandle is nullptr.
//
// Streams: a StreamHandle of nullptr means "the device's current stream" (the one the user
// set with dlarray.cuda.set_stream, else the default stream), so code that does not care
// about streams issues work where the user wants it. Any other value is a native handle
// (cudaStream_t / hipStream_t, including CUDA's 0x1 / 0x2 default-stream sentinels), except
// kDefaultStream, which names the backend's default (null) stream literally.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/device.h"

namespace dla {
class Array;
}

namespace dla {

inline StreamHandle const kDefaultStream = reinterpret_cast<StreamHandle>(~uintptr_t(0));

class DeviceRuntime {
 public:
  virtual ~DeviceRuntime() = default;
  // Devices of this kind visible now (0 when the driver or hardware is missing).
  virtual int device_count() = 0;
  // The stream dlarray issues work on for this device (nullptr: the default stream).
  virtual StreamHandle current_stream(int index) = 0;
  // Copies n bytes between two places at least one of which is this runtime's device memory,
  // ordered on `stream` (a stream of the destination device when it is one of ours, else of
  // the source's). Returns once the host may reuse a pageable `src`, and once the data has
  // landed when `dst` is pageable; pinned and managed memory stay in stream order (host
  // readers call sync_for_host first).
  virtual void copy_bytes(void* dst, Device dst_dev, const void* src, Device src_dev, size_t n,
                          StreamHandle stream) = 0;
  // Blocks the host until work queued on `stream` is done.
  virtual void synchronize(Device device, StreamHandle stream) = 0;
  // Makes `consumer` wait for work queued so far on `producer` (event record + wait).
  virtual void stream_wait(Device device, StreamHandle producer, StreamHandle consumer) = 0;
  // dst = src for two arrays on this device with the same shape and dtype, any strides.
  // Device backends implement it with a kernel; the default refuses.
  virtual void copy_strided(const Array& dst, const Array& src, StreamHandle stream);
  // Every element of dst (on this device, any strides) = the itemsize bytes at `elem`.
  virtual void fill(const Array& dst, const void* elem, StreamHandle stream);
  // Why device_count() is 0 (driver missing, ...), for error messages; empty if unknown.
  virtual std::string why_unavailable() { return {}; }
};

DeviceRuntime* find_runtime(DeviceKind kind);
// Throws ValueError naming the device when its kind has no runtime or the index is out of range.
DeviceRuntime& runtime_for(Device device);
// Before the host touches pinned or managed memory of `device`: waits for the work queued on
// its current stream (which may still write or read it). No-op for CPU memory.
void sync_for_host(Device device);

}  // namespace dla
