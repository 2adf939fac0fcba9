// vector_math.cpp — which float32/float64 transcendental loops use glibc's libmvec
// (see vector_math.h), and the loops that call it.
#include "backends/cpu/vector_math.h"

#include "backends/cpu/avx2_row.h"
#include "core/cpu_features.h"
#include "backends/cpu/exp_log_f64.h"
#include "backends/cpu/float32_math.h"
#include "backends/cpu/libmvec_rows.h"
#include "backends/cpu/math_avx2_f64.h"
#include "backends/cpu/math_avx512_f32.h"
#include "backends/cpu/math_avx512_f64.h"
#include "backends/cpu/math_domain.h"

#include <dlfcn.h>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace dla::cpu {
namespace {

// Where a function's values come from, per dtype:
//   Vector  libmvec at the dtype's own width;
//   Widened (float32 only) libmvec's float64 function on the widened values, rounded once
//           to float32: a few float64 ulps are a 2^-29 fraction of a float32 ulp, so the
//           result is within 0.5 ulp + 2^-27, at about twice the float32 vector's cost;
//   Own     our own vectorized loops: float64 exp, expm1, log, log1p, log2, log10, sinh,
//           cosh, tanh, asinh, acosh, atanh (exp_log_f64.h), sin, cos, tan, asin, acos, atan
//           (math_avx2_f64.h; on AVX-512 math_avx512_f64.h has them all) within 0.70 ulp, and
//           float32 exp, log, sin, cos (on AVX2 float32_math.h: exp and log in float32
//           arithmetic, 0.54 and 0.51 ulp, sin and cos in float64, 0.56; on AVX-512
//           math_avx512_f32.h, which adds sinh, atanh, acosh, tanh: evaluated in float64, within
//           0.56 ulp, but tanh, atanh, acosh, sinh in float32, 0.75, and log in float32, 0.52);
//           where the CPU lacks AVX2/FMA, float32 falls back to Widened, and where an Own loop
//           exists on AVX-512 only, to Widened (float32) or Scalar (float64);
//   Scalar  the functor loop, i.e. glibc's scalar libm (< 1 ulp where chosen here).
// The choice is measured, not assumed: benchmarks/accuracy.py prints the max ulp error of
// each function over 10^6 inputs (hard regions included) next to NumPy's, and
// benchmarks/elementwise.py --transcendental the time. The goal: float64 within 1 ulp and
// float32 no worse than NumPy. Measured (AVX-512, glibc 2.36, 3x10^5 inputs), max ulp
// libmvec / NumPy: float64 exp 2.6/0.70, log 1.5/0.60, log2 1.7/0.51, log10 1.8/0.59,
// expm1 2.0/0.51, log1p 1.7/0.58, sin 3.0/0.51, cos 3.2/0.56, tan 3.1/0.56, asin 2.5/0.79,
// acos 1.6/0.81, atan 1.5/0.54, sinh 1.75/0.84, cosh 1.85/0.75, tanh 1.2/1.17, asinh 1.2/0.70,
// acosh 1.35/0.72, atanh 1.2/0.51; float32 exp 2.45/2.28, log 3.8/2.6, sin 2.0/1.41,
// cos 1.7/1.41, sinh 1.72/1.45, atanh 1.50/1.33 (ours 0.65), acosh 1.16/1.16 (ours 0.63), tanh
// 1.36/1.36 (ours 0.75), every other float32 function at NumPy's
// error (NumPy's AVX-512 loops give the same values). On AVX2 (AMD EPYC, glibc 2.36)
// libmvec's float32 is worse (atan 2.3/0.82, tan 3.1/1.3, log1p 1.8/0.77 ...).
//
// The default therefore takes an accurate loop wherever libmvec misses the goal, on every
// CPU: on AVX-512 our own loops, whose time on one thread, 10^6 values, over NumPy's (SVML)
// is float64 (AMD EPYC Zen 4, 2026-11-27, three runs of benchmarks/elementwise.py
// --transcendental on a 2-core machine shared with builds) exp 0.74-0.75, expm1 0.84-0.85,
// log1p 0.93, log/log2/log10 0.97-1.01, tan 1.14-1.15 (1.06 since the blend-free quadrant), sin/cos 0.07 (NumPy's float64 sin and
// cos are not vectorized here: 15-16 ms for 10^6; ours from 2026-11-27, 0.59 ulp), asin 0.80-0.81, acos 0.74-0.75, atan
// 0.88, sinh 0.95-0.97, cosh 0.81-0.83, tanh 0.79-0.80, asinh 0.90-0.95, acosh 0.76-0.82,
// atanh 0.89-0.90, float32 (AMD Zen 5) exp
// 0.62, sin/cos 0.86 (Zen 4, one polynomial per lane since: 0.92-0.96), log 0.97 (in float32 since: 0.74-0.75, AMD Zen 4), tanh 1.0 (libmvec's, at NumPy's error, 1.23), acosh 0.72,
// atanh 0.70-0.75, sinh 1.04-1.06 (Zen 4: 1.30-1.37 in float64, 1.08-1.15 in float32 since); float32 keeps libmvec where it is at NumPy's error, but for
// acosh and tanh, where ours is both more accurate and at least as fast. On AVX2 NumPy calls glibc's scalar libm for most functions, and the default takes
// every accurate loop (float64 all from our own: sin/cos 0.10x, tan 0.15x, asin/acos 0.13x,
// atan 0.29x, expm1 0.30x, log1p 0.53x NumPy's scalar libm on an AVX2 EPYC, 2026-11-28; float32
// widened or our own, exp log sin cos at 0.39-0.60x NumPy's AVX2 loops),
// keeping libmvec only where it measured at or below NumPy's error (float32 log10, sinh,
// tanh). DLARRAY_VECTOR_MATH=all takes libmvec everywhere (speed over accuracy);
// DLARRAY_VECTOR_MATH=accurate every accurate loop (the float32 ones libmvec has at NumPy's
// error too: widened or our own; widened where ours is above 0.5 ulp + a few hundredths:
// float32 sinh, tanh, atanh, acosh).
// X(name, float32 AVX-512 default, float64 AVX-512 default, float32 AVX2 default,
//   float64 AVX2 default, float32 accurate, float64 accurate); the name is libm's / libmvec's.
enum Source : uint8_t { Vector, Widened, Own, Scalar };

#define DLA_VECTOR_MATH_POLICY(X)                                                                      \
  X(exp, Own, Own, Own, Own, Own, Own) X(expm1, Vector, Own, Widened, Own, Widened, Own)     \
  X(log, Own, Own, Own, Own, Own, Own) X(log1p, Vector, Own, Widened, Own, Widened, Own)    \
  X(log2, Vector, Own, Widened, Own, Widened, Own) X(log10, Vector, Own, Vector, Own, Widened, Own) \
  X(sin, Own, Own, Own, Own, Own, Own) X(cos, Own, Own, Own, Own, Own, Own)         \
  X(tan, Vector, Own, Widened, Own, Widened, Own)                                               \
  X(asin, Vector, Own, Widened, Own, Widened, Own)                                              \
  X(acos, Vector, Own, Widened, Own, Widened, Own)                                              \
  X(atan, Vector, Own, Widened, Own, Widened, Own)                                              \
  X(sinh, Own, Own, Vector, Own, Widened, Own)                                        \
  X(cosh, Vector, Own, Widened, Own, Widened, Own)                                           \
  X(tanh, Own, Own, Vector, Own, Widened, Own)                                               \
  X(asinh, Vector, Own, Widened, Own, Widened, Own)                                          \
  X(acosh, Own, Own, Widened, Own, Widened, Own)                                      \
  X(atanh, Own, Own, Widened, Own, Widened, Own)

// The two-argument functions, same columns. pow: libmvec's float64 pow is within 1 ulp (0.998
// measured over 1.6x10^6 pairs, NumPy's SVML loop about the same) at a quarter of glibc's scalar
// time but 1.7x NumPy's, its float32 powf 0.62 ulp but at 2.8x NumPy's time, so on AVX-512 both
// take our own (math_avx512_f64.h: 0.52 ulp; math_avx512_f32.h, evaluated in float64: 0.50
// ulp), and elsewhere, where ours does not run, libmvec's (the AVX2 column). atan2: libmvec's float64 is 2.1 ulp (NumPy 0.78), so on
// AVX-512 both dtypes take our own (math_avx512_f64.h, math_avx512_f32.h), on AVX2 float64 takes
// our own (math_avx2_f64.h: 0.51 ulp, 0.2x glibc's scalar atan2's time) and float32 goes through
// libmvec's float64 one widened (its atan2f is 3.2 ulp).
#define DLA_VECTOR_MATH_POLICY2(X)                              \
  X(pow, Own, Own, Vector, Vector, Own, Own)                     \
  X(atan2, Own, Own, Widened, Own, Own, Own)   

using RowF = void (*)(void* fn, const float* in, float* out, int64_t n);
using RowD = void (*)(void* fn, const double* in, double* out, int64_t n);

void* g_fn_f[kNumOps] = {};
void* g_fn_d[kNumOps] = {};
LoopFn g_half_f32[kNumOps] = {};  // float32 loops for float16 / bfloat16 plans
RowF g_row_f = nullptr;
RowD g_row_d = nullptr;
// Two-argument rows: out[i] = fn(a[i], b[i * b_step]) (b_step 0: one b for the row).
using Row2F = void (*)(void* fn, const float* a, const float* b, int64_t b_step, float* out, int64_t n);
using Row2D = void (*)(void* fn, const double* a, const double* b, int64_t b_step, double* out, int64_t n);
Row2F g_row2_f = nullptr;
Row2D g_row2_d = nullptr;
const char* g_isa = "none";
Source g_source[kNumOps][2];  // what each float32 [0] / float64 [1] loop runs (diagnostics, tests)


template <class T>
void call_row(int op, const T* in, T* out, int64_t n) {
  if constexpr (std::is_same_v<T, float>) g_row_f(g_fn_f[op], in, out, n);
  else g_row_d(g_fn_d[op], in, out, n);
}

template <class T>
void call_row2(int op, const T* a, const T* b, int64_t b_step, T* out, int64_t n) {
  if constexpr (std::is_same_v<T, float>) g_row2_f(g_fn_f[op], a, b, b_step, out, n);
  else g_row2_d(g_fn_d[op], a, b, b_step, out, n);
}

// libmvec's pow, but not on negative bases: it sends each such lane to its scalar fallback
// (pow of data holding negatives ran at 1.24x NumPy's time on AVX2). A block that has them
// runs on |x|, and those lanes are settled after from x^y = |x|^y for even integers y,
// -|x|^y for odd ones, NaN for a NaN y and for a finite non-integer y with a finite x (a
// negative infinity's power is its magnitude's for every y that is not an odd integer).
// With AVX2 intrinsics (libmvec's rows are installed only where it or AVX-512 is): GCC keeps
// the scalar form's selects as branches, which the signs of random data defeat.
struct LibmvecPowRow {
  // out[k] settled where x[k] < 0 (out[k] holds |x[k]|^y), y = b[k * step], step 0 or 1.
  template <class T>
  __attribute__((target("avx2,fma"))) static void settle(const T* x, const T* b, int64_t step, T* out, int64_t m) {
    using L = avx2_math::Lanes<T>;
    using V = typename L::V;
    const V zero = L::set1(T(0)), half = L::set1(T(0.5)), sign = L::set1(T(-0.0));
    const V inf = L::set1(std::numeric_limits<T>::infinity()), nan = L::set1(std::numeric_limits<T>::quiet_NaN());
    int64_t k = 0;
    for (; k + L::kCount <= m; k += L::kCount) {
      const V xv = L::load(x + k), y = step ? L::load(b + k) : L::set1(b[0]), r = L::load(out + k);
      const V integer = L::template compare<_CMP_EQ_OQ>(L::trunc(y), y);  // (false for NaN; true for infinities)
      const V h = L::mul(y, half);
      const V odd = L::and_(integer, L::template compare<_CMP_NEQ_OQ>(L::trunc(h), h));  // (from 2^53, or 2^24, on: even)
      const V finite_base = L::less(L::andnot(sign, xv), inf);
      const V is_nan = L::or_(L::template compare<_CMP_UNORD_Q>(y, y), L::andnot(integer, finite_base));
      const V v = L::blend(L::xor_(r, L::and_(odd, sign)), nan, is_nan);
      L::store(out + k, L::blend(r, v, L::less(xv, zero)));
    }
    for (; k < m; ++k) {
      if (!(x[k] < T(0))) continue;
      const T y = b[k * step], h = y * T(0.5);
      const bool integer = std::trunc(y) == y, odd = integer && std::trunc(h) != h;
      if (std::isnan(y) || (!integer && std::isfinite(x[k]))) out[k] = std::numeric_limits<T>::quiet_NaN();
      else if (odd) out[k] = -out[k];
    }
  }
  template <class T>
  static void run(const T* a, const T* b, int64_t b_step, T* out, int64_t n) {
    constexpr int64_t kBlock = 256;
    T x[kBlock], magnitude[kBlock];
    for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
      const int64_t m = n - i0 < kBlock ? n - i0 : kBlock;
      const T* bb = b + i0 * b_step;
      int any = 0;  // (an int: GCC vectorizes an or-reduction into it, not into a bool)
      for (int64_t k = 0; k < m; ++k) any |= a[i0 + k] < T(0);
      if (!any) {
        call_row2<T>(static_cast<int>(OpId::pow), a + i0, bb, b_step, out + i0, m);
        continue;
      }
      for (int64_t k = 0; k < m; ++k) {
        x[k] = a[i0 + k];  // (out may be a's memory)
        magnitude[k] = x[k] < T(0) ? -x[k] : x[k];  // (-0 stays -0: pow(-0, -3) is -inf)
      }
      call_row2<T>(static_cast<int>(OpId::pow), magnitude, bb, b_step, out + i0, m);
      settle(x, bb, b_step, out + i0, m);
    }
  }
};

