// math_avx2_f64.cpp — float64 sin, cos, tan, asin, acos, atan and atan2 at 4 lanes (see math_avx2_f64.h).
#include "backends/cpu/math_avx2_f64.h"

#include "backends/cpu/avx2_row.h"
#include "core/cpu_features.h"
#include "backends/cpu/trig_f64.h"

#include <cmath>

namespace dla::cpu {
namespace {

using namespace trig_f64;
using avx2_math::poly;

DLA_V256 __m256d set(double v) { return _mm256_set1_pd(v); }
DLA_V256 __m256d fma(__m256d a, __m256d b, __m256d c) { return _mm256_fmadd_pd(a, b, c); }

// x = n pi/2 + rh + rl for |x| < 2^20, sin r and cos r both formed, one chosen by n mod 4 and
// signed by its bit 1: the derivation is math_avx512_f64.cpp's.
template <bool Cos>
struct SinCosKernel {
  struct Regs {};
  DLA_V256 static Regs regs() { return {}; }
  // Below 2^20 and finite (not NaN); sin also leaves its zeros to libm (the sign of -0).
  DLA_V256 static __m256d fast(__m256d x) {
    const __m256d in_range = _mm256_cmp_pd(_mm256_andnot_pd(set(-0.0), x), set(0x1p20), _CMP_LT_OQ);
    if constexpr (Cos) return in_range;
    else return _mm256_and_pd(in_range, _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_NEQ_UQ));
  }
  DLA_V256 static __m256d settled(__m256d) { return _mm256_setzero_pd(); }
  DLA_V256 static __m256d compute(__m256d x, const Regs&) {
    const __m256d n = _mm256_round_pd(_mm256_mul_pd(x, set(kInvPio2)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m256d r1 = _mm256_fnmadd_pd(n, set(2 * kPio4C[0]), x);
    const __m256d rh = _mm256_fnmadd_pd(n, set(2 * kPio4C[1]), r1);
    const __m256d tail = fma(n, set(2 * kPio4C[2]), _mm256_mul_pd(n, set(2 * kPio4C[3])));
    const __m256d rl = _mm256_sub_pd(_mm256_fnmadd_pd(n, set(2 * kPio4C[1]), _mm256_sub_pd(r1, rh)), tail);
    const __m256d one = set(1.0);
    const __m256d hr = _mm256_mul_pd(rh, set(0.5));
    const __m256d t = _mm256_mul_pd(rh, rh);
    const __m256d ht = _mm256_mul_pd(hr, rh);        // t/2, exactly
    const __m256d hl = _mm256_fmsub_pd(hr, rh, ht);  // (rh^2 - t)/2, exactly
    const __m256d rt = _mm256_mul_pd(rh, t);
    const __m256d rt_lo = fma(_mm256_add_pd(rh, rh), hl, _mm256_fmsub_pd(rh, t, rt));
    const __m256d s_small = fma(rt_lo, set(kSinS1), _mm256_fnmadd_pd(ht, rl, rl));
    const __m256d s_lo = fma(rt, set(kSinS1), fma(_mm256_mul_pd(rt, t), poly(t, kSinS), s_small));
    const __m256d s = _mm256_add_pd(rh, s_lo);
    const __m256d h = _mm256_sub_pd(one, ht);
    const __m256d w = fma(rh, rl, hl);  // rh rl + (rh^2 - t)/2
    const __m256d c_lo = fma(_mm256_mul_pd(t, t), poly(t, kCosC), _mm256_sub_pd(_mm256_sub_pd(_mm256_sub_pd(one, h), ht), w));
    const __m256d c = _mm256_add_pd(h, c_lo);
    // n (+ 1 for cos) in the low bits of n + 1.5 2^52 (|n| < 2^21): bit 0 chooses cos r, bit 1 negates.
    __m256i ni = _mm256_castpd_si256(_mm256_add_pd(n, set(0x1.8p52)));
    if constexpr (Cos) ni = _mm256_add_epi64(ni, _mm256_set1_epi64x(1));
    const __m256d y = _mm256_blendv_pd(s, c, _mm256_castsi256_pd(_mm256_slli_epi64(ni, 63)));
    return _mm256_xor_pd(y, _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_and_si256(ni, _mm256_set1_epi64x(2)), 62)));
  }
  static double scalar(double x) { return Cos ? std::cos(x) : std::sin(x); }
};

// x = n pi/4 + rh + rl for |x| < 2^20, tan r = rh + (rl + rh t T(t)) renormalized, and by n mod
// 4 tan x = N / D with (N, D) = (tr, 1), (1 + tr, 1 - tr), or those swapped and negated: the
// derivation is math_avx512_f64.cpp's. T(t) by Horner (AVX-512: Estrin, for its shorter chain),
// and the quotient's correction (2^-53 of it) by a division, where AVX-512 multiplies by a
// 14-bit reciprocal estimate: the last bit may differ between the two, rarely (both within
// 0.69 ulp).
struct TanKernel {
  struct Regs {};
  DLA_V256 static Regs regs() { return {}; }
  // Finite, nonzero (libm keeps the sign of -0), below 2^20.
  DLA_V256 static __m256d fast(__m256d x) {
    const __m256d in_range = _mm256_cmp_pd(_mm256_andnot_pd(set(-0.0), x), set(0x1p20), _CMP_LT_OQ);
    return _mm256_and_pd(in_range, _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_NEQ_UQ));
  }
  DLA_V256 static __m256d settled(__m256d) { return _mm256_setzero_pd(); }
  DLA_V256 static __m256d compute(__m256d x, const Regs&) {
    const __m256d n = _mm256_round_pd(_mm256_mul_pd(x, set(kInvPio4)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m256d one = set(1.0);
    const __m256d r1 = _mm256_fnmadd_pd(n, set(kPio4C[0]), x);
    const __m256d rh = _mm256_fnmadd_pd(n, set(kPio4C[1]), r1);
    const __m256d tail = fma(n, set(kPio4C[2]), _mm256_mul_pd(n, set(kPio4C[3])));
    const __m256d rl = _mm256_sub_pd(_mm256_fnmadd_pd(n, set(kPio4C[1]), _mm256_sub_pd(r1, rh)), tail);
    const __m256d t = _mm256_mul_pd(rh, rh);
    const __m256d tr_lo0 = fma(_mm256_mul_pd(rh, t), poly(t, kTanT), rl);
    const __m256d tr_hi = _mm256_add_pd(rh, tr_lo0);
    const __m256d tr_lo = _mm256_add_pd(_mm256_sub_pd(rh, tr_hi), tr_lo0);
    // o = n mod 2 as 0.0 or 1.0, from n's low bits in n + 1.5 2^52 (|n| < 2^21).
    const __m256i ni = _mm256_castpd_si256(_mm256_add_pd(n, set(0x1.8p52)));
    const __m256i shifter = _mm256_castpd_si256(set(0x1.8p52));
    const __m256d o = _mm256_sub_pd(
        _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(ni, _mm256_set1_epi64x(1)), shifter)), set(0x1.8p52));
    const __m256d a_hi = _mm256_add_pd(o, tr_hi);
    const __m256d a_lo = _mm256_add_pd(_mm256_add_pd(_mm256_sub_pd(o, a_hi), tr_hi), tr_lo);
    const __m256d b_hi = _mm256_fnmadd_pd(o, tr_hi, one);
    const __m256d b_lo = _mm256_fnmadd_pd(o, tr_lo, _mm256_fnmadd_pd(o, tr_hi, _mm256_sub_pd(one, b_hi)));
    const __m256d swap = _mm256_castsi256_pd(_mm256_slli_epi64(ni, 62));  // bit 1 of n in the sign bit
    const __m256d n_hi = _mm256_blendv_pd(a_hi, b_hi, swap), n_lo = _mm256_blendv_pd(a_lo, b_lo, swap);
    const __m256d d_hi = _mm256_blendv_pd(b_hi, a_hi, swap), d_lo = _mm256_blendv_pd(b_lo, a_lo, swap);
    const __m256d q = _mm256_div_pd(n_hi, d_hi);
    const __m256d rem = _mm256_add_pd(_mm256_fnmadd_pd(q, d_hi, n_hi), _mm256_fnmadd_pd(q, d_lo, n_lo));
    const __m256d y = _mm256_add_pd(q, _mm256_div_pd(rem, d_hi));
    // n mod 4 in {2, 3}: the negated quotient (0 - y: y is never 0 there).
    return _mm256_blendv_pd(y, _mm256_sub_pd(_mm256_setzero_pd(), y), swap);
  }
  static double scalar(double x) { return std::tan(x); }
};

