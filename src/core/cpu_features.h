// cpu_features.h — the x86 vector level of the running CPU, asked once, for the loops that
// are compiled for several levels and chosen at run time.
#pragma once
#include <cstdlib>
#include <cstring>

namespace dla::cpu {

// The target() string of the AVX-512 loops. GCC takes the vector width there (its AVX-512
// tuning would otherwise keep to 256 bits); clang (the wheel's compiler, scripts/zig-c++)
// ignores the whole attribute over it, and its generic x86-64 tuning uses 512-bit vectors.
#if defined(__clang__)
#define DLA_AVX512_TARGET "avx512f,avx512dq,avx512vl,fma"
#else
#define DLA_AVX512_TARGET "avx512f,avx512dq,avx512vl,fma,prefer-vector-width=512"
#endif

// Before a loop whose iterations are independent (no aliasing between its pointers): GCC's
// ivdep, and clang's equivalent, which ignores GCC's pragma and would add run-time overlap checks.
#if defined(__clang__)
#define DLA_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#else
#define DLA_IVDEP _Pragma("GCC ivdep")
#endif

enum class VectorLevel { None, Avx2Fma, Avx512 };  // Avx512: F, DQ and VL

// DLARRAY_CPU_LOOPS=avx2: the CPU taken for one without AVX-512, so that the code an AVX2-only
// CPU runs (its loops, reductions, sorts and transcendental policy) is tested and timed on an
// AVX-512 one (tests/test_cpu_loops_isa.py compares its results with the default's).
inline bool avx512_turned_off_by_env() {
  static const bool off = [] {
    const char* env = std::getenv("DLARRAY_CPU_LOOPS");
    return env && std::strcmp(env, "avx2") == 0;
  }();
  return off;
}

inline VectorLevel vector_level() {
  static const VectorLevel level = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
        !avx512_turned_off_by_env())
      return VectorLevel::Avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return VectorLevel::Avx2Fma;
    return VectorLevel::None;
  }();
  return level;
}

// AVX-512 with BW besides (byte and word lanes), for the rows and reductions that use them.
inline bool avx512_with_bw() {
  static const bool bw = vector_level() == VectorLevel::Avx512 && __builtin_cpu_supports("avx512bw");
  return bw;
}

}  // namespace dla::cpu