// The rows a two-argument loop calls: libmvec's function of op, or one of our own.
template <int Op>
struct LibmvecRow2 {
  template <class T>
  static void run(const T* a, const T* b, int64_t b_step, T* out, int64_t n) {
    if constexpr (Op == static_cast<int>(OpId::pow)) LibmvecPowRow::run(a, b, b_step, out, n);
    else call_row2<T>(Op, a, b, b_step, out, n);
  }
};
struct OwnPowRow {  // AVX-512 (installed where that holds)
  static void run(const double* a, const double* b, int64_t b_step, double* out, int64_t n) {
    math_avx512_f64_pow_row(a, b, b_step, out, n);
  }
  static void run(const float* a, const float* b, int64_t b_step, float* out, int64_t n) {
    math_avx512_f32_pow_row(a, b, b_step, out, n);
  }
};
struct OwnAtan2Row {  // AVX-512, or float64 on AVX2 (installed where that holds)
  static void run(const double* a, const double* b, int64_t b_step, double* out, int64_t n) {
    if (!math_avx512_f64_atan2_row(a, b, b_step, out, n)) math_avx2_f64_atan2_row(a, b, b_step, out, n);
  }
  static void run(const float* a, const float* b, int64_t b_step, float* out, int64_t n) {
    math_avx512_f32_atan2_row(a, b, b_step, out, n);
  }
};

