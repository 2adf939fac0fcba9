// library_errors.cpp — the text and kind of the error codes of NVIDIA's math libraries as the
// CUDA table reports them (gpu_ops.h: LIBRARY_MISSING, BLAS_STATUS - s, FFT_STATUS - s,
// SOLVER_STATUS - s): NVIDIA's names for the statuses, over backends/gpu/library_errors.h.
#include "backends/cuda/cuda_libraries.h"

namespace dla::cuda {
namespace {

constexpr int kCublasAllocFailed = 3, kCufftAllocFailed = 2, kCusolverAllocFailed = 2;

// cufftResult's names (cufft.h), which cuFFT has no function to give.
const char* cufft_result_name(int r) {
  switch (r) {
    case 0x1: return "CUFFT_INVALID_PLAN";
    case 0x2: return "CUFFT_ALLOC_FAILED";
    case 0x3: return "CUFFT_INVALID_TYPE";
    case 0x4: return "CUFFT_INVALID_VALUE";
    case 0x5: return "CUFFT_INTERNAL_ERROR";
    case 0x6: return "CUFFT_EXEC_FAILED";
    case 0x7: return "CUFFT_SETUP_FAILED";
    case 0x8: return "CUFFT_INVALID_SIZE";
    case 0x9: return "CUFFT_UNALIGNED_DATA";
    case 0xB: return "CUFFT_INVALID_DEVICE";
    case 0xD: return "CUFFT_NO_WORKSPACE";
    case 0xE: return "CUFFT_NOT_IMPLEMENTED";
    case 0x10: return "CUFFT_NOT_SUPPORTED";
    case 0x11: return "CUFFT_MISSING_DEPENDENCY";
    case 0x12: return "CUFFT_NVRTC_FAILURE";
  }
  return nullptr;
}

const gpu::LibraryFamily kFamily = {"cuBLAS",           "cuFFT",           "cuSOLVER",
                                    &cublas_status_name, &cufft_result_name, &cusolver_status_name,
                                    kCublasAllocFailed, kCufftAllocFailed, kCusolverAllocFailed};

}  // namespace

const char* library_error_string(int err) { return gpu::library_error_string(kFamily, err); }

bool library_out_of_memory(int err) { return gpu::library_out_of_memory(kFamily, err); }

}  // namespace dla::cuda
