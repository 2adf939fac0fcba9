// linalg.h — running the linear algebra functions of linalg_ops.h that live in C++.
//
// The device-independent half: shape rules, dtypes, broadcasting stacks, the one copy of each
// operand into the layout the kernels want, output allocation and the error that names the
// failing matrix. The element work is two entries per device (LinalgKernels): a batched
// matrix product and a batched LAPACK-style driver, so a GPU backend plugs cuBLAS and
// cuSOLVER / rocSOLVER into the same places. matmul.cpp holds the products, linalg.cpp the
// LAPACK forms.
#pragma once
#include <cstdint>
#include <string>
#include <optional>
#include <vector>

#include "core/array.h"
#include "core/errors.h"
#include "core/linalg_ops.h"

namespace dla {

// A failed factorization (singular matrix, not positive definite, no convergence): Python's
// dlarray.linalg.LinAlgError, a ValueError subclass as NumPy's.
struct LinAlgError : ValueError {
  using ValueError::ValueError;
};

// One LAPACK-form call over a stack of `batch` matrices. Every buffer holds its matrices one
// after another in column-major order (leading dimension = rows), `*_step` elements apart.
struct LapackJob {
  LinalgOpId op{};
  ScalarType dtype = ScalarType::Float64;  // float32, float64, complex64 or complex128
  Device device;  // where every buffer below lives (a GPU backend queues on its current stream)
  int64_t batch = 0;
  int64_t m = 0, n = 0;  // a is m x n (square ops: m == n)
  int64_t nrhs = 0;      // solve: b is n x nrhs
  // Options of the function: cholesky upper; svd full_matrices / compute_uv; qr complete;
  // eigh/eig compute vectors.
  bool upper = false, full = false, vectors = false;
  // solve: a holds each matrix transposed (row-major), so the backend solves with A^T's
  // factorization (LAPACK trans = 'T'; the transpose, not the conjugate, for complex).
  bool transposed = false;
  // a: the input, overwritten (in place results: cholesky, inv, the eigenvectors of eigh).
  void* a = nullptr;
  int64_t a_step = 0;
  void* b = nullptr;  // solve's right-hand sides, overwritten by the solution
  int64_t b_step = 0;
  // Further results (their meaning per op is in lapack_cpu.cpp and linalg.cpp).
  void* out[3] = {nullptr, nullptr, nullptr};
  int64_t out_step[3] = {0, 0, 0};
  // Per matrix: 0 on success, else LAPACK's info (> 0: singular / not positive definite /
  // no convergence at that step), or kInfoNonFinite. Host memory, whatever the device (a GPU
  // backend copies its device-side results here before returning).
  int64_t* info = nullptr;
  // The matrix holds NaN or infinity where the routine cannot take it: LAPACK's ?gesdd and ?geev
  // reject such input as an illegal argument (and print to stderr), so svd and eig answer this
  // before calling them; the core raises LinAlgError, as NumPy and PyTorch do.
  static constexpr int64_t kInfoNonFinite = INT64_MIN;
};

struct LinalgKernels {
  // out[i] = a[i] @ b[i] over the stack: a is (..., M, K), b (..., K, N) (stride 0 on
  // broadcast stack axes; any strides in the matrix axes), out row-major (..., M, N) of the
  // same dtype; K >= 1 and out non-empty.
  void (*matmul)(const Array& out, const Array& a, const Array& b);
  void (*lapack)(const LapackJob& job);
};
const LinalgKernels& linalg_kernels_for(const Array& x, const char* fname);

// ---- the C++ entries ---------------------------------------------------------------------------

// matmul with the standard's 1-D rules, broadcasting and promotion. ValueError for 0-d
// operands and mismatched inner dimensions (naming both shapes), TypeError for non-numeric.
Array matmul(const Array& x1, const Array& x2);

// The 2-norm of all of x's elements as sqrt(x . x), one BLAS dot (NumPy's way), for a real
// float32/float64 CPU array with at least one element; nullopt for any other array, and where
// the sum of squares overflowed or is so small that squares underflowed by more than a
// rounding error (vector_norm then scales). norms.cpp.
std::optional<Array> two_norm_by_dot(const Array& x);

// The standard's linalg.vector_norm over `axes` (normalized to [0, ndim), distinct, any order;
// empty: no axis): ord inf, -inf, 0, 1, 2 or any other real p, the result in x's real floating
// dtype (integers take float64). ord inf over no elements is 0 (as NumPy); -inf there raises
// min's ValueError. TypeError for bool and non-numeric dtypes, ValueError for a NaN ord.
// norms.cpp.
Array vector_norm(const Array& x, const Dims& axes, bool keepdims, double ord);

// The diagonal at `offset` of every matrix (a view).
Array diagonal(const Array& x, int64_t offset);

// The LAPACK forms. Results as the standard orders them.
Array cholesky(const Array& x, bool upper);
Array inv(const Array& x);
Array solve(const Array& x1, const Array& x2);
Array det(const Array& x);
std::vector<Array> slogdet(const Array& x);                        // sign, logabsdet
std::vector<Array> qr(const Array& x, bool complete);              // Q, R
std::vector<Array> svd(const Array& x, bool full_matrices, bool compute_uv);  // U, S, Vh (or S)
std::vector<Array> eigh(const Array& x, bool vectors);             // eigenvalues[, eigenvectors]
std::vector<Array> eig(const Array& x, bool vectors);              // eigenvalues[, eigenvectors]

// "(2, 1)": the stack index of matrix number `flat` in a stack of shape `batch`.
std::string batch_index_str(const Dims& batch, int64_t flat);

}  // namespace dla
