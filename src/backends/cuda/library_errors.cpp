// library_errors.cpp — the text and kind of the error codes of NVIDIA's math libraries as the
// CUDA table reports them (gpu_ops.h: LIBRARY_MISSING, BLAS_STATUS - s, FFT_STATUS - s,
// SOLVER_STATUS - s).
#include <string>

#include "backends/cuda/cuda_libraries.h"

namespace dla::cuda {
namespace {

thread_local std::string t_missing;  // the loader's text behind this thread's last LIBRARY_MISSING
thread_local std::string t_text;     // the last status text handed out on this thread

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

const char* status_text(const char* library, int status, const char* name) {
  t_text = std::string(library) + " status " + std::to_string(status) + (name ? std::string(" (") + name + ")" : "");
  return t_text.c_str();
}

}  // namespace

void set_library_missing(std::string why) { t_missing = std::move(why); }

const char* library_error_string(int err) {
  if (err == DLA_GPU_LIBRARY_MISSING) return t_missing.c_str();
  if (err <= DLA_GPU_BLAS_STATUS && err > DLA_GPU_FFT_STATUS) {
    const int s = DLA_GPU_BLAS_STATUS - err;
    return status_text("cuBLAS", s, cublas_status_name(s));
  }
  if (err <= DLA_GPU_FFT_STATUS && err > DLA_GPU_FFT_STATUS - 1000) {
    const int s = DLA_GPU_FFT_STATUS - err;
    return status_text("cuFFT", s, cufft_result_name(s));
  }
  if (err <= DLA_GPU_SOLVER_STATUS && err > DLA_GPU_SOLVER_STATUS - 1000) {
    const int s = DLA_GPU_SOLVER_STATUS - err;
    return status_text("cuSOLVER", s, cusolver_status_name(s));
  }
  return nullptr;
}

bool library_out_of_memory(int err) {
  return err == DLA_GPU_BLAS_STATUS - kCublasAllocFailed || err == DLA_GPU_FFT_STATUS - kCufftAllocFailed ||
         err == DLA_GPU_SOLVER_STATUS - kCusolverAllocFailed;
}

}  // namespace dla::cuda
