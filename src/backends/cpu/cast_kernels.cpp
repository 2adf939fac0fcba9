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

// Integers of up to 32 bits, uint32 aside: clamped in From to [lo, top] (exact there; NaN lanes
// masked to 0), converted to int32 by cvtt, then narrowed. Only int32 from float32 has a
// ceiling above top (2^31 is max rounded up): values from it on become max after conversion.
template <class To, class From>
DLA_LOOP_ATTR void float_to_int32_row(To* out, const From* in, int64_t n) {
  using Lim = std::numeric_limits<To>;
  constexpr int kFromDigits = std::numeric_limits<From>::digits;
  constexpr From lo = From(Lim::lowest()), ceiling = From(Lim::max());
  constexpr From top = Lim::digits <= kFromDigits ? ceiling : ceiling - ceiling / From(uint64_t(1) << kFromDigits);
  auto eight = [&](const From* p) -> __m256i {
    if constexpr (std::is_same_v<From, float>) {
      const __m256 v = _mm256_loadu_ps(p);
      __m256 c = _mm256_min_ps(_mm256_max_ps(v, _mm256_set1_ps(lo)), _mm256_set1_ps(top));  // NaN -> lo ...
      c = _mm256_and_ps(c, _mm256_cmp_ps(v, v, _CMP_ORD_Q));                                  // ... -> 0
      __m256i r = _mm256_cvttps_epi32(c);
      if constexpr (Lim::digits > kFromDigits) {
        const __m256 above = _mm256_cmp_ps(v, _mm256_set1_ps(ceiling), _CMP_GE_OQ);
        r = _mm256_blendv_epi8(r, _mm256_set1_epi32(Lim::max()), _mm256_castps_si256(above));
      }
      return r;
    } else {
      auto four = [&](const double* q) {
        const __m256d v = _mm256_loadu_pd(q);
        __m256d c = _mm256_min_pd(_mm256_max_pd(v, _mm256_set1_pd(lo)), _mm256_set1_pd(top));
        c = _mm256_and_pd(c, _mm256_cmp_pd(v, v, _CMP_ORD_Q));
        return _mm256_cvttpd_epi32(c);
      };
      return _mm256_set_m128i(four(p + 4), four(p));
    }
  };
  // Narrowed in registers: the values are in To's range already, so the saturating packs are
  // exact; the permutes undo the packs' interleaving of the two 128-bit halves.
  int64_t i = 0;
  if constexpr (sizeof(To) == 4) {
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

// 64-bit integers and uint32: values of magnitude below 2^51 (after NaN -> 0, negative -> 0 for
// unsigned, and uint32's max) convert exactly through the bits of trunc(c) + 1.5 * 2^52, whose
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
      if constexpr (sizeof(To) == 4) c = c > 4294967295.0 ? 4294967295.0 : c;
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
      if constexpr (sizeof(To) == 8 || std::is_same_v<To, uint32_t>) return float_to_int64_row(dt, st, n);
      else return float_to_int32_row(dt, st, n);
    }
#endif
    for (int64_t i = 0; i < n; ++i) dt[i] = convert<To>(st[i]);
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
     if constexpr (is_complex_type(To) || is_complex_type(From)) return;  // baseline rows
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
