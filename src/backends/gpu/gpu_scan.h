// gpu_scan.h — the (op, dtype) pairs of a GPU scan job (DlaGpuScan, gpu_ops.h) and the element
// type each runs in, shared by the vendor-library scans (gpu_scan.cu, CUDA and HIP) and the fake
// backend's host scan, so both accept exactly the same jobs and compute in the same types.
#pragma once
#include <stdint.h>

#include <type_traits>

#include "backends/gpu/gpu_elementwise_kernels.h"

namespace dla {
namespace gpu_kernels {

// Integers are scanned as the unsigned type of their width: wrap-around sums and products have
// the same bits signed or not, and it halves the vendor library's instantiations (each is a
// large kernel, compiled for every target architecture).
template <class T>
using ScanType = std::conditional_t<
    std::is_integral_v<T> && !std::is_same_v<T, bool>,
    std::conditional_t<sizeof(T) == 1, uint8_t,
                       std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>,
    T>;

// visitor.run<T, F>() with F the elementwise table's AddF or MultiplyF, so a scan computes
// exactly what repeated elementwise ops would; DLA_GPU_UNSUPPORTED for other ops, bool and
// dtypes without kernels (the 16-bit floats, which the core scans in float32).
template <class Visitor>
int visit_scan(const DlaGpuScan& job, Visitor& visitor) {
  const bool add = job.op == static_cast<int32_t>(OpId::add);
  if (!add && job.op != static_cast<int32_t>(OpId::multiply)) return DLA_GPU_UNSUPPORTED;
  return visit_dtype(job.dtype, [&](auto s) -> int {
    constexpr ScalarType S = decltype(s)::value;
    using E = typename ElemType<S>::type;
    if constexpr (std::is_void_v<E> || std::is_same_v<E, bool>) {
      return DLA_GPU_UNSUPPORTED;
    } else {
      using T = ScanType<E>;
      return add ? visitor.template run<T, elem::AddF>() : visitor.template run<T, elem::MultiplyF>();
    }
  });
}

}  // namespace gpu_kernels
}  // namespace dla
