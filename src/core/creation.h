// creation.h — creation functions whose values depend on the position: eye, linspace, tril/triu.
//
// Computed on the host and moved to the requested device (device kernels can replace the
// host path per backend later without changing these declarations).
#pragma once
#include <cstdint>

#include "core/array.h"
#include "core/scalar.h"

namespace dla {

// Ones on diagonal k of a rows x cols matrix, zeros elsewhere.
Array eye(int64_t rows, int64_t cols, int64_t k, DType dtype, Device device);
// num values from start to stop (stop included when endpoint), computed in double precision
// (per component for complex) and converted to dtype; integer dtypes round toward -inf.
Array linspace(const Scalar& start, const Scalar& stop, int64_t num, bool endpoint, DType dtype, Device device);
// tril (lower) or triu of the last two axes: elements outside the triangle bounded by
// diagonal k become zero.
Array triangle(const Array& x, int64_t k, bool lower);

}  // namespace dla
