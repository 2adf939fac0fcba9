// library_errors.cpp — the text and kind of the error codes of AMD's math libraries as the ROCm
// table reports them (gpu_ops.h: LIBRARY_MISSING, BLAS_STATUS - s, FFT_STATUS - s,
// SOLVER_STATUS - s): AMD's names for the statuses, over backends/gpu/library_errors.h.
#include "backends/rocm/rocm_libraries.h"

namespace dla::rocm {
namespace {

// HIPBLAS_STATUS_ALLOC_FAILED, HIPFFT_ALLOC_FAILED, HIPSOLVER_STATUS_ALLOC_FAILED.
constexpr int kHipblasAllocFailed = 2, kHipfftAllocFailed = 2, kHipsolverAllocFailed = 2;

// hipfftResult's names (hipfft.h), which hipFFT has no function to give.
const char* hipfft_result_name(int r) {
  switch (r) {
    case 1: return "HIPFFT_INVALID_PLAN";
    case 2: return "HIPFFT_ALLOC_FAILED";
    case 3: return "HIPFFT_INVALID_TYPE";
    case 4: return "HIPFFT_INVALID_VALUE";
    case 5: return "HIPFFT_INTERNAL_ERROR";
    case 6: return "HIPFFT_EXEC_FAILED";
    case 7: return "HIPFFT_SETUP_FAILED";
    case 8: return "HIPFFT_INVALID_SIZE";
    case 9: return "HIPFFT_UNALIGNED_DATA";
    case 10: return "HIPFFT_INCOMPLETE_PARAMETER_LIST";
    case 11: return "HIPFFT_INVALID_DEVICE";
    case 12: return "HIPFFT_PARSE_ERROR";
    case 13: return "HIPFFT_NO_WORKSPACE";
    case 14: return "HIPFFT_NOT_IMPLEMENTED";
    case 16: return "HIPFFT_NOT_SUPPORTED";
  }
  return nullptr;
}

const gpu::LibraryFamily kFamily = {"hipBLAS",           "hipFFT",           "hipSOLVER",
                                    &hipblas_status_name, &hipfft_result_name, &hipsolver_status_name,
                                    kHipblasAllocFailed, kHipfftAllocFailed, kHipsolverAllocFailed};

}  // namespace

const char* library_error_string(int err) { return gpu::library_error_string(kFamily, err); }

bool library_out_of_memory(int err) { return gpu::library_out_of_memory(kFamily, err); }

}  // namespace dla::rocm
