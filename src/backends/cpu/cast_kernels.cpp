// cast_kernels.cpp — cast_kernels.h's rows, instantiated once per ISA the build compiles
// this file for (the baseline, and AVX2 with DLA_CPU_LOOPS_AVX2: see elementwise_loops.h).
#include "backends/cpu/cast_kernels.h"

#ifdef DLA_CPU_LOOPS_AVX2
#include <immintrin.h>
#endif
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "core/convert.h"

namespace dla::cpu::DLA_CPU_LOOPS_NS {
namespace {

#ifdef DLA_CPU_LOOPS_AVX2
// Contiguous rows from float32/float64 to integers, on AVX2; same values as convert() (NaN -> 0,
// saturation). GCC turns convert()'s selects into long mask juggling (float64 -> int32 at 2.5x
// NumPy's time), and neither SSE2 nor AVX2 converts to 64-bit integers in vectors (to unsigned
// ones not even scalar: a libgcc call per element, 11x), so these are written out.

// Integers of up to 32 bits: clamped in From to [lo, top] (exact there; NaN lanes
// masked to 0, except for unsigned To: max(NaN, 0) is already 0, maxps returning its second
// operand for a NaN), converted to int32 by cvtt, then narrowed. Only int32 from float32 has a
// ceiling above top (2^31 is max rounded up): values from it on become max after conversion.
template <class To, class From>
DLA_LOOP_ATTR void float_to_int32_row(To* out, const From* in, int64_t n) {
  using Lim = std::numeric_limits<To>;
  using B = SaturationBounds<To, From>;
  constexpr From lo = B::lo, top = B::top;
  // cvtt converts to signed int32; uint32's values from 2^31 on are shifted down by 2^31 first
  // and get their top bit back after.
  auto to_int32 = [](__m256 c) {
    if constexpr (std::is_same_v<To, uint32_t>) {
      const __m256 big = _mm256_cmp_ps(c, _mm256_set1_ps(0x1p31f), _CMP_GE_OQ);
      const __m256i r = _mm256_cvttps_epi32(_mm256_sub_ps(c, _mm256_and_ps(big, _mm256_set1_ps(0x1p31f))));
      return _mm256_xor_si256(r, _mm256_slli_epi32(_mm256_castps_si256(big), 31));
    }
    return _mm256_cvttps_epi32(c);
  };
  // float32: 8 values a vector.
  auto eight = [&](const float* p) -> __m256i {
    const __m256 v = _mm256_loadu_ps(p);
    __m256 c = _mm256_min_ps(_mm256_max_ps(v, _mm256_set1_ps(lo)), _mm256_set1_ps(top));  // NaN -> lo ...
    if constexpr (lo != From(0)) c = _mm256_and_ps(c, _mm256_cmp_ps(v, v, _CMP_ORD_Q));     // ... -> 0
    __m256i r = to_int32(c);
    if constexpr (B::kCeiling) {
      const __m256 above = _mm256_cmp_ps(v, _mm256_set1_ps(B::ceiling), _CMP_GE_OQ);
      r = _mm256_blendv_epi8(r, _mm256_set1_epi32(Lim::max()), _mm256_castps_si256(above));
    }
    return r;
  };
  // float64: 4 values a vector, converted into 128 bits.
  auto four = [&](const double* p) -> __m128i {
    const __m256d v = _mm256_loadu_pd(p);
    __m256d c = _mm256_min_pd(_mm256_max_pd(v, _mm256_set1_pd(lo)), _mm256_set1_pd(top));
    if constexpr (lo != From(0)) c = _mm256_and_pd(c, _mm256_cmp_pd(v, v, _CMP_ORD_Q));
    if constexpr (std::is_same_v<To, uint32_t>) {
      const __m256d big = _mm256_cmp_pd(c, _mm256_set1_pd(0x1p31), _CMP_GE_OQ);
      const __m128i r = _mm256_cvttpd_epi32(_mm256_sub_pd(c, _mm256_and_pd(big, _mm256_set1_pd(0x1p31))));
      const __m128i big32 = _mm256_cvtpd_epi32(_mm256_and_pd(big, _mm256_set1_pd(-0x1p31)));  // 0x80000000 or 0
      return _mm_xor_si128(r, big32);
    }
    return _mm256_cvttpd_epi32(c);
  };
  // Narrowed in registers: the values are in To's range already, so the saturating packs are
  // exact; for float32 the permutes undo the packs' interleaving of the two 128-bit halves.
  int64_t i = 0;
  if constexpr (std::is_same_v<From, double>) {
    auto store = [](To* q, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(q), v); };
    if constexpr (sizeof(To) == 4) {
      for (; i + 4 <= n; i += 4) store(out + i, four(in + i));
    } else if constexpr (sizeof(To) == 2) {
      for (; i + 8 <= n; i += 8) {
        const __m128i a = four(in + i), b = four(in + i + 4);
        store(out + i, std::is_signed_v<To> ? _mm_packs_epi32(a, b) : _mm_packus_epi32(a, b));
      }
    } else {
      for (; i + 16 <= n; i += 16) {
        const __m128i ab = _mm_packs_epi32(four(in + i), four(in + i + 4));
        const __m128i cd = _mm_packs_epi32(four(in + i + 8), four(in + i + 12));
        store(out + i, std::is_signed_v<To> ? _mm_packs_epi16(ab, cd) : _mm_packus_epi16(ab, cd));
      }
    }
  } else if constexpr (sizeof(To) == 4) {
    for (; i + 8 <= n; i += 8) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), eight(in + i));
  } else if constexpr (sizeof(To) == 2) {
    for (; i + 16 <= n; i += 16) {
      const __m256i a = eight(in + i), b = eight(in + i + 8);
      const __m256i p = std::is_signed_v<To> ? _mm256_packs_epi32(a, b) : _mm256_packus_epi32(a, b);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_permute4x64_epi64(p, 0xD8));
    }
  } else {
    for (; i + 32 <= n; i += 32) {
      const __m256i ab = _mm256_packs_epi32(eight(in + i), eight(in + i + 8));
      const __m256i cd = _mm256_packs_epi32(eight(in + i + 16), eight(in + i + 24));
      const __m256i p = std::is_signed_v<To> ? _mm256_packs_epi16(ab, cd) : _mm256_packus_epi16(ab, cd);
      const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_permutevar8x32_epi32(p, order));
    }
  }
  for (; i < n; ++i) out[i] = convert<To>(in[i]);
}

