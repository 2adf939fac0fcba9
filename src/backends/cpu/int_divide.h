// int_divide.h — the magic multiplier that replaces a division by one integer divisor with a
// multiplication (Granlund and Montgomery, "Division by invariant integers using
// multiplication", 1994), for the floor_divide and remainder rows by a scalar:
// elementwise_loops.h (every ISA, and four 64-bit lanes on AVX2) and
// int_divide_rows_avx512.cpp.
//
// For an N-bit unsigned x and divisor d >= 1, with l = ceil(log2 d) and
// m = floor(2^N (2^l - d) / d) + 1 (it fits in N bits): q = floor(x / d) =
// (t + ((x - t) >> min(l, 1))) >> max(l - 1, 0), t the high N bits of m x. Signed operands
// divide their magnitudes; the rows then give quotient and remainder Python's signs.
#pragma once
#include <cstdint>
#include <type_traits>

namespace dla::cpu {

template <class T>
struct DivisorMagic {
  using U = std::make_unsigned_t<T>;
  U d;         // |divisor|
  U m;         // the multiplier
  U sign;      // all ones for a negative divisor, else 0
  int sh1, sh2;
};

// b != 0.
template <class T>
DivisorMagic<T> divisor_magic(T b) {
  using U = std::make_unsigned_t<T>;
  constexpr int N = int(sizeof(T)) * 8;
  using P = std::conditional_t<(N <= 16), uint32_t, std::conditional_t<(N == 32), uint64_t, unsigned __int128>>;
  const bool negative = std::is_signed_v<T> && b < T(0);
  const U d = negative ? U(U(0) - U(b)) : U(b);
  int l = 0;
  while ((P(1) << l) < P(d)) ++l;
  const U m = U(((P(1) << N) * ((P(1) << l) - P(d))) / P(d) + 1);
  return {d, m, negative ? U(~U(0)) : U(0), l < 1 ? l : 1, l > 1 ? l - 1 : 0};
}

}  // namespace dla::cpu
