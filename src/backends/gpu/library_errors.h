// library_errors.h — the text and kind of the codes a GPU table returns for its vendor math
// libraries (gpu_ops.h: LIBRARY_MISSING, BLAS_STATUS - s, FFT_STATUS - s, SOLVER_STATUS - s),
// shared by the CUDA build (cuBLAS, cuFFT, cuSOLVER: backends/cuda/library_errors.cpp) and the
// ROCm build (hipBLAS, hipFFT, hipSOLVER: backends/rocm/library_errors.cpp), which differ only
// in their libraries' names and status values.
#pragma once
#include <string>

namespace dla::gpu {

// One vendor's three libraries.
struct LibraryFamily {
  const char* blas;  // "cuBLAS"
  const char* fft;
  const char* solver;
  // The library's name for a status, or nullptr when it has none (or is not loaded).
  const char* (*blas_status)(int);
  const char* (*fft_status)(int);
  const char* (*solver_status)(int);
  // The statuses that mean "out of memory" (MemoryError in Python).
  int blas_alloc_failed, fft_alloc_failed, solver_alloc_failed;
};

// Records the loader's message for the calling thread's next DLA_GPU_LIBRARY_MISSING.
void set_library_missing(std::string why);
// The message of one of the table's own negative codes (LIBRARY_MISSING: the calling thread's
// last loading failure; BLAS/FFT/SOLVER_STATUS - s: "<library> status s (<name>)"), or nullptr
// for any other code. The text stays valid until the thread's next call.
const char* library_error_string(const LibraryFamily& family, int err);
// Whether an own code means the library ran out of memory.
bool library_out_of_memory(const LibraryFamily& family, int err);

}  // namespace dla::gpu
