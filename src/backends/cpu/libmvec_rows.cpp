// libmvec_rows.cpp — libmvec_rows.h's loops, compiled twice by CMake: with -mavx512f (the
// libmvec_avx512 namespace) and with -mavx2 (libmvec_avx2). The ISA comes from the command line,
// never from a target attribute: that is what makes clang pass the vectors in registers.
#include "backends/cpu/libmvec_rows.h"

#include <immintrin.h>

#include <cstring>

#if defined(__AVX512F__)
#define DLA_ROWS_NS libmvec_avx512
#define DLA_F_VEC __m512
#define DLA_D_VEC __m512d
#define DLA_F_WIDTH 16
#define DLA_D_WIDTH 8
#define DLA_LOAD_F _mm512_loadu_ps
#define DLA_LOAD_D _mm512_loadu_pd
#define DLA_STORE_F _mm512_storeu_ps
#define DLA_STORE_D _mm512_storeu_pd
#define DLA_SET1_F _mm512_set1_ps
#define DLA_SET1_D _mm512_set1_pd
#elif defined(__AVX2__)
#define DLA_ROWS_NS libmvec_avx2
#define DLA_F_VEC __m256
#define DLA_D_VEC __m256d
#define DLA_F_WIDTH 8
#define DLA_D_WIDTH 4
#define DLA_LOAD_F _mm256_loadu_ps
#define DLA_LOAD_D _mm256_loadu_pd
#define DLA_STORE_F _mm256_storeu_ps
#define DLA_STORE_D _mm256_storeu_pd
#define DLA_SET1_F _mm256_set1_ps
#define DLA_SET1_D _mm256_set1_pd
#else
#error "libmvec_rows.cpp is compiled with -mavx512f or -mavx2 (see CMakeLists.txt)"
#endif

namespace dla::cpu::DLA_ROWS_NS {

// Full vectors straight from the row; the tail through a buffer padded with the row's first
// element (pair), so that every value goes through the same vector function.
#define DLA_ROW(NAME, T, V, W, LOAD, STORE)                        \
  void NAME(void* fn, const T* in, T* out, int64_t n) {            \
    auto f = reinterpret_cast<V (*)(V)>(fn);                       \
    int64_t i = 0;                                                 \
    for (; i + W <= n; i += W) STORE(out + i, f(LOAD(in + i)));    \
    if (i < n) {                                                   \
      alignas(64) T buf[W];                                        \
      const int64_t m = n - i;                                     \
      for (int k = 0; k < W; ++k) buf[k] = in[i + (k < m ? k : 0)]; \
      STORE(buf, f(LOAD(buf)));                                    \
      std::memcpy(out + i, buf, sizeof(T) * size_t(m));            \
    }                                                              \
  }
DLA_ROW(row_f, float, DLA_F_VEC, DLA_F_WIDTH, DLA_LOAD_F, DLA_STORE_F)
DLA_ROW(row_d, double, DLA_D_VEC, DLA_D_WIDTH, DLA_LOAD_D, DLA_STORE_D)
#undef DLA_ROW

#define DLA_ROW2(NAME, T, V, W, LOAD, STORE, SET1)                                        \
  void NAME(void* fn, const T* a, const T* b, int64_t b_step, T* out, int64_t n) {        \
    auto f = reinterpret_cast<V (*)(V, V)>(fn);                                           \
    int64_t i = 0;                                                                        \
    if (b_step == 0) {                                                                    \
      const V bv = SET1(*b);                                                              \
      for (; i + W <= n; i += W) STORE(out + i, f(LOAD(a + i), bv));                      \
    } else {                                                                              \
      for (; i + W <= n; i += W) STORE(out + i, f(LOAD(a + i), LOAD(b + i)));             \
    }                                                                                     \
    if (i < n) {                                                                          \
      alignas(64) T abuf[W];                                                              \
      alignas(64) T bbuf[W];                                                              \
      const int64_t m = n - i;                                                            \
      for (int k = 0; k < W; ++k) {                                                       \
        abuf[k] = a[i + (k < m ? k : 0)];                                                 \
        bbuf[k] = b[(i + (k < m ? k : 0)) * b_step];                                      \
      }                                                                                   \
      STORE(abuf, f(LOAD(abuf), LOAD(bbuf)));                                             \
      std::memcpy(out + i, abuf, sizeof(T) * size_t(m));                                  \
    }                                                                                     \
  }
DLA_ROW2(row2_f, float, DLA_F_VEC, DLA_F_WIDTH, DLA_LOAD_F, DLA_STORE_F, DLA_SET1_F)
DLA_ROW2(row2_d, double, DLA_D_VEC, DLA_D_WIDTH, DLA_LOAD_D, DLA_STORE_D, DLA_SET1_D)
#undef DLA_ROW2

}  // namespace dla::cpu::DLA_ROWS_NS
