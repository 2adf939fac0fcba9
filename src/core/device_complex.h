// device_complex.h — a complex type and complex functions that device code can call.
//
// The GPU element bodies (backends/gpu/gpu_elementwise_kernels.h, compiled by nvcc, hipcc and
// the host compiler for the fake backend) compute complex64 and complex128 with dcomplex<R>,
// which has std::complex<R>'s layout (two R, real first) but calls neither std::complex nor
// the C library's complex functions (device code can call neither). The CPU keeps
// std::complex and glibc; these functions give the same results:
//  - the special cases of C99 Annex G (the array API standard's lists), as glibc returns
//    them, including the signs the standard leaves unspecified where glibc fixes one;
//  - for finite arguments, results within a few ulp of glibc's, by the usual careful
//    algorithms: a scaled hypot for |z|, Kahan's square root with scaling, log through log1p of
//    x^2 + y^2 - 1 (computed exactly enough) near |z| = 1, exp/sinh/cosh/tanh with the
//    overflow handling of splitting exp(x) into exp(t) factors, and the inverse functions by
//    Hull, Fairgrieve and Tang's algorithm (as in FreeBSD's catrig.c);
//  - multiplication and division as GCC's __mulXc3/__divXc3 compute them (which is what
//    std::complex<R>'s operators call): the textbook product and a scaled Smith quotient
//    (complex64 in double precision), each followed by C99's recovery of infinities that
//    came out as NaN + NaN i. Their products are never contracted into fused multiply-adds,
//    so the GPU's results are the CPU's bit for bit.
// The composite functions (expm1, log1p, log2, log10, sign, pow, tan, and the standard's tanh)
// are written once in complex_math.h for both types, on top of these.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/host_device.h"

namespace dla {

template <class R>
struct dcomplex {
  using value_type = R;
  R re, im;
  dcomplex() = default;
  DLA_HOST_DEVICE constexpr dcomplex(R r, R i = R(0)) : re(r), im(i) {}
  DLA_HOST_DEVICE constexpr R real() const { return re; }
  DLA_HOST_DEVICE constexpr R imag() const { return im; }
  DLA_HOST_DEVICE inline dcomplex& operator*=(const dcomplex& o);
};
static_assert(sizeof(dcomplex<float>) == 8 && sizeof(dcomplex<double>) == 16, "std::complex's layout");
static_assert(std::is_trivially_copyable_v<dcomplex<double>>, "moved as raw bits");

namespace cx {

template <class R>
struct limits;
template <>
struct limits<float> {
  static constexpr float eps = 0x1p-23f, min = 0x1p-126f, max = 0x1.fffffep+127f;
  static constexpr int digits = 24;
  // glibc's split points: (int)((FLT_MAX_EXP - 1) ln 2), where exp is still finite, and its half
  static constexpr float exp_split = 88.0f, tanh_split = 44.0f;
  // catrig.c's constants (Hull et al.'s crossovers; bounds of the safe squaring range)
  static constexpr float four_sqrt_min = 0x1p-61f, quarter_sqrt_max = 0x1p61f, sqrt_min = 0x1p-63f;
  static constexpr float sqrt_3_eps = 5.9801995673e-4f, sqrt_6_eps = 8.4572793338e-4f;
};
template <>
struct limits<double> {
  static constexpr double eps = 0x1p-52, min = 0x1p-1022, max = 0x1.fffffffffffffp+1023;
  static constexpr int digits = 53;
  static constexpr double exp_split = 709.0, tanh_split = 354.0;
  static constexpr double four_sqrt_min = 0x1p-509, quarter_sqrt_max = 0x1p509, sqrt_min = 0x1p-511;
  static constexpr double sqrt_3_eps = 2.5809568279517849e-8, sqrt_6_eps = 3.6500241499888571e-8;
};

template <class R>
DLA_HOST_DEVICE inline R inf() {
  return R(__builtin_huge_val());
}
template <class R>
DLA_HOST_DEVICE inline R nan() {
  return R(__builtin_nan(""));
}
template <class R>
DLA_HOST_DEVICE inline R pi_2() {
  return R(1.57079632679489661923132169163975144);
}
template <class R>
DLA_HOST_DEVICE inline R ln2() {
  return R(0.693147180559945309417232121458176568);
}

// a * b, never fused with a neighbouring addition (so products match the CPU's exactly).
template <class R>
DLA_HOST_DEVICE inline R prod(R a, R b) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<R, float>) return __fmul_rn(a, b);
  else return __dmul_rn(a, b);
#else
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
  return a * b;
#endif
}

