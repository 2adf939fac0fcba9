// int_divide_rows_avx512.cpp — integer division by one divisor with AVX-512 (see the header).
#include "backends/cpu/int_divide_rows_avx512.h"

#include <immintrin.h>

#include "core/cpu_features.h"
#include "backends/cpu/int_divide.h"

namespace dla::cpu {
namespace {

#define DLA_INT_DIVIDE_TARGET __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"), always_inline)) inline

LoopFn g_replaced[kNumOps][kNumScalarTypes];

// Lane operations of width W bits (16, 32 or 64) on unsigned lanes: the same set for each
// width, from the intrinsics of its suffix; the high half of a product is each width's own.
template <int W>
struct Lanes;
#define DLA_INT_DIVIDE_LANES(W, SUFFIX, MASK, SET)                                                                   \
  template <>                                                                                                       \
  struct Lanes<W> {                                                                                                 \
    using Mask = MASK;                                                                                              \
    DLA_INT_DIVIDE_TARGET static __m512i set(uint64_t v) { return SET; }                                            \
    DLA_INT_DIVIDE_TARGET static __m512i sub(__m512i a, __m512i b) { return _mm512_sub_##SUFFIX(a, b); }            \
    DLA_INT_DIVIDE_TARGET static __m512i add(__m512i a, __m512i b) { return _mm512_add_##SUFFIX(a, b); }            \
    DLA_INT_DIVIDE_TARGET static __m512i srl(__m512i a, __m128i c) { return _mm512_srl_##SUFFIX(a, c); }            \
    DLA_INT_DIVIDE_TARGET static __m512i sign(__m512i a) { return _mm512_srai_##SUFFIX(a, W - 1); }                 \
    DLA_INT_DIVIDE_TARGET static __m512i mullo(__m512i a, __m512i b) { return _mm512_mullo_##SUFFIX(a, b); }        \
    DLA_INT_DIVIDE_TARGET static Mask nonzero(__m512i a) { return _mm512_test_##SUFFIX##_mask(a, a); }              \
    DLA_INT_DIVIDE_TARGET static __m512i mask_sub(__m512i src, Mask k, __m512i a, __m512i b) {                      \
      return _mm512_mask_sub_##SUFFIX(src, k, a, b);                                                                \
    }                                                                                                               \
    DLA_INT_DIVIDE_TARGET static __m512i mulhi(__m512i x, __m512i m);                                               \
  };
DLA_INT_DIVIDE_LANES(16, epi16, __mmask32, _mm512_set1_epi16(short(v)))
DLA_INT_DIVIDE_LANES(32, epi32, __mmask16, _mm512_set1_epi32(int(v)))
DLA_INT_DIVIDE_LANES(64, epi64, __mmask8, _mm512_set1_epi64(int64_t(v)))
#undef DLA_INT_DIVIDE_LANES

DLA_INT_DIVIDE_TARGET __m512i Lanes<16>::mulhi(__m512i x, __m512i m) { return _mm512_mulhi_epu16(x, m); }
// Even lanes' products have their high halves moved down; odd lanes' are already in place.
DLA_INT_DIVIDE_TARGET __m512i Lanes<32>::mulhi(__m512i x, __m512i m) {
  const __m512i even = _mm512_srli_epi64(_mm512_mul_epu32(x, m), 32);
  const __m512i odd = _mm512_mul_epu32(_mm512_srli_epi64(x, 32), m);
  return _mm512_mask_blend_epi32(0xaaaa, even, odd);
}
// Four 32 x 32 -> 64 products and the carries of their middle sums.
DLA_INT_DIVIDE_TARGET __m512i Lanes<64>::mulhi(__m512i x, __m512i m) {
  const __m512i low32 = _mm512_set1_epi64(0xffffffffll);
  const __m512i x_hi = _mm512_srli_epi64(x, 32), m_hi = _mm512_srli_epi64(m, 32);
  const __m512i ll = _mm512_mul_epu32(x, m), lh = _mm512_mul_epu32(x, m_hi);
  const __m512i hl = _mm512_mul_epu32(x_hi, m), hh = _mm512_mul_epu32(x_hi, m_hi);
  const __m512i mid = _mm512_add_epi64(_mm512_add_epi64(_mm512_srli_epi64(ll, 32), _mm512_and_si512(lh, low32)),
                                       _mm512_and_si512(hl, low32));
  return _mm512_add_epi64(_mm512_add_epi64(hh, _mm512_srli_epi64(lh, 32)),
                          _mm512_add_epi64(_mm512_srli_epi64(hl, 32), _mm512_srli_epi64(mid, 32)));
}

// One vector of W-bit lanes x (sign-extended where T is signed): floor(x / b) or x mod b with
// Python's signs, as int_divide_by_scalar_row computes them lane by lane.
template <int W, bool kSigned, bool kRemainder>
struct Divider {
  using V = Lanes<W>;
  __m512i m, d, sb, minus_one;
  __m128i s1, s2;
  DLA_INT_DIVIDE_TARGET __m512i operator()(__m512i x) const {
    const __m512i sa = kSigned ? V::sign(x) : _mm512_setzero_si512();
    const __m512i ux = V::sub(_mm512_xor_si512(x, sa), sa);
    const __m512i t = V::mulhi(ux, m);
    const __m512i q0 = V::srl(V::add(t, V::srl(V::sub(ux, t), s1)), s2);
    const __m512i r0 = V::sub(ux, V::mullo(q0, d));
    const __m512i differ = _mm512_xor_si512(sa, sb);
    const typename V::Mask k = V::nonzero(r0) & V::nonzero(differ);  // inexact, signs differ
    if constexpr (kRemainder) {
      const __m512i r = V::mask_sub(r0, k, d, r0);  // d - r0 there
      return V::sub(_mm512_xor_si512(r, sb), sb);
    } else {
      const __m512i q = V::mask_sub(q0, k, q0, minus_one);  // q0 + 1 there, then negated
      return V::sub(_mm512_xor_si512(q, differ), differ);
    }
  }
};

template <class T, bool kRemainder>
__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"))) int64_t divide_row(T* o, const T* a, T b, int64_t n) {
  constexpr int N = int(sizeof(T)) * 8;
  constexpr int W = N == 8 ? 16 : N;  // bytes in 16-bit lanes (there is no byte multiply)
  constexpr bool kSigned = std::is_signed_v<T>;
  using V = Lanes<W>;
  const DivisorMagic<T> dm = divisor_magic(b);
  // Bytes: m 2^8 in 16-bit lanes, so that the high half of that product is m x >> 8.
  const Divider<W, kSigned, kRemainder> div{V::set(uint64_t(dm.m) << (W - N)), V::set(dm.d), V::set(dm.sign ? ~uint64_t(0) : 0),
                                            V::set(~uint64_t(0)), _mm_cvtsi32_si128(dm.sh1), _mm_cvtsi32_si128(dm.sh2)};
  int64_t i = 0;
  if constexpr (N == 8) {
    for (; i + 32 <= n; i += 32) {
      const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
      const __m512i x = kSigned ? _mm512_cvtepi8_epi16(bytes) : _mm512_cvtepu8_epi16(bytes);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + i), _mm512_cvtepi16_epi8(div(x)));
    }
  } else {
    constexpr int64_t kLanes = 64 / int64_t(sizeof(T));
    for (; i + kLanes <= n; i += kLanes)
      _mm512_storeu_si512(o + i, div(_mm512_loadu_si512(a + i)));
  }
  return i;
}

template <OpId Op, ScalarType S>
void divide_loop(char** p, const int64_t* s, int64_t n) {
  using T = typename CType<S>::type;
  constexpr int64_t st = sizeof(T);
  int64_t done = 0;
  if (n > 0 && s[0] == st && s[1] == st && s[2] == 0) {
    const T b = *reinterpret_cast<const T*>(p[2]);
    if (b != T(0))  // 0: the replaced entry's zeros
      done = divide_row<T, Op == OpId::remainder>(reinterpret_cast<T*>(p[0]), reinterpret_cast<const T*>(p[1]), b, n);
  }
  if (done == n) return;
  char* rest[3] = {p[0] + done * s[0], p[1] + done * s[1], p[2]};
  g_replaced[int(Op)][int(S)](rest, s, n - done);
}

template <OpId Op, ScalarType... S>
void install(KernelTable& table) {
  ((table[int(Op)][int(S)] ? (table[int(Op)][int(S)] = &divide_loop<Op, S>) : nullptr), ...);
}

}  // namespace

void install_avx512_int_divide_rows(KernelTable& table) {
  if (!avx512_with_bw()) return;
  for (OpId op : {OpId::floor_divide, OpId::remainder})
    for (int st = 0; st < kNumScalarTypes; ++st) g_replaced[int(op)][st] = table[int(op)][st];
  using ST = ScalarType;
  install<OpId::floor_divide, ST::Int8, ST::Int16, ST::Int32, ST::Int64, ST::UInt8, ST::UInt16, ST::UInt32, ST::UInt64>(table);
  install<OpId::remainder, ST::Int8, ST::Int16, ST::Int32, ST::Int64, ST::UInt8, ST::UInt16, ST::UInt32, ST::UInt64>(table);
}

}  // namespace dla::cpu
