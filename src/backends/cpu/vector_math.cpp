// vector_math.cpp — libmvec-backed loops for the unary float ops (see vector_math.h).
#include "backends/cpu/vector_math.h"

#include <dlfcn.h>
#include <immintrin.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

namespace dla::cpu {
namespace {

// The ops whose libm name is their own and that libmvec vectorizes.
#define DLA_LIBMVEC_UNARY(X) \
  X(exp) X(expm1) X(log) X(log1p) X(log2) X(log10) X(sin) X(cos) X(tan) X(asin) X(acos) X(atan) \
  X(sinh) X(cosh) X(tanh) X(asinh) X(acosh) X(atanh)

using RowF = void (*)(void* fn, const float* in, float* out, int64_t n);
using RowD = void (*)(void* fn, const double* in, double* out, int64_t n);

void* g_fn_f[kNumOps] = {};
void* g_fn_d[kNumOps] = {};
RowF g_row_f = nullptr;
RowD g_row_d = nullptr;
const char* g_isa = "none";

// Full vectors straight from the row; the tail through a buffer padded with its first
// element, so that every value goes through the same vector function.
#define DLA_VECTOR_ROW(NAME, ISA, T, V, W, LOAD, STORE)                        \
  __attribute__((target(ISA))) void NAME(void* fn, const T* in, T* out, int64_t n) { \
    auto f = reinterpret_cast<V (*)(V)>(fn);                                    \
    int64_t i = 0;                                                              \
    for (; i + W <= n; i += W) STORE(out + i, f(LOAD(in + i)));                 \
    if (i < n) {                                                                \
      T buf[W];                                                                 \
      const int64_t m = n - i;                                                  \
      for (int k = 0; k < W; ++k) buf[k] = in[i + (k < m ? k : 0)];             \
      STORE(buf, f(LOAD(buf)));                                                 \
      std::memcpy(out + i, buf, sizeof(T) * size_t(m));                         \
    }                                                                           \
  }
DLA_VECTOR_ROW(row_f_avx512, "avx512f", float, __m512, 16, _mm512_loadu_ps, _mm512_storeu_ps)
DLA_VECTOR_ROW(row_d_avx512, "avx512f", double, __m512d, 8, _mm512_loadu_pd, _mm512_storeu_pd)
DLA_VECTOR_ROW(row_f_avx2, "avx2", float, __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps)
DLA_VECTOR_ROW(row_d_avx2, "avx2", double, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd)
#undef DLA_VECTOR_ROW

template <class T>
void call_row(int op, const T* in, T* out, int64_t n) {
  if constexpr (std::is_same_v<T, float>) g_row_f(g_fn_f[op], in, out, n);
  else g_row_d(g_fn_d[op], in, out, n);
}

// Strided rows are gathered into blocks, so layout never changes a result.
template <int Op, class T>
void vector_loop(char** p, const int64_t* s, int64_t n) {
  constexpr int64_t st = sizeof(T);
  if (s[0] == st && s[1] == st) {
    call_row<T>(Op, reinterpret_cast<const T*>(p[1]), reinterpret_cast<T*>(p[0]), n);
    return;
  }
  constexpr int64_t kBlock = 256;
  T buf[kBlock];
  for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const int64_t m = n - i0 < kBlock ? n - i0 : kBlock;
    for (int64_t k = 0; k < m; ++k) buf[k] = *reinterpret_cast<const T*>(p[1] + (i0 + k) * s[1]);
    call_row<T>(Op, buf, buf, m);
    for (int64_t k = 0; k < m; ++k) *reinterpret_cast<T*>(p[0] + (i0 + k) * s[0]) = buf[k];
  }
}

bool disabled_by_env() {
  const char* v = std::getenv("DLARRAY_VECTOR_MATH");
  return v && (std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0);
}

}  // namespace

const char* vector_math_isa() { return g_isa; }

void install_vector_math(KernelTable& table) {
  if (disabled_by_env()) return;
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f");
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (!avx512 && !avx2) return;
  void* lib = dlopen("libmvec.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return;  // not glibc, or too old: the scalar loops stay
  g_isa = avx512 ? "avx512" : "avx2";
  g_row_f = avx512 ? row_f_avx512 : row_f_avx2;
  g_row_d = avx512 ? row_d_avx512 : row_d_avx2;
  const std::string pf = avx512 ? "_ZGVeN16v_" : "_ZGVdN8v_";
  const std::string pd = avx512 ? "_ZGVeN8v_" : "_ZGVdN4v_";
  constexpr int f32 = static_cast<int>(ScalarType::Float32), f64 = static_cast<int>(ScalarType::Float64);
#define DLA_INSTALL(name)                                                                  \
  {                                                                                        \
    constexpr int op = static_cast<int>(OpId::name);                                      \
    if ((g_fn_f[op] = dlsym(lib, (pf + #name "f").c_str()))) table[op][f32] = &vector_loop<op, float>; \
    if ((g_fn_d[op] = dlsym(lib, (pd + #name).c_str()))) table[op][f64] = &vector_loop<op, double>;    \
  }
  DLA_LIBMVEC_UNARY(DLA_INSTALL)
#undef DLA_INSTALL
}

}  // namespace dla::cpu
