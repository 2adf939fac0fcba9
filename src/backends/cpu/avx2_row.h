// avx2_row.h — the row loop of the AVX2 transcendental kernels (float32_math.cpp, 8 float lanes
// a vector; math_avx2_f64.cpp, 4 double lanes, its kernels those of trig_kernels_f64.h shared
// with AVX-512): each vector computed by a kernel, lanes outside the function's domain given its
// NaN, lanes off the kernel's fast range recomputed by libm; the polynomial evaluation both
// files' kernels use; and the lane operations per dtype (Lanes, also vector_math.cpp's settling
// of pow's negative bases).
//
// A kernel K provides: Regs and regs() (constants loaded once per row), compute(x, regs),
// fast(x) (a lane mask of what compute gets right), settled(x) (lanes compute sets itself,
// off the fast range), and scalar(x) (libm's function).
#pragma once
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "backends/cpu/math_domain.h"

#define DLA_V256 __attribute__((target("avx2,fma"), always_inline)) inline

namespace dla::cpu::avx2_math {

// c[0] + t c[1] + t^2 c[2] + ... (Horner), in float32 or float64.
template <int N>
DLA_V256 __m256 poly(__m256 t, const float (&c)[N]) {
  __m256 p = _mm256_set1_ps(c[N - 1]);
  for (int i = N - 2; i >= 0; --i) p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(c[i]));
  return p;
}
template <int N>
DLA_V256 __m256d poly(__m256d t, const double (&c)[N]) {
  __m256d p = _mm256_set1_pd(c[N - 1]);
  for (int i = N - 2; i >= 0; --i) p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(c[i]));
  return p;
}

