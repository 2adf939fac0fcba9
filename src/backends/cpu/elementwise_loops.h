// elementwise_loops.h — CPU inner loops for the elementwise functors, and the kernel table.
//
// A loop is `void(char** ptrs, const int64_t* byte_strides, int64_t n)` over one row, with
// the output first. An input is either the output's very memory (in place) or disjoint from
// it (plan_elementwise copies inputs that overlap otherwise), so the contiguous loops carry
// no dependences between iterations: `DLA_IVDEP` lets the compiler vectorize them
// without runtime alias checks. Every loop has its contiguous fast paths (all unit strides; a scalar
// operand of stride 0 next to contiguous ones), written as plain indexed loops the
// compiler vectorizes, and a general strided path. The table
// kCpuKernels[op][compute dtype] is filled from DLA_ELEMENTWISE_OPS only for the dtypes an
// op's kinds admit (a null entry is a dtype the op rejects), and the instantiations are
// spread over kCpuKernelParts translation units to keep compile times and memory down.
//
// The part files are compiled twice on x86-64: for the baseline ISA (SSE2, what a wheel
// must run on) and, with DLA_CPU_LOOPS_AVX2, for x86-64-v3 (AVX2, BMI, FMA with contraction
// off). SSE2 has no 64-bit compare or multiply, no float rounding instruction and awkward
// byte packing, so integer, comparison and rounding loops ran at 1.3-20x NumPy's time (which
// dispatches such loops by CPU); the AVX2 table replaces the real-dtype entries at run time.
// The two copies live in different namespaces (no shared instantiation for the linker to
// merge), and the AVX2 loops are `flatten`ed, so every helper a functor calls is inlined
// into them rather than emitted as an out-of-line copy carrying AVX2 code that baseline
// callers could end up linked to. Complex entries stay baseline (their helpers are large and
// call libgcc), except abs, multiply and square, which have vector rows of their own here.
#pragma once
#ifdef DLA_CPU_LOOPS_AVX2
#include <immintrin.h>
#endif
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "core/elementwise_functors.h"
#include "core/cpu_features.h"
#include "backends/cpu/int_divide.h"
#include "core/elementwise_ops.h"

