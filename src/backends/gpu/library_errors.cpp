// library_errors.cpp — the text and kind of the vendor libraries' codes (see library_errors.h).
#include "backends/gpu/library_errors.h"

#include "backends/gpu/gpu_ops.h"

namespace dla::gpu {
namespace {

thread_local std::string t_missing;  // the loader's text behind this thread's last LIBRARY_MISSING
thread_local std::string t_text;     // the last status text handed out on this thread

const char* status_text(const char* library, int status, const char* name) {
  t_text = std::string(library) + " status " + std::to_string(status) + (name ? std::string(" (") + name + ")" : "");
  return t_text.c_str();
}

}  // namespace

void set_library_missing(std::string why) { t_missing = std::move(why); }

const char* library_error_string(const LibraryFamily& f, int err) {
  if (err == DLA_GPU_LIBRARY_MISSING) return t_missing.c_str();
  if (err <= DLA_GPU_BLAS_STATUS && err > DLA_GPU_FFT_STATUS) {
    const int s = DLA_GPU_BLAS_STATUS - err;
    return status_text(f.blas, s, f.blas_status(s));
  }
  if (err <= DLA_GPU_FFT_STATUS && err > DLA_GPU_FFT_STATUS - 1000) {
    const int s = DLA_GPU_FFT_STATUS - err;
    return status_text(f.fft, s, f.fft_status(s));
  }
  if (err <= DLA_GPU_SOLVER_STATUS && err > DLA_GPU_SOLVER_STATUS - 1000) {
    const int s = DLA_GPU_SOLVER_STATUS - err;
    return status_text(f.solver, s, f.solver_status(s));
  }
  return nullptr;
}

bool library_out_of_memory(const LibraryFamily& f, int err) {
  return err == DLA_GPU_BLAS_STATUS - f.blas_alloc_failed || err == DLA_GPU_FFT_STATUS - f.fft_alloc_failed ||
         err == DLA_GPU_SOLVER_STATUS - f.solver_alloc_failed;
}

}  // namespace dla::gpu
