// blas_layout.h — how a BLAS routine can read a strided matrix as it lies in memory.
//
// One rule for every matmul path: core/matmul.cpp asks it whether an operand must be copied
// first, the CPU kernel (backends/cpu/matmul_cpu.cpp) and the GPU one (backends/gpu/
// gpu_linalg.cpp) ask it how to pass the operand: as stored, or as the transpose of a matrix
// stored the other way round.
#pragma once
#include <cstdint>

namespace dla {

// A rows x cols matrix with element strides (rs, cs), seen in the row-major convention:
// `transposed` false: row-major with leading dimension ld (rows are ld elements apart);
// `transposed` true: the transpose of a row-major cols x rows matrix (columns ld apart).
struct BlasLayout {
  bool ok;          // false: neither axis is unit-stride with a valid leading dimension
  bool transposed;
  int64_t ld;
};

// Axes of extent 1 may have any stride (their stride is never used).
inline BlasLayout blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  const int64_t min_row_ld = cols > 1 ? cols : 1, min_col_ld = rows > 1 ? rows : 1;
  if ((cs == 1 || cols == 1) && (rows == 1 || rs >= min_row_ld)) return {true, false, rows == 1 ? min_row_ld : rs};
  if ((rs == 1 || rows == 1) && (cols == 1 || cs >= min_col_ld)) return {true, true, cols == 1 ? min_col_ld : cs};
  return {false, false, 0};
}

}  // namespace dla
