// order_keys.h — every sortable dtype as an unsigned integer key with the same order.
//
// Sorting, searching and unique compare keys instead of values: one unsigned comparison (or
// one radix digit) per step, and the library's order (search_sort.h) falls out of the
// transform. The real dtypes' transform is core/order_key.h, shared with the GPU kernels
// (floats flip their sign bit, negative numbers every bit, -0 is first made +0 so the two
// compare equal, and every NaN becomes the all-ones key, after +inf). Complex numbers put the
// real part's key above the imaginary part's. Descending order is the bitwise NOT of the key,
// which reverses the order of distinct values and keeps equal ones equal, so a stable sort of
// ~key is a stable descending sort with NaNs first.
//
// Also the batched binary search used by searchsorted and isin.
#pragma once
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/order_key.h"

namespace dla::cpu {

template <class T>
struct OrderKey;

// bool and unsigned integers: the value itself.
template <class T>
struct UnsignedOrderKey {
  using K = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
  static constexpr bool kHasNan = false;
  static K of(T v) { return order_key(v); }
  static T value(K k) { return order_key_value<T>(k); }
  static bool exact(T) { return true; }  // value(of(v)) has v's bits
  static bool is_nan(K) { return false; }
};
template <> struct OrderKey<bool> : UnsignedOrderKey<bool> {};
template <> struct OrderKey<uint8_t> : UnsignedOrderKey<uint8_t> {};
template <> struct OrderKey<uint16_t> : UnsignedOrderKey<uint16_t> {};
template <> struct OrderKey<uint32_t> : UnsignedOrderKey<uint32_t> {};
template <> struct OrderKey<uint64_t> : UnsignedOrderKey<uint64_t> {};

// Signed integers: flipping the sign bit maps two's complement order onto unsigned order.
template <class T>
struct SignedOrderKey {
  using K = std::make_unsigned_t<T>;
  static constexpr bool kHasNan = false;
  static K of(T v) { return order_key(v); }
  static T value(K k) { return order_key_value<T>(k); }
  static bool exact(T) { return true; }
  static bool is_nan(K) { return false; }
};
template <> struct OrderKey<int8_t> : SignedOrderKey<int8_t> {};
template <> struct OrderKey<int16_t> : SignedOrderKey<int16_t> {};
template <> struct OrderKey<int32_t> : SignedOrderKey<int32_t> {};
template <> struct OrderKey<int64_t> : SignedOrderKey<int64_t> {};

template <class T, class KBits>
struct FloatOrderKey {
  using K = KBits;
  static constexpr K kNanKey = ~K(0);
  static constexpr bool kHasNan = true;
  static K bits(T v) {
    K b;
    std::memcpy(&b, &v, sizeof b);
    return b;
  }
  static K of(T v) { return order_key(v); }
  static T value(K k) { return order_key_value<T>(k); }
  // False for -0 and for NaNs other than the quiet NaN value() gives back: rows holding such
  // elements are sorted with their indices so the exact elements can be moved.
  // (Branch-free, so that the loops checking whole rows vectorize.)
  static bool exact(T v) {
    const K b = bits(v);
    const bool negative_zero = b == K(K(1) << (8 * sizeof(K) - 1));
    constexpr K kInf = sizeof(T) == 4 ? K(0x7f800000u) : K(0x7ff0000000000000ull);
    const bool other_nan = (K(b & ~K(K(1) << (8 * sizeof(K) - 1))) > kInf) & (b != bits(std::numeric_limits<T>::quiet_NaN()));
    return !(negative_zero | other_nan);
  }
  static bool is_nan(K k) { return k == kNanKey; }
};
template <> struct OrderKey<float> : FloatOrderKey<float, uint32_t> {};
template <> struct OrderKey<double> : FloatOrderKey<double, uint64_t> {};

template <class R, class KBits, class H>
struct ComplexOrderKey {
  using K = KBits;
  using P = OrderKey<R>;
  static constexpr int kHalf = 8 * sizeof(H);
  static constexpr bool kHasNan = true;
  static K of(std::complex<R> v) { return (K(P::of(v.real())) << kHalf) | K(P::of(v.imag())); }
  static std::complex<R> value(K k) { return {P::value(H(k >> kHalf)), P::value(H(k))}; }
  static bool exact(std::complex<R> v) { return P::exact(v.real()) && P::exact(v.imag()); }
  // A complex number with a NaN part equals nothing (not even itself).
  static bool is_nan(K k) { return P::is_nan(H(k >> kHalf)) || P::is_nan(H(k)); }
};
template <> struct OrderKey<std::complex<float>> : ComplexOrderKey<float, uint64_t, uint32_t> {};
template <> struct OrderKey<std::complex<double>> : ComplexOrderKey<double, unsigned __int128, uint64_t> {};

// For each of the m query keys q[j], the number of keys[0..n) below q[j] (Right: at most
// q[j]); keys ascending. Branch-free halving, sixteen queries in lockstep: the trip count
// depends only on n, so the sixteen independent loads of a step overlap in memory instead
// of each search waiting out its own cache misses. Each step adds `half` masked by the
// comparison (arithmetic, not a conditional the compiler could turn into a branch: on random
// queries that branch mispredicts every other step, which cost 4 ns a step).
template <class K, bool Right>
void lower_bounds(const K* keys, int64_t n, const K* q, int64_t m, int64_t* out) {
  constexpr int B = 16;
  auto below = [](K a, K b) { return Right ? !(b < a) : a < b; };  // a goes before a query b
  auto mask = [](bool c) { return -static_cast<int64_t>(c); };    // all ones when c
  int64_t j = 0;
  for (; j + B <= m; j += B) {
    int64_t base[B] = {};
    int64_t len = n;
    while (len > 1) {
      const int64_t half = len / 2;
      for (int t = 0; t < B; ++t) base[t] += half & mask(below(keys[base[t] + half - 1], q[j + t]));
      len -= half;
    }
    for (int t = 0; t < B; ++t) out[j + t] = base[t] + (n > 0 && below(keys[base[t]], q[j + t]) ? 1 : 0);
  }
  for (; j < m; ++j) {
    int64_t base = 0;
    int64_t len = n;
    while (len > 1) {
      const int64_t half = len / 2;
      base += half & mask(below(keys[base + half - 1], q[j]));
      len -= half;
    }
    out[j] = base + (n > 0 && below(keys[base], q[j]) ? 1 : 0);
  }
}

}  // namespace dla::cpu