// asin and acos as math_avx512_f64.cpp's ArcSineKernel: for a = |x| <= 1/2, asin a = a + a t P(t),
// t = a^2; above, asin a = pi/2 - 2 asin(s), s = sqrt(z), z = (1 - a)/2, s corrected by its
// exact residual; every case C + V + L (a constant, the leading term with the result's sign,
// the small rest), C + V by a fast two-sum, rounded once. The signs and constants come from
// bit operations on x's sign (AVX-512's masked ternary logic as and/or/blend), and the
// residual's correction divides where AVX-512 multiplies by a 14-bit reciprocal estimate
// (its weight is 2^-53 of the result: the last bit may differ between the two, rarely).
template <bool Acos>
struct ArcSineKernel {
  struct Regs {};
  DLA_V256 static Regs regs() { return {}; }
  // |x| < 1: at +-1 (s = 0) and NaN, libm.
  DLA_V256 static __m256d fast(__m256d x) { return _mm256_cmp_pd(_mm256_andnot_pd(set(-0.0), x), set(1.0), _CMP_LT_OQ); }
  DLA_V256 static __m256d settled(__m256d) { return _mm256_setzero_pd(); }
  DLA_V256 static __m256d compute(__m256d x, const Regs&) {
    const __m256d sm = set(-0.0), a = _mm256_andnot_pd(sm, x);
    const __m256d big = _mm256_cmp_pd(a, set(0.5), _CMP_GT_OQ);
    const __m256d w = _mm256_blendv_pd(_mm256_mul_pd(x, x), _mm256_fnmadd_pd(a, set(0.5), set(0.5)), big);
    const __m256d p = poly(w, kAsinP);
    const __m256d root = _mm256_sqrt_pd(w);
    const __m256d r2 = _mm256_add_pd(root, root);
    // V: asin x where small, -copysign(R, x) where big; acos -x, copysign(R, x).
    const __m256d a_v = Acos ? _mm256_xor_pd(x, sm) : x;
    const __m256d v = _mm256_blendv_pd(a_v, _mm256_or_pd(r2, _mm256_andnot_pd(a_v, sm)), big);
    // C: asin -0 (so that -0 + V = V, signs included) or copysign(pi/2, x); acos pi/2, or
    // pi/2 -+ pi/2 where big (0 or pi, exact).
    const __m256d signed_pio2 = _mm256_or_pd(set(kPio2Hi), _mm256_and_pd(x, sm));
    const __m256d c_hi = Acos ? _mm256_sub_pd(set(kPio2Hi), _mm256_and_pd(big, signed_pio2))
                              : _mm256_blendv_pd(sm, signed_pio2, big);
    const __m256d res = _mm256_fnmadd_pd(root, root, w);  // exact
    const __m256d l = fma(_mm256_mul_pd(v, w), p, _mm256_and_pd(big, _mm256_div_pd(_mm256_add_pd(res, res), v)));
    const __m256d h = _mm256_add_pd(c_hi, v);
    const __m256d err = _mm256_add_pd(_mm256_sub_pd(c_hi, h), v);
    const __m256d y = _mm256_add_pd(h, fma(c_hi, set(kPio2Lo / kPio2Hi), _mm256_add_pd(err, l)));
    if constexpr (Acos) return y;
    return _mm256_or_pd(y, _mm256_and_pd(x, sm));  // asin(-0) = -0
  }
  static double scalar(double x) { return Acos ? std::acos(x) : std::asin(x); }
};

