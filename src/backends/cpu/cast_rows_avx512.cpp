// cast_rows_avx512.cpp — AVX-512 rows for the casts AVX2 has no vector instruction for, or only
// long ones: float32/float64 to integers of up to 32 bits (convert()'s saturation, NaN -> 0),
// 64-bit integers to smaller ones (wrapping) and 64-bit integers to float32/float64.
//
// The AVX2 rows (cast_kernels.cpp) clamp four doubles a vector and narrow through pack chains:
// float64 -> int16/int8 ran at 1.35-1.49x NumPy's time, int64 -> int8 at 1.13-1.17x; int64 ->
// float64 is a scalar conversion per element in AVX2 (1.0x NumPy's time, or 2x when the loop
// happens to straddle a 64-byte line), where AVX-512 DQ converts 8 at a time. AVX-512
// has 8-double vectors, conversions whose NaN lanes a mask zeroes (cvtt with a zero mask), a
// direct unsigned conversion, and down-converts (vpmovdb, vpmovqb) that truncate to any width,
// which is exactly the wrapping of an integer narrowing and exact for values already clamped.
// Every function carries the target attribute and has internal linkage (the file is compiled
// for the baseline ISA; the rows are installed only where the CPU has the features).
#include <immintrin.h>

#include <cstdint>
#include <limits>
#include <type_traits>

#include "backends/cpu/cast_kernels.h"
#include "core/cpu_features.h"
#include "core/convert.h"

namespace dla::cpu {
namespace {

#define DLA_CAST512 __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw")))

CastRows g_replaced;  // the rows replaced: strided operands go to them

// 32-bit lanes (__m512i from 16 floats, __m256i from 8 doubles) stored as To, which they fit.
template <class To>
DLA_CAST512 inline void store_narrowed(To* out, __m512i v) {
  if constexpr (sizeof(To) == 4) _mm512_storeu_si512(out, v);
  else if constexpr (sizeof(To) == 2) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm512_cvtepi32_epi16(v));
  else _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm512_cvtepi32_epi8(v));
}
template <class To>
DLA_CAST512 inline void store_narrowed(To* out, __m256i v) {
  if constexpr (sizeof(To) == 4) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), v);
  else if constexpr (sizeof(To) == 2) _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm256_cvtepi32_epi16(v));
  else _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm256_cvtepi32_epi8(v));
}

// convert()'s rule in vectors (SaturationBounds): clamp to [lo, top] in From, truncate, NaN
// lanes zeroed by the conversion's mask; values from `ceiling` on become max where it applies.
template <class To, class From>
DLA_CAST512 void float_to_narrow(To* out, const From* in, int64_t n) {
  using Lim = std::numeric_limits<To>;
  using B = SaturationBounds<To, From>;
  constexpr From lo = B::lo, top = B::top;
  constexpr bool kUnsigned32 = std::is_same_v<To, uint32_t>;  // the only To beyond int32's range
  int64_t i = 0;
  if constexpr (std::is_same_v<From, float>) {
    for (; i + 16 <= n; i += 16) {
      const __m512 v = _mm512_loadu_ps(in + i);
      const __mmask16 ordered = _mm512_cmp_ps_mask(v, v, _CMP_ORD_Q);
      const __m512 c = _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(lo)), _mm512_set1_ps(top));
      __m512i r = kUnsigned32 ? _mm512_maskz_cvttps_epu32(ordered, c) : _mm512_maskz_cvttps_epi32(ordered, c);
      if constexpr (B::kCeiling)
        r = _mm512_mask_mov_epi32(r, _mm512_cmp_ps_mask(v, _mm512_set1_ps(B::ceiling), _CMP_GE_OQ),
                                  _mm512_set1_epi32(int32_t(Lim::max())));
      store_narrowed(out + i, r);
    }
  } else {
    for (; i + 8 <= n; i += 8) {
      const __m512d v = _mm512_loadu_pd(in + i);
      const __mmask8 ordered = _mm512_cmp_pd_mask(v, v, _CMP_ORD_Q);
      const __m512d c = _mm512_min_pd(_mm512_max_pd(v, _mm512_set1_pd(lo)), _mm512_set1_pd(top));
      store_narrowed(out + i, kUnsigned32 ? _mm512_maskz_cvttpd_epu32(ordered, c) : _mm512_maskz_cvttpd_epi32(ordered, c));
    }
  }
  for (; i < n; ++i) out[i] = convert<To>(in[i]);
}

// 64-bit integers to narrower ones: the low bits (To(v), as convert()); to floats: rounded to
// nearest once, as the scalar conversion does.
template <class To, class From>
DLA_CAST512 void from_int64(To* out, const From* in, int64_t n) {
  constexpr bool kSigned = std::is_signed_v<From>;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m512i v = _mm512_loadu_si512(in + i);
    if constexpr (std::is_same_v<To, double>) _mm512_storeu_pd(out + i, kSigned ? _mm512_cvtepi64_pd(v) : _mm512_cvtepu64_pd(v));
    else if constexpr (std::is_same_v<To, float>) _mm256_storeu_ps(out + i, kSigned ? _mm512_cvtepi64_ps(v) : _mm512_cvtepu64_ps(v));
    else if constexpr (sizeof(To) == 4) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm512_cvtepi64_epi32(v));
    else if constexpr (sizeof(To) == 2) _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm512_cvtepi64_epi16(v));
    else _mm_storel_epi64(reinterpret_cast<__m128i*>(out + i), _mm512_cvtepi64_epi8(v));
  }
  for (; i < n; ++i) out[i] = convert<To>(in[i]);
}

template <int To, int From>
DLA_CAST512 void cast_row_avx512(char** p, const int64_t* s, int64_t n) {
  using T = typename CType<ScalarType(To)>::type;
  using F = typename CType<ScalarType(From)>::type;
  if (s[0] != int64_t(sizeof(T)) || s[1] != int64_t(sizeof(F))) return g_replaced[To][From](p, s, n);
  T* out = reinterpret_cast<T*>(p[0]);
  const F* in = reinterpret_cast<const F*>(p[1]);
  if constexpr (std::is_floating_point_v<F>) float_to_narrow(out, in, n);
  else from_int64(out, in, n);
}

template <int From, int... To>
void install_from(CastRows& rows) {
  ((rows[To][From] = &cast_row_avx512<To, From>), ...);
}

}  // namespace

void install_avx512_cast_rows(CastRows& rows) {
  if (!avx512_with_bw()) return;
  for (int to = 0; to < kNumScalarTypes; ++to)
    for (int from = 0; from < kNumScalarTypes; ++from) g_replaced[to][from] = rows[to][from];
  constexpr int i8 = int(ScalarType::Int8), i16 = int(ScalarType::Int16), i32 = int(ScalarType::Int32);
  constexpr int u8 = int(ScalarType::UInt8), u16 = int(ScalarType::UInt16), u32 = int(ScalarType::UInt32);
  install_from<int(ScalarType::Float32), i8, i16, i32, u8, u16, u32>(rows);
  install_from<int(ScalarType::Float64), i8, i16, i32, u8, u16, u32>(rows);
  constexpr int f32 = int(ScalarType::Float32), f64 = int(ScalarType::Float64);
  install_from<int(ScalarType::Int64), i8, i16, i32, u8, u16, u32, f32, f64>(rows);
  install_from<int(ScalarType::UInt64), i8, i16, i32, u8, u16, u32, f32, f64>(rows);
}

}  // namespace dla::cpu