namespace dla::cpu {

using LoopFn = void (*)(char** ptrs, const int64_t* strides, int64_t n);
using KernelTable = LoopFn[kNumOps][kNumScalarTypes];

constexpr int kCpuKernelParts = 3;

template <ScalarType S> struct CType;
template <> struct CType<ScalarType::Bool> { using type = bool; };
template <> struct CType<ScalarType::Int8> { using type = int8_t; };
template <> struct CType<ScalarType::Int16> { using type = int16_t; };
template <> struct CType<ScalarType::Int32> { using type = int32_t; };
template <> struct CType<ScalarType::Int64> { using type = int64_t; };
template <> struct CType<ScalarType::UInt8> { using type = uint8_t; };
template <> struct CType<ScalarType::UInt16> { using type = uint16_t; };
template <> struct CType<ScalarType::UInt32> { using type = uint32_t; };
template <> struct CType<ScalarType::UInt64> { using type = uint64_t; };
template <> struct CType<ScalarType::Float32> { using type = float; };
template <> struct CType<ScalarType::Float64> { using type = double; };
template <> struct CType<ScalarType::Complex64> { using type = std::complex<float>; };
template <> struct CType<ScalarType::Complex128> { using type = std::complex<double>; };

#ifdef DLA_CPU_LOOPS_AVX2
#define DLA_CPU_LOOPS_NS avx2_loops
#define DLA_LOOP_ATTR __attribute__((flatten))
#else
#define DLA_CPU_LOOPS_NS baseline_loops
#define DLA_LOOP_ATTR
#endif

template <class T>
inline T& at(char* p, int64_t i, int64_t stride) {
  return *reinterpret_cast<T*>(p + i * stride);
}

// std::complex's operator*, compiled once, for the baseline ISA (elementwise_cpu.cpp): the
// AVX2 rows below call it for the rare NaN-NaN products instead of instantiating it, which
// libc++ (the wheel's clang) would leave out of line as a symbol the linker could then hand to
// baseline callers with AVX2 code in it.
std::complex<float> complex_product(std::complex<float> a, std::complex<float> b);
std::complex<double> complex_product(std::complex<double> a, std::complex<double> b);

namespace DLA_CPU_LOOPS_NS {

// |z| of contiguous complex rows in vector registers (z: interleaved real and imaginary
// parts), where the functor calls libm's hypot per element (16x NumPy's time for complex128,
// whose loop is vectorized). Blocks of 256 are computed while noting whether any element
// needs hypot after all; only such blocks are redone element by element with it, so every
// special case (zeros, infinities: inf wins over NaN) is libm's.
//
// complex64, every ISA: sqrt of the sum of squares in float64 (the squares of float32 values
// are exact there, so one rounding), rounded to float32: 0.50 ulp measured, NumPy's 1.9.
// Redone: NaN results.
inline void complex64_abs_row(float* out, const float* z, int64_t n) {
  constexpr int64_t kBlock = 256;
  for (int64_t b0 = 0; b0 < n; b0 += kBlock) {
    const int64_t e = std::min(n, b0 + kBlock);
    int redo = 0;  // an int: GCC does not vectorize an or-reduction into a bool
    for (int64_t i = b0; i < e; ++i) {
      const double a = z[2 * i], b = z[2 * i + 1];
      const float r = float(std::sqrt(a * a + b * b));
      out[i] = r;
      redo |= r != r;
    }
    if (redo)
      for (int64_t i = b0; i < e; ++i)
        if (out[i] != out[i]) out[i] = std::hypot(z[2 * i], z[2 * i + 1]);
  }
}

#ifdef DLA_CPU_LOOPS_AVX2
// complex128, AVX2 and FMA only (the baseline keeps hypot, so a complex128 |z| can differ by
// an ulp between CPUs with and without AVX2): sqrt(fma(a, a, b * b)) corrected by one Newton
// step on the residual a^2 + b^2 - h^2 computed with fma error terms (Borges 2019): 0.84 ulp
// measured, NumPy's loop 1.9. Redone: max(|a|, |b|) outside [2^-500, 2^500] (a square would
// overflow, or underflow where it matters) or NaN.
inline void complex128_abs_row(double* out, const double* z, int64_t n) {
  constexpr int64_t kBlock = 256;
  constexpr double lo = 0x1p-500, hi = 0x1p500;
  for (int64_t b0 = 0; b0 < n; b0 += kBlock) {
    const int64_t e = std::min(n, b0 + kBlock);
    int redo = 0;
    for (int64_t i = b0; i < e; ++i) {
      const double a = std::fabs(z[2 * i]), b = std::fabs(z[2 * i + 1]);
      const double h = std::sqrt(std::fma(a, a, b * b));
      const double hsq = h * h, asq = a * a;
      const double minus_residual = std::fma(-b, b, hsq - asq) + std::fma(h, h, -hsq) - std::fma(a, a, -asq);
      out[i] = h - minus_residual / (2 * h);
      const double m = a > b ? a : b;
      redo |= !(m > lo && m < hi);
    }
    if (redo)
      for (int64_t i = b0; i < e; ++i) {
        const double a = std::fabs(z[2 * i]), b = std::fabs(z[2 * i + 1]), m = a > b ? a : b;
        if (!(m > lo && m < hi)) out[i] = std::hypot(z[2 * i], z[2 * i + 1]);
      }
  }
}
#endif

// Complex products of contiguous rows, b contiguous (b_step 1) or one scalar (b_step 0), in
// vector registers: (ar br - ai bi) + (ar bi + ai br)i, which is what GCC and Clang compute for
// std::complex's operator* before calling __muldc3/__mulsc3 when both parts came out NaN
// (the C99 recovery of infinities). Each block of 256 notes whether that happened; only its
// NaN-NaN elements are then redone with the operator (from the inputs: an in-place block goes
// through a buffer first), so the results are the functor's, bit for bit. The call it keeps in the loop made complex64 multiply 2.4x NumPy's time.
template <int64_t b_step, class R>
void complex_multiply_row(std::complex<R>* o, const std::complex<R>* a, const std::complex<R>* b, int64_t n) {
  constexpr int64_t kBlock = 256;
  R buffer[2 * kBlock];
  const R* x = reinterpret_cast<const R*>(a);
  const R* y = reinterpret_cast<const R*>(b);
  // Straight into o unless o is an input's memory (in place), which the redo still needs.
  auto overlaps = [&](const std::complex<R>* p, int64_t len) { return p < o + n && o < p + len; };
  const bool direct = !overlaps(a, n) && !overlaps(b, b_step ? n : 1);
  for (int64_t b0 = 0; b0 < n; b0 += kBlock) {
    const int64_t len = std::min(kBlock, n - b0);
    const R* xb = x + 2 * b0;
    const R* yb = y + 2 * b0 * b_step;
    R* block = direct ? reinterpret_cast<R*>(o + b0) : buffer;
    int redo = 0;
    int64_t i = 0;
#ifdef DLA_CPU_LOOPS_AVX2
    // a * (br, br) -/+ swap(a) * (bi, bi) with vaddsubp: the same two products and one
    // subtraction (even lanes) or addition (odd lanes) per part as the scalar formula.
    if constexpr (std::is_same_v<R, double>) {
      const __m256d bs_re = _mm256_set1_pd(yb[0]), bs_im = _mm256_set1_pd(yb[1]);
      for (; i + 2 <= len; i += 2) {
        const __m256d va = _mm256_loadu_pd(xb + 2 * i);
        __m256d br = bs_re, bi = bs_im;
        if constexpr (b_step == 1) {
          const __m256d vb = _mm256_loadu_pd(yb + 2 * i);
          br = _mm256_movedup_pd(vb);
          bi = _mm256_permute_pd(vb, 0xF);
        }
        const __m256d r = _mm256_addsub_pd(_mm256_mul_pd(va, br), _mm256_mul_pd(_mm256_permute_pd(va, 0x5), bi));
        _mm256_storeu_pd(block + 2 * i, r);
        redo |= _mm256_movemask_pd(_mm256_cmp_pd(r, r, _CMP_UNORD_Q));  // any NaN part: look closer
      }
    } else {
      const __m256 bs_re = _mm256_set1_ps(yb[0]), bs_im = _mm256_set1_ps(yb[1]);
      for (; i + 4 <= len; i += 4) {
        const __m256 va = _mm256_loadu_ps(xb + 2 * i);
        __m256 br = bs_re, bi = bs_im;
        if constexpr (b_step == 1) {
          const __m256 vb = _mm256_loadu_ps(yb + 2 * i);
          br = _mm256_moveldup_ps(vb);
          bi = _mm256_movehdup_ps(vb);
        }
        const __m256 r = _mm256_addsub_ps(_mm256_mul_ps(va, br), _mm256_mul_ps(_mm256_permute_ps(va, 0xB1), bi));
        _mm256_storeu_ps(block + 2 * i, r);
        redo |= _mm256_movemask_ps(_mm256_cmp_ps(r, r, _CMP_UNORD_Q));
      }
    }
#endif
    for (; i < len; ++i) {
      const R ar = xb[2 * i], ai = xb[2 * i + 1], br = yb[2 * i * b_step], bi = yb[2 * i * b_step + 1];
      const R re = ar * br - ai * bi, im = ar * bi + ai * br;
      block[2 * i] = re;
      block[2 * i + 1] = im;
      redo |= (re != re) & (im != im);
    }
    std::complex<R>* ob = reinterpret_cast<std::complex<R>*>(block);
    if (redo)
      for (int64_t i = 0; i < len; ++i)
        if (block[2 * i] != block[2 * i] && block[2 * i + 1] != block[2 * i + 1])
          ob[i] = complex_product(a[b0 + i], b[(b0 + i) * b_step]);
    if (!direct) std::memcpy(static_cast<void*>(o + b0), block, size_t(len) * sizeof(std::complex<R>));
  }
}

// Integer powers of rows (each operand contiguous, or one scalar: step 1 or 0), by squaring
// as elem::int_pow does, but a block at a time: the OR of a block's exponents bounds how
// many squarings its elements need, and that many branch-free passes over the block vectorize
// (int_pow's loop per element, with a branch per exponent bit, ran at 18 ns an element). The
// same wrapping products in the same wide unsigned type as int_pow, so the same values; a
// negative exponent (base ** -k truncates to 0 unless the base is 1 or -1) becomes one that
// gives that value: the parity of k for a base of +-1, else exponent 1 of a base of 0. The
// block is read before it is written, so o may be a's or b's memory.
template <class T>
DLA_LOOP_ATTR void int_pow_row(T* o, const T* a, int64_t a_step, const T* b, int64_t b_step, int64_t n) {
  using W = elem::wide_unsigned_t<T>;
  using U = std::make_unsigned_t<T>;
  constexpr int64_t kBlock = 256;
  W result[kBlock], base[kBlock];
  U exponent[kBlock];
  // One exponent >= 0 for the row (x ** 3): its bits are known, so a pass multiplies only
  // where a bit asks for it (two products an element for a cube, not four).
  const bool one_exponent = b_step == 0 && !(std::is_signed_v<T> && b[0] < T(0));
  for (int64_t b0 = 0; b0 < n && one_exponent; b0 += kBlock) {
    const int64_t len = std::min(kBlock, n - b0);
DLA_IVDEP
    for (int64_t i = 0; i < len; ++i) base[i] = W(a[(b0 + i) * a_step]);
    bool first = true;
    for (U e = U(b[0]); e; e = U(e >> 1)) {
      if (e & 1u) {
DLA_IVDEP
        for (int64_t i = 0; i < len; ++i) result[i] = first ? base[i] : W(result[i] * base[i]);
        first = false;
      }
      if (e >> 1)
DLA_IVDEP
        for (int64_t i = 0; i < len; ++i) base[i] = W(base[i] * base[i]);
    }
DLA_IVDEP
    for (int64_t i = 0; i < len; ++i) o[b0 + i] = first ? T(1) : T(result[i]);
  }
  for (int64_t b0 = 0; b0 < n && !one_exponent; b0 += kBlock) {
    const int64_t len = std::min(kBlock, n - b0);
    U bits = 0;
DLA_IVDEP
    for (int64_t i = 0; i < len; ++i) {
      const T x = a[(b0 + i) * a_step], e = b[(b0 + i) * b_step];
      W w = W(x);
      U u = U(e);
      if constexpr (std::is_signed_v<T>) {
        const bool unit = x == T(1) || x == T(-1);
        w = e < 0 && !unit ? W(0) : w;
        u = e < 0 ? (unit ? U(e & 1) : U(1)) : u;
      }
      base[i] = w;
      exponent[i] = u;
      result[i] = 1;
      bits |= u;
    }
    for (; bits; bits >>= 1) {
DLA_IVDEP
      for (int64_t i = 0; i < len; ++i) {
        result[i] = (exponent[i] & 1u) ? W(result[i] * base[i]) : result[i];
        base[i] = W(base[i] * base[i]);
        exponent[i] = U(exponent[i] >> 1);
      }
    }
DLA_IVDEP
    for (int64_t i = 0; i < len; ++i) o[b0 + i] = T(result[i]);
  }
}

#ifdef DLA_CPU_LOOPS_AVX2
// The 64-bit lanes of int_divide_by_scalar_row four at a time (no vector unit multiplies 64 x
// 64 bits into 128, which leaves the scalar loop at 2 ns an element): the high half of m x
// from four 32 x 32 -> 64 products and the carries of their middle sums, q0 d from three.
// Returns how many elements it did (whole vectors); the scalar loop does the rest.
template <bool kSigned, bool kRemainder, class T>
inline int64_t int64_divide_by_scalar_avx2(T* o, const T* a, int64_t n, uint64_t d, uint64_t m, int sh1, int sh2,
                                           uint64_t sb) {
  const __m256i low32 = _mm256_set1_epi64x(0xffffffffll), zero = _mm256_setzero_si256();
  const __m256i m_lo = _mm256_set1_epi64x(int64_t(m)), m_hi = _mm256_set1_epi64x(int64_t(m >> 32));
  // d in every lane (its low half is what the 32 x 32 products read), and d's high half.
  const __m256i dv = _mm256_set1_epi64x(int64_t(d)), d_hi = _mm256_set1_epi64x(int64_t(d >> 32));
  const __m256i sbv = _mm256_set1_epi64x(int64_t(sb));
  const __m128i s1 = _mm_cvtsi32_si128(sh1), s2 = _mm_cvtsi32_si128(sh2);
  // floor(ux / d) of four unsigned lanes: the high half of m ux, then the magic's shifts.
  auto quotient = [&](__m256i ux) {
    const __m256i ux_hi = _mm256_srli_epi64(ux, 32);
    const __m256i ll = _mm256_mul_epu32(ux, m_lo), lh = _mm256_mul_epu32(ux, m_hi);
    const __m256i hl = _mm256_mul_epu32(ux_hi, m_lo), hh = _mm256_mul_epu32(ux_hi, m_hi);
    const __m256i mid = _mm256_add_epi64(_mm256_add_epi64(_mm256_srli_epi64(ll, 32), _mm256_and_si256(lh, low32)),
                                         _mm256_and_si256(hl, low32));
    const __m256i t = _mm256_add_epi64(_mm256_add_epi64(hh, _mm256_srli_epi64(lh, 32)),
                                       _mm256_add_epi64(_mm256_srli_epi64(hl, 32), _mm256_srli_epi64(mid, 32)));
    return _mm256_srl_epi64(_mm256_add_epi64(t, _mm256_srl_epi64(_mm256_sub_epi64(ux, t), s1)), s2);
  };
  int64_t i = 0;
  if (!kRemainder && sb == 0) {
    // A quotient by a positive divisor needs no remainder: floor(x / d) = ~floor(~x / d) for
    // x < 0 (~x = -x - 1 >= 0), so one unsigned division of x ^ s, s = x's sign mask, XORed
    // with s again (three multiplies fewer a vector than the general form below).
    for (; i + 4 <= n; i += 4) {
      const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
      const __m256i sa = kSigned ? _mm256_cmpgt_epi64(zero, x) : zero;
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + i), _mm256_xor_si256(quotient(_mm256_xor_si256(x, sa)), sa));
    }
    return i;
  }
  for (; i + 4 <= n; i += 4) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
    const __m256i sa = kSigned ? _mm256_cmpgt_epi64(zero, x) : zero;
    const __m256i ux = _mm256_sub_epi64(_mm256_xor_si256(x, sa), sa);
    const __m256i q0 = quotient(ux);
    // q0 d mod 2^64 = q0_lo d_lo + ((q0_hi d_lo + q0_lo d_hi) << 32), halves of 32 bits
    const __m256i qd = _mm256_add_epi64(
        _mm256_mul_epu32(q0, dv),
        _mm256_slli_epi64(_mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(q0, 32), dv), _mm256_mul_epu32(q0, d_hi)), 32));
    const __m256i r0 = _mm256_sub_epi64(ux, qd);
    const __m256i differ = _mm256_xor_si256(sa, sbv);
    const __m256i exact = _mm256_cmpeq_epi64(r0, zero);
    __m256i out;
    if constexpr (kRemainder) {
      const __m256i flip = _mm256_andnot_si256(exact, differ);
      const __m256i r = _mm256_blendv_epi8(r0, _mm256_sub_epi64(dv, r0), flip);
      out = _mm256_sub_epi64(_mm256_xor_si256(r, sbv), sbv);
    } else {
      const __m256i q = _mm256_sub_epi64(q0, _mm256_andnot_si256(exact, differ));  // + 1 where inexact and differing
      out = _mm256_sub_epi64(_mm256_xor_si256(q, differ), differ);
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + i), out);
  }
  return i;
}
#endif