// atan as math_avx512_f64.cpp's kernel: atan a (a = |x|) = atan(n / d) with (n, d) = (a, 1)
// for a <= 1 and (-1, a) above with c negated (there atan a = pi/2 - atan(1/a)); c = j/16
// near n/d, atan(n/d) = atan(c) + atan(z), z = (n - c d) / (d + c n) with the denominator as an
// exact pair, atan(z) = z + z^3 Q(z^2); atan(c) or pi/2 - atan(c) as a pair from one 32-entry
// table read by two gathers (AVX-512 permutes four 16-entry ones), one fast two-sum, rounded
// once. 1/a, which picks c, and the quotient's correction are divisions here (AVX-512: 14-bit
// reciprocal estimates; the last bit may differ between the two, rarely).
struct AtanTables {
  alignas(32) double hi[32], lo[32];  // j < 16: atan(j/16); j >= 16: pi/2 - atan((j - 16)/16)
  AtanTables() {
    for (int j = 0; j < 32; ++j) {
      const long double c = static_cast<long double>(j % 16) / 16;
      const long double v = j < 16 ? std::atan(c) : std::atan2(1.0L, c);
      hi[j] = static_cast<double>(v);
      lo[j] = static_cast<double>(v - hi[j]);
    }
  }
};

struct AtanKernel {
  struct Regs {
    const double *hi, *lo;
  };
  DLA_V256 static Regs regs() {
    static const AtanTables t;
    return {t.hi, t.lo};
  }
  // Finite and nonzero.
  DLA_V256 static __m256d fast(__m256d x) {
    return _mm256_and_pd(_mm256_cmp_pd(_mm256_andnot_pd(set(-0.0), x), set(HUGE_VAL), _CMP_LT_OQ),
                         _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_NEQ_UQ));
  }
  DLA_V256 static __m256d settled(__m256d) { return _mm256_setzero_pd(); }
  DLA_V256 static __m256d compute(__m256d x, const Regs& T) {
    const __m256d sm = set(-0.0), one = set(1.0), a = _mm256_andnot_pd(sm, x);
    const __m256d inverted = _mm256_cmp_pd(a, one, _CMP_GT_OQ);
    const __m256d b = _mm256_blendv_pd(a, _mm256_div_pd(one, a), inverted);  // ~ n / d
    // 2^52 + min(floor(16 b), 15): its low bits are j; c = j/16 from it exactly.
    const __m256d shifted = _mm256_min_pd(_mm256_add_pd(_mm256_floor_pd(_mm256_mul_pd(b, set(16.0))), set(0x1p52)),
                                          set(0x1p52 + 15));
    const __m256i index = _mm256_or_si256(_mm256_and_si256(_mm256_castpd_si256(shifted), _mm256_set1_epi64x(15)),
                                          _mm256_and_si256(_mm256_castpd_si256(inverted), _mm256_set1_epi64x(16)));
    const __m256d c0 = _mm256_fmsub_pd(shifted, set(1.0 / 16), set(0x1p48));
    const __m256d c = _mm256_xor_pd(c0, _mm256_and_pd(inverted, sm));
    const __m256d n = _mm256_blendv_pd(a, set(-1.0), inverted), d = _mm256_blendv_pd(one, a, inverted);
    const __m256d num = _mm256_fnmadd_pd(c, d, n);
    const __m256d den = fma(c, n, d);
    const __m256d den_lo = fma(c, n, _mm256_sub_pd(d, den));
    const __m256d z = _mm256_div_pd(num, den);
    const __m256d z_lo = _mm256_div_pd(_mm256_fnmadd_pd(z, den_lo, _mm256_fnmadd_pd(z, den, num)), den);
    const __m256d t = _mm256_mul_pd(z, z);
    const __m256d tail = fma(_mm256_mul_pd(z, t), poly(t, kAtanQ), z_lo);
    const __m256d c_hi = _mm256_i64gather_pd(T.hi, index, 8), c_lo = _mm256_i64gather_pd(T.lo, index, 8);
    const __m256d h = _mm256_add_pd(c_hi, z);
    const __m256d y = _mm256_add_pd(h, _mm256_add_pd(_mm256_add_pd(_mm256_sub_pd(c_hi, h), z), _mm256_add_pd(c_lo, tail)));
    return _mm256_or_pd(y, _mm256_and_pd(x, sm));  // y >= 0 takes x's sign
  }
  static double scalar(double x) { return std::atan(x); }
};

