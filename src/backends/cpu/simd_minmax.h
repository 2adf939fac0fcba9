// simd_minmax.h — max/min of a contiguous row of a real dtype (floats NaN-propagating), and
// nanmax/nanmin of a float row (NaN skipped), vectorized.
//
// The NaN-propagating select `(x > m) | (x != x) ? x : m` does not auto-vectorize from scalar
// code (GCC keeps the branch), so the row is folded with GCC/Clang vector types in eight
// independent accumulators, in SSE2 width for every x86-64 CPU and in AVX2 width where the
// CPU has it (chosen at run time, since wheels are built for the baseline ISA). Max and min
// are exact under any grouping, so the result is the one successive application gives.
// Integers take the same body as a plain select (`a > m ? a : m`, which compiles to vpmax/
// vpmin; the NaN form made GCC compare and blend, loading every vector twice); in AVX2 width
// 64-bit lanes still need vpcmpgtq, which baseline x86-64 lacks, and AVX-512 has vpmaxsq/
// vpminuq, so integers take 512-bit vectors where the CPU has them (int64 min: 1.30x NumPy's
// time in AVX2 width, 0.95x in AVX-512).
//
// nanmax and nanmin (NaN skipped) have a body of their own, nan_skipping_float_avx2.
//
// float32 and float64 have their own AVX2 body: vmaxps/vminps(a, r) is `a > r ? a : r`, which
// keeps r on ties and ignores a NaN in a, and the NaNs are found apart, by one unordered
// compare per two loaded vectors OR'd into a mask that is looked at once per call. That is
// two instructions per vector instead of four (compare, compare, or, blend), and out of cache
// reached 0.91x NumPy's time where the generic body took 1.03x (10^7 float32, one thread).
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#include "core/cpu_features.h"
#include "core/elementwise_functors.h"

namespace dla::cpu {

// The dtypes the vector body serves: every real type but bool.
template <class T>
constexpr bool kSimdMinmaxType = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

template <class T>
constexpr bool kIsSimdFloat = std::is_same_v<T, float> || std::is_same_v<T, double>;

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
      if constexpr (std::is_integral_v<T>)  // a plain select: vpmin/vpmax, not compare and blend
        r[k] = (IsMax ? a > r[k] : a < r[k]) ? a : r[k];
      else
        r[k] = ((IsMax ? a > r[k] : a < r[k]) | (a != a)) ? a : r[k];
    }
  }
  T acc;
  if constexpr (std::is_integral_v<T>) {  // any merge order gives the same integer: in vectors
#pragma GCC unroll 8
    for (int k = 1; k < K; ++k) r[0] = (IsMax ? r[k] > r[0] : r[k] < r[0]) ? r[k] : r[0];
    acc = r[0][0];
    for (int j = 1; j < W; ++j) acc = minmax_scalar_step<T, IsMax>(acc, r[0][j]);
  } else {  // lane by lane in order: which of -0 and +0 an all-zero row gives depends on it
    acc = r[0][0];
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < W; ++j) acc = minmax_scalar_step<T, IsMax>(acc, r[k][j]);
  }
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
// Integers on AVX-512: vpmin/vpmax exist for every lane width there (AVX2 has no 64-bit one:
// compare and blend, int64 min at 1.30x NumPy's time, which dispatches to AVX-512).
template <class T, bool IsMax>
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))) T minmax_avx512(const T* x, int64_t n) {
  return minmax_vector_body<T, IsMax, 64>(x, n);
}

// The AVX2 intrinsics of one float type, so that the float body below is written once.
template <class T>
struct Avx2Float;
template <>
struct Avx2Float<float> {
  using V = __m256;
  static constexpr int W = 8;
  __attribute__((target("avx2"))) static V load(const float* p) { return _mm256_loadu_ps(p); }
  __attribute__((target("avx2"))) static V max(V a, V b) { return _mm256_max_ps(a, b); }
  __attribute__((target("avx2"))) static V min(V a, V b) { return _mm256_min_ps(a, b); }
  __attribute__((target("avx2"))) static V unord(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_UNORD_Q); }
  __attribute__((target("avx2"))) static V bor(V a, V b) { return _mm256_or_ps(a, b); }
  __attribute__((target("avx2"))) static V blend(V a, V b, V m) { return _mm256_blendv_ps(a, b, m); }
  __attribute__((target("avx2"))) static V zero() { return _mm256_setzero_ps(); }
  __attribute__((target("avx2"))) static bool any(V m) { return _mm256_movemask_ps(m) != 0; }
  __attribute__((target("avx2"))) static void store(float* p, V a) { _mm256_storeu_ps(p, a); }
};
template <>
struct Avx2Float<double> {
  using V = __m256d;
  static constexpr int W = 4;
  __attribute__((target("avx2"))) static V load(const double* p) { return _mm256_loadu_pd(p); }
  __attribute__((target("avx2"))) static V max(V a, V b) { return _mm256_max_pd(a, b); }
  __attribute__((target("avx2"))) static V min(V a, V b) { return _mm256_min_pd(a, b); }
  __attribute__((target("avx2"))) static V unord(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_UNORD_Q); }
  __attribute__((target("avx2"))) static V bor(V a, V b) { return _mm256_or_pd(a, b); }
  __attribute__((target("avx2"))) static V blend(V a, V b, V m) { return _mm256_blendv_pd(a, b, m); }
  __attribute__((target("avx2"))) static V zero() { return _mm256_setzero_pd(); }
  __attribute__((target("avx2"))) static bool any(V m) { return _mm256_movemask_pd(m) != 0; }
  __attribute__((target("avx2"))) static void store(double* p, V a) { _mm256_storeu_pd(p, a); }
};