// Integer floor division and remainder of a contiguous row by one divisor (x // 3, x % 7),
// by the divisor's magic multiplier (int_divide.h) instead of a hardware division per element
// (int64 // 7 ran at 5.8x NumPy's time, 8- to 32-bit at 14-64x; NumPy divides by a scalar the
// same way, through libdivide). Quotient and remainder take Python's signs: exactly
// int_floor_divide's and int_remainder's values, a divisor of -1 and INT_MIN included; a
// divisor of 0 gives 0, as they do. On AVX-512, int_divide_rows_avx512.cpp replaces these rows.
template <class T, bool kRemainder>
DLA_LOOP_ATTR void int_divide_by_scalar_row(T* o, const T* a, T b, int64_t n) {
  using U = std::make_unsigned_t<T>;
  constexpr int N = int(sizeof(T)) * 8;
  // Products of twice the width (16-bit lanes for bytes: twice as many per vector as 32-bit).
  using P = std::conditional_t<(N == 8), uint16_t,
                               std::conditional_t<(N == 16), uint32_t, std::conditional_t<(N == 32), uint64_t, unsigned __int128>>>;
  if (b == T(0)) {
    std::fill(o, o + n, T(0));
    return;
  }
  const DivisorMagic<T> dm = divisor_magic(b);
  const U d = dm.d, m = dm.m;
  const int sh1 = dm.sh1, sh2 = dm.sh2;
  // Signs as masks (all ones where negative), so that the loop has no branch on the data.
  // Bytes are worked on in 16-bit lanes (there are no byte shifts), sign-extended there, and
  // every value the loop forms stays below 2^8 but the masks, whose low bits are the same.
  using L = std::conditional_t<(N == 8), uint16_t, U>;
  const L sb = dm.sign ? L(~L(0)) : L(0), dl = L(d);
  int64_t i = 0;
#ifdef DLA_CPU_LOOPS_AVX2
  if constexpr (N == 64) i = int64_divide_by_scalar_avx2<std::is_signed_v<T>, kRemainder>(o, a, n, d, m, sh1, sh2, dm.sign);
#endif
DLA_IVDEP
  for (; i < n; ++i) {
    const L x = L(a[i]);  // sign-extended for signed bytes
    const L sa = std::is_signed_v<T> ? L(L(0) - L(a[i] < T(0))) : L(0);
    const L ux = L(L(x ^ sa) - sa);
    const L t = L((P(m) * P(ux)) >> N);
    const L q0 = L(L(t + L(L(ux - t) >> sh1)) >> sh2);
    const L r0 = L(ux - L(q0 * dl));
    const L differ = L(sa ^ sb);
    const L inexact = L(L(0) - L(r0 != 0));
    if constexpr (kRemainder) {
      const L flip = L(differ & inexact);  // differing signs: d - r0 where r0 != 0
      const L r = L((L(dl - r0) & flip) | (r0 & L(~flip)));
      o[i] = T(L(L(r ^ sb) - sb));
    } else {
      const L q = L(q0 + L(differ & inexact & L(1)));  // differing signs: -(q0 + [r0 != 0])
      o[i] = T(L(L(q ^ differ) - differ));
    }
  }
}

