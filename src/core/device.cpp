// device.cpp — names and parsing of device identities.
#include "core/device.h"

#include <cstdlib>

#include "core/errors.h"

namespace dla {
namespace {
struct KindName {
  DeviceKind kind;
  const char* name;
};
constexpr KindName kKinds[] = {
    {DeviceKind::CPU, "cpu"},           {DeviceKind::CUDA, "cuda"},
    {DeviceKind::CUDAHost, "cuda_host"}, {DeviceKind::CUDAManaged, "cuda_managed"},
    {DeviceKind::ROCM, "rocm"},         {DeviceKind::ROCMHost, "rocm_host"},
    {DeviceKind::ONEAPI, "oneapi"},
};
}  // namespace

const char* device_kind_name(DeviceKind kind) {
  for (const auto& k : kKinds)
    if (k.kind == kind) return k.name;
  return "unknown";
}

std::string Device::str() const {
  if (kind == DeviceKind::CPU) return "cpu";
  return std::string(device_kind_name(kind)) + ":" + std::to_string(index);
}

Device parse_device(const std::string& text) {
  std::string kind_part = text, index_part;
  auto colon = text.find(':');
  if (colon != std::string::npos) {
    kind_part = text.substr(0, colon);
    index_part = text.substr(colon + 1);
  }
  for (const auto& k : kKinds) {
    if (kind_part != k.name) continue;
    int32_t index = 0;
    if (!index_part.empty()) {
      char* end = nullptr;
      long v = std::strtol(index_part.c_str(), &end, 10);
      if (*end != '\0' || v < 0 || v > INT32_MAX)
        throw ValueError("invalid device index in '" + text + "'");
      index = static_cast<int32_t>(v);
    }
    if (k.kind == DeviceKind::CPU && index != 0)
      throw ValueError("device '" + text + "' does not exist: dlarray has one CPU device, 'cpu'");
    return Device{k.kind, index};
  }
  throw ValueError("unknown device '" + text +
                   "'; expected one of cpu, cuda[:N], cuda_host, cuda_managed, rocm[:N], rocm_host, oneapi[:N]");
}

Device device_from_dl(DLDevice d) {
  switch (d.device_type) {
    case kDLCPU:
    case kDLCUDA:
    case kDLCUDAHost:
    case kDLCUDAManaged:
    case kDLROCM:
    case kDLROCMHost:
    case kDLOneAPI:
      if (d.device_id < 0) throw BufferError("DLPack device id is negative");
      return Device{static_cast<DeviceKind>(d.device_type),
                    d.device_type == kDLCPU ? 0 : d.device_id};
    default:
      throw BufferError("dlarray cannot hold memory of DLPack device type " +
                        std::to_string(static_cast<int>(d.device_type)));
  }
}

}  // namespace dla