// sqrt(x^2 + y^2) without overflow or underflow in the squares (the vendors' hypot may
// overflow near the largest double): float through double, where the squares are exact and
// cannot overflow; double with both parts scaled by the power of two that brings the larger
// to [1, 2) and a correction step. Agrees with glibc's but for rare last-bit differences.
template <class R>
DLA_HOST_DEVICE inline R hypot(R x, R y) {
  R ax = std::fabs(x), ay = std::fabs(y);
  if (std::isinf(ax) || std::isinf(ay)) return inf<R>();  // even with a NaN
  if (std::isnan(ax) || std::isnan(ay)) return ax + ay;
  if constexpr (std::is_same_v<R, float>) {
    const double dx = ax, dy = ay;
    return float(std::sqrt(dx * dx + dy * dy));
  } else {
    if (ax < ay) {
      const R t = ax;
      ax = ay;
      ay = t;
    }
    if (ay == 0) return ax;
    const int e = std::ilogb(ax);
    if (e - std::ilogb(ay) > limits<R>::digits + 1) return ax;  // ay^2 below half an ulp of ax^2
    const R sx = std::scalbn(ax, -e), sy = std::scalbn(ay, -e);
    // h, then one Newton step on the exact residual sx^2 + sy^2 - h^2 (products split by fma;
    // sx^2 - h^2 and the sums cancel exactly), which makes it all but correctly rounded.
    const R h = std::sqrt(std::fma(sx, sx, sy * sy));
    const R hh = h * h, hl = std::fma(h, h, -hh), xx = sx * sx, xl = std::fma(sx, sx, -xx), yy = sy * sy,
            yl = std::fma(sy, sy, -yy);
    const R r = ((xx - hh) + yy) + ((xl + yl) - hl);
    return std::scalbn(h + r / (2 * h), e);
  }
}

// sin and cos of y; glibc takes (y, 1) for |y| below the smallest normal.
template <class R>
DLA_HOST_DEVICE inline void sin_cos(R y, R& s, R& c) {
  if (std::fabs(y) > limits<R>::min) {
    s = std::sin(y);
    c = std::cos(y);
  } else {
    s = y;
    c = R(1);
  }
}

// ---- arithmetic ------------------------------------------------------------------------

// C99's recovery of an infinite product that the formula gave as NaN + NaN i.
template <class R>
DLA_HOST_DEVICE inline dcomplex<R> mul(R a, R b, R c, R d) {
#if defined(__clang__) && !defined(__CUDA_ARCH__)
#pragma clang fp contract(off)
#endif
  const R ac = prod(a, c), bd = prod(b, d), ad = prod(a, d), bc = prod(b, c);
  R x = ac - bd, y = ad + bc;
  if (std::isnan(x) && std::isnan(y)) {
    bool recalc = false;
    if (std::isinf(a) || std::isinf(b)) {  // an infinite factor: box it, NaNs of the other -> 0
      a = std::copysign(std::isinf(a) ? R(1) : R(0), a);
      b = std::copysign(std::isinf(b) ? R(1) : R(0), b);
      if (std::isnan(c)) c = std::copysign(R(0), c);
      if (std::isnan(d)) d = std::copysign(R(0), d);
      recalc = true;
    }
    if (std::isinf(c) || std::isinf(d)) {
      c = std::copysign(std::isinf(c) ? R(1) : R(0), c);
      d = std::copysign(std::isinf(d) ? R(1) : R(0), d);
      if (std::isnan(a)) a = std::copysign(R(0), a);
      if (std::isnan(b)) b = std::copysign(R(0), b);
      recalc = true;
    }
    if (!recalc && (std::isinf(ac) || std::isinf(bd) || std::isinf(ad) || std::isinf(bc))) {
      if (std::isnan(a)) a = std::copysign(R(0), a);  // overflow in a partial product
      if (std::isnan(b)) b = std::copysign(R(0), b);
      if (std::isnan(c)) c = std::copysign(R(0), c);
      if (std::isnan(d)) d = std::copysign(R(0), d);
      recalc = true;
    }
    if (recalc) {
      x = inf<R>() * (prod(a, c) - prod(b, d));
      y = inf<R>() * (prod(a, d) + prod(b, c));
    }
  }
  return {x, y};
}

// C99's recovery of a quotient that Smith's formula gave as NaN + NaN i (W: the working type).
template <class W>
DLA_HOST_DEVICE inline void div_recover(W a, W b, W c, W d, W& x, W& y) {
  if (!(std::isnan(x) && std::isnan(y))) return;
  if (c == 0 && d == 0 && (!std::isnan(a) || !std::isnan(b))) {
    x = std::copysign(inf<W>(), c) * a;
    y = std::copysign(inf<W>(), c) * b;
  } else if ((std::isinf(a) || std::isinf(b)) && std::isfinite(c) && std::isfinite(d)) {
    a = std::copysign(std::isinf(a) ? W(1) : W(0), a);
    b = std::copysign(std::isinf(b) ? W(1) : W(0), b);
    x = inf<W>() * (prod(a, c) + prod(b, d));
    y = inf<W>() * (prod(b, c) - prod(a, d));
  } else if ((std::isinf(c) || std::isinf(d)) && std::isfinite(a) && std::isfinite(b)) {
    c = std::copysign(std::isinf(c) ? W(1) : W(0), c);
    d = std::copysign(std::isinf(d) ? W(1) : W(0), d);
    x = W(0) * (prod(a, c) + prod(b, d));
    y = W(0) * (prod(b, c) - prod(a, d));
  }
}

