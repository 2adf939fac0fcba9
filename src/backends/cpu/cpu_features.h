// cpu_features.h — the x86 vector level of the running CPU, asked once, for the loops that
// are compiled for several levels and chosen at run time.
#pragma once

namespace dla::cpu {

enum class VectorLevel { None, Avx2Fma, Avx512 };  // Avx512: F, DQ and VL

inline VectorLevel vector_level() {
  static const VectorLevel level = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
      return VectorLevel::Avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return VectorLevel::Avx2Fma;
    return VectorLevel::None;
  }();
  return level;
}

}  // namespace dla::cpu
