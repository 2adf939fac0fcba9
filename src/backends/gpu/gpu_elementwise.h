// gpu_elementwise.h — elementwise operations and dtype conversions on GPU arrays (see
// gpu_elementwise.cpp), registered for a backend's device memory when it is installed.
#pragma once
#include "core/device.h"

namespace dla::gpu {

void register_gpu_elementwise(DeviceKind device_kind);

}  // namespace dla::gpu
