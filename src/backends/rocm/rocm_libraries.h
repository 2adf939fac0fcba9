// rocm_libraries.h — the ROCm build's calls into AMD's math libraries, which are loaded at run
// time (hipblas.cpp, hipfft.cpp, hipsolver.cpp; see backends/gpu/vendor_library.h for where they
// are looked for), the counterpart of backends/cuda/cuda_libraries.h.
//
// Called by the table entries of gpu_ops.cu (compiled as HIP with -DDLA_ROCM_VENDOR_LIBS) with
// the job's device already current; they return 0 or one of dlarray's negative codes
// (gpu_ops.h), whose text and kind the table's error_string and is_out_of_memory get from here.
// Plain C++ with no HIP header: the library prototypes are declared in the .cpp files from
// AMD's published APIs.
#pragma once
#include <cstddef>
#include <vector>

#include "backends/gpu/gpu_ops.h"
#include "backends/gpu/library_errors.h"

namespace dla::rocm {

// A DlaGpuGemm through hipblas{S,D,C,Z}gemmStridedBatched (the _64 forms where hipBLAS has
// them) on `stream`, with a hipBLAS handle of the calling thread for the current device.
int hipblas_gemm(int device, const DlaGpuGemm& job, void* stream);

// A DlaGpuFft through hipFFT: plans cached by shape, scratch from the caller. The scaling by
// job.scale is left to the caller (gpu_ops.cu).
int hipfft_exec(int device, const DlaGpuFft& job, void* temp, size_t* temp_bytes, void* stream);

// A DlaGpuSolver through hipSOLVER (backends/gpu/dense_solver.h), as cusolver_run.
int hipsolver_run(int device, const DlaGpuSolver& job, void* temp, size_t* temp_bytes, void* stream,
                  std::vector<unsigned char>* host_work);

// --- library_errors.cpp ---
using gpu::set_library_missing;
// hipBLAS's own name for a status, or nullptr while hipBLAS is not loaded (hipblas.cpp).
const char* hipblas_status_name(int status);
// hipsolverStatus_t's name (hipsolver.cpp).
const char* hipsolver_status_name(int status);
// As backends/cuda/cuda_libraries.h's, for hipBLAS, hipFFT and hipSOLVER.
const char* library_error_string(int err);
bool library_out_of_memory(int err);

}  // namespace dla::rocm