// (a + bi) / (c + di) as GCC's __divsc3 / __divdc3. complex64 in double precision by the
// textbook formula: products of floats are exact in double and their squares neither
// overflow nor underflow, so one rounding per sum is all the error (the recovery of
// infinities then works in float). complex128 by Smith's
// method (the larger of |c|, |d| divides first), scaling operands whose quotient would
// overflow or lose digits to underflow (halved near the largest double, multiplied by 1/eps
// when the divisor or a dividend part is tiny).
template <class R>
DLA_HOST_DEVICE inline dcomplex<R> div(R a_, R b_, R c_, R d_) {
#if defined(__clang__) && !defined(__CUDA_ARCH__)
#pragma clang fp contract(off)
#endif
  if constexpr (std::is_same_v<R, float>) {
    const double a = a_, b = b_, c = c_, d = d_, denom = prod(c, c) + prod(d, d);
    float x = float((prod(a, c) + prod(b, d)) / denom), y = float((prod(b, c) - prod(a, d)) / denom);
    div_recover(a_, b_, c_, d_, x, y);  // in float, as GCC's
    return {x, y};
  } else {
    R a = a_, b = b_, x, y;
    const bool d_larger = std::fabs(c_) < std::fabs(d_);
    // p, q: the larger and smaller divisor parts; the formulas below are the method's two
    // branches written with them.
    R p = d_larger ? d_ : c_, q = d_larger ? c_ : d_;
    constexpr R big = limits<R>::max / 2, rmin = limits<R>::min, rmin2 = limits<R>::eps;
    constexpr R rminscal = R(1) / limits<R>::eps, rmax2 = big * rmin2;
    if (std::fabs(p) >= big) {
      a /= 2, b /= 2, p /= 2, q /= 2;
    }
    if (std::fabs(p) < rmin2 || (std::fabs(a) < rmin && std::fabs(b) < rmax2 && std::fabs(p) < rmax2) ||
        (std::fabs(b) < rmin && std::fabs(a) < rmax2 && std::fabs(p) < rmax2)) {
      a *= rminscal, b *= rminscal, p *= rminscal, q *= rminscal;
    }
    const R ratio = q / p, denom = prod(q, ratio) + p;
    if (std::fabs(ratio) > rmin) {
      if (d_larger) {
        x = (prod(a, ratio) + b) / denom;
        y = (prod(b, ratio) - a) / denom;
      } else {
        x = (prod(b, ratio) + a) / denom;
        y = (b - prod(a, ratio)) / denom;
      }
    } else {  // a subnormal ratio: divide the dividend first
      if (d_larger) {
        x = (prod(q, a / p) + b) / denom;
        y = (prod(q, b / p) - a) / denom;
      } else {
        x = (a + prod(q, b / p)) / denom;
        y = (b - prod(q, a / p)) / denom;
      }
    }
    // The recovery sees the scaled operands, as GCC's does.
    div_recover(a, b, d_larger ? q : p, d_larger ? p : q, x, y);
    return {x, y};
  }
}

}  // namespace cx

template <class R>
DLA_HOST_DEVICE inline dcomplex<R> operator+(dcomplex<R> a, dcomplex<R> b) {
  return {a.re + b.re, a.im + b.im};
}
template <class R>
DLA_HOST_DEVICE inline dcomplex<R> operator-(dcomplex<R> a, dcomplex<R> b) {
  return {a.re - b.re, a.im - b.im};
}
template <class R>
DLA_HOST_DEVICE inline dcomplex<R> operator-(dcomplex<R> a) {
  return {-a.re, -a.im};
}
template <class R>
DLA_HOST_DEVICE inline dcomplex<R> operator*(dcomplex<R> a, dcomplex<R> b) {
  return cx::mul(a.re, a.im, b.re, b.im);
}
template <class R>
DLA_HOST_DEVICE inline dcomplex<R> operator/(dcomplex<R> a, dcomplex<R> b) {
  return cx::div(a.re, a.im, b.re, b.im);
}
// r / z as std::complex computes it: (r + 0i) / z.
template <class R>
DLA_HOST_DEVICE inline dcomplex<R> operator/(R r, dcomplex<R> b) {
  return cx::div(r, R(0), b.re, b.im);
}
template <class R>
DLA_HOST_DEVICE inline bool operator==(dcomplex<R> a, dcomplex<R> b) {
  return a.re == b.re && a.im == b.im;
}
template <class R>
DLA_HOST_DEVICE inline bool operator!=(dcomplex<R> a, dcomplex<R> b) {
  return !(a == b);
}
template <class R>
DLA_HOST_DEVICE inline dcomplex<R>& dcomplex<R>::operator*=(const dcomplex<R>& o) {
  return *this = *this * o;
}