#ifdef DLA_CPU_LOOPS_AVX2
// The float predicates isnan, isinf, isfinite and signbit of a contiguous float32/float64 row
// into bytes, where GCC's loop narrowed the compare lanes to bytes in a chain of shuffles
// (isnan of float64 ran at 1.4x NumPy's time, of float32 1.2x, signbit 1.2x).
template <class F, class T>
constexpr bool kFloatPredicateRow = (std::is_same_v<T, float> || std::is_same_v<T, double>) &&
                                    (std::is_same_v<F, elem::IsnanF> || std::is_same_v<F, elem::IsinfF> ||
                                     std::is_same_v<F, elem::IsfiniteF> || std::is_same_v<F, elem::SignbitF>);
constexpr uint32_t spread_bits4(uint32_t m) {  // bit i of m -> byte i (0 or 1)
  return (m & 1) | ((m >> 1 & 1) << 8) | ((m >> 2 & 1) << 16) | ((m >> 3 & 1) << 24);
}
inline constexpr uint32_t kSpreadBits4[16] = {
    spread_bits4(0), spread_bits4(1), spread_bits4(2),  spread_bits4(3),  spread_bits4(4),  spread_bits4(5),
    spread_bits4(6), spread_bits4(7), spread_bits4(8),  spread_bits4(9),  spread_bits4(10), spread_bits4(11),
    spread_bits4(12), spread_bits4(13), spread_bits4(14), spread_bits4(15)};

