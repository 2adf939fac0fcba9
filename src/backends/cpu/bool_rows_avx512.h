// bool_rows_avx512.h — comparisons (equal ... greater_equal) of every real dtype and the float
// predicates (isnan, isinf, isfinite, signbit) of float32/float64, with AVX-512 mask registers.
//
// A bool result is one byte per element. From 4- and 8-byte inputs the AVX2 loops pack each
// compare's lanes down to bytes through chains of packs and permutes (float64 isnan ran at
// 1.36x NumPy's time, uint64 less 1.32x, 32-bit compares 1.16-1.20x; NumPy uses AVX-512 there).
// With AVX-512 a compare yields a bit mask, the masks of 64 elements make one 64-bit mask,
// and one masked byte move stores them. The rows cover contiguous operands and a scalar one
// (stride 0); other strides, and the last n % 64 elements, run the entry they replace.
#pragma once
#include "backends/cpu/elementwise_loops.h"

namespace dla::cpu {

// Replaces those entries of `table` when the CPU has AVX-512 F, DQ, VL and BW; the entries
// they replace serve the strided rows and tails.
void install_avx512_bool_rows(KernelTable& table);

}  // namespace dla::cpu