namespace cx {

// ---- absolute value, square root, exponential, logarithm --------------------------------

template <class R>
DLA_HOST_DEVICE inline R abs(dcomplex<R> z) {
  return hypot(z.re, z.im);  // inf wins over NaN
}

// Kahan's: sqrt((|x| + |z|) / 2) for the larger part, y / 2 that for the other (no
// cancellation), with scaling by 4 near overflow and by 2^(2k) for subnormal parts.
template <class R>
DLA_HOST_DEVICE dcomplex<R> sqrt(dcomplex<R> z) {
  R x = z.re, y = z.im;
  if (std::isinf(y)) return {inf<R>(), y};
  if (std::isinf(x)) {
    if (x < 0) return {std::isnan(y) ? nan<R>() : R(0), std::copysign(inf<R>(), y)};
    return {x, std::isnan(y) ? nan<R>() : std::copysign(R(0), y)};
  }
  if (std::isnan(x) || std::isnan(y)) return {nan<R>(), nan<R>()};
  if (y == 0) {
    if (x < 0) return {R(0), std::copysign(std::sqrt(-x), y)};
    return {std::fabs(std::sqrt(x)), std::copysign(R(0), y)};
  }
  if (x == 0) {
    const R ay = std::fabs(y);
    const R r = ay >= 2 * limits<R>::min ? std::sqrt(R(0.5) * ay) : R(0.5) * std::sqrt(2 * ay);
    return {r, std::copysign(r, y)};
  }
  int scale = 0;
  if (std::fabs(x) > limits<R>::max / 4) {
    scale = 1;
    x = std::scalbn(x, -2);
    y = std::scalbn(y, -2);
  } else if (std::fabs(y) > limits<R>::max / 4) {
    scale = 1;
    x = std::fabs(x) >= 4 * limits<R>::min ? std::scalbn(x, -2) : R(0);
    y = std::scalbn(y, -2);
  } else if (std::fabs(x) < 2 * limits<R>::min && std::fabs(y) < 2 * limits<R>::min) {
    scale = -((limits<R>::digits + 1) / 2);
    x = std::scalbn(x, -2 * scale);
    y = std::scalbn(y, -2 * scale);
  }
  const R d = hypot(x, y);
  R r, s;
  if (x > 0) {
    r = std::sqrt(R(0.5) * (d + x));
    if (scale == 1 && std::fabs(y) < 1) {  // y / r could underflow before the scaling back
      s = y / r;
      r = std::scalbn(r, scale);
      scale = 0;
    } else {
      s = R(0.5) * (y / r);
    }
  } else {
    s = std::sqrt(R(0.5) * (d - x));
    if (scale == 1 && std::fabs(y) < 1) {
      r = std::fabs(y / s);
      s = std::scalbn(s, scale);
      scale = 0;
    } else {
      r = std::fabs(R(0.5) * (y / s));
    }
  }
  if (scale) {
    r = std::scalbn(r, scale);
    s = std::scalbn(s, scale);
  }
  return {r, std::copysign(s, y)};
}

// scale e^x (c + i s) for x > exp_split, where e^x overflows but the product need not: e^x
// applied as factors e^t (t = exp_split; beyond 3t the result overflows anyway). scale is 1
// (exp) or 1/2 (sinh and cosh), folded into the first factor exactly.
template <class R>
DLA_HOST_DEVICE inline dcomplex<R> exp_beyond_split(R x, R c, R s, R scale) {
  constexpr R t = limits<R>::exp_split;
  const R et = std::exp(t);
  x -= t;
  s *= et * scale;
  c *= et * scale;
  if (x > t) {
    x -= t;
    s *= et;
    c *= et;
  }
  if (x > t) return {limits<R>::max * c, limits<R>::max * s};
  const R ev = std::exp(x);
  return {ev * c, ev * s};
}

// e^x (cos y + i sin y); for x beyond exp's range e^x is applied in factors e^t so that a
// finite result (e^x times a small cos or sin) is not lost to an infinite intermediate.
template <class R>
DLA_HOST_DEVICE dcomplex<R> exp(dcomplex<R> z) {
  const R x = z.re, y = z.im;
  if (std::isfinite(x)) {
    if (!std::isfinite(y)) return {nan<R>(), nan<R>()};
    R s, c;
    sin_cos(y, s, c);
    if (x > limits<R>::exp_split) return exp_beyond_split(x, c, s, R(1));
    const R ex = std::exp(x);
    return {ex * c, ex * s};
  }
  if (std::isinf(x)) {
    if (std::isfinite(y)) {
      const R v = std::signbit(x) ? R(0) : inf<R>();
      if (y == 0) return {v, y};
      R s, c;
      sin_cos(y, s, c);
      return {std::copysign(v, c), std::copysign(v, s)};
    }
    if (!std::signbit(x)) return {inf<R>(), y - y};
    return {R(0), std::copysign(R(0), y)};
  }
  return {nan<R>(), y == 0 ? y : nan<R>()};
}

// x^2 + y^2 - 1 for 0.5 <= y <= x < 1 without the cancellation: float exactly in double,
// double with the exact products' low parts (fma) and two-sums.
DLA_HOST_DEVICE inline float x2y2m1(float x, float y) {
  const double dx = x, dy = y;
  return float((dx - 1) * (dx + 1) + dy * dy);
}
DLA_HOST_DEVICE inline double two_sum(double a, double b, double& err) {
  const double s = a + b, bb = s - a;
  err = (a - (s - bb)) + (b - bb);
  return s;
}
DLA_HOST_DEVICE inline double x2y2m1(double x, double y) {
  const double hx = x * x, lx = std::fma(x, x, -hx), hy = y * y, ly = std::fma(y, y, -hy);
  double e1, e2;
  const double s1 = two_sum(hx, -1.0, e1);
  const double s2 = two_sum(s1, hy, e2);
  return s2 + (((e1 + e2) + lx) + ly);
}

// log|z| + i arg z; log|z| through log1p(|z|^2 - 1) / 2 near the unit circle.
template <class R>
DLA_HOST_DEVICE dcomplex<R> log(dcomplex<R> z) {
  const R x = z.re, y = z.im;
  if (x == 0 && y == 0) return {-R(1) / std::fabs(x), std::copysign(std::signbit(x) ? R(2) * pi_2<R>() : R(0), y)};
  if (std::isnan(x) || std::isnan(y)) return {(std::isinf(x) || std::isinf(y)) ? inf<R>() : nan<R>(), nan<R>()};
  R ax = std::fabs(x), ay = std::fabs(y);
  if (ax < ay) {
    const R t = ax;
    ax = ay;
    ay = t;
  }
  int scale = 0;
  if (ax > limits<R>::max / 2) {
    scale = -1;
    ax = std::scalbn(ax, scale);
    ay = ay >= limits<R>::min * 2 ? std::scalbn(ay, scale) : R(0);
  } else if (ax < limits<R>::min && ay < limits<R>::min) {
    scale = limits<R>::digits;
    ax = std::scalbn(ax, scale);
    ay = std::scalbn(ay, scale);
  }
  R re;
  if (ax == 1 && scale == 0) {
    re = std::log1p(ay * ay) / 2;
  } else if (ax > 1 && ax < 2 && ay < 1 && scale == 0) {
    R d2m1 = (ax - 1) * (ax + 1);
    if (ay >= limits<R>::eps) d2m1 += ay * ay;
    re = std::log1p(d2m1) / 2;
  } else if (ax < 1 && ax >= R(0.5) && ay < limits<R>::eps / 2 && scale == 0) {
    re = std::log1p((ax - 1) * (ax + 1)) / 2;
  } else if (ax < 1 && ax >= R(0.5) && scale == 0 && ax * ax + ay * ay >= R(0.5)) {
    re = std::log1p(x2y2m1(ax, ay)) / 2;
  } else {
    re = std::log(hypot(ax, ay)) - R(scale) * ln2<R>();
  }
  return {re, std::atan2(y, x)};
}

// ---- hyperbolic and trigonometric functions ----------------------------------------------

// sinh(x) cos(y) + i cosh(x) sin(y) (odd: computed for |x|, the sign put back).
template <class R>
DLA_HOST_DEVICE dcomplex<R> sinh(dcomplex<R> z) {
  const bool negate = std::signbit(z.re);
  const R x = std::fabs(z.re), y = z.im;
  if (std::isfinite(x)) {
    if (std::isfinite(y)) {
      R s, c;
      sin_cos(y, s, c);
      if (negate) c = -c;
      if (x > limits<R>::exp_split) return exp_beyond_split(x, c, s, R(0.5));  // sinh x = cosh x = e^x / 2
      return {std::sinh(x) * c, std::cosh(x) * s};
    }
    if (x == 0) return {negate ? -R(0) : R(0), y - y};
    return {nan<R>(), nan<R>()};
  }
  if (std::isinf(x)) {
    if (std::isfinite(y) && y != 0) {
      R s, c;
      sin_cos(y, s, c);
      const R re = std::copysign(inf<R>(), c);
      return {negate ? -re : re, std::copysign(inf<R>(), s)};
    }
    if (y == 0) return {negate ? -inf<R>() : inf<R>(), y};
    return {inf<R>(), y - y};
  }
  return {nan<R>(), y == 0 ? y : nan<R>()};
}

// cosh(x) cos(y) + i sinh(x) sin(y).
template <class R>
DLA_HOST_DEVICE dcomplex<R> cosh(dcomplex<R> z) {
  const R x = z.re, y = z.im;
  if (std::isfinite(x)) {
    if (std::isfinite(y)) {
      R s, c;
      sin_cos(y, s, c);
      if (std::fabs(x) > limits<R>::exp_split)
        return exp_beyond_split(std::fabs(x), c, std::signbit(x) ? -s : s, R(0.5));
      return {std::cosh(x) * c, std::sinh(x) * s};
    }
    return {y - y, x == 0 ? R(0) : nan<R>()};
  }
  if (std::isinf(x)) {
    if (std::isfinite(y) && y != 0) {
      R s, c;
      sin_cos(y, s, c);
      return {std::copysign(inf<R>(), c), std::copysign(inf<R>(), s) * std::copysign(R(1), x)};
    }
    if (y == 0) return {inf<R>(), y * std::copysign(R(1), x)};
    return {inf<R>(), y - y};
  }
  return {nan<R>(), y == 0 ? y : nan<R>()};
}

// (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y); for large |x| the imaginary part
// 4 sin y cos y / e^(2|x|) is divided in steps so that it may underflow gracefully. (C99's
// zero signs for an infinite x; complex_math.h's complex_tanh gives the standard's.)
template <class R>
DLA_HOST_DEVICE dcomplex<R> tanh(dcomplex<R> z) {
  const R x = z.re, y = z.im;
  if (!std::isfinite(x) || !std::isfinite(y)) {
    if (std::isinf(x)) {
      if (std::isfinite(y) && std::fabs(y) > 1) {
        R s, c;
        sin_cos(y, s, c);
        return {std::copysign(R(1), x), std::copysign(R(0), s * c)};
      }
      return {std::copysign(R(1), x), std::copysign(R(0), y)};
    }
    if (y == 0) return z;
    return {x == 0 ? x : nan<R>(), nan<R>()};
  }
  R s, c;
  sin_cos(y, s, c);
  constexpr R t = limits<R>::tanh_split;
  if (std::fabs(x) > t) {
    const R e2t = std::exp(2 * t);
    R im = 4 * s * c;
    const R rx = std::fabs(x) - t;
    im /= e2t;
    im /= rx > t ? e2t : std::exp(2 * rx);
    return {std::copysign(R(1), x), im};
  }
  R sh, ch;
  if (std::fabs(x) > limits<R>::min) {
    sh = std::sinh(x);
    ch = std::cosh(x);
  } else {
    sh = x;
    ch = R(1);
  }
  const R den = std::fabs(sh) > std::fabs(c) * limits<R>::eps ? sh * sh + c * c : c * c;
  return {sh * ch / den, s * c / den};
}

// cos z = cosh(iz), sin z = -i sinh(iz).
template <class R>
DLA_HOST_DEVICE dcomplex<R> cos(dcomplex<R> z) {
  return cosh(dcomplex<R>(-z.im, z.re));
}
template <class R>
DLA_HOST_DEVICE dcomplex<R> sin(dcomplex<R> z) {
  if (!std::isfinite(z.re) && std::isinf(z.im)) return {z.re - z.re, inf<R>()};  // (glibc's sign)
  const dcomplex<R> w = sinh(dcomplex<R>(-z.im, z.re));
  return {w.im, -w.re};
}

// ---- inverse functions (Hull, Fairgrieve and Tang; FreeBSD's catrig.c) ----------------

// log(z) for |z| beyond 1/eps or tiny parts, without overflow in |z|^2.
template <class R>
DLA_HOST_DEVICE dcomplex<R> log_for_large_values(R x, R y) {
  R ax = std::fabs(x), ay = std::fabs(y);
  if (ax < ay) {
    const R t = ax;
    ax = ay;
    ay = t;
  }
  constexpr R e = R(2.71828182845904523536028747135266250);
  if (ax > limits<R>::max / 2) return {std::log(hypot(x / e, y / e)) + 1, std::atan2(y, x)};
  if (ax > limits<R>::quarter_sqrt_max || ay < limits<R>::sqrt_min) return {std::log(hypot(x, y)), std::atan2(y, x)};
  return {std::log(ax * ax + ay * ay) / 2, std::atan2(y, x)};
}

// (hypot(a, b) - b) / 2, given h = hypot(a, b), without cancellation.
template <class R>
DLA_HOST_DEVICE inline R half_hypot_minus(R a, R b, R h) {
  if (b < 0) return (h - b) / 2;
  if (b == 0) return a / 2;
  return a * a / (h + b) / 2;
}

// The real part rx = log(A + sqrt(A^2 - 1)) of asinh for x, y >= 0 (A = (|z+i| + |z-i|) / 2)
// and what the imaginary part asin(y / A) needs when y / A is too close to 1 for asin.
template <class R>
struct AsinhParts {
  R rx;
  bool b_usable;
  R b;            // y / A
  R sqrt_a2my2;   // sqrt(A^2 - y^2), with new_y for atan2(new_y, sqrt_a2my2)
  R new_y;
};

template <class R>
DLA_HOST_DEVICE AsinhParts<R> asinh_hard_work(R x, R y) {
  constexpr R eps = limits<R>::eps;
  constexpr R a_crossover = 10, b_crossover = R(0.6417);
  AsinhParts<R> p;
  const R rr = hypot(x, y + 1), ss = hypot(x, y - 1);
  R a = (rr + ss) / 2;
  if (a < 1) a = 1;
  if (a < a_crossover) {
    if (y == 1 && x < eps * eps / 128) {
      p.rx = std::sqrt(x);
    } else if (x >= eps * std::fabs(y - 1)) {
      const R am1 = half_hypot_minus(x, 1 + y, rr) + half_hypot_minus(x, 1 - y, ss);
      p.rx = std::log1p(am1 + std::sqrt(am1 * (a + 1)));
    } else if (y < 1) {
      p.rx = x / std::sqrt((1 - y) * (1 + y));
    } else {
      p.rx = std::log1p((y - 1) + std::sqrt((y - 1) * (y + 1)));
    }
  } else {
    p.rx = std::log(a + std::sqrt(a * a - 1));
  }
  p.new_y = y;
  if (y < limits<R>::four_sqrt_min) {  // y / A could underflow: atan2 on scaled values
    p.b_usable = false;
    p.sqrt_a2my2 = a * (2 / eps);
    p.new_y = y * (2 / eps);
    return p;
  }
  p.b = y / a;
  p.b_usable = true;
  if (p.b > b_crossover) {
    p.b_usable = false;
    if (y == 1 && x < eps / 128) {
      p.sqrt_a2my2 = std::sqrt(x) * std::sqrt((a + y) / 2);
    } else if (x >= eps * std::fabs(y - 1)) {
      const R amy = half_hypot_minus(x, y + 1, rr) + half_hypot_minus(x, y - 1, ss);
      p.sqrt_a2my2 = std::sqrt(amy * (a + y));
    } else if (y > 1) {
      p.sqrt_a2my2 = x * (4 / eps / eps) * y / std::sqrt((y + 1) * (y - 1));
      p.new_y = y * (4 / eps / eps);
    } else {
      p.sqrt_a2my2 = std::sqrt((1 - y) * (1 + y));
    }
  }
  return p;
}

template <class R>
DLA_HOST_DEVICE dcomplex<R> asinh(dcomplex<R> z) {
  const R x = z.re, y = z.im, ax = std::fabs(x), ay = std::fabs(y);
  if (std::isnan(x) || std::isnan(y)) {
    if (std::isinf(x)) return {x, y + y};
    if (std::isinf(y)) return {std::copysign(inf<R>(), x), x + x};  // (glibc's sign)
    if (y == 0) return {x + x, y};
    return {nan<R>(), nan<R>()};
  }
  if (ax > 1 / limits<R>::eps || ay > 1 / limits<R>::eps) {
    const dcomplex<R> w = std::signbit(x) ? log_for_large_values(-x, -y) : log_for_large_values(x, y);
    return {std::copysign(w.re + ln2<R>(), x), std::copysign(w.im, y)};
  }
  if (x == 0 && y == 0) return z;
  if (ax < limits<R>::sqrt_6_eps / 4 && ay < limits<R>::sqrt_6_eps / 4) return z;
  const AsinhParts<R> p = asinh_hard_work(ax, ay);
  const R ry = p.b_usable ? std::asin(p.b) : std::atan2(p.new_y, p.sqrt_a2my2);
  return {std::copysign(p.rx, x), std::copysign(ry, y)};
}

// asin z = -i asinh(iz).
template <class R>
DLA_HOST_DEVICE dcomplex<R> asin(dcomplex<R> z) {
  const dcomplex<R> w = asinh(dcomplex<R>(z.im, z.re));
  return {w.im, w.re};
}

template <class R>
DLA_HOST_DEVICE dcomplex<R> acos(dcomplex<R> z) {
  const R x = z.re, y = z.im, ax = std::fabs(x), ay = std::fabs(y);
  const bool sx = std::signbit(x), sy = std::signbit(y);
  if (std::isnan(x) || std::isnan(y)) {
    if (std::isinf(x)) return {y + y, -inf<R>()};
    if (std::isinf(y)) return {x + x, -y};
    if (x == 0) return {pi_2<R>(), y + y};
    return {nan<R>(), nan<R>()};
  }
  if (ax > 1 / limits<R>::eps || ay > 1 / limits<R>::eps) {
    const dcomplex<R> w = log_for_large_values(x, y);
    const R rx = std::fabs(w.im), ry = w.re + ln2<R>();
    return {rx, sy ? ry : -ry};
  }
  if (x == 1 && y == 0) return {R(0), -y};
  if (ax < limits<R>::sqrt_6_eps / 4 && ay < limits<R>::sqrt_6_eps / 4) return {pi_2<R>() - x, -y};
  const AsinhParts<R> p = asinh_hard_work(ay, ax);
  R rx;
  if (p.b_usable) rx = std::acos(sx ? -p.b : p.b);
  else rx = std::atan2(p.sqrt_a2my2, sx ? -p.new_y : p.new_y);
  return {rx, sy ? p.rx : -p.rx};
}

template <class R>
DLA_HOST_DEVICE dcomplex<R> acosh(dcomplex<R> z) {
  const dcomplex<R> w = acos(z);
  const R rx = w.re, ry = w.im;
  if (std::isnan(rx) && std::isnan(ry)) return {ry, rx};
  if (std::isnan(rx)) return {std::fabs(ry), rx};
  if (std::isnan(ry)) return {ry, rx};  // acosh(+-0 + NaN i) = NaN + pi/2 i (glibc)
  return {std::fabs(ry), std::copysign(rx, z.im)};
}

// Re(1 / (x + iy)) without overflow or needless underflow (C99's example G.5.1 2).
template <class R>
DLA_HOST_DEVICE inline R real_part_reciprocal(R x, R y) {
  if (std::isinf(x) || y == 0) return 1 / x;  // (x != 0 here)
  if (std::isinf(y)) return x / y / y;
  const int ix = std::ilogb(x), iy = std::ilogb(y);
  constexpr int cutoff = limits<R>::digits / 2 + 1;
  if (ix - iy >= cutoff) return 1 / x;
  if (iy - ix >= cutoff) return x / y / y;
  if (ix <= (limits<R>::digits == 24 ? 128 : 1024) / 2 - cutoff) return x / (x * x + y * y);
  const R scale = std::scalbn(R(1), 1 - ix);
  x *= scale;
  y *= scale;
  return x / (x * x + y * y) * scale;
}

template <class R>
DLA_HOST_DEVICE dcomplex<R> atanh(dcomplex<R> z) {
  const R x = z.re, y = z.im, ax = std::fabs(x), ay = std::fabs(y);
  constexpr R eps = limits<R>::eps;
  if (y == 0 && ax <= 1) return {std::atanh(x), y};
  if (x == 0) return {x, std::atan(y)};
  if (std::isnan(x) || std::isnan(y)) {
    if (std::isinf(x)) return {std::copysign(R(0), x), y + y};
    if (std::isinf(y)) return {std::copysign(R(0), x), std::copysign(pi_2<R>(), y)};
    return {nan<R>(), nan<R>()};
  }
  if (ax > 1 / eps || ay > 1 / eps) return {real_part_reciprocal(x, y), std::copysign(pi_2<R>(), y)};
  if (ax < limits<R>::sqrt_3_eps / 2 && ay < limits<R>::sqrt_3_eps / 2) return z;
  R rx, ry;
  if (ax == 1 && ay < eps) {
    rx = (ln2<R>() - std::log(ay)) / 2;
  } else {
    const R am1 = ax - 1;
    const R sq = ay < limits<R>::sqrt_min ? am1 * am1 : am1 * am1 + ay * ay;
    rx = std::log1p(4 * ax / sq) / 4;
  }
  if (ax == 1) ry = std::atan2(R(2), -ay) / 2;
  else if (ay < eps) ry = std::atan2(2 * ay, (1 - ax) * (1 + ax)) / 2;
  else ry = std::atan2(2 * ay, (1 - ax) * (1 + ax) - ay * ay) / 2;
  return {std::copysign(rx, x), std::copysign(ry, y)};
}

// atan z = -i atanh(iz).
template <class R>
DLA_HOST_DEVICE dcomplex<R> atan(dcomplex<R> z) {
  const dcomplex<R> w = atanh(dcomplex<R>(z.im, z.re));
  return {w.im, w.re};
}

}  // namespace cx
}  // namespace dla
