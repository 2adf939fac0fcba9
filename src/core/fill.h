// fill.h — writing one value into every element, and arange, on any device.
#pragma once
#include "core/array.h"
#include "core/scalar.h"

namespace dla {

// Every element of dst = s converted to dst's dtype. Host memory is filled directly;
// device memory by the device runtime's fill kernel on the current stream.
void fill(const Array& dst, const Scalar& s);
// Host-side arange into a fresh contiguous host array of `n` elements: start + i*step.
Array arange_host(const Scalar& start, const Scalar& step, int64_t n, DType dtype);

}  // namespace dla