// All-ones lanes where F holds (signbit: x itself, whose sign bits are the answer).
template <class F>
inline __m256d predicate_lanes(__m256d x) {
  if constexpr (std::is_same_v<F, elem::SignbitF>) return x;
  else if constexpr (std::is_same_v<F, elem::IsnanF>) return _mm256_cmp_pd(x, x, _CMP_UNORD_Q);
  else if constexpr (std::is_same_v<F, elem::IsinfF>) return _mm256_cmp_pd(_mm256_andnot_pd(_mm256_set1_pd(-0.0), x), _mm256_set1_pd(HUGE_VAL), _CMP_EQ_OQ);
  else return _mm256_cmp_pd(_mm256_andnot_pd(_mm256_set1_pd(-0.0), x), _mm256_set1_pd(HUGE_VAL), _CMP_LT_OQ);
}
template <class F>
inline __m256i predicate_lanes(__m256 x) {
  __m256 m;
  if constexpr (std::is_same_v<F, elem::SignbitF>) return _mm256_srai_epi32(_mm256_castps_si256(x), 31);
  else if constexpr (std::is_same_v<F, elem::IsnanF>) m = _mm256_cmp_ps(x, x, _CMP_UNORD_Q);
  else if constexpr (std::is_same_v<F, elem::IsinfF>) m = _mm256_cmp_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), x), _mm256_set1_ps(HUGE_VALF), _CMP_EQ_OQ);
  else m = _mm256_cmp_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), x), _mm256_set1_ps(HUGE_VALF), _CMP_LT_OQ);
  return _mm256_castps_si256(m);
}

