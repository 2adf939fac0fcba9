// half_convert.cpp — row conversions between the half types and float32 (see half_convert.h).
#include "backends/cpu/half_convert.h"
#include "core/cpu_features.h"

#include <immintrin.h>

#include <cstring>

namespace dla::cpu {
namespace {

// bfloat16 is float32's top half: widening is a shift, narrowing rounds to nearest even
// on the dropped bits; written branch-free so that the compiler vectorizes it.
inline float bf16_widen(uint16_t h) { return bits_to_float(uint32_t(h) << 16); }
inline uint16_t bf16_narrow(float f) {
  const uint32_t u = float_to_bits(f);
  const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  const uint32_t quiet_nan = (u >> 16) | 0x40u;
  return uint16_t((u & 0x7fffffffu) > 0x7f800000u ? quiet_nan : rounded);
}

__attribute__((target("avx2"))) void bf16_widen_contiguous(const uint16_t* s, float* d, int64_t n) {
DLA_IVDEP
  for (int64_t i = 0; i < n; ++i) d[i] = bf16_widen(s[i]);
}
__attribute__((target("avx2"))) void bf16_narrow_contiguous(const float* s, uint16_t* d, int64_t n) {
DLA_IVDEP
  for (int64_t i = 0; i < n; ++i) d[i] = bf16_narrow(s[i]);
}

__attribute__((target("avx2,f16c"))) void f16_widen_contiguous(const uint16_t* s, float* d, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i))));
  for (; i < n; ++i) d[i] = float16_to_float(s[i]);
}
__attribute__((target("avx2,f16c"))) void f16_narrow_contiguous(const float* s, uint16_t* d, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  for (; i < n; ++i) d[i] = float_to_float16(s[i]);
}

struct Features {
  bool avx2 = false, f16c = false;
  Features() {
    __builtin_cpu_init();
    avx2 = __builtin_cpu_supports("avx2");
    f16c = avx2 && __builtin_cpu_supports("f16c");
  }
};
const Features& features() {
  static const Features f;
  return f;
}

}  // namespace

void widen_half_row(Half h, const char* src, int64_t stride, float* dst, int64_t n) {
  const uint16_t* s = reinterpret_cast<const uint16_t*>(src);
  if (stride == 2) {
    if (h == Half::Float16 && features().f16c) return f16_widen_contiguous(s, dst, n);
    if (h == Half::BFloat16 && features().avx2) return bf16_widen_contiguous(s, dst, n);
  }
  for (int64_t i = 0; i < n; ++i) {
    uint16_t b;
    std::memcpy(&b, src + i * stride, 2);
    dst[i] = half_to_float(h, b);
  }
}

void narrow_half_row(Half h, const float* src, char* dst, int64_t stride, int64_t n) {
  uint16_t* d = reinterpret_cast<uint16_t*>(dst);
  if (stride == 2) {
    if (h == Half::Float16 && features().f16c) return f16_narrow_contiguous(src, d, n);
    if (h == Half::BFloat16 && features().avx2) return bf16_narrow_contiguous(src, d, n);
  }
  for (int64_t i = 0; i < n; ++i) {
    const uint16_t b = h == Half::BFloat16 ? bf16_narrow(src[i]) : float_to_float16(src[i]);
    std::memcpy(dst + i * stride, &b, 2);
  }
}

}  // namespace dla::cpu
