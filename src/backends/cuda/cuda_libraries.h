// cuda_libraries.h — the CUDA build's calls into NVIDIA's math libraries, which are loaded at
// run time (cublas.cpp, cufft.cpp, cusolver.cpp; see backends/gpu/vendor_library.h for where they
// are looked for), and the few kernels of ours around cuSOLVER (solver_kernels.cu).
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

// --- solver_kernels.cu: the element work around cuSOLVER's routines, queued on `stream` of the
// current device over `batch` matrices `step` elements apart (column-major). `dtype` is a
// dla::ScalarType (float32, float64, complex64, complex128). Each returns 0 or a CUDA error.
// Zeroes the strictly lower (lower = true) or strictly upper triangle of n x n matrices.
int solver_zero_triangle(int dtype, void* a, int64_t n, int64_t step, int64_t batch, bool lower, void* stream);
// Sets rows x cols matrices to the identity (ones on the diagonal, zeros elsewhere).
int solver_identity(int dtype, void* x, int64_t rows, int64_t cols, int64_t step, int64_t batch, void* stream);
// r (rrows x n) = the upper trapezoid of the first rrows rows of a (m x n, leading dimension m),
// zeros below the diagonal.
int solver_upper(int dtype, void* r, int64_t rrows, int64_t n, int64_t r_step, const void* a, int64_t m,
                 int64_t a_step, int64_t batch, void* stream);
// out (cols x rows) = in^H (in: rows x cols): the conjugate transpose (the transpose for real dtypes).
int solver_adjoint(int dtype, void* out, const void* in, int64_t rows, int64_t cols, int64_t out_step,
                   int64_t in_step, int64_t batch, void* stream);
// det (slog = false: out0 = det) or slogdet (out0 = sign, out1 = log|det|, real) of each n x n
// matrix from its LU factors and 1-based int64 pivots (n per matrix, contiguous); a matrix whose
// info is > 0 (an exactly zero pivot) gives 0 (sign 0, log -inf). Sets every info to 0.
int solver_determinant(int dtype, bool slog, const void* lu, int64_t n, int64_t step, const int64_t* ipiv,
                       int32_t* info, void* out0, void* out1, int64_t batch, void* stream);
// Real geev's right eigenvectors (vr: n x n real, conjugate pairs packed in two columns as
// LAPACK does, told apart by the imaginary parts of the complex eigenvalues w) as complex
// vectors v (n x n). `dtype` is the real dtype; vr and w are per matrix n*n and n apart.
int solver_unpack_vectors(int dtype, void* v, int64_t v_step, const void* vr, const void* w, int64_t w_step,
                          int64_t n, int64_t batch, void* stream);
// Plain stream-ordered byte work: zeroes n bytes at p; copies n bytes (device to device).
int solver_memset_zero(void* p, size_t n, void* stream);
int solver_memcpy(void* dst, const void* src, size_t n, void* stream);

// --- library_errors.cpp: the text behind the codes, shared by cublas.cpp and cufft.cpp ---
// Records the loader's message for the calling thread's next DLA_GPU_LIBRARY_MISSING.
void set_library_missing(std::string why);
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