// Two-argument loops: a contiguous first argument with a contiguous or scalar second straight
// from memory; anything else gathered into blocks (so layout never changes a result). F is
// the dtype of the arrays, T the row's (float32 widened: F float, T double).
template <class Row, class F, class T>
void loop2(char** p, const int64_t* s, int64_t n) {
  constexpr int64_t sf = sizeof(F);
  if constexpr (std::is_same_v<F, T>) {
    if (s[0] == sf && s[1] == sf && (s[2] == sf || s[2] == 0)) {
      Row::run(reinterpret_cast<const T*>(p[1]), reinterpret_cast<const T*>(p[2]), s[2] ? 1 : 0,
               reinterpret_cast<T*>(p[0]), n);
      return;
    }
  }
  constexpr int64_t kBlock = 256;
  T abuf[kBlock], bbuf[kBlock];
  for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const int64_t m = n - i0 < kBlock ? n - i0 : kBlock;
    for (int64_t k = 0; k < m; ++k) {
      abuf[k] = T(*reinterpret_cast<const F*>(p[1] + (i0 + k) * s[1]));
      bbuf[k] = T(*reinterpret_cast<const F*>(p[2] + (i0 + k) * s[2]));
    }
    Row::run(abuf, bbuf, 1, abuf, m);
    for (int64_t k = 0; k < m; ++k) *reinterpret_cast<F*>(p[0] + (i0 + k) * s[0]) = static_cast<F>(abuf[k]);
  }
}
template <int Op, class T>
void vector_loop2(char** p, const int64_t* s, int64_t n) { loop2<LibmvecRow2<Op>, T, T>(p, s, n); }
// float32 through the float64 function (compiled for AVX2 so the conversions are vector ones).
template <int Op>
__attribute__((target("avx2"))) void widened_loop2(char** p, const int64_t* s, int64_t n) {
  loop2<LibmvecRow2<Op>, float, double>(p, s, n);
}
// Our own pow, a row per dtype (float32 evaluated in float64 inside its row).
template <class F>
void own_pow_loop(char** p, const int64_t* s, int64_t n) { loop2<OwnPowRow, F, F>(p, s, n); }
// Our own atan2, a row per dtype.
template <class F>
void own_atan2_loop(char** p, const int64_t* s, int64_t n) { loop2<OwnAtan2Row, F, F>(p, s, n); }

