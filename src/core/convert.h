// convert.h — one element converted between two computing dtypes, the rule every cast uses
// (the CPU's astype rows in backends/cpu/cast.cpp and the GPU cast kernel alike).
//
// C's conversions, with the cases C++ leaves undefined given values: a floating-point value
// converted to an integer saturates to the integer's range and NaN becomes 0; complex to real
// keeps the real part (the array API's refusal of that cast is enforced by astype).
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/complex_math.h"
#include "core/host_device.h"

namespace dla {

// The bounds of a float -> integer conversion's saturation, for convert() and the vector rows
// that do the same in registers (backends/cpu/cast_kernels.cpp, cast_rows_avx512.cpp): clamp
// to [lo, top] in From (both exact there), then convert. lo is 0 or -2^k. ceiling is From(max):
// max itself where To has no more digits than From, else max rounded up to 2^k (not a value of
// To; kCeiling), top is then the largest From below it, and values from ceiling on become max.
template <class To, class From>
struct SaturationBounds {
  static constexpr int kFromDigits = std::numeric_limits<From>::digits;
  static constexpr bool kCeiling = std::numeric_limits<To>::digits > kFromDigits;
  static constexpr From lo = From(std::numeric_limits<To>::lowest());
  static constexpr From ceiling = From(std::numeric_limits<To>::max());
  static constexpr From top = kCeiling ? ceiling - ceiling / From(uint64_t(1) << kFromDigits) : ceiling;
};

template <class To, class From>
DLA_HOST_DEVICE inline To convert(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (elem::is_complex_v<From>) {
    if constexpr (elem::is_complex_v<To>)
      return To(typename To::value_type(v.real()), typename To::value_type(v.imag()));
    else
      return convert<To>(v.real());
  } else if constexpr (elem::is_complex_v<To>) {
    return To(typename To::value_type(v), 0);
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    // Clamped in From, then converted, so that every conversion is in range; written as
    // selects, not early returns, so that the loops stay branch-free and vectorize (with
    // branches float32 -> int32 ran at 8-12x NumPy's time).
    using B = SaturationBounds<To, From>;
    From c = v < B::lo ? B::lo : v;
    c = c > B::top ? B::top : c;
    c = v == v ? c : From(0);  // NaN -> 0
    To r = To(c);
    if constexpr (B::kCeiling) r = v >= B::ceiling ? std::numeric_limits<To>::max() : r;
    return r;
  } else {
    return To(v);
  }
}

}  // namespace dla