// atan2(y, x) as math_avx512_f64.cpp's kernel: sign(y) (K + s atan(n / d)), n = min(|y|, |x|),
// d = max; atan(n/d) = atan(c) + atan(z) with c = j/16 near n/d, z = (n - c d) / (d + c n),
// numerator and denominator as exact pairs; K + s U by a fast two-sum, rounded once. Lanes with
// a zero, infinite or NaN argument, or a magnitude outside [2^-500, 2^500], are libm's. n/d,
// which picks c, and the quotient's correction are divisions here (AVX-512: 14-bit reciprocal
// estimates; the last bit may differ between the two, rarely).
struct Atan2Kernel {
  static double scalar(double y, double x) { return std::atan2(y, x); }
  DLA_V256 static __m256d fast(__m256d y, __m256d x) {
    const __m256d lo = set(0x1p-500), hi = set(0x1p500), sm = set(-0.0);
    const __m256d ay = _mm256_andnot_pd(sm, y), ax = _mm256_andnot_pd(sm, x);
    return _mm256_and_pd(_mm256_and_pd(_mm256_cmp_pd(ay, lo, _CMP_GE_OQ), _mm256_cmp_pd(ay, hi, _CMP_LE_OQ)),
                         _mm256_and_pd(_mm256_cmp_pd(ax, lo, _CMP_GE_OQ), _mm256_cmp_pd(ax, hi, _CMP_LE_OQ)));
  }
  DLA_V256 static __m256d compute(__m256d y, __m256d x, const AtanKernel::Regs& T) {
    const __m256d sm = set(-0.0);
    const __m256d ay = _mm256_andnot_pd(sm, y), ax = _mm256_andnot_pd(sm, x);
    const __m256d swapped = _mm256_cmp_pd(ay, ax, _CMP_GT_OQ);
    const __m256d negative_x = _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_LT_OQ);
    const __m256d n = _mm256_min_pd(ay, ax), d = _mm256_max_pd(ay, ax);
    const __m256d shifted = _mm256_min_pd(
        _mm256_add_pd(_mm256_floor_pd(_mm256_mul_pd(_mm256_div_pd(n, d), set(16.0))), set(0x1p52)), set(0x1p52 + 15));
    const __m256i j = _mm256_and_si256(_mm256_castpd_si256(shifted), _mm256_set1_epi64x(15));
    const __m256d c = _mm256_fmsub_pd(shifted, set(1.0 / 16), set(0x1p48));
    // n - c d = num + num_lo: c d = p + p_lo exactly, n - p as a two-sum.
    const __m256d p = _mm256_mul_pd(c, d), p_lo = _mm256_fmsub_pd(c, d, p);
    const __m256d num = _mm256_sub_pd(n, p);
    const __m256d back = _mm256_sub_pd(num, n);
    const __m256d num_err = _mm256_sub_pd(_mm256_sub_pd(n, _mm256_sub_pd(num, back)), _mm256_add_pd(p, back));
    const __m256d num_lo = _mm256_sub_pd(num_err, p_lo);
    const __m256d den = fma(c, n, d);
    const __m256d den_lo = fma(c, n, _mm256_sub_pd(d, den));
    const __m256d z = _mm256_div_pd(num, den);
    const __m256d z_lo =
        _mm256_div_pd(_mm256_add_pd(_mm256_fnmadd_pd(z, den_lo, _mm256_fnmadd_pd(z, den, num)), num_lo), den);
    const __m256d t = _mm256_mul_pd(z, z);
    const __m256d tail = fma(_mm256_mul_pd(z, t), poly(t, kAtanQ), z_lo);
    const __m256d c_hi = _mm256_i64gather_pd(T.hi, j, 8), c_lo = _mm256_i64gather_pd(T.lo, j, 8);
    const __m256d u = _mm256_add_pd(c_hi, z);
    const __m256d u_lo = _mm256_add_pd(_mm256_add_pd(_mm256_sub_pd(c_hi, u), z), _mm256_add_pd(c_lo, tail));
    // K + s U by a fast two-sum: s = -1 where exactly one of swapped, x < 0 holds; K = pi/2
    // where swapped, else pi where x < 0, else 0.
    const __m256d minus = _mm256_and_pd(_mm256_xor_pd(swapped, negative_x), sm);
    const __m256d su = _mm256_xor_pd(u, minus), su_lo = _mm256_xor_pd(u_lo, minus);
    const __m256d pi = _mm256_andnot_pd(swapped, negative_x);
    const __m256d k_hi = _mm256_blendv_pd(_mm256_and_pd(swapped, set(kPio2Hi)), set(kPiHi), pi);
    const __m256d k_lo = _mm256_blendv_pd(_mm256_and_pd(swapped, set(kPio2Lo)), set(kPiLo), pi);
    const __m256d r = _mm256_add_pd(k_hi, su);
    const __m256d r_lo = _mm256_add_pd(_mm256_add_pd(_mm256_sub_pd(k_hi, r), su), _mm256_add_pd(k_lo, su_lo));
    return _mm256_or_pd(_mm256_add_pd(r, r_lo), _mm256_and_pd(y, sm));  // r >= 0 takes y's sign
  }
};

