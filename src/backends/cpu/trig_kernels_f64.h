// trig_kernels_f64.h — the float64 sin, cos, tan, asin, acos, atan and atan2 kernels, written once
// for every ISA as templates over a vector-operations traits struct V (Avx512F64 in
// math_avx512_common.h, 8 lanes; Avx2F64 in math_avx2_f64.cpp, 4 lanes): their derivations,
// fast ranges (the lanes a kernel gets right; the rows send the rest to libm), atan's table and
// atan2's reduction (also the AVX-512 float32 atan2's). Constants: trig_f64.h. The rows that run
// the kernels stay per ISA (math_avx512_f64.cpp, math_avx2_f64.cpp with avx2_row.h).
//
// Where the ISAs deliberately differ, V has a named operation and each ISA keeps its choice, so
// that each gives the bits it gave with its own copy of the kernels: a 14-bit reciprocal estimate
// (AVX-512) or a division (AVX2) for the corrections and for picking atan's c, Estrin or Horner
// for tan's polynomial, n mod 4 by a conversion or the 1.5 2^52 shifter, atan's table in
// registers or read by gathers. Both ISAs are within the same bounds (sin, cos 0.59 ulp; tan
// 0.69; asin, acos 0.62; atan 0.50; atan2 0.51); the last bit of tan, asin, acos, atan and atan2
// is rarely apart between them.
//
// V provides the types D (a vector of doubles), M (a lane mask) and I (a vector of 64-bit
// integers), and as static functions:
//   set(v), zero(), add, sub, mul, div, fmadd(a, b, c) = a b + c, fnmadd = c - a b, fmsub =
//   a b - c, sqrt, abs, min, max (x86's operand order), round_nearest, and_, or_, xor_,
//   andnot(a, b) = ~a & b;
//   lt, le, gt, ge (ordered compares), nonzero(x) (true for NaN), finite_nonzero(x), and on
//   masks mask_and, mask_xor, mask_andnot(a, b) = ~a & b;
//   blend(m, a, b) (b where m, else a), zero_unless(m, a), negate_where(m, a),
//   with_sign_of(y, x) = y | (x & -0.0) (y >= 0 takes x's sign), and for asin and acos
//   with_sign_of_or_zero(m, y, x) and with_sign_of_or_minus_zero(m, y, x) (with_sign_of where
//   m, else 0.0 or -0.0) and blend_with_opposite_sign(m, a, y) (y | (~a & -0.0) where m, else
//   a): one masked ternary logic operation each on AVX-512 (gcc does not fuse a blend into one);
//   poly(t, c) = c[0] + t c[1] + ... by Horner, and latency_bound_poly(t, c), the same sum for
//   tan, whose loop is bound by its chain (AVX-512: Estrin; AVX2: Horner; each chosen by speed);
//   correction(rem, d) ~ rem / d and corrected(q, rem, d) ~ q + rem / d, for a correction below
//   2^-52 of the result (AVX-512: times rcp14(d), the second one fused; AVX2: divisions);
//   reciprocal_estimate(a) ~ 1/a and ratio_estimate(n, d) ~ n/d, which only pick atan's c;
//   shifted_floor16(q) = 2^52 + floor(16 q) for 0 <= q < 2^36 (in one rounding or two exact ones);
//   quadrant(n): an I whose low bits are those of the integer-valued n (|n| < 2^21),
//   plus_one(i), bit0_set(i) and bit1_set(i) (masks for blend only: AVX2 sets just the sign
//   bit), bit1_as_sign(i) (-0.0 where bit 1 is set, else +0.0), bit0_as_double(i) (0.0 or 1.0);
//   AtanTable, atan_table() (loaded once a row), index16(shifted) (j from shifted_floor16's
//   low bits) and atan_entry(T, j): atan(j/16) as a Pair; atan_index(shifted, inverted) and
//   atan_or_inverted_entry(T, index, inverted): atan(j/16), or pi/2 - atan(j/16) where inverted.
//
// Intrinsics inline only into functions compiled for their target, so the kernels carry
// DLA_TRIG_INLINE, which the file that includes this header defines first as its ISA's helper
// attribute (DLA_V512, DLA_V256): one ISA a file, each instantiating the templates with its own
// V, so that no two instantiations meet at link time.
#pragma once
#include <cmath>

