// half.h — float16 and bfloat16 bit conversions (round to nearest even, NaN kept quiet).
//
// These two storage dtypes are common enough in exchange that tolist, astype and repr
// decode and encode them; they have no arithmetic kernels.
#pragma once
#include <cstdint>
#include <cstring>

namespace dla {

inline float bits_to_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint32_t float_to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

inline float bfloat16_to_float(uint16_t h) { return bits_to_float(uint32_t(h) << 16); }

inline uint16_t float_to_bfloat16(float f) {
  uint32_t u = float_to_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x40);  // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);                                         // nearest even
  return uint16_t(u >> 16);
}

inline float float16_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t man = h & 0x3ffu;
  if (exp == 0x1f) return bits_to_float(sign | 0x7f800000u | (man << 13));  // inf / nan
  if (exp == 0) {
    if (man == 0) return bits_to_float(sign);
    // subnormal: value = man * 2^-24
    float v = float(man) * 5.9604644775390625e-8f;
    return sign ? -v : v;
  }
  return bits_to_float(sign | ((exp + 112) << 23) | (man << 13));
}

inline uint16_t float_to_float16(float f) {
  uint32_t u = float_to_bits(f);
  uint16_t sign = uint16_t((u >> 16) & 0x8000u);
  uint32_t au = u & 0x7fffffffu;
  if (au > 0x7f800000u) return uint16_t(sign | 0x7e00u);           // nan
  if (au >= 0x477ff000u) return uint16_t(sign | 0x7c00u);          // overflow (rounds to inf)
  if (au < 0x38800000u) {                                          // subnormal or zero in half
    if (au < 0x33000000u) return sign;                              // below half of min subnormal
    uint32_t exp = au >> 23;
    uint32_t man = (au & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126 - exp;                                      // 14..24 (+ 1 for rounding)
    uint32_t half_man = man >> (shift - 1 + 0);
    // round to nearest even on the bits shifted out
    uint32_t rem = man & ((1u << (shift - 1 + 0)) - 1);
    uint32_t result = half_man >> 1;
    uint32_t round_bit = half_man & 1u;
    if (round_bit && (rem || (result & 1u))) ++result;
    return uint16_t(sign | result);
  }
  uint32_t r = au + 0xfffu + ((au >> 13) & 1u);  // nearest even at bit 13
  return uint16_t(sign | ((r - 0x38000000u) >> 13));
}

}  // namespace dla