__attribute__((noinline)) void atan2_fix_up(int slow, const double* ys, const double* xs, double* out) {
  for (int l = 0; l < 4; ++l)
    if (slow & (1 << l)) out[l] = Atan2Kernel::scalar(ys[l], xs[l]);
}

// out[i] = atan2(y[i], x[i * x_step]) (x_step 0: x[0] for the whole row), 4 lanes a step, the
// tail as one vector under a mask (idle lanes hold 1.0), lanes off the fast range from libm.
__attribute__((target("avx2,fma"))) void atan2_row(const double* y, const double* x, int64_t x_step, double* out,
                                                   int64_t n) {
  const AtanKernel::Regs T = AtanKernel::regs();
  const __m256d x_one = _mm256_set1_pd(x_step == 0 ? x[0] : 1.0);
  for (int64_t i = 0; i < n; i += 4) {
    const int live = n - i >= 4 ? 0xf : (1 << (n - i)) - 1;
    const __m256i mask = _mm256_cmpgt_epi64(_mm256_set1_epi64x(n - i), _mm256_setr_epi64x(0, 1, 2, 3));
    const __m256d yv = live == 0xf ? _mm256_loadu_pd(y + i)
                                   : _mm256_blendv_pd(set(1.0), _mm256_maskload_pd(y + i, mask), _mm256_castsi256_pd(mask));
    const __m256d xv = x_step == 0   ? x_one
                       : live == 0xf ? _mm256_loadu_pd(x + i)
                                     : _mm256_blendv_pd(set(1.0), _mm256_maskload_pd(x + i, mask), _mm256_castsi256_pd(mask));
    const __m256d r = Atan2Kernel::compute(yv, xv, T);
    if (live == 0xf) _mm256_storeu_pd(out + i, r);
    else _mm256_maskstore_pd(out + i, mask, r);
    if (const int slow = live & ~_mm256_movemask_pd(Atan2Kernel::fast(yv, xv))) {
      alignas(32) double ys[4], xs[4];
      _mm256_store_pd(ys, yv);
      _mm256_store_pd(xs, xv);
      atan2_fix_up(slow, ys, xs, out + i);
    }
  }
}

}  // namespace