// max/min of x[0, n), n >= 8 * W, float32/float64. A NaN anywhere gives the first NaN (what
// successive application gives). Otherwise, when Ordered, the accumulator lanes are merged in
// the generic body's order (the same eight accumulators of W lanes, so among equal values such
// as -0 and +0 the same one wins); when not, they are reduced in registers, in any order,
// for callers that only compare the value (argmax's blocks).
template <class T, bool IsMax, bool Ordered>
__attribute__((target("avx2"))) T minmax_float_avx2(const T* x, int64_t n) {
  using O = Avx2Float<T>;
  using V = typename O::V;
  constexpr int W = O::W, K = 8;
  V r[K];
  for (int k = 0; k < K; ++k) r[k] = O::load(x + k * W);
  V nan = O::zero();
#pragma GCC unroll 4
  for (int k = 0; k < K; k += 2) nan = O::bor(nan, O::unord(r[k], r[k + 1]));
  int64_t i = K * W;
  for (; i + K * W <= n; i += K * W) {
    V a[K];
#pragma GCC unroll 8
    for (int k = 0; k < K; ++k) a[k] = O::load(x + i + k * W);
#pragma GCC unroll 4
    for (int k = 0; k < K; k += 2) nan = O::bor(nan, O::unord(a[k], a[k + 1]));
#pragma GCC unroll 8
    for (int k = 0; k < K; ++k) r[k] = IsMax ? O::max(a[k], r[k]) : O::min(a[k], r[k]);  // a > r ? a : r
  }
  // The last n - i < K * W elements in whole vectors, then one vector ending at n (which may
  // overlap the blocks: max and min are idempotent), into one register with the accumulators.
  const int64_t blocks_end = i;
  V m = r[0];
#pragma GCC unroll 8
  for (int k = 1; k < K; ++k) m = IsMax ? O::max(r[k], m) : O::min(r[k], m);
  for (; i + W <= n; i += W) {
    const V a = O::load(x + i);
    nan = O::bor(nan, O::unord(a, a));
    m = IsMax ? O::max(a, m) : O::min(a, m);
  }
  if (i < n) {
    const V a = O::load(x + n - W);
    nan = O::bor(nan, O::unord(a, a));
    m = IsMax ? O::max(a, m) : O::min(a, m);
  }
  if (O::any(nan))
    for (int64_t j = 0;; ++j)
      if (x[j] != x[j]) return x[j];
  alignas(32) T lanes[K * W];
  O::store(lanes, m);
  T acc = lanes[0];
  for (int j = 1; j < W; ++j) acc = minmax_scalar_step<T, IsMax>(acc, lanes[j]);
  // Values equal to a nonzero extreme have its bits, so the order of the merge cannot show.
  // A zero extreme may be -0 or +0: where Ordered, the accumulators are merged again in the
  // generic body's order, and the tail element by element, so that the same zero wins. (The
  // serial merge of 8 * W lanes on every row made the max along axis 1 of a 2000 x 2000
  // float32 array take 1.12x PyTorch's time.)
  if (!Ordered || acc != T(0)) return acc;
  for (int k = 0; k < K; ++k) O::store(lanes + k * W, r[k]);
  acc = lanes[0];
  for (int j = 1; j < K * W; ++j) acc = minmax_scalar_step<T, IsMax>(acc, lanes[j]);
  for (i = blocks_end; i < n; ++i) acc = minmax_scalar_step<T, IsMax>(acc, x[i]);
  return acc;
}

// n >= 8 * 32 / sizeof(T) (one block of every accumulator in the AVX2 width; the AVX-512 one
// needs twice that). Floats stay in AVX2 width: on the AMD EPYC VM a 512-bit version of the
// float body was slower than the 256-bit one, 0.92 against 0.84 ms for 10^7 float32, and its
// lane order would change which of -0 and +0 an all-zero row returns.
template <class T, bool IsMax>
T minmax_contiguous(const T* x, int64_t n) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if constexpr (kIsSimdFloat<T>) {
    if (avx2) return minmax_float_avx2<T, IsMax, true>(x, n);
  } else {
    if (avx512_with_bw() && n >= 8 * 64 / int64_t(sizeof(T))) return minmax_avx512<T, IsMax>(x, n);
  }
  return avx2 ? minmax_avx2<T, IsMax>(x, n) : minmax_sse2<T, IsMax>(x, n);
}