#include "backends/cpu/trig_f64.h"

#ifndef DLA_TRIG_INLINE
#error "define DLA_TRIG_INLINE (the ISA's target and always_inline attribute) before including trig_kernels_f64.h"
#endif

namespace dla::cpu::trig_kernels {

// A value hi + lo, unevaluated.
template <class V>
struct Pair {
  typename V::D hi, lo;
};

// The kernels that read no table take this one.
struct NoTable {};

// atan(j/16) for j < 16 and pi/2 - atan((j - 16)/16) for j >= 16, as pairs hi + lo from long
// double; aligned for the 16-entry register loads of AVX-512 (8 doubles a register).
struct AtanPairs {
  alignas(64) double hi[32];
  alignas(64) double lo[32];
  AtanPairs() {
    for (int j = 0; j < 32; ++j) {
      const long double c = static_cast<long double>(j % 16) / 16;
      const long double v = j < 16 ? std::atan(c) : std::atan2(1.0L, c);
      hi[j] = static_cast<double>(v);
      lo[j] = static_cast<double>(v - hi[j]);
    }
  }
};
inline const AtanPairs& atan_pairs() {
  static const AtanPairs t;
  return t;
}

// x = n pi/4 + rh + rl for |x| < 2^20 (Scale 1; Scale 2: x = n pi/2 + ..., the constants
// doubled), |rh| <= pi/8 (pi/4) a little more where x 4/pi rounds. pi/4 = C1 + C2 + C3 + C4, C1
// the double nearest pi/4, C2 of 32 bits, C3 and C4 the doubles nearest the rest (199 bits in
// all). x - n C1 = r1 is exact in one fma: n C1 is a multiple of 2^-53 as x is (|x| >= 1/2
// wherever n != 0, and 1/4 <= |x| < 1/2 only gives n = 1 with multiples of 2^-54), and |r1| <
// 1/2 fits in 53 bits. n C2 is exact (|n| < 2^21); rh = r1 - n C2 rounded, and both r1 - rh and
// the error (r1 - rh) - n C2 of rh are exact (multiples of 2^-86 below 2^-33, or rh itself
// exact), then n (C3 + C4) joins the low part. Four fmas in a chain where a pair-summed
// reduction took twice the depth. 2 C1 is the double nearest pi/2, and each argument holds for
// it (x - n 2C1 is a multiple of 2^-53 below 1 in magnitude).
template <class V>
struct Quadrant {
  typename V::D n, rh, rl;
};
template <class V, int Scale>
DLA_TRIG_INLINE Quadrant<V> reduce_quadrant(typename V::D x, double inverse_step) {
  using D = typename V::D;
  const D n = V::round_nearest(V::mul(x, V::set(inverse_step)));
  const D r1 = V::fnmadd(n, V::set(Scale * trig_f64::kPio4C[0]), x);
  const D rh = V::fnmadd(n, V::set(Scale * trig_f64::kPio4C[1]), r1);
  const D tail = V::fmadd(n, V::set(Scale * trig_f64::kPio4C[2]), V::mul(n, V::set(Scale * trig_f64::kPio4C[3])));
  const D rl = V::sub(V::fnmadd(n, V::set(Scale * trig_f64::kPio4C[1]), V::sub(r1, rh)), tail);  // tail off the chain
  return {n, rh, rl};
}

// Below 2^20 and finite (not NaN), and nonzero where kNonzero (libm keeps the sign of -0).
template <class V, bool kNonzero>
DLA_TRIG_INLINE typename V::M in_reduction_range(typename V::D x) {
  const typename V::M in_range = V::lt(V::abs(x), V::set(0x1p20));
  if constexpr (kNonzero) return V::mask_and(in_range, V::nonzero(x));
  else return in_range;
}

// ---- sin, cos ------------------------------------------------------------------------------
// x = n pi/2 + rh + rl (reduce_quadrant), |rh| <= pi/4 a little more. On [-pi/4, pi/4]
// (t = rh^2):
//   sin r = rh + (rl (1 - t/2) + rh^3 (S1 + t S(t))),
//   cos r = h + (((1 - h) - t/2) - (rh^2 - t)/2 - rh rl + t^2 C(t)),  h = 1 - t/2,
// t/2 exact, 1 - h and the rounding error of rh^2 exact; S1, S and C the polynomials of fdlibm's
// __kernel_sin and __kernel_cos (within 2^-58 of sin r / r and of cos r there), by Horner;
// rh^3 S1 (up to 0.09, a tenth of the result) is summed from rh^3 as a pair, since rounding
// rh t and S(t) separately cost up to 0.2 ulp (0.70 ulp measured, 0.5x here after).
// sin x is then +-sin r or +-cos r by n mod 4 (cos x the same at n + 1): both are formed for
// every lane and one chosen by a blend, the sign set by bit 1 of n (xor).
template <class V, bool kCos>
struct SinCos {
  using D = typename V::D;
  using Table = NoTable;
  // sin also leaves its zeros to libm (the sign of -0).
  DLA_TRIG_INLINE static typename V::M fast(D x) { return in_reduction_range<V, !kCos>(x); }
  DLA_TRIG_INLINE static D compute(D x, const NoTable&) {
    using namespace trig_f64;
    const Quadrant<V> q = reduce_quadrant<V, 2>(x, kInvPio2);
    const D rh = q.rh, rl = q.rl;
    const D one = V::set(1.0);
    const D hr = V::mul(rh, V::set(0.5));
    const D t = V::mul(rh, rh);
    const D ht = V::mul(hr, rh);        // t/2, exactly
    const D hl = V::fmsub(hr, rh, ht);  // (rh^2 - t)/2, exactly
    // sin r: rh^3 = rt + (rh t - rt) + 2 rh hl to 2^-105 (rt = rh t rounded), its leading part
    // times S1 rounded only with the sum.
    const D rt = V::mul(rh, t);
    const D rt_lo = V::fmadd(V::add(rh, rh), hl, V::fmsub(rh, t, rt));
    const D s_small = V::fmadd(rt_lo, V::set(kSinS1), V::fnmadd(ht, rl, rl));
    const D s_lo = V::fmadd(rt, V::set(kSinS1), V::fmadd(V::mul(rt, t), V::poly(t, kSinS), s_small));
    const D s = V::add(rh, s_lo);
    // cos r
    const D h = V::sub(one, ht);
    const D w = V::fmadd(rh, rl, hl);  // rh rl + (rh^2 - t)/2
    const D c_lo = V::fmadd(V::mul(t, t), V::poly(t, kCosC), V::sub(V::sub(V::sub(one, h), ht), w));
    const D c = V::add(h, c_lo);
    // Bit 0 of n (+ 1 for cos) chooses cos r, bit 1 negates.
    typename V::I ni = V::quadrant(q.n);
    if constexpr (kCos) ni = V::plus_one(ni);
    return V::xor_(V::blend(V::bit0_set(ni), s, c), V::bit1_as_sign(ni));
  }
  static double scalar(double x) { return kCos ? std::cos(x) : std::sin(x); }
};

// ---- tan -----------------------------------------------------------------------------------
// x = n pi/4 + rh + rl (reduce_quadrant), |rh| <= pi/8 a little more; tan r = r + r^3 T(r^2),
// T fitted (as kAsinP, on [0, (pi/8)^2]) to 2^-54 of itself (latency_bound_poly); then by n mod
// 4, tan x = N / D with (N, D) = (t, 1), (1 + t, 1 - t), (-1, t), (t - 1, 1 + t): the pairs for
// n mod 4 = 2, 3 are those of 0, 1 swapped, negated at the end. One hardware division q =
// N_hi / D_hi (its latency is that of the reciprocal estimate and one Newton step on AVX-512,
// and the chain is what costs), corrected by the exact residual (the correction is 2^-53 of q,
// so a 14-bit reciprocal leaves 2^-67 of it), rounded once.
template <class V>
struct Tan {
  using D = typename V::D;
  using Table = NoTable;
  DLA_TRIG_INLINE static typename V::M fast(D x) { return in_reduction_range<V, true>(x); }
  DLA_TRIG_INLINE static D compute(D x, const NoTable&) {
    using namespace trig_f64;
    const Quadrant<V> q = reduce_quadrant<V, 1>(x, kInvPio4);
    const D rh = q.rh, one = V::set(1.0);
    // tan r = rh + (rl + rh t T(t)), t = rh^2; renormalized, as D must be for the correction.
    const D t = V::mul(rh, rh);
    const D tr_lo0 = V::fmadd(V::mul(rh, t), V::latency_bound_poly(t, kTanT), q.rl);
    const D tr_hi = V::add(rh, tr_lo0);
    const D tr_lo = V::add(V::sub(rh, tr_hi), tr_lo0);
    // (N, D) = (o + tr, 1 - o tr) with o = n mod 2 in {0, 1}: (tr, 1) or (1 + tr, 1 - tr), as
    // fast two-sums (|tr_hi| < 0.42; o tr_hi is exact), formed without a blend: for o = 0 they
    // reduce to (tr_hi, tr_lo) and (1, 0) exactly.
    const typename V::I ni = V::quadrant(q.n);
    const D o = V::bit0_as_double(ni);
    const D a_hi = V::add(o, tr_hi);
    const D a_lo = V::add(V::add(V::sub(o, a_hi), tr_hi), tr_lo);
    const D b_hi = V::fnmadd(o, tr_hi, one);
    const D b_lo = V::fnmadd(o, tr_lo, V::fnmadd(o, tr_hi, V::sub(one, b_hi)));
    const typename V::M swap = V::bit1_set(ni);
    const D n_hi = V::blend(swap, a_hi, b_hi), n_lo = V::blend(swap, a_lo, b_lo);
    const D d_hi = V::blend(swap, b_hi, a_hi), d_lo = V::blend(swap, b_lo, a_lo);
    const D quotient = V::div(n_hi, d_hi);
    const D rem = V::add(V::fnmadd(quotient, d_hi, n_hi), V::fnmadd(quotient, d_lo, n_lo));
    const D y = V::corrected(quotient, rem, d_hi);
    // n mod 4 in {2, 3}: the negated quotient (0 - y: y is never 0 there, so no sign of zero
    // is lost).
    return V::blend(swap, y, V::sub(V::zero(), y));
  }
  static double scalar(double x) { return std::tan(x); }
};

// ---- asin, acos ----------------------------------------------------------------------------
// As fdlibm splits them: for a = |x| <= 1/2, asin a = a + a t P(t), t = a^2; above,
// asin a = pi/2 - 2 asin(s), s = sqrt(z), z = (1 - a)/2 (exact), asin s = s + s z P(z), s
// corrected by its exact residual. P fitted (least squares on 300 Chebyshev nodes of [0, 1/4],
// 200-bit mpmath, relative weight) to 2^-52.8 of itself; the P terms are below 0.05 of a
// result, so they add under 2^-57 to its error. acos x = pi/2 - asin x, 2 asin s (x > 1/2),
// pi - 2 asin s (x < -1/2).
// Every case is C + V + L: a constant C (0, +-pi/2 or pi, its low part C_hi pi_lo/pi_hi to
// 2^-106), the leading term V (+-x, or +-R, R = 2s = s + s, with the result's sign) and
// L = V w P(w) (+ 2 s_lo V/R where big), w = t or z: C + V by one fast two-sum (|C| > |V|,
// or C = 0), then rounded once. The signs and constants come from bit operations on x's sign
// bit (AVX-512: ternary logic), with no blend of separate forms. 2 s_lo = (z - s^2) 2 / V
// (signed): the residual is exact, and a 14-bit reciprocal leaves 2^-67 of the result.
template <class V, bool kAcos>
struct ArcSine {
  using D = typename V::D;
  using Table = NoTable;
  // |x| < 1: at +-1 (s = 0) and NaN, libm.
  DLA_TRIG_INLINE static typename V::M fast(D x) { return V::lt(V::abs(x), V::set(1.0)); }
  DLA_TRIG_INLINE static D compute(D x, const NoTable&) {
    using namespace trig_f64;
    const D sm = V::set(-0.0), a = V::abs(x);
    const typename V::M big = V::gt(a, V::set(0.5));
    const D w = V::blend(big, V::mul(x, x), V::fnmadd(a, V::set(0.5), V::set(0.5)));
    const D p = V::poly(w, kAsinP);
    const D root = V::sqrt(w);
    const D r2 = V::add(root, root);
    // V: asin x where small, -copysign(R, x) where big; acos -x, copysign(R, x).
    const D a_v = kAcos ? V::xor_(x, sm) : x;
    const D v = V::blend_with_opposite_sign(big, a_v, r2);
    // C: asin -0 (so that -0 + V = V, signs included) or copysign(pi/2, x); acos pi/2, or
    // pi/2 -+ pi/2 where big (0 or pi, exact).
    const D pio2 = V::set(kPio2Hi);
    const D c_hi = kAcos ? V::sub(pio2, V::with_sign_of_or_zero(big, pio2, x)) : V::with_sign_of_or_minus_zero(big, pio2, x);
    const D res = V::fnmadd(root, root, w);  // exact
    const D l = V::fmadd(V::mul(v, w), p, V::zero_unless(big, V::correction(V::add(res, res), v)));
    const D h = V::add(c_hi, v);
    const D err = V::add(V::sub(c_hi, h), v);
    const D y = V::add(h, V::fmadd(c_hi, V::set(kPio2Lo / kPio2Hi), V::add(err, l)));
    if constexpr (kAcos) return y;
    else return V::with_sign_of(y, x);  // asin(-0) = -0
  }
  static double scalar(double x) { return kAcos ? std::acos(x) : std::asin(x); }
};

// ---- atan ----------------------------------------------------------------------------------
// atan a (a = |x|) = atan(n / d) with (n, d) = (a, 1) for a <= 1 and (1, a) above (there
// atan a = pi/2 - atan(1/a)); c = j/16 near n/d (j = floor(16 a), or floor(16 b), b an
// estimate of 1/a, where inverted: a 14-bit estimate is enough to pick c, and z only grows a
// little past 1/16), atan(n/d) = atan(c) + atan(z), z = (n - c d) / (d + c n). n - c d is exact
// (a - c by Sterbenz; 1 - c a a multiple of ulp(a)/16 below a/16: 53 bits), d + c n = D + D_lo
// exactly (fma, then the fma of the rounding error, d - D exact by Sterbenz), z = N/D by one
// hardware division corrected by the exact residual. atan(z) = z + z^3 Q(z^2), Q of five terms
// fitted on |z| <= 0.0627 (2^-60.5 of atan z), by Horner (the loop is bound by its number of
// operations: Estrin's extra products cost more than its shorter chain saves). The table holds
// atan(c) and, for the inverted side, pi/2 - atan(c), as pairs; one fast two-sum (the table
// entry is larger than |z|, or 0 with z = a) and the sign. c comes from 2^52 + floor(16 b) (its
// low bits index the table), and on the inverted side it is negated (n = -1) so that z itself
// carries the minus of pi/2 - atan(c) - atan(z).
template <class V>
struct Atan {
  using D = typename V::D;
  using Table = typename V::AtanTable;
  DLA_TRIG_INLINE static typename V::M fast(D x) { return V::finite_nonzero(x); }
  DLA_TRIG_INLINE static D compute(D x, const Table& T) {
    using namespace trig_f64;
    const D a = V::abs(x), one = V::set(1.0);
    const typename V::M inverted = V::gt(a, one);
    const D b = V::blend(inverted, a, V::reciprocal_estimate(a));  // ~ n / d
    // 2^52 + min(floor(16 b), 15): its low bits are j; c = j/16 from it exactly.
    const D shifted = V::min(V::shifted_floor16(b), V::set(0x1p52 + 15));
    const typename V::I j = V::atan_index(shifted, inverted);
    // Inverted: (n, d) = (-1, a) with c negated, so that z = (c a - 1) / (a + c) comes out
    // negated, as pi/2 - atan(c) - atan(z) adds it.
    const D c = V::negate_where(inverted, V::fmsub(shifted, V::set(1.0 / 16), V::set(0x1p48)));
    const D n = V::blend(inverted, a, V::set(-1.0)), d = V::blend(inverted, one, a);
    const D num = V::fnmadd(c, d, n);
    const D den = V::fmadd(c, n, d);
    const D den_lo = V::fmadd(c, n, V::sub(d, den));
    const D z = V::div(num, den);
    const D z_lo = V::correction(V::fnmadd(z, den_lo, V::fnmadd(z, den, num)), den);
    const D t = V::mul(z, z);
    const D tail = V::fmadd(V::mul(z, t), V::poly(t, kAtanQ), z_lo);
    const Pair<V> e = V::atan_or_inverted_entry(T, j, inverted);
    const D h = V::add(e.hi, z);
    const D y = V::add(h, V::add(V::add(V::sub(e.hi, h), z), V::add(e.lo, tail)));
    return V::with_sign_of(y, x);  // y >= 0 takes x's sign
  }
  static double scalar(double x) { return std::atan(x); }
};

// ---- atan2 ---------------------------------------------------------------------------------
// atan2(y, x) = sign(y) (K + s atan(n / d)) with n = min(|y|, |x|), d = max(|y|, |x|):
// K = 0, s = +1 for |y| <= |x|, x > 0; K = pi/2, s = -1 for |y| > |x|, x > 0; K = pi, s = -1
// for |y| <= |x|, x < 0; K = pi/2, s = +1 for |y| > |x|, x < 0. atan(n/d) = atan(c) + atan(z)
// as in atan above, c = j/16 near n/d (j from an estimate of n/d), z = (n - c d) / (d + c n);
// here n - c d needs its exact value: c d = P + P_lo exactly (fma), n - P as a two-sum, so
// the numerator is a pair too (for q near 1/16 its rounding alone would be half an ulp of the
// result). atan(c) + atan(z) = U + U_lo as a pair (c's table entry is larger than |z|), then
// K + s U by a fast two-sum (K, where nonzero, is above pi/4 >= U), rounded once. Lanes with a
// zero, infinite or NaN argument, or a magnitude outside [2^-500, 2^500] (where z could
// underflow or d + c n overflow), are libm's.

// The reduction: swapped where |y| > |x|, negative_x where x < 0; c = j/16 near n/d (j =
// min(floor(16 q), 15), q ~ n/d, in the low bits of j).
template <class V>
struct Atan2Reduction {
  typename V::M swapped, negative_x;
  typename V::D n, d, c;
  typename V::I j;
};
template <class V>
DLA_TRIG_INLINE Atan2Reduction<V> atan2_reduce(typename V::D y, typename V::D x) {
  const typename V::D ay = V::abs(y), ax = V::abs(x);
  Atan2Reduction<V> r;
  r.swapped = V::gt(ay, ax);
  r.negative_x = V::lt(x, V::zero());
  r.n = V::min(ay, ax);
  r.d = V::max(ay, ax);
  const typename V::D shifted = V::min(V::shifted_floor16(V::ratio_estimate(r.n, r.d)), V::set(0x1p52 + 15));
  r.j = V::index16(shifted);
  r.c = V::fmsub(shifted, V::set(1.0 / 16), V::set(0x1p48));
  return r;
}
// s = -1 where exactly one of swapped, negative_x holds; K = pi/2 where swapped, else pi where
// x < 0, else 0: the mask that negates, and the masks of K = pi/2 and K = pi.
template <class V>
DLA_TRIG_INLINE typename V::M atan2_minus(const Atan2Reduction<V>& r) { return V::mask_xor(r.swapped, r.negative_x); }
template <class V>
DLA_TRIG_INLINE typename V::M atan2_half_pi(const Atan2Reduction<V>& r) { return r.swapped; }
template <class V>
DLA_TRIG_INLINE typename V::M atan2_pi(const Atan2Reduction<V>& r) { return V::mask_andnot(r.swapped, r.negative_x); }

template <class V>
struct Atan2 {
  using D = typename V::D;
  using Table = typename V::AtanTable;
  DLA_TRIG_INLINE static typename V::M fast(D y, D x) {
    const D lo = V::set(0x1p-500), hi = V::set(0x1p500);
    const D ay = V::abs(y), ax = V::abs(x);
    return V::mask_and(V::mask_and(V::ge(ay, lo), V::le(ay, hi)), V::mask_and(V::ge(ax, lo), V::le(ax, hi)));
  }
  DLA_TRIG_INLINE static D compute(D y, D x, const Table& T) {
    using namespace trig_f64;
    const Atan2Reduction<V> red = atan2_reduce<V>(y, x);
    const D n = red.n, d = red.d, c = red.c;
    // n - c d = num + num_lo: c d = p + p_lo exactly, n - p as a two-sum.
    const D p = V::mul(c, d), p_lo = V::fmsub(c, d, p);
    const D num = V::sub(n, p);
    const D back = V::sub(num, n);
    const D num_err = V::sub(V::sub(n, V::sub(num, back)), V::add(p, back));
    const D num_lo = V::sub(num_err, p_lo);
    // d + c n = den + den_lo (d - den exact by Sterbenz: den is between d and 2d).
    const D den = V::fmadd(c, n, d);
    const D den_lo = V::fmadd(c, n, V::sub(d, den));
    const D z = V::div(num, den);
    const D z_lo = V::correction(V::add(V::fnmadd(z, den_lo, V::fnmadd(z, den, num)), num_lo), den);
    const D t = V::mul(z, z);
    const D tail = V::fmadd(V::mul(z, t), V::poly(t, kAtanQ), z_lo);
    const Pair<V> e = V::atan_entry(T, red.j);
    // U = atan(c) + atan(z) as u + u_lo (a fast two-sum: c_hi = 0 or c_hi > |z|).
    const D u = V::add(e.hi, z);
    const D u_lo = V::add(V::add(V::sub(e.hi, u), z), V::add(e.lo, tail));
    // K + s U by a fast two-sum.
    const typename V::M minus = atan2_minus(red), half_pi = atan2_half_pi(red), pi = atan2_pi(red);
    const D su = V::negate_where(minus, u), su_lo = V::negate_where(minus, u_lo);
    const D k_hi = V::blend(pi, V::zero_unless(half_pi, V::set(kPio2Hi)), V::set(kPiHi));
    const D k_lo = V::blend(pi, V::zero_unless(half_pi, V::set(kPio2Lo)), V::set(kPiLo));
    const D r = V::add(k_hi, su);
    const D r_lo = V::add(V::add(V::sub(k_hi, r), su), V::add(k_lo, su_lo));
    return V::with_sign_of(V::add(r, r_lo), y);  // r >= 0 takes y's sign
  }
  static double scalar(double y, double x) { return std::atan2(y, x); }
};

}  // namespace dla::cpu::trig_kernels