// float64: 8 values a step, their movemask bits spread to bytes by the table; float32: 32 a
// step, the four compare masks packed to bytes (32 -> 16 -> 8 bits, then the 64-bit quarters
// put back in order) and cut to 0/1.
template <class F, class T>
inline void float_predicate_row(uint8_t* o, const T* a, int64_t n) {
  int64_t i = 0;
  if constexpr (std::is_same_v<T, double>) {
    for (; i + 8 <= n; i += 8) {
      const uint32_t lo = kSpreadBits4[_mm256_movemask_pd(predicate_lanes<F>(_mm256_loadu_pd(a + i)))];
      const uint32_t hi = kSpreadBits4[_mm256_movemask_pd(predicate_lanes<F>(_mm256_loadu_pd(a + i + 4)))];
      const uint64_t bytes = uint64_t(lo) | (uint64_t(hi) << 32);
      std::memcpy(o + i, &bytes, 8);
    }
  } else {
    for (; i + 32 <= n; i += 32) {
      const __m256i m0 = predicate_lanes<F>(_mm256_loadu_ps(a + i)), m1 = predicate_lanes<F>(_mm256_loadu_ps(a + i + 8));
      const __m256i m2 = predicate_lanes<F>(_mm256_loadu_ps(a + i + 16)), m3 = predicate_lanes<F>(_mm256_loadu_ps(a + i + 24));
      const __m256i bytes = _mm256_packs_epi16(_mm256_packs_epi32(m0, m1), _mm256_packs_epi32(m2, m3));
      const __m256i ordered = _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + i), _mm256_and_si256(ordered, _mm256_set1_epi8(1)));
    }
  }
  F f;
  for (; i < n; ++i) o[i] = uint8_t(f(a[i]));
}
#endif

