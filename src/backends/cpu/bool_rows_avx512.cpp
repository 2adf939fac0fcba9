// bool_rows_avx512.cpp — the AVX-512 rows of bool_rows_avx512.h: one template per row shape
// (two operands, one operand), the lane compare chosen per op and dtype at compile time.
// Every function carries the target attribute (the file is compiled for the baseline ISA and
// its rows are installed only where the CPU has the features), and everything but the
// installer has internal linkage, so no AVX-512 code can be merged into a baseline caller.
#include "backends/cpu/bool_rows_avx512.h"

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "core/cpu_features.h"

namespace dla::cpu {
namespace {

#define DLA_BOOL_ROWS __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"), always_inline)) inline

// The entries replaced, which take the strided rows and the tails.
KernelTable g_replaced;

template <class T>
DLA_BOOL_ROWS auto load(const T* p) {
  if constexpr (std::is_same_v<T, float>) return _mm512_loadu_ps(p);
  else if constexpr (std::is_same_v<T, double>) return _mm512_loadu_pd(p);
  else return _mm512_loadu_si512(p);
}

template <class T>
DLA_BOOL_ROWS auto broadcast(T v) {
  if constexpr (std::is_same_v<T, float>) return _mm512_set1_ps(v);
  else if constexpr (std::is_same_v<T, double>) return _mm512_set1_pd(v);
  else if constexpr (sizeof(T) == 1) return _mm512_set1_epi8(static_cast<char>(v));
  else if constexpr (sizeof(T) == 2) return _mm512_set1_epi16(static_cast<short>(v));
  else if constexpr (sizeof(T) == 4) return _mm512_set1_epi32(static_cast<int>(v));
  else return _mm512_set1_epi64(static_cast<long long>(v));
}

// The IEEE predicates of the comparison functors: ordered and quiet, except not_equal, which
// is true for NaN operands (as x != y in C++).
constexpr int float_predicate(OpId op) {
  switch (op) {
    case OpId::equal: return _CMP_EQ_OQ;
    case OpId::not_equal: return _CMP_NEQ_UQ;
    case OpId::less: return _CMP_LT_OQ;
    case OpId::less_equal: return _CMP_LE_OQ;
    case OpId::greater: return _CMP_GT_OQ;
    default: return _CMP_GE_OQ;
  }
}
constexpr int int_predicate(OpId op) {
  switch (op) {
    case OpId::equal: return _MM_CMPINT_EQ;
    case OpId::not_equal: return _MM_CMPINT_NE;
    case OpId::less: return _MM_CMPINT_LT;
    case OpId::less_equal: return _MM_CMPINT_LE;
    case OpId::greater: return _MM_CMPINT_NLE;
    default: return _MM_CMPINT_NLT;
  }
}

// op(a, b) of one vector of lanes, as the low bits of a mask.
template <OpId Op, class T, class V>
DLA_BOOL_ROWS uint64_t compare(V a, V b) {
  constexpr int kFloat = float_predicate(Op), kInt = int_predicate(Op);
  constexpr bool kSigned = std::is_signed_v<T>;
  if constexpr (std::is_same_v<T, float>) return _mm512_cmp_ps_mask(a, b, kFloat);
  else if constexpr (std::is_same_v<T, double>) return _mm512_cmp_pd_mask(a, b, kFloat);
  else if constexpr (sizeof(T) == 1) return kSigned ? _mm512_cmp_epi8_mask(a, b, kInt) : _mm512_cmp_epu8_mask(a, b, kInt);
  else if constexpr (sizeof(T) == 2) return kSigned ? _mm512_cmp_epi16_mask(a, b, kInt) : _mm512_cmp_epu16_mask(a, b, kInt);
  else if constexpr (sizeof(T) == 4) return kSigned ? _mm512_cmp_epi32_mask(a, b, kInt) : _mm512_cmp_epu32_mask(a, b, kInt);
  else return kSigned ? _mm512_cmp_epi64_mask(a, b, kInt) : _mm512_cmp_epu64_mask(a, b, kInt);
}

// op(x) of one vector of float lanes. fpclass: 0x01 QNaN, 0x80 SNaN, 0x08 +inf, 0x10 -inf.
template <OpId Op, class T, class V>
DLA_BOOL_ROWS uint64_t predicate(V x) {
  constexpr bool kF64 = std::is_same_v<T, double>;
  constexpr uint64_t kLanes = kF64 ? 0xff : 0xffff;
  if constexpr (Op == OpId::isnan) {
    if constexpr (kF64) return _mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q);
    else return _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
  } else if constexpr (Op == OpId::isinf) {
    if constexpr (kF64) return _mm512_fpclass_pd_mask(x, 0x18);
    else return _mm512_fpclass_ps_mask(x, 0x18);
  } else if constexpr (Op == OpId::isfinite) {
    if constexpr (kF64) return ~uint64_t(_mm512_fpclass_pd_mask(x, 0x99)) & kLanes;
    else return ~uint64_t(_mm512_fpclass_ps_mask(x, 0x99)) & kLanes;
  } else {  // signbit: the top bit of each lane, NaNs and zeros included
    if constexpr (kF64) return _mm512_movepi64_mask(_mm512_castpd_si512(x));
    else return _mm512_movepi32_mask(_mm512_castps_si512(x));
  }
}

// The bool bytes of 64 elements a step (the lanes of 64 / L vectors make one 64-bit mask, and
// one masked byte move stores it); returns how many elements were written (n rounded down).
// kARow / kBRow: the operand is a contiguous row, else the one value broadcast.
template <OpId Op, class T, bool kARow, bool kBRow>
DLA_BOOL_ROWS int64_t compare_bytes(uint8_t* out, const T* a, const T* b, int64_t n) {
  constexpr int kLanes = 64 / int(sizeof(T));
  if (n < 64) return 0;
  const __m512i ones = _mm512_set1_epi8(1);
  const auto av = broadcast(*a), bv = broadcast(*b);
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    uint64_t k = 0;
    for (int v = 0; v < 64 / kLanes; ++v) {
      const int64_t j = i + int64_t(v) * kLanes;
      k |= compare<Op, T>(kARow ? load(a + j) : av, kBRow ? load(b + j) : bv) << (v * kLanes);
    }
    _mm512_storeu_si512(out + i, _mm512_maskz_mov_epi8(k, ones));
  }
  return i;
}

