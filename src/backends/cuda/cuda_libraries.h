// cuda_libraries.h — the CUDA build's calls into NVIDIA's math libraries, which are loaded at
// run time (cublas.cpp, cufft.cpp; see backends/gpu/vendor_library.h for where they are looked
// for).
//
// Called by the table entries of gpu_ops.cu (compiled as CUDA) with the job's device already
// current; they return 0 or one of dlarray's negative codes (gpu_ops.h), whose text and kind
// the table's error_string and is_out_of_memory get from here. Plain C++ with no CUDA header:
// the library prototypes are declared in cublas.cpp from NVIDIA's published API.
#pragma once
#include <string>

#include "backends/gpu/gpu_ops.h"

namespace dla::cuda {

// A DlaGpuGemm through cu{S,D,C,Z}gemmStridedBatched_64 on `stream`, with a cuBLAS handle of
// the calling thread for the current device (`device`).
int cublas_gemm(int device, const DlaGpuGemm& job, void* stream);

// A DlaGpuFft through cuFFT (cufft.cpp): plans cached by shape, scratch from the caller. The
// scaling by job.scale is left to the caller (gpu_ops.cu, a kernel of ours).
int cufft_exec(int device, const DlaGpuFft& job, void* temp, size_t* temp_bytes, void* stream);

// --- library_errors.cpp: the text behind the codes, shared by cublas.cpp and cufft.cpp ---
// Records the loader's message for the calling thread's next DLA_GPU_LIBRARY_MISSING.
void set_library_missing(std::string why);
// cuBLAS's own name for a status, or nullptr while cuBLAS is not loaded (cublas.cpp).
const char* cublas_status_name(int status);
// The message of one of dlarray's own negative codes (LIBRARY_MISSING: the calling thread's last
// loading failure; BLAS_STATUS - s / FFT_STATUS - s: the library's name for s), or nullptr for
// any other code.
const char* library_error_string(int err);
// Whether an own code means the library ran out of memory.
bool library_out_of_memory(int err);

}  // namespace dla::cuda