template <class F, class T>
DLA_LOOP_ATTR void unary_loop(char** p, const int64_t* s, int64_t n) {
  using R = decltype(F{}(std::declval<T>()));
  F f;
  if (s[0] == int64_t(sizeof(R)) && s[1] == int64_t(sizeof(T))) {
    if constexpr (std::is_same_v<F, elem::SquareF> && elem::is_complex_v<T>) {
      const T* a = reinterpret_cast<const T*>(p[1]);
      return complex_multiply_row<1>(reinterpret_cast<T*>(p[0]), a, a, n);
    }
    if constexpr (std::is_same_v<F, elem::AbsF> && std::is_same_v<T, std::complex<float>>) {
      return complex64_abs_row(reinterpret_cast<float*>(p[0]), reinterpret_cast<const float*>(p[1]), n);
    }
#ifdef DLA_CPU_LOOPS_AVX2
    if constexpr (std::is_same_v<F, elem::AbsF> && std::is_same_v<T, std::complex<double>>) {
      return complex128_abs_row(reinterpret_cast<double*>(p[0]), reinterpret_cast<const double*>(p[1]), n);
    }
#endif
    if constexpr (std::is_same_v<T, bool> && std::is_same_v<R, bool>) {
      // Bools as bytes: GCC does not vectorize arithmetic on bool elements (logical_not ran
      // at 11x NumPy's time); any nonzero byte reads as true.
      uint8_t* o = reinterpret_cast<uint8_t*>(p[0]);
      const uint8_t* a = reinterpret_cast<const uint8_t*>(p[1]);
DLA_IVDEP
      for (int64_t i = 0; i < n; ++i) o[i] = uint8_t(f(a[i] != 0));
    } else if constexpr (std::is_same_v<R, bool>) {  // predicates: stored as bytes, as above (signbit 4x)
      uint8_t* o = reinterpret_cast<uint8_t*>(p[0]);
      const T* a = reinterpret_cast<const T*>(p[1]);
#ifdef DLA_CPU_LOOPS_AVX2
      if constexpr (kFloatPredicateRow<F, T>) return float_predicate_row<F>(o, a, n);
#endif
DLA_IVDEP
      for (int64_t i = 0; i < n; ++i) o[i] = uint8_t(f(a[i]));
    } else {
      R* o = reinterpret_cast<R*>(p[0]);
      const T* a = reinterpret_cast<const T*>(p[1]);
DLA_IVDEP
      for (int64_t i = 0; i < n; ++i) o[i] = f(a[i]);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) at<R>(p[0], i, s[0]) = f(at<T>(p[1], i, s[1]));
}

template <class F, class T>
DLA_LOOP_ATTR void binary_loop(char** p, const int64_t* s, int64_t n) {
  using R = decltype(F{}(std::declval<T>(), std::declval<T>()));
  F f;
  constexpr int64_t sr = sizeof(R), st = sizeof(T);
  if (s[0] == sr) {
    R* o = reinterpret_cast<R*>(p[0]);
    const T* a = reinterpret_cast<const T*>(p[1]);
    const T* b = reinterpret_cast<const T*>(p[2]);
    if constexpr (std::is_same_v<F, elem::MultiplyF> && elem::is_complex_v<T>) {
      if (s[1] == st && s[2] == st) return complex_multiply_row<1>(o, a, b, n);
      if (s[1] == st && s[2] == 0) return complex_multiply_row<0>(o, a, b, n);
    }
    if constexpr (std::is_same_v<F, elem::PowF> && elem::is_int_v<T>) {
      if ((s[1] == st || s[1] == 0) && (s[2] == st || s[2] == 0)) return int_pow_row(o, a, s[1] / st, b, s[2] / st, n);
    }
    if constexpr ((std::is_same_v<F, elem::FloorDivideF> || std::is_same_v<F, elem::RemainderF>) && elem::is_int_v<T>) {
      if (s[1] == st && s[2] == 0) return int_divide_by_scalar_row<T, std::is_same_v<F, elem::RemainderF>>(o, a, *b, n);
    }
    if (s[1] == st && s[2] == st) {
DLA_IVDEP
      for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i]);
      return;
    }
    if (s[1] == st && s[2] == 0) {
      const T bv = *b;
DLA_IVDEP
      for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], bv);
      return;
    }
    if (s[1] == 0 && s[2] == st) {
      const T av = *a;
DLA_IVDEP
      for (int64_t i = 0; i < n; ++i) o[i] = f(av, b[i]);
      return;
    }
  }
  for (int64_t i = 0; i < n; ++i) at<R>(p[0], i, s[0]) = f(at<T>(p[1], i, s[1]), at<T>(p[2], i, s[2]));
}

