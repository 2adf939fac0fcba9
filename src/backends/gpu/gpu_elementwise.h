// gpu_elementwise.h — elementwise operations, dtype conversions, reductions, sorts, searches and
// matrix products on GPU arrays (gpu_elementwise.cpp, gpu_reduce.cpp, gpu_sort.cpp, gpu_search.cpp,
// gpu_linalg.cpp): the kernel entries gpu_backend.cpp gathers into one DeviceBackend for a
// vendor's device memory when its table is installed (core/backend.h).
#pragma once
#include <string>

#include "backends/gpu/gpu_ops.h"
#include "core/device.h"
#include "core/dims.h"
#include "core/elementwise.h"
#include "core/elementwise_ops.h"
#include "core/linalg.h"
#include "core/random.h"
#include "core/reduction.h"
#include "core/search_sort.h"

namespace dla::gpu {

void execute_elementwise_plan(ElementwisePlan& p);     // gpu_elementwise.cpp
void cast_on_device(const Array& dst, const Array& src);  // gpu_elementwise.cpp
extern const ReductionKernels kReductionKernels;          // gpu_reduce.cpp
extern const SearchSortKernels kSearchSortKernels;        // gpu_sort.cpp
extern const LinalgKernels kLinalgKernels;                // gpu_linalg.cpp
// Queues a job whose op, dtype, flags, data and scalars the caller set (the sort's helper jobs
// in gpu_sort.cpp) on the current stream of `device`: the `count` operands' byte strides over
// `shape` are coalesced into it. NotImplementedError naming `what` when no kernel covers it.
void submit_gpu_job(const Device& device, DlaGpuElementwise& job, const Dims& shape,
                    const int64_t* const* strides, int count, const std::string& what);
// The searching and sorting table's entries GPUs have (core/search_sort.h states what each
// does), in kSearchSortKernels. gpu_sort.cpp: sort / argsort; gpu_search.cpp: the others.
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
// The statistical reductions and scans (gpu_reduce.cpp, kReductionKernels): vendor-table fold and
// scan jobs where they fit, elementwise kernels otherwise.
// out = the running op (add or multiply) along `axis`, in place: the vendor library's scan
// (gpu_reduce.cpp), or the elementwise Hillis–Steele scan where the backend has none.
void scan_in_place(OpId op, const Array& out, int axis);
// dlarray.random's numbers (gpu_random.cpp): one RANDOM element job.
void gpu_random_fill(const Array& out, const philox::RandomJob& job);
// The matrix product and LAPACK (gpu_linalg.cpp, kLinalgKernels): the vendor table's gemm_async,
// an element job for integers, and the solver table.

}  // namespace dla::gpu
