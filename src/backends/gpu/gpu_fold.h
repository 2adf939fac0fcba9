// gpu_fold.h — the (op, dtype) pairs of a GPU fold job (DlaGpuFold, gpu_ops.h), shared by the
// kernels (gpu_fold.cu, compiled as CUDA and HIP) and the fake backend's host fold, so both
// accept exactly the same jobs.
#pragma once
#include <type_traits>

#include "backends/gpu/gpu_elementwise_kernels.h"

namespace dla {
namespace gpu_kernels {

// The folds: the elementwise table's functor of each (its kinds decide the dtypes), so a fold
// computes exactly what repeated application of the elementwise op would.
constexpr bool is_fold(OpId id) {
  return id == OpId::add || id == OpId::multiply || id == OpId::maximum || id == OpId::minimum;
}

template <OpId id, class F, uint8_t kinds, class Visitor>
int visit_fold_case(int dtype, Visitor& visitor) {
  if constexpr (!is_fold(id)) {
    return DLA_GPU_UNSUPPORTED;
  } else {
    return visit_dtype(dtype, [&](auto s) -> int {
      constexpr ScalarType S = decltype(s)::value;
      using T = typename ElemType<S>::type;
      if constexpr (std::is_void_v<T> || (kinds & kind_bit(S)) == 0) return DLA_GPU_UNSUPPORTED;
      else return visitor.template run<T, F>();
    });
  }
}

// visitor.run<T, F>() for the job's element type and functor; DLA_GPU_UNSUPPORTED otherwise.
template <class Visitor>
int visit_fold(const DlaGpuFold& job, Visitor& visitor) {
  switch (job.op) {
#define DLA_GPU_FOLD_CASE(name, arity, sig, kinds, res, functor, params, summary) \
  case static_cast<int>(OpId::name): return visit_fold_case<OpId::name, elem::functor, kinds>(job.dtype, visitor);
    DLA_ELEMENTWISE_OPS(DLA_GPU_FOLD_CASE)
#undef DLA_GPU_FOLD_CASE
  }
  return DLA_GPU_UNSUPPORTED;
}

}  // namespace gpu_kernels
}  // namespace dla