// Arguments outside a function's domain (math_domain.h): libmvec sends such lanes to its
// scalar fallback one at a time (float32 log10 of data with negatives in it ran at 1.56x
// NumPy's time, asin 1.4x). In a row that has them, a block holding any runs with an argument
// inside the domain in those lanes and gets libm's NaN there afterwards.
NanOutside<float> g_nan_outside_f[kNumOps];
NanOutside<double> g_nan_outside_d[kNumOps];
bool g_nan_outside_known[kNumOps][2];  // [op][float64]

template <class T>
const NanOutside<T>* nan_outside(int op) {
  if constexpr (std::is_same_v<T, float>) return g_nan_outside_known[op][0] ? &g_nan_outside_f[op] : nullptr;
  else return g_nan_outside_known[op][1] ? &g_nan_outside_d[op] : nullptr;
}

// Compiled for AVX2 (libmvec's loops are installed only where the CPU has it), so that the
// scan for outside arguments is a vector loop next to the vector calls.
template <class T>
__attribute__((target("avx2"))) void call_row_in_domain(int op, const T* in, T* out, int64_t n) {
  const NanOutside<T>* domain = nan_outside<T>(op);
  if (!domain) return call_row<T>(op, in, out, n);
  const T lo = domain->lo, hi = domain->hi, nan = domain->nan;
  const T inside = T(domain_of(static_cast<OpId>(op)).inside);
  auto any_outside = [lo, hi](const T* x, int64_t m) {
    int outside = 0;  // an int: GCC does not vectorize an or-reduction into a bool
    for (int64_t k = 0; k < m; ++k) outside |= int(x[k] < lo) | int(x[k] > hi);
    return outside != 0;
  };
  constexpr int64_t kBlock = 1024;
  // Scanning every block costs a third of the fastest functions' time (log2f: 0.17 -> 0.24 ms
  // for 10^6), so a row whose first block is clean runs whole: the values are libm's either way
  // (libmvec's own fallback is libm), only the time differs, and then no more than before.
  if (!any_outside(in, n < kBlock ? n : kBlock)) return call_row<T>(op, in, out, n);
  T buf[kBlock];
  for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const int64_t m = n - i0 < kBlock ? n - i0 : kBlock;
    const T* x = in + i0;
    if (!any_outside(x, m)) {
      call_row<T>(op, x, out + i0, m);
      continue;
    }
    for (int64_t k = 0; k < m; ++k) buf[k] = (x[k] < lo || x[k] > hi) ? inside : x[k];
    call_row<T>(op, buf, buf, m);
    for (int64_t k = 0; k < m; ++k) out[i0 + k] = (x[k] < lo || x[k] > hi) ? nan : buf[k];  // x before out: in place
  }
}

