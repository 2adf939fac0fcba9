// gpu_elementwise.h — elementwise operations, dtype conversions, reductions, sorts, searches and
// matrix products on GPU arrays (gpu_elementwise.cpp, gpu_reduce.cpp, gpu_sort.cpp, gpu_search.cpp,
// gpu_linalg.cpp), registered for a backend's device memory when it is installed.
#pragma once
#include <string>

#include "backends/gpu/gpu_ops.h"
#include "core/device.h"
#include "core/dims.h"
#include "core/elementwise_ops.h"
#include "core/search_sort.h"

namespace dla::gpu {

void register_gpu_elementwise(DeviceKind device_kind);
// Queues a job whose op, dtype, flags, data and scalars the caller set (the sort's helper jobs
// in gpu_sort.cpp) on the current stream of `device`: the `count` operands' byte strides over
// `shape` are coalesced into it. NotImplementedError naming `what` when no kernel covers it.
void submit_gpu_job(const Device& device, DlaGpuElementwise& job, const Dims& shape,
                    const int64_t* const* strides, int count, const std::string& what);
// The searching and sorting table's entries GPUs have (core/search_sort.h states what each
// does), registered by gpu_sort.cpp. gpu_sort.cpp: sort / argsort; gpu_search.cpp: the others.
void register_gpu_search_sort(DeviceKind device_kind);
void gpu_sort(const Array& values, const Array& indices, const Array& x, int axis, bool descending);
void gpu_arg_extreme(const Array& out, const Array& x, int axis, bool is_max);
Array gpu_nonzero(const Array& x);
void gpu_searchsorted(const Array& out, const Array& x1, const Array& x2, const Array& sorter, bool right);
UniqueParts gpu_unique(const Array& x, int parts);
void gpu_isin(const Array& out, const Array& x1, const Array& x2, bool invert);
// Helpers the sort and search jobs share (gpu_sort.cpp): the unsigned dtype of a width (order
// keys), `a` with `axis` moved last, an array's strides in bytes, a zeroed job.
DType key_dtype(int64_t itemsize);
Array axis_last(const Array& a, int axis);
Dims byte_strides(const Array& a);
DlaGpuElementwise blank_job(int32_t op, ScalarType dtype);
// The statistical reductions and scans (gpu_reduce.cpp): vendor-table fold and scan jobs where
// they fit, elementwise kernels otherwise.
void register_gpu_reductions(DeviceKind device_kind);
// out = the running op (add or multiply) along `axis`, in place: the vendor library's scan
// (gpu_reduce.cpp), or the elementwise Hillis–Steele scan where the backend has none.
void scan_in_place(OpId op, const Array& out, int axis);
// The matrix product (gpu_linalg.cpp): the vendor table's gemm_async, an element job for integers.
void register_gpu_linalg(DeviceKind device_kind);

}  // namespace dla::gpu
