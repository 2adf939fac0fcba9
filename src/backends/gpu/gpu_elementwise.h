// gpu_elementwise.h — elementwise operations, dtype conversions, reductions and sorts on GPU
// arrays (gpu_elementwise.cpp, gpu_reduce.cpp, gpu_sort.cpp), registered for a backend's device
// memory when it is installed.
#pragma once
#include <string>

#include "backends/gpu/gpu_ops.h"
#include "core/device.h"
#include "core/dims.h"

namespace dla::gpu {

void register_gpu_elementwise(DeviceKind device_kind);
// Queues a job whose op, dtype, flags, data and scalars the caller set (the sort's helper jobs
// in gpu_sort.cpp) on the current stream of `device`: the `count` operands' byte strides over
// `shape` are coalesced into it. NotImplementedError naming `what` when no kernel covers it.
void submit_gpu_job(const Device& device, DlaGpuElementwise& job, const Dims& shape,
                    const int64_t* const* strides, int count, const std::string& what);
// sort / argsort (gpu_sort.cpp): the searching and sorting table's entries GPUs have.
void register_gpu_search_sort(DeviceKind device_kind);
// The statistical reductions and scans (gpu_reduce.cpp), composed from the elementwise kernels.
void register_gpu_reductions(DeviceKind device_kind);

}  // namespace dla::gpu
