// gemm_call.h — a DlaGpuGemm as one ?gemmStridedBatched call, shared by cuBLAS
// (backends/cuda/cublas.cpp) and hipBLAS (backends/rocm/hipblas.cpp), whose strided batched
// GEMMs take the same arguments in the same order (they differ in the operation enumeration's
// values and in the integer type of the sizes). The operands arrive in BLAS's column-major
// terms already (gpu_linalg.cpp swaps a row-major product's operands): C = op(A) op(B), with
// alpha 1 and beta 0 passed by host pointer (the handles' default pointer mode).
#pragma once
#include "backends/gpu/gpu_ops.h"

namespace dla::gpu {

// T: the element type (float, double, std::complex<float>, std::complex<double>, whose layout
// is the vendors' complex types'). F: the library's function for T. op_n / op_t: its values
// for "no transpose" and "transpose". Returns the library's status.
template <class T, class F>
int gemm_strided_batched(F f, void* handle, const DlaGpuGemm& j, int op_n, int op_t) {
  const T one(1), zero(0);
  return f(handle, j.trans_a ? op_t : op_n, j.trans_b ? op_t : op_n, j.m, j.n, j.k, &one,
           static_cast<const T*>(j.a), j.lda, j.stride_a, static_cast<const T*>(j.b), j.ldb, j.stride_b, &zero,
           static_cast<T*>(j.c), j.ldc, j.stride_c, j.batch);
}

}  // namespace dla::gpu
