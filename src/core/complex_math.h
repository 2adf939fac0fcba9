// complex_math.h — complex functions the C++ library lacks, with the array API special cases.
//
// The elementary functions come in two implementations behind one set of names, c99::exp,
// c99::log, ... (and c99::abs): for std::complex (the CPU) the C library's C99 Annex G
// functions (cexp, clog, ...), which already follow the standard's special cases, and for
// dcomplex (the GPU kernels, device_complex.h) device-callable ones that give the same
// results. What is missing from both (expm1, log1p, log2, log10 done right, sign, pow with
// integer exponents, and tanh/tan where the standard's zero signs differ from C99's) is here,
// written once for either complex type C; each uses an accurate formula for finite arguments
// near the cancellation region and the Annex G function elsewhere, so the special cases are
// inherited rather than re-listed.
#pragma once
#include <cmath>
#include <complex>
#include <type_traits>

#include "core/device_complex.h"
#include "core/host_device.h"

// libstdc++ computes these through the C99 functions; libc++ (the CPU wheel's compiler,
// scripts/zig-c++) has formulas of its own (asinh loses 5 digits of float32 for negative real
// parts), so there the C library's functions are called by name.
#if defined(_LIBCPP_VERSION) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define DLA_C99_COMPLEX_CALLS(X) \
  X(acos) X(acosh) X(asin) X(asinh) X(atan) X(atanh) X(cos) X(cosh) X(exp) X(log) X(sin) X(sinh) X(sqrt) X(tanh)
#define DLA_C99_DECLARE(fn) float _Complex c##fn##f(float _Complex); double _Complex c##fn(double _Complex);
extern "C" {
DLA_C99_COMPLEX_CALLS(DLA_C99_DECLARE)
}
#undef DLA_C99_DECLARE
#endif