// Ternary operations (clip, where): the first operand may have its own type (where's bool).
template <class F, class A, class T>
DLA_LOOP_ATTR void ternary_loop(char** p, const int64_t* s, int64_t n) {
  using R = decltype(F{}(std::declval<A>(), std::declval<T>(), std::declval<T>()));
  F f;
  constexpr int64_t st = sizeof(T);
  if (s[0] == int64_t(sizeof(R)) && s[1] == int64_t(sizeof(A)) && s[2] == st && s[3] == st) {
    R* o = reinterpret_cast<R*>(p[0]);
    const A* a = reinterpret_cast<const A*>(p[1]);
    const T* b = reinterpret_cast<const T*>(p[2]);
    const T* c = reinterpret_cast<const T*>(p[3]);
DLA_IVDEP
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i], c[i]);
    return;
  }
  // A contiguous first operand with scalar (stride 0) others: clip's bounds, where's scalar
  // branch. Without these the strided loop ran clip(x, -1, 1) at 8.7x NumPy's time.
  if (s[0] == int64_t(sizeof(R)) && s[1] == int64_t(sizeof(A)) && (s[2] == 0 || s[2] == st) &&
      (s[3] == 0 || s[3] == st) && (s[2] == 0 || s[3] == 0)) {
    R* o = reinterpret_cast<R*>(p[0]);
    const A* a = reinterpret_cast<const A*>(p[1]);
    const T* b = reinterpret_cast<const T*>(p[2]);
    const T* c = reinterpret_cast<const T*>(p[3]);
    if (s[2] == 0 && s[3] == 0) {
      const T bv = *b, cv = *c;
DLA_IVDEP
      for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], bv, cv);
    } else if (s[2] == 0) {
      const T bv = *b;
DLA_IVDEP
      for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], bv, c[i]);
    } else {
      const T cv = *c;
DLA_IVDEP
      for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i], cv);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    at<R>(p[0], i, s[0]) = f(at<A>(p[1], i, s[1]), at<T>(p[2], i, s[2]), at<T>(p[3], i, s[3]));
}

template <OpId op, int arity, Sig sig, class F, ScalarType S>
constexpr LoopFn make_loop() {
  using T = typename CType<S>::type;
  using Out = typename CType<op_result_type(op, S)>::type;
  if constexpr (arity == 1) {
    static_assert(std::is_same_v<decltype(F{}(std::declval<T>())), Out>, "functor result disagrees with Res");
    return &unary_loop<F, T>;
  } else if constexpr (arity == 2) {
    static_assert(std::is_same_v<decltype(F{}(std::declval<T>(), std::declval<T>())), Out>,
                  "functor result disagrees with Res");
    return &binary_loop<F, T>;
  } else {
    // where's condition is read as bytes: a bool element makes GCC keep a branch per element
    // (random conditions: 4 ms for 10^6 float32), a byte lets it select in vector registers.
    using A = std::conditional_t<sig == Sig::Where, uint8_t, T>;
    static_assert(std::is_same_v<decltype(F{}(std::declval<A>(), std::declval<T>(), std::declval<T>())), Out>,
                  "functor result disagrees with Res");
    return &ternary_loop<F, A, T>;
  }
}

// The AVX2 table fills the real dtypes, and for complex ones only the ops with rows of their
// own here (abs, multiply, square); see the header comment.
#ifdef DLA_CPU_LOOPS_AVX2
constexpr bool kLoopsForComplex = false;
#else
constexpr bool kLoopsForComplex = true;
#endif

template <OpId op, int arity, Sig sig, uint8_t kinds, class F, int... S>
void fill_op(KernelTable& table, std::integer_sequence<int, S...>) {
  auto one = [&](auto s) {
    constexpr ScalarType st = static_cast<ScalarType>(decltype(s)::value);
    constexpr bool complex = st == ScalarType::Complex64 || st == ScalarType::Complex128;
    constexpr bool complex_row = op == OpId::abs || op == OpId::multiply || op == OpId::square;  // rows of their own
    if constexpr ((kinds & kind_bit(st)) != 0 && (kLoopsForComplex || !complex || complex_row))
      table[static_cast<int>(op)][static_cast<int>(st)] = make_loop<op, arity, sig, F, st>();
  };
  (one(std::integral_constant<int, S>{}), ...);
}

// Fills the table entries of the ops whose index is Part modulo kCpuKernelParts.
template <int Part>
void fill_kernel_part(KernelTable& table) {
#define DLA_FILL_OP(name, arity, sig, kinds, res, functor, params, summary)                     \
  if constexpr (static_cast<int>(OpId::name) % kCpuKernelParts == Part)                         \
    fill_op<OpId::name, arity, Sig::sig, kinds, elem::functor>(table,                           \
                                                              std::make_integer_sequence<int, kNumScalarTypes>{});
  DLA_ELEMENTWISE_OPS(DLA_FILL_OP)
#undef DLA_FILL_OP
}

}  // namespace DLA_CPU_LOOPS_NS

// The loop the CPU executor runs for `op` on `compute` (the kernel table's entry after every
// replacement: AVX2, libmvec), or null where the op rejects that dtype.
LoopFn elementwise_cpu_loop(OpId op, ScalarType compute);

// Defined in elementwise_kernels_<Part>.cpp, once per ISA the build compiles them for (the
// avx2_loops ones only where DLA_HAVE_AVX2_LOOPS is defined).
namespace baseline_loops {
void fill_kernels_0(KernelTable& table);
void fill_kernels_1(KernelTable& table);
void fill_kernels_2(KernelTable& table);
}  // namespace baseline_loops
namespace avx2_loops {
void fill_kernels_0(KernelTable& table);
void fill_kernels_1(KernelTable& table);
void fill_kernels_2(KernelTable& table);
}  // namespace avx2_loops

}  // namespace dla::cpu