// libm's one NaN outside op's domain, from `scalar` (the table's functor loop), into *found;
// false where op has no domain or libm's NaNs there differ. The probes: each finite edge's
// neighbour, half a unit and 10^30 beyond it, and the infinity on that side.
template <class T>
bool probe_nan_outside(OpId op, LoopFn scalar, NanOutside<T>* found) {
  const RealDomain d = domain_of(op);
  if (!d.bounded || !scalar) return false;
  T probes[8];
  int count = 0;
  for (double edge : {d.lo, d.hi}) {
    if (!std::isfinite(edge)) continue;
    const double away = edge == d.lo ? -1.0 : 1.0;
    for (double v : {edge + away * 0.5, edge + away * 1e30, away * HUGE_VAL, double(std::nextafter(T(edge), T(away * HUGE_VAL)))})
      probes[count++] = T(v);
  }
  T got[8];
  char* ptrs[2] = {reinterpret_cast<char*>(got), reinterpret_cast<char*>(probes)};
  const int64_t strides[2] = {sizeof(T), sizeof(T)};
  scalar(ptrs, strides, count);
  for (int k = 0; k < count; ++k)
    if (!std::isnan(got[k]) || std::memcmp(&got[k], &got[0], sizeof(T)) != 0) return false;
  *found = {T(d.lo), T(d.hi), got[0]};
  return count > 0;
}

// row(in, out, m) over a contiguous row, or over the blocks of a strided one gathered into a
// buffer (the row then runs in place), so that layout never changes a result.
template <class T, class Row>
void contiguous_blocks(char** p, const int64_t* s, int64_t n, Row&& row) {
  constexpr int64_t st = sizeof(T);
  if (s[0] == st && s[1] == st) return row(reinterpret_cast<const T*>(p[1]), reinterpret_cast<T*>(p[0]), n);
  constexpr int64_t kBlock = 256;
  T buf[kBlock];
  for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const int64_t m = n - i0 < kBlock ? n - i0 : kBlock;
    for (int64_t k = 0; k < m; ++k) buf[k] = *reinterpret_cast<const T*>(p[1] + (i0 + k) * s[1]);
    row(buf, buf, m);
    for (int64_t k = 0; k < m; ++k) *reinterpret_cast<T*>(p[0] + (i0 + k) * s[0]) = buf[k];
  }
}

template <int Op, class T>
void vector_loop(char** p, const int64_t* s, int64_t n) {
  contiguous_blocks<T>(p, s, n, [](const T* in, T* out, int64_t m) { call_row_in_domain<T>(Op, in, out, m); });
}

