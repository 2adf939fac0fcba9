// half.h — float16 and bfloat16: which dtypes they are, and their bit conversions to and
// from float32 (round to nearest even, NaN kept quiet).
//
// Beyond the array API standard, both compute: every elementwise operation and the
// statistical reductions load them as float32, compute in float32 and round once on the
// way back (elementwise.cpp plans it, the device executor converts blocks; reduction.cpp
// accumulates in float32). The conversions are DLA_HOST_DEVICE so that a GPU kernel can
// load and store them the same way.
#pragma once
#include <cstdint>
#include <cstring>

#include "core/dtype.h"
#include "core/host_device.h"

namespace dla {

enum class Half : uint8_t { None, Float16, BFloat16 };

inline Half half_of(const DType& d) {
  if (d.dl.lanes != 1 || d.dl.bits != 16) return Half::None;
  if (d.dl.code == kDLFloat) return Half::Float16;
  if (d.dl.code == kDLBfloat) return Half::BFloat16;
  return Half::None;
}
inline DType half_dtype(Half h) {
  return DType(DLDataType{uint8_t(h == Half::BFloat16 ? kDLBfloat : kDLFloat), 16, 1});
}
inline const char* half_name(Half h) { return h == Half::BFloat16 ? "bfloat16" : "float16"; }

DLA_HOST_DEVICE inline float bits_to_float(uint32_t u) {
  float f;
  __builtin_memcpy(&f, &u, 4);  // device-callable under nvcc and hipcc, unlike std::memcpy
  return f;
}
DLA_HOST_DEVICE inline uint32_t float_to_bits(float f) {
  uint32_t u;
  __builtin_memcpy(&u, &f, 4);
  return u;
}

DLA_HOST_DEVICE inline float bfloat16_to_float(uint16_t h) { return bits_to_float(uint32_t(h) << 16); }

DLA_HOST_DEVICE inline uint16_t float_to_bfloat16(float f) {
  uint32_t u = float_to_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x40);  // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);                                         // nearest even
  return uint16_t(u >> 16);
}

DLA_HOST_DEVICE inline float float16_to_float(uint16_t h) {
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

DLA_HOST_DEVICE inline uint16_t float_to_float16(float f) {
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

DLA_HOST_DEVICE inline float half_to_float(Half h, uint16_t bits) {
  return h == Half::BFloat16 ? bfloat16_to_float(bits) : float16_to_float(bits);
}
DLA_HOST_DEVICE inline uint16_t float_to_half(Half h, float f) {
  return h == Half::BFloat16 ? float_to_bfloat16(f) : float_to_float16(f);
}
// float64 -> half with one rounding: float64 -> float32 rounded to odd (sticky last bit),
// then float32 -> half to nearest even; float32 carries more than two extra bits, so the
// result is the correctly rounded one (a plain double -> float -> half could round twice).
DLA_HOST_DEVICE inline uint16_t double_to_half(Half h, double d) {
  float f = static_cast<float>(d);
  if (static_cast<double>(f) != d && f == f && (float_to_bits(f) & 1u) == 0 && (float_to_bits(f) & 0x7fffffffu) != 0x7f800000u) {
    const uint32_t u = float_to_bits(f);
    const bool away = (d < 0 ? -d : d) > static_cast<double>(f < 0 ? -f : f);
    f = bits_to_float(away ? u + 1 : u - 1);  // the odd neighbour on d's side (sign-magnitude bits)
  }
  return float_to_half(h, f);
}

// A float32 value rounded to the half type and back (a Python scalar meeting a half array
// takes the array's dtype first, as it would with float32).
DLA_HOST_DEVICE inline float round_through_half(Half h, float f) { return half_to_float(h, float_to_half(h, f)); }

// nextafter in the half type's own spacing, for half values held as float32 (the float32
// function would step by a float32 ulp, which rounds back to where it started).
DLA_HOST_DEVICE inline float half_nextafter(Half h, float a, float b) {
  if (a != a || b != b) return a + b;
  if (a == b) return b;
  if (a == 0.0f) return half_to_float(h, uint16_t(b < 0 ? 0x8001u : 0x0001u));
  const uint16_t u = float_to_half(h, a);
  const bool away_from_zero = (b > a) == (a > 0.0f);
  return half_to_float(h, uint16_t(away_from_zero ? u + 1 : u - 1));
}

}  // namespace dla
