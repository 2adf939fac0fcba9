// runtime.h — what a device backend provides besides memory: streams, copies, events.
//
// One DeviceRuntime per device kind is registered at module load (the CPU one always;
// CUDA and ROCm when their backend is compiled in). Cross-device copies go through the
// runtime of the non-CPU side. The CPU runtime has no streams: StreamHandle is nullptr.
#pragma once
#include <cstddef>

#include "core/device.h"

namespace dla {
class Array;
}

namespace dla {

class DeviceRuntime {
 public:
  virtual ~DeviceRuntime() = default;
  // Devices of this kind visible now (0 when the driver or hardware is missing).
  virtual int device_count() = 0;
  // The stream dlarray issues work on for this device (nullptr: the default stream).
  virtual StreamHandle current_stream(int index) = 0;
  // Copies n bytes between two places at least one of which is this runtime's kind,
  // ordered on `stream`. Returns once the host may reuse `src` if src is host memory.
  virtual void copy_bytes(void* dst, Device dst_dev, const void* src, Device src_dev, size_t n,
                          StreamHandle stream) = 0;
  // Blocks the host until work queued on `stream` is done.
  virtual void synchronize(Device device, StreamHandle stream) = 0;
  // Makes `consumer` wait for work queued so far on `producer` (event record + wait).
  virtual void stream_wait(Device device, StreamHandle producer, StreamHandle consumer) = 0;
  // dst = src for two arrays on this device with the same shape and dtype, any strides.
  // Device backends implement it with a kernel; the default refuses.
  virtual void copy_strided(const Array& dst, const Array& src, StreamHandle stream);
};

void register_runtime(DeviceKind kind, DeviceRuntime* runtime);
DeviceRuntime* find_runtime(DeviceKind kind);
// Throws ValueError naming the device when its kind has no runtime or the index is out of range.
DeviceRuntime& runtime_for(Device device);

}  // namespace dla
