// solver_kernels.h — the element work around the dense solver libraries' routines
// (solver_kernels.cu, compiled as CUDA into dlarray._core and as HIP into dlarray._rocm; called
// by dense_solver.cpp). Each is queued on `stream` of the current device over `batch` matrices
// `step` elements apart (column-major); `dtype` is a dla::ScalarType (float32, float64,
// complex64, complex128). Each returns 0 or a CUDA / HIP runtime error. Plain C++ declarations:
// the callers include no GPU runtime header.
#pragma once
#include <cstddef>
#include <cstdint>

namespace dla::gpu {

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
// out[i] = base + i * step_bytes for i < batch (device memory): the pointer arrays of the
// batched routines.
int solver_pointer_array(void** out, void* base, int64_t step_bytes, int64_t batch, void* stream);
// out[i] = in[i] for i < count: the batched LU's 32-bit pivots as the 64-bit ones
// solver_determinant reads.
int solver_widen_pivots(const int32_t* in, int64_t* out, int64_t count, void* stream);
// Plain stream-ordered byte work: zeroes n bytes at p; copies n bytes (device to device).
int solver_memset_zero(void* p, size_t n, void* stream);
int solver_memcpy(void* dst, const void* src, size_t n, void* stream);
// Copies `rows` runs of `width` bytes, src_pitch bytes apart in src, to dst_pitch bytes apart in dst.
int solver_memcpy_rows(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width, size_t rows,
                       void* stream);

}  // namespace dla::gpu