template <class T>
struct Lanes;
template <>
struct Lanes<float> {
  using V = __m256;
  static constexpr int kCount = 8;
  DLA_V256 static V load(const float* p) { return _mm256_loadu_ps(p); }
  DLA_V256 static V set1(float v) { return _mm256_set1_ps(v); }
  DLA_V256 static V from_mask(__m256i m) { return _mm256_castsi256_ps(m); }
  DLA_V256 static __m256i lane_mask(int live) {  // the first `live` lanes
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(live), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  DLA_V256 static V mask_load(const float* p, __m256i m) { return _mm256_maskload_ps(p, m); }
  DLA_V256 static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
  DLA_V256 static void mask_store(float* p, __m256i m, V v) { _mm256_maskstore_ps(p, m, v); }
  DLA_V256 static void store_aligned(float* p, V v) { _mm256_store_ps(p, v); }
  DLA_V256 static int movemask(V v) { return _mm256_movemask_ps(v); }
  DLA_V256 static V blend(V a, V b, V m) { return _mm256_blendv_ps(a, b, m); }
  DLA_V256 static V or_(V a, V b) { return _mm256_or_ps(a, b); }
  DLA_V256 static V and_(V a, V b) { return _mm256_and_ps(a, b); }
  DLA_V256 static V andnot(V a, V b) { return _mm256_andnot_ps(a, b); }  // ~a & b
  DLA_V256 static V xor_(V a, V b) { return _mm256_xor_ps(a, b); }
  DLA_V256 static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  DLA_V256 static V trunc(V v) { return _mm256_round_ps(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
  template <int kPredicate>
  DLA_V256 static V compare(V a, V b) { return _mm256_cmp_ps(a, b, kPredicate); }
  DLA_V256 static V less(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
};
template <>
struct Lanes<double> {
  using V = __m256d;
  static constexpr int kCount = 4;
  DLA_V256 static V load(const double* p) { return _mm256_loadu_pd(p); }
  DLA_V256 static V set1(double v) { return _mm256_set1_pd(v); }
  DLA_V256 static V from_mask(__m256i m) { return _mm256_castsi256_pd(m); }
  DLA_V256 static __m256i lane_mask(int live) {
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(live), _mm256_setr_epi64x(0, 1, 2, 3));
  }
  DLA_V256 static V mask_load(const double* p, __m256i m) { return _mm256_maskload_pd(p, m); }
  DLA_V256 static void store(double* p, V v) { _mm256_storeu_pd(p, v); }
  DLA_V256 static void mask_store(double* p, __m256i m, V v) { _mm256_maskstore_pd(p, m, v); }
  DLA_V256 static void store_aligned(double* p, V v) { _mm256_store_pd(p, v); }
  DLA_V256 static int movemask(V v) { return _mm256_movemask_pd(v); }
  DLA_V256 static V blend(V a, V b, V m) { return _mm256_blendv_pd(a, b, m); }
  DLA_V256 static V or_(V a, V b) { return _mm256_or_pd(a, b); }
  DLA_V256 static V and_(V a, V b) { return _mm256_and_pd(a, b); }
  DLA_V256 static V andnot(V a, V b) { return _mm256_andnot_pd(a, b); }  // ~a & b
  DLA_V256 static V xor_(V a, V b) { return _mm256_xor_pd(a, b); }
  DLA_V256 static V mul(V a, V b) { return _mm256_mul_pd(a, b); }
  DLA_V256 static V trunc(V v) { return _mm256_round_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
  template <int kPredicate>
  DLA_V256 static V compare(V a, V b) { return _mm256_cmp_pd(a, b, kPredicate); }
  DLA_V256 static V less(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
};

// Lanes of `slow` (a movemask) are recomputed by libm from the saved arguments.
template <class K, class T>
__attribute__((noinline)) void fix_up(int slow, const T* xs, T* out) {
  for (int l = 0; l < Lanes<T>::kCount; ++l)
    if (slow & (1 << l)) out[l] = K::scalar(xs[l]);
}

// One vector: the kernel's value for the lanes of `live` (a movemask), the NaN of `domain`
// where x is outside it (blended in, without branches: data with negatives in it has them in
// random lanes), libm's for the other lanes off the fast range. x is read before out is
// written, so in == out works.
template <class K, class T>
DLA_V256 void step(typename Lanes<T>::V x, T* out, int live, __m256i live_mask, const typename K::Regs& regs,
                   const NanOutside<T>* domain) {
  using L = Lanes<T>;
  constexpr int kAll = (1 << L::kCount) - 1;
  auto y = K::compute(x, regs);
  auto done = L::or_(K::fast(x), K::settled(x));
  if (domain) {
    const auto outside = L::or_(L::less(x, L::set1(domain->lo)), L::less(L::set1(domain->hi), x));
    y = L::blend(y, L::set1(domain->nan), outside);
    done = L::or_(done, outside);
  }
  if (live == kAll) L::store(out, y);
  else L::mask_store(out, live_mask, y);
  if (const int slow = live & ~L::movemask(done)) {
    alignas(32) T xs[L::kCount];
    L::store_aligned(xs, x);
    fix_up<K, T>(slow, xs, out);
  }
}

// out[i] = f(in[i]) over a contiguous row (in == out allowed). The tail runs as one vector
// whose idle lanes hold `idle`, a value on the kernel's fast range.
template <class K, class T>
__attribute__((target("avx2,fma"))) void row(const T* in, T* out, int64_t n, const NanOutside<T>* domain, T idle) {
  using L = Lanes<T>;
  const typename K::Regs regs = K::regs();
  const __m256i all = _mm256_set1_epi32(-1);
  int64_t i = 0;
  for (; i + L::kCount <= n; i += L::kCount) step<K, T>(L::load(in + i), out + i, (1 << L::kCount) - 1, all, regs, domain);
  if (i < n) {
    const int live_count = int(n - i);
    const __m256i mask = L::lane_mask(live_count);
    const auto x = L::blend(L::set1(idle), L::mask_load(in + i, mask), L::from_mask(mask));
    step<K, T>(x, out + i, (1 << live_count) - 1, mask, regs, domain);
  }
}

}  // namespace dla::cpu::avx2_math