// 64-bit integers: values of magnitude below 2^51 (after NaN -> 0, and negative -> 0 for
// unsigned) convert exactly through the bits of trunc(c) + 1.5 * 2^52, whose
// binade (ulp 1) holds every integer of that range: plain arithmetic that vectorizes. A block
// with any value beyond that is redone by convert().
template <class To, class From>
DLA_LOOP_ATTR void float_to_int64_row(To* out, const From* in, int64_t n) {
  constexpr double kMagic = 0x1.8p52;
  constexpr int64_t kMagicBits = 0x4338000000000000;
  constexpr int64_t kBlock = 256;
  for (int64_t b0 = 0; b0 < n; b0 += kBlock) {
    const int64_t e = n - b0 < kBlock ? n : b0 + kBlock;
    int outside = 0;  // an int: GCC does not vectorize an or-reduction into a bool
    for (int64_t i = b0; i < e; ++i) {
      double c = double(in[i]);
      c = c == c ? c : 0.0;
      if constexpr (std::is_unsigned_v<To>) c = c < 0.0 ? 0.0 : c;
      outside |= !(std::fabs(c) < 0x1p51);
      const double t = std::trunc(c) + kMagic;
      int64_t bits;
      std::memcpy(&bits, &t, sizeof bits);
      out[i] = To(bits - kMagicBits);
    }
    if (outside)
      for (int64_t i = b0; i < e; ++i) out[i] = convert<To>(in[i]);
  }
}
#endif

template <class To, class From>
DLA_LOOP_ATTR void cast_row(char** p, const int64_t* s, int64_t n) {
  char* d = p[0];
  const char* src = p[1];
  if (s[0] == sizeof(To) && s[1] == sizeof(From)) {
    To* dt = reinterpret_cast<To*>(d);
    const From* st = reinterpret_cast<const From*>(src);
#ifdef DLA_CPU_LOOPS_AVX2
    if constexpr (std::is_integral_v<To> && !std::is_same_v<To, bool> && std::is_floating_point_v<From>) {
      if constexpr (sizeof(To) == 8) return float_to_int64_row(dt, st, n);
      else return float_to_int32_row(dt, st, n);
    }
#endif
    if constexpr (std::is_same_v<From, bool>) {  // bytes: GCC does not vectorize loads of bool
      const uint8_t* bytes = reinterpret_cast<const uint8_t*>(src);
DLA_IVDEP
      for (int64_t i = 0; i < n; ++i) dt[i] = convert<To>(int32_t(bytes[i] != 0));  // 0 or 1 as an int: GCC vectorizes that, not bool
    } else if constexpr (std::is_same_v<To, bool> && elem::is_complex_v<From>) {  // as the parts
      const auto* parts = reinterpret_cast<const typename From::value_type*>(src);
      uint8_t* bytes = reinterpret_cast<uint8_t*>(d);
DLA_IVDEP
      for (int64_t i = 0; i < n; ++i) bytes[i] = uint8_t(int32_t(parts[2 * i] != 0) | int32_t(parts[2 * i + 1] != 0));
    } else {
DLA_IVDEP
      for (int64_t i = 0; i < n; ++i) dt[i] = convert<To>(st[i]);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i, d += s[0], src += s[1])
    *reinterpret_cast<To*>(d) = convert<To>(*reinterpret_cast<const From*>(src));
}

constexpr bool is_complex_type(int t) {
  return t == int(ScalarType::Complex64) || t == int(ScalarType::Complex128);
}

template <int To, int... From>
void fill_column(CastRows& rows, std::integer_sequence<int, From...>) {
  using T = typename CType<ScalarType(To)>::type;
  (([&] {
     using F = typename CType<ScalarType(From)>::type;
#ifdef DLA_CPU_LOOPS_AVX2
     // Complex pairs keep the baseline rows, but for complex -> bool, which reads the parts.
     if constexpr (is_complex_type(To) || (is_complex_type(From) && To != int(ScalarType::Bool))) return;
#endif
     rows[To][From] = &cast_row<T, F>;
   }()),
   ...);
}

template <int... To>
void fill_all(CastRows& rows, std::integer_sequence<int, To...> types) {
  (fill_column<To>(rows, types), ...);
}

}  // namespace

void fill_cast_rows(CastRows& rows) { fill_all(rows, std::make_integer_sequence<int, kNumScalarTypes>{}); }

}  // namespace dla::cpu::DLA_CPU_LOOPS_NS