bool math_avx2_f64_atan2_row(const double* y, const double* x, int64_t x_step, double* out, int64_t n) {
  if (vector_level() != VectorLevel::Avx2Fma && vector_level() != VectorLevel::Avx512) return false;
  atan2_row(y, x, x_step, out, n);
  return true;
}

bool math_avx2_f64_row(ExpLogFn fn, const double* in, double* out, int64_t n, const NanOutside<double>* domain) {
  if (vector_level() != VectorLevel::Avx2Fma && vector_level() != VectorLevel::Avx512) return false;
  switch (fn) {
    case ExpLogFn::Sin: avx2_math::row<SinCosKernel<false>, double>(in, out, n, domain, 0.5); return true;
    case ExpLogFn::Cos: avx2_math::row<SinCosKernel<true>, double>(in, out, n, domain, 0.5); return true;
    case ExpLogFn::Tan: avx2_math::row<TanKernel, double>(in, out, n, domain, 0.5); return true;
    case ExpLogFn::Asin: avx2_math::row<ArcSineKernel<false>, double>(in, out, n, domain, 0.5); return true;
    case ExpLogFn::Acos: avx2_math::row<ArcSineKernel<true>, double>(in, out, n, domain, 0.5); return true;
    case ExpLogFn::Atan: avx2_math::row<AtanKernel, double>(in, out, n, domain, 0.5); return true;
    default: return false;
  }
}

}  // namespace dla::cpu