template <OpId Op, class T>
DLA_BOOL_ROWS int64_t predicate_bytes(uint8_t* out, const T* x, int64_t n) {
  constexpr int kLanes = 64 / int(sizeof(T));
  const __m512i ones = _mm512_set1_epi8(1);
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    uint64_t k = 0;
    for (int v = 0; v < 64 / kLanes; ++v) k |= predicate<Op, T>(load(x + i + int64_t(v) * kLanes)) << (v * kLanes);
    _mm512_storeu_si512(out + i, _mm512_maskz_mov_epi8(k, ones));
  }
  return i;
}

template <OpId Op, ScalarType S>
__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"))) void compare_row(char** p, const int64_t* s, int64_t n) {
  using T = typename CType<S>::type;
  constexpr int64_t st = sizeof(T);
  uint8_t* out = reinterpret_cast<uint8_t*>(p[0]);
  const T* a = reinterpret_cast<const T*>(p[1]);
  const T* b = reinterpret_cast<const T*>(p[2]);
  int64_t done = 0;
  if (s[0] == 1 && s[1] == st && s[2] == st) done = compare_bytes<Op, T, true, true>(out, a, b, n);
  else if (s[0] == 1 && s[1] == st && s[2] == 0) done = compare_bytes<Op, T, true, false>(out, a, b, n);
  else if (s[0] == 1 && s[1] == 0 && s[2] == st) done = compare_bytes<Op, T, false, true>(out, a, b, n);
  if (done == n) return;
  char* rest[3] = {p[0] + done * s[0], p[1] + done * s[1], p[2] + done * s[2]};
  g_replaced[int(Op)][int(S)](rest, s, n - done);
}

template <OpId Op, ScalarType S>
__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"))) void predicate_row(char** p, const int64_t* s, int64_t n) {
  using T = typename CType<S>::type;
  int64_t done = 0;
  if (s[0] == 1 && s[1] == int64_t(sizeof(T)))
    done = predicate_bytes<Op, T>(reinterpret_cast<uint8_t*>(p[0]), reinterpret_cast<const T*>(p[1]), n);
  if (done == n) return;
  char* rest[2] = {p[0] + done * s[0], p[1] + done * s[1]};
  g_replaced[int(Op)][int(S)](rest, s, n - done);
}

template <OpId Op, ScalarType... S>
void install_compares(KernelTable& table) {
  ((table[int(Op)][int(S)] ? (table[int(Op)][int(S)] = &compare_row<Op, S>) : nullptr), ...);
}
template <OpId Op, ScalarType... S>
void install_predicates(KernelTable& table) {
  ((table[int(Op)][int(S)] ? (table[int(Op)][int(S)] = &predicate_row<Op, S>) : nullptr), ...);
}

template <OpId... Ops>
void install_compare_ops(KernelTable& table) {
  using ST = ScalarType;
  (install_compares<Ops, ST::Int8, ST::Int16, ST::Int32, ST::Int64, ST::UInt8, ST::UInt16, ST::UInt32, ST::UInt64,
                    ST::Float32, ST::Float64>(table),
   ...);
}

}  // namespace

void install_avx512_bool_rows(KernelTable& table) {
  if (!avx512_with_bw()) return;
  for (int op = 0; op < kNumOps; ++op)
    for (int st = 0; st < kNumScalarTypes; ++st) g_replaced[op][st] = table[op][st];
  install_compare_ops<OpId::equal, OpId::not_equal, OpId::less, OpId::less_equal, OpId::greater,
                      OpId::greater_equal>(table);
  using ST = ScalarType;
  install_predicates<OpId::isnan, ST::Float32, ST::Float64>(table);
  install_predicates<OpId::isinf, ST::Float32, ST::Float64>(table);
  install_predicates<OpId::isfinite, ST::Float32, ST::Float64>(table);
  install_predicates<OpId::signbit, ST::Float32, ST::Float64>(table);
}

}  // namespace dla::cpu