namespace dla {
namespace elem {

namespace c99 {
#if defined(DLA_C99_COMPLEX_CALLS)
template <class R>
using c_complex = std::conditional_t<std::is_same_v<R, float>, float _Complex, double _Complex>;
template <class R>
inline c_complex<R> to_c(std::complex<R> z) {
  c_complex<R> c;
  __real__ c = z.real();
  __imag__ c = z.imag();
  return c;
}
#define DLA_C99_DEFINE(fn)                                                                       \
  inline std::complex<float> fn(std::complex<float> z) {                                         \
    const float _Complex r = ::c##fn##f(to_c(z));                                                \
    return {__real__ r, __imag__ r};                                                             \
  }                                                                                              \
  inline std::complex<double> fn(std::complex<double> z) {                                       \
    const double _Complex r = ::c##fn(to_c(z));                                                  \
    return {__real__ r, __imag__ r};                                                             \
  }
DLA_C99_COMPLEX_CALLS(DLA_C99_DEFINE)
#undef DLA_C99_DEFINE
#else
#define DLA_C99_DEFINE(fn) using std::fn;
DLA_C99_DEFINE(acos) DLA_C99_DEFINE(acosh) DLA_C99_DEFINE(asin) DLA_C99_DEFINE(asinh) DLA_C99_DEFINE(atan)
DLA_C99_DEFINE(atanh) DLA_C99_DEFINE(cos) DLA_C99_DEFINE(cosh) DLA_C99_DEFINE(exp) DLA_C99_DEFINE(log)
DLA_C99_DEFINE(sin) DLA_C99_DEFINE(sinh) DLA_C99_DEFINE(sqrt) DLA_C99_DEFINE(tanh)
#undef DLA_C99_DEFINE
#endif
using std::abs;  // hypot
// The device implementations, for dcomplex.
using cx::abs;
using cx::acos;
using cx::acosh;
using cx::asin;
using cx::asinh;
using cx::atan;
using cx::atanh;
using cx::cos;
using cx::cosh;
using cx::exp;
using cx::log;
using cx::sin;
using cx::sinh;
using cx::sqrt;
using cx::tanh;
}  // namespace c99

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<std::complex<T>> : std::true_type {};
template <class T>
struct is_complex<dcomplex<T>> : std::true_type {};
template <class T>
constexpr bool is_complex_v = is_complex<T>::value;

// exp(z) - 1: expm1(a) cos(b) - 2 sin^2(b/2) + i e^a sin(b) avoids the cancellation where
// e^a cos(b) is close to 1 (near 0, and near the zeros of cos(b) - 1 / e^a for any b).
template <class C, class R = typename C::value_type>
DLA_HOST_DEVICE C complex_expm1(C z) {
  const R a = z.real(), b = z.imag();
  if (std::fabs(a) < R(1) && std::isfinite(b)) {
    if (b == 0) return {std::expm1(a) + R(0), b};  // + 0: exp(-0 + 0j) - 1 is +0 + 0j
    const R s = std::sin(b / 2);
    return {std::expm1(a) * std::cos(b) - 2 * s * s, std::exp(a) * std::sin(b)};
  }
  const C e = c99::exp(z);
  return {e.real() - R(1), e.imag()};
}

// log(1 + z): log|1+z| = log1p(2a + a^2 + b^2) / 2 keeps the digits for small |z|.
template <class C, class R = typename C::value_type>
DLA_HOST_DEVICE C complex_log1p(C z) {
  const R a = z.real(), b = z.imag();
  if (std::fabs(a) < R(0.5) && std::fabs(b) < R(0.5))
    return {R(0.5) * std::log1p(a * (R(2) + a) + b * b), std::atan2(b, R(1) + a)};
  return c99::log(C(R(1) + a, b));
}

// Scaling the components of log(z) (not a complex division) keeps log's special cases.
template <class C, class R = typename C::value_type>
DLA_HOST_DEVICE C complex_log2(C z) {
  const C l = c99::log(z);
  constexpr R inv_ln2 = R(1.44269504088896340735992468100189214);
  return {l.real() * inv_ln2, l.imag() * inv_ln2};
}
template <class C, class R = typename C::value_type>
DLA_HOST_DEVICE C complex_log10(C z) {
  const C l = c99::log(z);
  constexpr R inv_ln10 = R(0.434294481903251827651128918916605082);
  return {l.real() * inv_ln10, l.imag() * inv_ln10};
}

// z / |z|; 0 for 0, NaN + NaN j when a component is NaN; with an infinite component, the
// component-wise quotients by |z| = inf (finite / inf = 0, inf / inf = NaN).
template <class C, class R = typename C::value_type>
DLA_HOST_DEVICE C complex_sign(C z) {
  const R a = z.real(), b = z.imag();
  if (std::isnan(a) || std::isnan(b)) {
    const R n = cx::nan<R>();
    return {n, n};
  }
  if (a == 0 && b == 0) return {R(0), R(0)};
  if (std::isinf(a) || std::isinf(b)) {  // |z| is infinite: finite / inf == 0, inf / inf is NaN
    if (std::isinf(a) && std::isinf(b)) {
      const R n = cx::nan<R>();
      return {n, n};
    }
    return {std::isinf(a) ? std::copysign(R(1), a) : std::copysign(R(0), a),
            std::isinf(b) ? std::copysign(R(1), b) : std::copysign(R(0), b)};
  }
  const R m = c99::abs(z);
  return {a / m, b / m};
}

// tanh with the standard's +-1 + 0j for an infinite real part and a finite imaginary one
// (C99's ctanh gives the zero the sign of sin(2b), which the standard does not ask for:
// it wants the sign of b, as tanh(conj z) == conj(tanh z) implies).
template <class C, class R = typename C::value_type>
DLA_HOST_DEVICE C complex_tanh(C z) {
  const R a = z.real(), b = z.imag();
  if (std::isinf(a) && std::isfinite(b)) return {std::copysign(R(1), a), std::copysign(R(0), b)};
  return c99::tanh(z);
}

// tan(z) = -i tanh(iz), the standard's definition of its special cases.
template <class C>
DLA_HOST_DEVICE C complex_tan(C z) {
  const C t = complex_tanh(C(-z.imag(), z.real()));
  return {t.imag(), -t.real()};
}

// x ** y as exp(y log x) (the standard's definition), except small integer exponents,
// which multiply exactly as NumPy does ((1+1j)**2 == 2j).
template <class C, class R = typename C::value_type>
DLA_HOST_DEVICE C complex_pow(C x, C y) {
  const R n = y.real();
  const bool zero_base = x.real() == 0 && x.imag() == 0;
  if (y.imag() == 0 && n == std::trunc(n) && std::fabs(n) <= 64 && std::isfinite(x.real()) &&
      std::isfinite(x.imag()) && !(zero_base && n < 0)) {
    if (n == 0) return {R(1), R(0)};
    long k = long(std::fabs(n));
    C result(R(1), R(0)), base = x;
    while (k) {
      if (k & 1) result *= base;
      base *= base;
      k >>= 1;
    }
    return n < 0 ? R(1) / result : result;
  }
  return c99::exp(y * c99::log(x));
}

}  // namespace elem
}  // namespace dla