// float32 through the float64 vector function, a block at a time (exact widening, one
// rounding back). Compiled for AVX2 (installed only where the CPU has it) so that the
// conversions are vector instructions next to the vector calls.
template <int Op>
__attribute__((target("avx2"))) void widened_loop(char** p, const int64_t* s, int64_t n) {
  constexpr int64_t kBlock = 256;
  double buf[kBlock];
  for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const int64_t m = n - i0 < kBlock ? n - i0 : kBlock;
    const char* in = p[1] + i0 * s[1];
    char* out = p[0] + i0 * s[0];
    for (int64_t k = 0; k < m; ++k) buf[k] = *reinterpret_cast<const float*>(in + k * s[1]);
    call_row<double>(Op, buf, buf, m);
    for (int64_t k = 0; k < m; ++k) *reinterpret_cast<float*>(out + k * s[0]) = static_cast<float>(buf[k]);
  }
}

// DLARRAY_VECTOR_MATH=0 (or off): scalar libm everywhere; =all: libmvec everywhere it
// exists (to measure what the policy costs or saves); =accurate: the accurate policy.
const char* env_setting() {
  const char* v = std::getenv("DLARRAY_VECTOR_MATH");
  return v ? v : "";
}
// The Own loops (exp_log_f64.h, float32_math.h), with libm's NaN outside the op's domain.
template <OpId Op, ExpLogFn F>
void own_loop(char** p, const int64_t* s, int64_t n) {
  const NanOutside<double>* domain = nan_outside<double>(static_cast<int>(Op));
  contiguous_blocks<double>(p, s, n, [domain](const double* in, double* out, int64_t m) {
    exp_log_f64_row(F, in, out, m, domain);
  });
}
template <OpId Op, Float32Fn F>
void own_loop_f32(char** p, const int64_t* s, int64_t n) {
  const NanOutside<float>* domain = nan_outside<float>(static_cast<int>(Op));
  contiguous_blocks<float>(p, s, n, [domain](const float* in, float* out, int64_t m) {
    float32_math_row(F, in, out, m, domain);
  });
}

LoopFn own_float32_loop(OpId op) {
  switch (op) {
    case OpId::exp: return &own_loop_f32<OpId::exp, Float32Fn::Exp>;
    case OpId::log: return &own_loop_f32<OpId::log, Float32Fn::Log>;
    case OpId::sin: return &own_loop_f32<OpId::sin, Float32Fn::Sin>;
    case OpId::cos: return &own_loop_f32<OpId::cos, Float32Fn::Cos>;
    // Ours on AVX-512 only (elsewhere the policy widens to libmvec's float64).
    case OpId::sinh: return vector_level() == VectorLevel::Avx512 ? &own_loop_f32<OpId::sinh, Float32Fn::Sinh> : nullptr;
    case OpId::atanh: return vector_level() == VectorLevel::Avx512 ? &own_loop_f32<OpId::atanh, Float32Fn::Atanh> : nullptr;
    case OpId::acosh: return vector_level() == VectorLevel::Avx512 ? &own_loop_f32<OpId::acosh, Float32Fn::Acosh> : nullptr;
    case OpId::tanh: return vector_level() == VectorLevel::Avx512 ? &own_loop_f32<OpId::tanh, Float32Fn::Tanh> : nullptr;
    default: return nullptr;
  }
}

LoopFn own_float64_loop(OpId op) {
  switch (op) {
    case OpId::exp: return &own_loop<OpId::exp, ExpLogFn::Exp>;
    case OpId::expm1: return &own_loop<OpId::expm1, ExpLogFn::Expm1>;
    case OpId::log: return &own_loop<OpId::log, ExpLogFn::Log>;
    case OpId::log2: return &own_loop<OpId::log2, ExpLogFn::Log2>;
    case OpId::log10: return &own_loop<OpId::log10, ExpLogFn::Log10>;
    case OpId::log1p: return &own_loop<OpId::log1p, ExpLogFn::Log1p>;
    case OpId::sinh: return &own_loop<OpId::sinh, ExpLogFn::Sinh>;
    case OpId::cosh: return &own_loop<OpId::cosh, ExpLogFn::Cosh>;
    case OpId::tanh: return &own_loop<OpId::tanh, ExpLogFn::Tanh>;
    case OpId::asinh: return &own_loop<OpId::asinh, ExpLogFn::Asinh>;
    case OpId::acosh: return &own_loop<OpId::acosh, ExpLogFn::Acosh>;
    case OpId::atanh: return &own_loop<OpId::atanh, ExpLogFn::Atanh>;
    // Ours on AVX2 (math_avx2_f64.h) and AVX-512 (math_avx512_f64.h).
    case OpId::atan: return &own_loop<OpId::atan, ExpLogFn::Atan>;
    case OpId::asin: return &own_loop<OpId::asin, ExpLogFn::Asin>;
    case OpId::acos: return &own_loop<OpId::acos, ExpLogFn::Acos>;
    case OpId::tan: return &own_loop<OpId::tan, ExpLogFn::Tan>;
    case OpId::sin: return &own_loop<OpId::sin, ExpLogFn::Sin>;
    case OpId::cos: return &own_loop<OpId::cos, ExpLogFn::Cos>;
    default: return nullptr;
  }
}

