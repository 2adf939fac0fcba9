// gpu_elementwise.h — elementwise operations, dtype conversions and reductions on GPU arrays
// (gpu_elementwise.cpp, gpu_reduce.cpp), registered for a backend's device memory when it is installed.
#pragma once
#include "core/device.h"

namespace dla::gpu {

void register_gpu_elementwise(DeviceKind device_kind);
// The statistical reductions and scans (gpu_reduce.cpp), composed from the elementwise kernels.
void register_gpu_reductions(DeviceKind device_kind);

}  // namespace dla::gpu
