// device.h — device identities (kind + index) and the stream handle type.
//
// Kinds use DLPack's DLDeviceType values so that a Device converts to and from DLDevice
// without tables. Whether a device exists is the business of its backend's runtime
// (src/core/runtime.h), not of this value type.
#pragma once
#include <cstdint>
#include <string>

#include "dlpack/dlpack.h"

namespace dla {

enum class DeviceKind : int32_t {
  CPU = kDLCPU,
  CUDA = kDLCUDA,
  CUDAHost = kDLCUDAHost,
  ROCM = kDLROCM,
  ROCMHost = kDLROCMHost,
  CUDAManaged = kDLCUDAManaged,
  ONEAPI = kDLOneAPI,  // SYCL devices (USM memory), through dpctl's runtime
};

// An opaque per-backend stream (cudaStream_t / hipStream_t); nullptr is the default stream.
using StreamHandle = void*;

struct Device {
  DeviceKind kind = DeviceKind::CPU;
  int32_t index = 0;

  // Memory the host can read and write directly (CPU, pinned and managed memory).
  bool host_accessible() const {
    return kind == DeviceKind::CPU || kind == DeviceKind::CUDAHost ||
           kind == DeviceKind::CUDAManaged || kind == DeviceKind::ROCMHost;
  }
  bool operator==(const Device& o) const { return kind == o.kind && index == o.index; }
  bool operator!=(const Device& o) const { return !(*this == o); }
  DLDevice to_dl() const { return DLDevice{static_cast<DLDeviceType>(kind), index}; }
  std::string str() const;
};

// Kind names as users write them: "cpu", "cuda", "cuda_host", "cuda_managed", "rocm", "rocm_host".
const char* device_kind_name(DeviceKind kind);
// Parses "cpu", "cuda", "cuda:1", "rocm:0", ...; throws ValueError on anything else.
Device parse_device(const std::string& text);
// Maps a DLDevice to a Device; throws BufferError for device types dlarray cannot hold.
Device device_from_dl(DLDevice d);

}  // namespace dla
