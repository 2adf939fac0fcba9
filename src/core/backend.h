// backend.h — the one registry of device backends: everything a backend provides for one device
// kind (memory, streams and copies, and every kernel table core dispatches through) is one
// DeviceBackend, registered in one call from one place per backend: the CPU
// (backends/cpu/cpu_backend.cpp), the GPU vendor tables, real or fake (backends/gpu/gpu_backend.cpp),
// and SYCL (backends/oneapi/sycl_runtime.cpp). Adding a backend means filling this structure.
//
// A null entry means the backend has no such kernels: core raises NotImplementedError naming
// the device (memory the host can read is computed by the CPU's kernels whatever its kind).
#pragma once
#include "core/allocator.h"
#include "core/cast.h"
#include "core/device.h"
#include "core/elementwise.h"
#include "core/linalg.h"
#include "core/random.h"
#include "core/reduction.h"
#include "core/runtime.h"
#include "core/search_sort.h"

namespace dla {

struct DeviceBackend {
  Allocator* allocator = nullptr;                 // memory (allocator.h)
  DeviceRuntime* runtime = nullptr;               // streams, copies, fills (runtime.h)
  ElementwiseExecutor elementwise = nullptr;      // every elementwise op and where/clip (elementwise.h)
  DeviceCast cast = nullptr;                      // dtype conversions (cast.h)
  const ReductionKernels* reductions = nullptr;   // folds, moments, scans (reduction.h)
  const SearchSortKernels* search_sort = nullptr; // sort, search, sets (search_sort.h)
  const LinalgKernels* linalg = nullptr;          // matmul (BLAS) and LAPACK (linalg.h)
  RandomFill random = nullptr;                    // dlarray.random's numbers (random.h)
};

// Installs `backend` for `kind`, replacing whatever was there.
void register_backend(DeviceKind kind, const DeviceBackend& backend);
// Removes the backend of `kind` (every entry null again).
void unregister_backend(DeviceKind kind);
// The backend of `kind` (all null when none is registered, or for a kind out of range).
const DeviceBackend& backend_of(DeviceKind kind);

}  // namespace dla
