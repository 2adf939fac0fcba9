// order_key.h — the order-preserving key of one real value: the transform every sort shares.
//
// The library's order (search_sort.h) as an unsigned integer of the value's width: an
// unsigned comparison (or a radix digit) of keys is a comparison of values. bool and unsigned
// integers are their own key; signed integers flip the sign bit; floats flip the sign bit of
// positive numbers and every bit of negative ones, after -0 has been made +0 (so the two are
// equal, and a stable sort keeps them in order), and every NaN, whatever its sign and
// payload, becomes the all-ones key, after +inf, so all NaNs sort together. Descending order
// is the bitwise NOT of the key: distinct values reverse, equal ones stay equal, so a stable
// sort of ~key is a stable descending sort with the NaNs first.
//
// DLA_HOST_DEVICE: the CPU's sorts (backends/cpu/order_keys.h) and the GPU's key kernel
// (backends/gpu/gpu_elementwise_kernels.h, compiled by nvcc, hipcc and for the fake backend)
// call these same functions, so a GPU key cannot drift from the CPU's.
#pragma once
#include <cstdint>
#include <type_traits>

#include "core/host_device.h"

namespace dla {

// The key type of T: the unsigned integer of T's width (bool: uint8_t).
template <class T>
struct OrderKeyBits {
  using type = std::conditional_t<
      sizeof(T) == 1, uint8_t,
      std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
};
template <class T>
using order_key_t = typename OrderKeyBits<T>::type;

template <class T>
DLA_HOST_DEVICE inline order_key_t<T> order_key(T v) {
  using K = order_key_t<T>;
  constexpr K kSign = K(K(1) << (8 * sizeof(T) - 1));
  if constexpr (std::is_floating_point_v<T>) {
    // On the bits alone (integer selects, which CPU loops vectorize): NaN -> all ones,
    // +-0 -> the key of +0, negative numbers -> every bit flipped, others -> sign bit set.
    K b;
    __builtin_memcpy(&b, &v, sizeof b);  // device-callable under nvcc and hipcc, unlike std::memcpy
    constexpr K kInf = sizeof(T) == 4 ? K(0x7f800000u) : K(0x7ff0000000000000ull);
    const K magnitude = K(b & ~kSign);
    const K negative = K(K(0) - K(b >> (8 * sizeof(T) - 1)));  // all ones for a set sign bit
    const K key = magnitude == 0 ? kSign : K(b ^ (negative | kSign));
    return magnitude > kInf ? K(~K(0)) : key;
  } else if constexpr (std::is_signed_v<T>) {
    return K(K(v) ^ kSign);
  } else {
    return K(v);
  }
}

// The value of a key (the inverse of order_key on everything but -0 and NaN payloads: -0
// comes back as +0, every NaN as the positive quiet NaN).
template <class T>
DLA_HOST_DEVICE inline T order_key_value(order_key_t<T> k) {
  using K = order_key_t<T>;
  constexpr K kSign = K(K(1) << (8 * sizeof(T) - 1));
  if constexpr (std::is_floating_point_v<T>) {
    // The quiet NaN's bits (sign clear, exponent all ones, top mantissa bit) without <limits>,
    // which device code cannot call everywhere.
    constexpr K kQuietNan = K(~K(0) >> 1) & ~K(~K(0) >> (sizeof(T) == 4 ? 10 : 13));
    const K b = k == K(~K(0)) ? kQuietNan : (k & kSign) ? K(k & ~kSign) : K(~k);
    T v;
    __builtin_memcpy(&v, &b, sizeof v);
    return v;
  } else if constexpr (std::is_signed_v<T>) {
    return T(K(k ^ kSign));
  } else {
    return T(k);
  }
}

}  // namespace dla