// Our own two-argument loops (float32 widened to the float64 row), or null where there is none.
LoopFn own_two_argument_loop(OpId op, bool float64) {
  // float64 atan2 on AVX2 too (math_avx2_f64.h).
  if (op == OpId::atan2 && float64 && vector_level() == VectorLevel::Avx2Fma) return &own_atan2_loop<double>;
  if (vector_level() != VectorLevel::Avx512) return nullptr;
  if (op == OpId::atan2) return float64 ? &own_atan2_loop<double> : &own_atan2_loop<float>;
  if (op == OpId::pow) return float64 ? &own_pow_loop<double> : &own_pow_loop<float>;
  return nullptr;
}

bool disabled_by_env() { return std::strcmp(env_setting(), "0") == 0 || std::strcmp(env_setting(), "off") == 0; }
bool everywhere_by_env() { return std::strcmp(env_setting(), "all") == 0; }
bool accurate_by_env() { return std::strcmp(env_setting(), "accurate") == 0; }

}  // namespace

const char* vector_math_isa() { return g_isa; }

LoopFn float32_loop_for_half(OpId op) { return g_half_f32[static_cast<int>(op)]; }

const char* vector_math_source(OpId op, bool float64) {
  static const char* const kNames[] = {"vector", "widened", "own", "scalar"};
  return kNames[g_source[static_cast<int>(op)][float64 ? 1 : 0]];
}

