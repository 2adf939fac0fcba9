// cast_kernels.h — the rows of the host dtype conversions (cast.cpp): one loop per (to, from)
// pair of the 13 computing dtypes, each converting by convert() (core/convert.h).
//
// Like the elementwise loops (elementwise_loops.h), cast_kernels.cpp is compiled for the
// baseline ISA and, on x86-64, once more for AVX2 into its own namespace; the AVX2 rows replace
// the real-dtype pairs at run time. SSE2 has no conversion between float64 and 64-bit integers
// and 4-wide ones only, so float32 -> int32 ran at 8-12x NumPy's time on it.
#pragma once
#include "backends/cpu/elementwise_loops.h"

namespace dla::cpu {

// rows[to][from]: converts row 1 (from) into row 0 (to), strides in bytes. The two rows never
// overlap (cast_into converts an overlapping source from a copy), so the loops carry no alias checks.
using CastRows = LoopFn[kNumScalarTypes][kNumScalarTypes];

// The rows for this CPU (AVX2 where built and present, unless DLARRAY_CPU_LOOPS=baseline).
const CastRows& cast_rows();

namespace baseline_loops {
void fill_cast_rows(CastRows& rows);  // every pair
}
namespace avx2_loops {
void fill_cast_rows(CastRows& rows);  // the pairs of real dtypes, and complex -> bool
}
// Over those, where the CPU has AVX-512 F/DQ/VL/BW: the casts from float32, float64 and 64-bit
// integers to integers of up to 32 bits, and from 64-bit integers to floats (cast_rows_avx512.cpp).
void install_avx512_cast_rows(CastRows& rows);

}  // namespace dla::cpu
