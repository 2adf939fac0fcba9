// vector_math.h — float32/float64 transcendental loops through glibc's libmvec.
//
// libmvec (glibc >= 2.22; most functions >= 2.35) has AVX-512 and AVX2 versions of exp,
// sin, log, ... accurate to 4 ulp that return exactly libm's values for NaN, infinities,
// signed zeros and overflow (checked when this was written). It is opened at run time
// (dlopen), so the module links and runs without it: where it, or the CPU features, are
// missing the table keeps the scalar functor loops. libmvec is only used where its measured
// accuracy meets the project's bar (vector_math.cpp has the per-function, per-dtype policy).
#pragma once
#include "backends/cpu/elementwise_loops.h"

namespace dla::cpu {

// Replaces the float32/float64 entries of the unary ops the policy gives to libmvec with
// loops that call it on contiguous rows and on gathered blocks of strided rows, so that a value's
// result never depends on the layout it came in.
void install_vector_math(KernelTable& table);

// Which vector ISA the loops use: "avx512", "avx2" or "none" (for diagnostics).
const char* vector_math_isa();

}  // namespace dla::cpu
