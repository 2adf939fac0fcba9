// simd_minmax.h — max/min of a contiguous row of a real dtype (floats NaN-propagating),
// vectorized.
//
// The NaN-propagating select `(x > m) | (x != x) ? x : m` does not auto-vectorize from scalar
// code (GCC keeps the branch), so the row is folded with GCC/Clang vector types in eight
// independent accumulators, in SSE2 width for every x86-64 CPU and in AVX2 width where the
// CPU has it (chosen at run time, since wheels are built for the baseline ISA). Max and min
// are exact under any grouping, so the result is the one successive application gives.
// Integers take the same body (their `a != a` is all false); in AVX2 width that is
// vpcmpgtq for 64-bit lanes, which baseline x86-64 lacks (int64 max was 1.36x NumPy's time).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/elementwise_functors.h"

namespace dla::cpu {

// The dtypes the vector body serves: every real type but bool.
template <class T>
constexpr bool kSimdMinmaxType = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

// The scalar step (lane merging and the tail) is the elementwise maximum/minimum itself.
template <class T, bool IsMax>
inline T minmax_scalar_step(T acc, T v) {
  using F = std::conditional_t<IsMax, elem::MaximumF, elem::MinimumF>;
  return F{}(acc, v);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

template <class T, bool IsMax, int Bytes>
__attribute__((always_inline)) inline T minmax_vector_body(const T* x, int64_t n) {
  typedef T V __attribute__((vector_size(Bytes)));
  constexpr int W = Bytes / int(sizeof(T)), K = 8;
  V r[K];
  for (int k = 0; k < K; ++k) std::memcpy(&r[k], x + k * W, sizeof(V));
  int64_t i = K * W;
  for (; i + K * W <= n; i += K * W) {
#pragma GCC unroll 8
    for (int k = 0; k < K; ++k) {
      V a;
      std::memcpy(&a, x + i + k * W, sizeof(V));
      r[k] = ((IsMax ? a > r[k] : a < r[k]) | (a != a)) ? a : r[k];
    }
  }
  T acc = r[0][0];
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < W; ++j) acc = minmax_scalar_step<T, IsMax>(acc, r[k][j]);
  for (; i < n; ++i) acc = minmax_scalar_step<T, IsMax>(acc, x[i]);
  return acc;
}

template <class T, bool IsMax>
T minmax_sse2(const T* x, int64_t n) {
  return minmax_vector_body<T, IsMax, 16>(x, n);
}
template <class T, bool IsMax>
__attribute__((target("avx2"))) T minmax_avx2(const T* x, int64_t n) {
  return minmax_vector_body<T, IsMax, 32>(x, n);
}

// n >= 8 * 32 / sizeof(T) (one block of every accumulator in the wider width). (An AVX-512
// variant was 2.6x faster in a standalone test but 10x slower inside the module, cause not yet
// found: left out.)
template <class T, bool IsMax>
T minmax_contiguous(const T* x, int64_t n) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2 ? minmax_avx2<T, IsMax>(x, n) : minmax_sse2<T, IsMax>(x, n);
}
constexpr bool kHaveSimdMinmax = true;

#else

template <class T, bool IsMax>
T minmax_contiguous(const T* x, int64_t n) {
  T acc = x[0];
  for (int64_t i = 1; i < n; ++i) acc = minmax_scalar_step<T, IsMax>(acc, x[i]);
  return acc;
}
constexpr bool kHaveSimdMinmax = false;

#endif

}  // namespace dla::cpu