// The extreme of a block for a caller that only compares its value (see minmax_float_avx2);
// n >= 8 * 32 / sizeof(T).
template <class T, bool IsMax>
T minmax_block(const T* x, int64_t n) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if constexpr (kIsSimdFloat<T>) {
    if (avx2) return minmax_float_avx2<T, IsMax, false>(x, n);
  }
  return minmax_contiguous<T, IsMax>(x, n);
}
// nanmax/nanmin of x[0, n) (NaN skipped), float32/float64, with the accumulators started at
// -inf (+inf for min): vmaxps(a, r) returns r when a is NaN, so a NaN never enters them and
// no compare is needed at all. An all-NaN row therefore comes out as -inf (+inf), which the
// caller cannot tell from a true infinity and folds again element by element.
template <class T, bool IsMax>
__attribute__((target("avx2"))) T nan_skipping_float_avx2(const T* x, int64_t n) {
  using O = Avx2Float<T>;
  using V = typename O::V;
  constexpr int W = O::W, K = 8;
  constexpr T start = IsMax ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
  alignas(32) T fill[W];
  for (int j = 0; j < W; ++j) fill[j] = start;
  V r[K];
  for (int k = 0; k < K; ++k) r[k] = O::load(fill);
  int64_t i = 0;
  for (; i + K * W <= n; i += K * W) {
#pragma GCC unroll 8
    for (int k = 0; k < K; ++k) {
      const V a = O::load(x + i + k * W);
      r[k] = IsMax ? O::max(a, r[k]) : O::min(a, r[k]);  // a > r ? a : r, r when a is NaN
    }
  }
  for (int k = 1; k < K; ++k) r[0] = IsMax ? O::max(r[k], r[0]) : O::min(r[k], r[0]);
  alignas(32) T lanes[W];
  O::store(lanes, r[0]);
  T acc = start;
  for (int j = 0; j < W; ++j) acc = IsMax ? (lanes[j] > acc ? lanes[j] : acc) : (lanes[j] < acc ? lanes[j] : acc);
  for (; i < n; ++i) acc = IsMax ? (x[i] > acc ? x[i] : acc) : (x[i] < acc ? x[i] : acc);  // NaN compares false
  return acc;
}

// The vector nanmax/nanmin into *out; false (nothing written) where the CPU has no AVX2 or
// T is not float32/float64, and the caller folds element by element.
template <class T, bool IsMax>
bool nan_skipping_contiguous(const T* x, int64_t n, T* out) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if constexpr (kIsSimdFloat<T>) {
    if (avx2 && n >= 8 * 32 / int64_t(sizeof(T))) {
      *out = nan_skipping_float_avx2<T, IsMax>(x, n);
      return true;
    }
  }
  return false;
}
// o[i] = nanmax(o[i], x[i]) (nanmin) along a row of outputs, a fold over an outer axis:
// vmaxps(x, o) is o where either is NaN, so the lanes where o is NaN take x instead.
template <class T, bool IsMax>
__attribute__((target("avx2"))) void nan_skipping_into_avx2(T* o, const T* x, int64_t n) {
  using O = Avx2Float<T>;
  using V = typename O::V;
  constexpr int W = O::W;
  int64_t i = 0;
  for (; i + W <= n; i += W) {
    const V a = O::load(x + i), r = O::load(o + i);
    const V m = IsMax ? O::max(a, r) : O::min(a, r);
    O::store(o + i, O::blend(m, a, O::unord(r, r)));
  }
  for (; i < n; ++i)
    if ((IsMax ? x[i] > o[i] : x[i] < o[i]) || o[i] != o[i]) o[i] = x[i];
}

// The vector form of the loop above; false (nothing done) without AVX2 or for other types.
template <class T, bool IsMax>
bool nan_skipping_into(T* o, const T* x, int64_t n) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if constexpr (kIsSimdFloat<T>) {
    if (avx2) {
      nan_skipping_into_avx2<T, IsMax>(o, x, n);
      return true;
    }
  }
  return false;
}
constexpr bool kHaveSimdMinmax = true;

#else

template <class T, bool IsMax>
T minmax_contiguous(const T* x, int64_t n) {
  T acc = x[0];
  for (int64_t i = 1; i < n; ++i) acc = minmax_scalar_step<T, IsMax>(acc, x[i]);
  return acc;
}
template <class T, bool IsMax>
T minmax_block(const T* x, int64_t n) {
  return minmax_contiguous<T, IsMax>(x, n);
}
template <class T, bool IsMax>
bool nan_skipping_contiguous(const T*, int64_t, T*) {
  return false;
}
template <class T, bool IsMax>
bool nan_skipping_into(T*, const T*, int64_t) {
  return false;
}
constexpr bool kHaveSimdMinmax = false;

#endif

}  // namespace dla::cpu
