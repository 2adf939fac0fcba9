// linalg_ops.h — THE declaration of every linear algebra function: the four of the main
// namespace (matmul matrix_transpose tensordot vecdot) and the 25 of the `linalg` extension.
//
// One row per function: where it lives, how it is computed, which input dtypes it accepts,
// what dtype its result has, the BLAS/LAPACK routines behind it, its stub parameters and a
// summary. The bindings (py_linalg.cpp) register the C++ entries from it, the CPU backend
// (backends/cpu/lapack_cpu.cpp) runs the LAPACK forms, python/dlarray/linalg.py composes
// the rest, and the tests read it through dlarray._core._linalg_ops(). A GPU backend adds
// cuSOLVER/rocSOLVER kernels for the same LinalgOpId entries (see linalg.h).
#pragma once
#include <cstdint>

#include "core/elementwise_ops.h"

namespace dla {

// Which namespace a function belongs to.
enum class LinalgSpace : uint8_t {
  Main,       // dlarray.<name> only
  Extension,  // dlarray.linalg.<name> only
  Both,       // the same function in both (matmul, matrix_transpose, tensordot, vecdot)
};

enum class LinalgForm : uint8_t {
  Blas,      // C++: matrix products through ?gemm/?gemv (own kernel for integers)
  Lapack,    // C++: one LAPACK driver per matrix of the stack (linalg.cpp: run_lapack)
  View,      // C++: a strided view, no copy (diagonal)
  Composed,  // Python (python/dlarray/linalg.py) over the C++ entries and the namespace
};

// The result dtype, from the promoted input dtype p (integers become float64 first for the
// Float* rules, as NumPy does; the standard only says "should have a floating-point dtype").
enum class LinalgOut : uint8_t {
  Promoted,      // p (numeric products)
  Same,          // x's dtype (views)
  Float,         // p, floating
  RealFloat,     // the real dtype of p's precision (norms, singular values, eigvalsh)
  ComplexFloat,  // the complex dtype of p's precision (eig, eigvals)
  Mixed,         // a tuple of Float and RealFloat parts (eigh, slogdet, svd)
  Index,         // the default integer dtype (matrix_rank)
  Accumulate,    // the `dtype` argument, else sum's rule (trace)
};

#define DLA_LA_1 "x, /"
// X(name, space, form, accepted kinds, out, routines, params, summary)
#define DLA_LINALG_OPS(X)                                                                                       \
  X(cholesky, Extension, Lapack, kKindNumeric, Float, "?potrf", "x, /, *, upper=False",                        \
    "Cholesky factor of Hermitian positive-definite matrices (lower, or upper with upper=True).")               \
  X(cross, Extension, Composed, kKindNumeric, Promoted, "", "x1, x2, /, *, axis=-1",                            \
    "Cross product of 3-element vectors along axis (broadcasting the other axes).")                            \
  X(det, Extension, Lapack, kKindNumeric, Float, "?getrf", DLA_LA_1, "Determinant of square matrices.")        \
  X(diagonal, Extension, View, kKindAny, Same, "", "x, /, *, offset=0",                                         \
    "The diagonal (offset above, below) of each matrix, as a view.")                                           \
  X(eig, Extension, Lapack, kKindNumeric, ComplexFloat, "?geev", DLA_LA_1,                                      \
    "Eigenvalues and right eigenvectors of general square matrices (complex).")                                \
  X(eigh, Extension, Lapack, kKindNumeric, Mixed, "?syevd/?heevd", DLA_LA_1,                                    \
    "Eigenvalues (ascending, real) and eigenvectors of Hermitian matrices (lower triangle read).")              \
  X(eigvals, Extension, Lapack, kKindNumeric, ComplexFloat, "?geev", DLA_LA_1,                                  \
    "Eigenvalues of general square matrices (complex).")                                                       \
  X(eigvalsh, Extension, Lapack, kKindNumeric, RealFloat, "?syevd/?heevd", DLA_LA_1,                            \
    "Eigenvalues (ascending, real) of Hermitian matrices (lower triangle read).")                               \
  X(inv, Extension, Lapack, kKindNumeric, Float, "?gesv (against I)", DLA_LA_1, "Inverse of square matrices.")    \
  X(matmul, Both, Blas, kKindNumeric, Promoted, "?gemm/?gemv", "x1, x2, /",                                     \
    "Matrix product with broadcasting stacks; 1-D operands become a row or a column.")                         \
  X(matrix_norm, Extension, Composed, kKindNumeric, RealFloat, "", "x, /, *, keepdims=False, ord='fro'",        \
    "Matrix norm: 'fro', 'nuc', 1, -1, 2, -2, inf, -inf.")                                                     \
  X(matrix_power, Extension, Composed, kKindNumeric, Float, "", "x, n, /",                                      \
    "Integer power of square matrices (repeated squaring; inverse first for n < 0).")                          \
  X(matrix_rank, Extension, Composed, kKindNumeric, Index, "", "x, /, *, rtol=None",                            \
    "Number of singular values above rtol * largest.")                                                         \
  X(matrix_transpose, Both, View, kKindAny, Same, "", DLA_LA_1, "Transpose of the last two axes (x.mT).")     \
  X(outer, Extension, Composed, kKindNumeric, Promoted, "", "x1, x2, /", "Outer product of two vectors.")      \
  X(pinv, Extension, Composed, kKindNumeric, Float, "", "x, /, *, rtol=None",                                   \
    "Moore-Penrose pseudo-inverse through the SVD, singular values <= rtol * largest dropped.")                 \
  X(qr, Extension, Lapack, kKindNumeric, Float, "?geqrf+?orgqr/?ungqr", "x, /, *, mode='reduced'",              \
    "QR decomposition, mode 'reduced' or 'complete'.")                                                         \
  X(slogdet, Extension, Lapack, kKindNumeric, Mixed, "?getrf", DLA_LA_1,                                        \
    "Sign and log of the absolute value of the determinant.")                                                  \
  X(solve, Extension, Lapack, kKindNumeric, Float, "?gesv", "x1, x2, /",                                        \
    "Solution X of x1 X = x2; a 1-D x2 is one right-hand side for every matrix.")                               \
  X(svd, Extension, Lapack, kKindNumeric, Mixed, "?gesdd (?gesvd fallback)", "x, /, *, full_matrices=True",    \
    "Singular value decomposition U, S (descending), Vh.")                                                     \
  X(svdvals, Extension, Lapack, kKindNumeric, RealFloat, "?gesdd (?gesvd fallback)", DLA_LA_1,                  \
    "Singular values, descending.")                                                                            \
  X(tensordot, Both, Composed, kKindNumeric, Promoted, "", "x1, x2, /, *, axes=2",                              \
    "Tensor contraction over int or paired axes (one matmul after moving the axes).")                          \
  X(trace, Extension, Composed, kKindNumeric, Accumulate, "", "x, /, *, offset=0, dtype=None",                  \
    "Sum along a diagonal of each matrix.")                                                                    \
  X(vecdot, Both, Composed, kKindNumeric, Promoted, "", "x1, x2, /, *, axis=-1",                                \
    "Dot product along axis, conjugating x1 (one batched matmul).")                                            \
  X(vector_norm, Extension, Composed, kKindNumeric, RealFloat, "", "x, /, *, axis=None, keepdims=False, ord=2", \
    "Vector p-norm over an axis, axes or everything (any ord, inf, -inf, 0).")

enum class LinalgOpId : uint8_t {
#define DLA_X(name, ...) name,
  DLA_LINALG_OPS(DLA_X)
#undef DLA_X
      kCount
};

struct LinalgOpInfo {
  const char* name;
  LinalgSpace space;
  LinalgForm form;
  uint8_t kinds;
  LinalgOut out;
  const char* routines;
  const char* params;
  const char* summary;
};

inline const LinalgOpInfo& linalg_op_info(LinalgOpId id) {
  static const LinalgOpInfo table[] = {
#define DLA_X(name, space, form, kinds, out, routines, params, summary) \
  {#name, LinalgSpace::space, LinalgForm::form, uint8_t(kinds), LinalgOut::out, routines, params, summary},
      DLA_LINALG_OPS(DLA_X)
#undef DLA_X
  };
  return table[static_cast<int>(id)];
}

}  // namespace dla
