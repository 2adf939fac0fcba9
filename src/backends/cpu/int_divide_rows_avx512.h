// int_divide_rows_avx512.h — integer floor_divide and remainder of a contiguous row by one
// divisor (x // 7, x % 7) in AVX-512 registers, every integer dtype.
//
// The magic multiplier of int_divide.h, as the AVX2 rows of elementwise_loops.h, but with the
// high half of the product from one instruction for 16-bit lanes (bytes are worked on in
// them), two for 32-bit and four 32 x 32 -> 64 products for 64-bit, low products and selects
// under mask registers: 2 to 4 times the AVX2 rows' rate (int64 // 7 ran at 1.5x NumPy's
// time, bytes at 4-5x). Other strides, and the last elements short of a vector, run the
// entry they replace, which gives the same values.
#pragma once
#include "backends/cpu/elementwise_loops.h"

namespace dla::cpu {

// Replaces the floor_divide and remainder entries of every integer dtype in `table` when the
// CPU has AVX-512 F, DQ, VL and BW.
void install_avx512_int_divide_rows(KernelTable& table);

}  // namespace dla::cpu
