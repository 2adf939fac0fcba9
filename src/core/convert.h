// convert.h — one element converted between two computing dtypes, the rule every cast uses
// (the CPU's astype rows in backends/cpu/cast.cpp and the GPU cast kernel alike).
//
// C's conversions, with the cases C++ leaves undefined given values: a floating-point value
// converted to an integer saturates to the integer's range and NaN becomes 0; complex to real
// keeps the real part (the array API's refusal of that cast is enforced by astype).
#pragma once
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/complex_math.h"
#include "core/host_device.h"

namespace dla {

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
    if (std::isnan(v)) return To(0);
    constexpr double lo = double(std::numeric_limits<To>::lowest());
    constexpr double hi = double(std::numeric_limits<To>::max());
    if (double(v) <= lo) return std::numeric_limits<To>::lowest();
    if (double(v) >= hi) return std::numeric_limits<To>::max();
    return To(v);
  } else {
    return To(v);
  }
}

}  // namespace dla
