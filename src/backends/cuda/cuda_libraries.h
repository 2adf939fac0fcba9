// cuda_libraries.h — the CUDA build's calls into NVIDIA's math libraries, which are loaded at
// run time (cublas.cpp, cufft.cpp, cusolver.cpp; see backends/gpu/vendor_library.h for where they
// are looked for).
//
// Called by the table entries of gpu_ops.cu (compiled as CUDA) with the job's device already
// current; they return 0 or one of dlarray's negative codes (gpu_ops.h), whose text and kind
// the table's error_string and is_out_of_memory get from here. Plain C++ with no CUDA header:
// the library prototypes are declared in cublas.cpp from NVIDIA's published API.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "backends/gpu/gpu_ops.h"
#include "backends/gpu/library_errors.h"

namespace dla::cuda {

// A DlaGpuGemm through cu{S,D,C,Z}gemmStridedBatched_64 on `stream`, with a cuBLAS handle of
// the calling thread for the current device (`device`).
int cublas_gemm(int device, const DlaGpuGemm& job, void* stream);

// A DlaGpuFft through cuFFT (cufft.cpp): plans cached by shape, scratch from the caller. The
// scaling by job.scale is left to the caller (gpu_ops.cu, a kernel of ours).
int cufft_exec(int device, const DlaGpuFft& job, void* temp, size_t* temp_bytes, void* stream);

// A DlaGpuSolver through cuSOLVER's dense routines (cusolver.cpp) on `stream`, with a cuSOLVER
// handle of the calling thread for the current device. Scratch as segmented_sort_async; host
// workspace a routine asks for goes into *host_work, which the caller keeps until the stream has
// drained.
int cusolver_run(int device, const DlaGpuSolver& job, void* temp, size_t* temp_bytes, void* stream,
                 std::vector<unsigned char>* host_work);

// --- library_errors.cpp: the text behind the codes (over backends/gpu/library_errors.h) ---
// Records the loader's message for the calling thread's next DLA_GPU_LIBRARY_MISSING.
using gpu::set_library_missing;
// cuBLAS's own name for a status, or nullptr while cuBLAS is not loaded (cublas.cpp).
const char* cublas_status_name(int status);
// cusolverStatus_t's name (cusolver.cpp; cuSOLVER has no function to give it).
const char* cusolver_status_name(int status);
// The message of one of dlarray's own negative codes (LIBRARY_MISSING: the calling thread's last
// loading failure; BLAS_STATUS - s / FFT_STATUS - s / SOLVER_STATUS - s: the library's name for s), or nullptr for
// any other code.
const char* library_error_string(int err);
// Whether an own code means the library ran out of memory.
bool library_out_of_memory(int err);

}  // namespace dla::cuda
