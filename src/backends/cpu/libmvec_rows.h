// libmvec_rows.h — the loops that call glibc's libmvec vector functions on a row of values.
//
// libmvec's functions take and return their vectors in zmm/ymm registers. A caller compiled
// for the baseline ISA with only a function-level target("avx512f") attribute passes them on
// the stack under clang (the CPU wheel's compiler decides the vector calling convention from
// the module's ISA, not the function's), and libmvec then reads whatever its argument
// registers last held. So these rows live in libmvec_rows.cpp, which is compiled once per
// ISA with module-level flags (-mavx512f, -mavx2): the calls follow the vector ABI under
// GCC and clang alike. Each copy has its own namespace, so no symbol of one can be merged
// with another's or with baseline code (.ci/isa-objects-check verifies it on the objects).
#pragma once
#include <cstdint>

namespace dla::cpu {

#define DLA_LIBMVEC_ROWS_DECLARE(NS)                                                                \
  namespace NS {                                                                                   \
  /* out[i] = fn(in[i]) */                                                                         \
  void row_f(void* fn, const float* in, float* out, int64_t n);                                    \
  void row_d(void* fn, const double* in, double* out, int64_t n);                                  \
  /* out[i] = fn(a[i], b[i * b_step]) (b_step 0: one b for the whole row) */                       \
  void row2_f(void* fn, const float* a, const float* b, int64_t b_step, float* out, int64_t n);    \
  void row2_d(void* fn, const double* a, const double* b, int64_t b_step, double* out, int64_t n); \
  }
DLA_LIBMVEC_ROWS_DECLARE(libmvec_avx512)  // _ZGVeN16v_*f / _ZGVeN8v_* (zmm)
DLA_LIBMVEC_ROWS_DECLARE(libmvec_avx2)    // _ZGVdN8v_*f / _ZGVdN4v_* (ymm)
#undef DLA_LIBMVEC_ROWS_DECLARE

}  // namespace dla::cpu
