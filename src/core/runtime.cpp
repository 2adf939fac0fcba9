// runtime.cpp — the runtime lookup (through the backend registry, core/backend.h) and the
// defaults of DeviceRuntime.
#include "core/runtime.h"

#include <string>

#include "core/array.h"
#include "core/backend.h"
#include "core/errors.h"

namespace dla {

DeviceRuntime* find_runtime(DeviceKind kind) { return backend_of(kind).runtime; }

void DeviceRuntime::copy_strided(const Array& dst, const Array&, StreamHandle) {
  throw NotImplementedError("strided copies on device '" + dst.device().str() +
                            "' are not supported by this build");
}

void DeviceRuntime::fill(const Array& dst, const void*, StreamHandle) {
  throw NotImplementedError("fills on device '" + dst.device().str() + "' are not supported by this build");
}

void sync_for_host(Device device) {
  if (device.kind == DeviceKind::CPU) return;
  runtime_for(device).synchronize(device, nullptr);
}

DeviceRuntime& runtime_for(Device device) {
  DeviceRuntime* rt = find_runtime(device.kind);
  if (!rt)
    throw ValueError("device '" + device.str() + "' is not available: this build of dlarray has no " +
                     device_kind_name(device.kind) + " backend");
  int count = rt->device_count();
  if (device.index < 0 || device.index >= count) {
    std::string why = count == 0 ? rt->why_unavailable() : std::string();
    throw ValueError("device '" + device.str() + "' does not exist (" + std::to_string(count) + " " +
                     device_kind_name(device.kind) + " device(s) visible" + (why.empty() ? "" : ": " + why) +
                     ")");
  }
  return *rt;
}

}  // namespace dla
