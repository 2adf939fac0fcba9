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

// Replaces the float32/float64 entries of the ops the policy gives to libmvec (the unary
// transcendental functions, and pow and atan2 with a contiguous or scalar second argument) with
// loops that call it on contiguous rows and on gathered blocks of strided rows, so that a value's
// result never depends on the layout it came in.
void install_vector_math(KernelTable& table);

// The loop a float16 / bfloat16 plan runs for `op` (values widened to float32): libmvec's
// float32 function wherever it exists, whatever the float32 policy, since its few float32
// ulps are a 2^-13 (float16) or 2^-16 (bfloat16) fraction of the half type's ulp; null
// where the kernel table's float32 loop is to be used.
LoopFn float32_loop_for_half(OpId op);

// Which vector ISA the loops use: "avx512", "avx2" or "none" (for diagnostics).
const char* vector_math_isa();

// What computes `op` on float32 (float64 = false) or float64 in this process: "vector"
// (libmvec at the dtype's width), "widened" (float32 through libmvec's float64 function),
// "own" (dlarray's loops) or "scalar" (glibc's libm); the accuracy tests hold each to its bound.
const char* vector_math_source(OpId op, bool float64);

}  // namespace dla::cpu