void install_vector_math(KernelTable& table) {
  for (auto& s : g_source) s[0] = s[1] = Scalar;
  if (disabled_by_env()) return;
  constexpr int f32 = static_cast<int>(ScalarType::Float32), f64 = static_cast<int>(ScalarType::Float64);
  const bool everywhere = everywhere_by_env();
  const bool accurate = accurate_by_env();
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f") && !avx512_turned_off_by_env();
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  for (int op = 0; op < kNumOps; ++op) {  // from the scalar loops, before any is replaced
    g_nan_outside_known[op][0] = probe_nan_outside<float>(static_cast<OpId>(op), table[op][f32], &g_nan_outside_f[op]);
    g_nan_outside_known[op][1] = probe_nan_outside<double>(static_cast<OpId>(op), table[op][f64], &g_nan_outside_d[op]);
  }
  // The policy column for this process: accurate, or the default of this CPU's ISA.
  auto pick = [&](Source avx512_default, Source avx2_default, Source accurate_choice) {
    return accurate ? accurate_choice : avx512 ? avx512_default : avx2_default;
  };
  if (exp_log_f64_available() && !everywhere) {
#define DLA_INSTALL_OWN(name, a32, a64, b32, b64, c32, c64)                 \
  if (pick(a64, b64, c64) == Own && own_float64_loop(OpId::name)) {        \
    table[static_cast<int>(OpId::name)][f64] = own_float64_loop(OpId::name); \
    g_source[static_cast<int>(OpId::name)][1] = Own;                       \
  }
    DLA_VECTOR_MATH_POLICY(DLA_INSTALL_OWN)
#undef DLA_INSTALL_OWN
  }
  const bool own_f32 = float32_math_available() && !everywhere;
  if (own_f32) {
#define DLA_INSTALL_OWN(name, a32, a64, b32, b64, c32, c64)                 \
  if (pick(a32, b32, c32) == Own && own_float32_loop(OpId::name)) {        \
    table[static_cast<int>(OpId::name)][f32] = own_float32_loop(OpId::name); \
    g_source[static_cast<int>(OpId::name)][0] = Own;                       \
  }
    DLA_VECTOR_MATH_POLICY(DLA_INSTALL_OWN)
#undef DLA_INSTALL_OWN
  }
#ifndef DLA_HAVE_LIBMVEC_ROWS
  return;  // built without the rows (not x86-64, or a compiler without -mavx512f): scalar loops
#endif
  if (!everywhere) {
#define DLA_INSTALL_OWN2(name, a32, a64, b32, b64, c32, c64)                       \
  if (pick(a32, b32, c32) == Own && own_two_argument_loop(OpId::name, false)) {   \
    table[static_cast<int>(OpId::name)][f32] = own_two_argument_loop(OpId::name, false); \
    g_half_f32[static_cast<int>(OpId::name)] = table[static_cast<int>(OpId::name)][f32]; \
    g_source[static_cast<int>(OpId::name)][0] = Own;                              \
  }                                                                                \
  if (pick(a64, b64, c64) == Own && own_two_argument_loop(OpId::name, true)) {    \
    table[static_cast<int>(OpId::name)][f64] = own_two_argument_loop(OpId::name, true); \
    g_source[static_cast<int>(OpId::name)][1] = Own;                              \
  }
    DLA_VECTOR_MATH_POLICY2(DLA_INSTALL_OWN2)
#undef DLA_INSTALL_OWN2
  }
  if (!avx512 && !avx2) return;
  void* lib = dlopen("libmvec.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return;  // not glibc, or too old: the scalar loops stay
  g_isa = avx512 ? "avx512" : "avx2";
  g_row_f = avx512 ? libmvec_avx512::row_f : libmvec_avx2::row_f;
  g_row_d = avx512 ? libmvec_avx512::row_d : libmvec_avx2::row_d;
  const std::string pf = avx512 ? "_ZGVeN16v_" : "_ZGVdN8v_";
  const std::string pd = avx512 ? "_ZGVeN8v_" : "_ZGVdN4v_";
  // Both widths are looked up whatever the policy: Widened float32 needs the float64 one.
#define DLA_INSTALL(name, a32, a64, b32, b64, c32, c64)                                        \
  {                                                                                            \
    constexpr int op = static_cast<int>(OpId::name);                                          \
    const Source f32_source = pick(a32, b32, c32);                                             \
    const Source f64_source = pick(a64, b64, c64);                                             \
    g_fn_f[op] = dlsym(lib, (pf + #name "f").c_str());                                         \
    g_fn_d[op] = dlsym(lib, (pd + #name).c_str());                                             \
    if (g_fn_f[op]) g_half_f32[op] = &vector_loop<op, float>;                                  \
    if ((everywhere || f32_source == Vector) && g_fn_f[op]) {                                  \
      table[op][f32] = &vector_loop<op, float>;                                                \
      g_source[op][0] = Vector;                                                                \
    } else if ((f32_source == Widened || (f32_source == Own && g_source[op][0] != Own)) && g_fn_d[op]) {     \
      table[op][f32] = &widened_loop<op>;                                                      \
      g_source[op][0] = Widened;                                                               \
    }                                                                                          \
    if ((everywhere || f64_source == Vector) && g_fn_d[op]) {                                  \
      table[op][f64] = &vector_loop<op, double>;                                               \
      g_source[op][1] = Vector;                                                                \
    }                                                                                          \
  }
  DLA_VECTOR_MATH_POLICY(DLA_INSTALL)
#undef DLA_INSTALL
  g_row2_f = avx512 ? libmvec_avx512::row2_f : libmvec_avx2::row2_f;
  g_row2_d = avx512 ? libmvec_avx512::row2_d : libmvec_avx2::row2_d;
  const std::string pf2 = avx512 ? "_ZGVeN16vv_" : "_ZGVdN8vv_";
  const std::string pd2 = avx512 ? "_ZGVeN8vv_" : "_ZGVdN4vv_";
#define DLA_INSTALL2(name, a32, a64, b32, b64, c32, c64)                                       \
  {                                                                                            \
    constexpr int op = static_cast<int>(OpId::name);                                          \
    const Source f32_source = pick(a32, b32, c32);                                             \
    const Source f64_source = pick(a64, b64, c64);                                             \
    g_fn_f[op] = dlsym(lib, (pf2 + #name "f").c_str());                                        \
    g_fn_d[op] = dlsym(lib, (pd2 + #name).c_str());                                            \
    if ((everywhere || f32_source == Vector) && g_fn_f[op]) {                                  \
      table[op][f32] = &vector_loop2<op, float>;                                               \
      g_source[op][0] = Vector;                                                                \
    } else if ((f32_source == Widened || (f32_source == Own && g_source[op][0] != Own)) && g_fn_d[op]) { \
      table[op][f32] = &widened_loop2<op>;                                                     \
      g_source[op][0] = Widened;                                                               \
    }                                                                                          \
    if (g_source[op][0] != Scalar) g_half_f32[op] = table[op][f32];                            \
    const bool own_f64_missing = f64_source == Own && g_source[op][1] != Own && b64 == Vector;  \
    if ((everywhere || f64_source == Vector || own_f64_missing) && g_fn_d[op]) {               \
      table[op][f64] = &vector_loop2<op, double>;                                              \
      g_source[op][1] = Vector;                                                                \
    }                                                                                          \
  }
  DLA_VECTOR_MATH_POLICY2(DLA_INSTALL2)
#undef DLA_INSTALL2
}

}  // namespace dla::cpu
