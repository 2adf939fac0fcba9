// philox.h — dlarray.random's numbers, one source for every device: the Philox-4x32-10 bit
// generator and the transforms from its bits to uniform, normal, exponential and integer
// values. Compiled by the host compiler (the CPU kernel, backends/cpu/random_cpu.cpp, and the
// fake GPU), by nvcc and by hipcc (the GPU element job DLA_GPU_OP_RANDOM), and the numbers are
// the same bits on all of them:
// - element i of a draw depends only on (key, stream, first block, i), never on the thread or
//   launch shape: it reads lane i % L of counter block `block + i / L` (L values per block);
// - the floating-point work is IEEE additions, multiplications, divisions and square roots,
//   written through ieee_add/ieee_mul/... so no compiler fuses them into an FMA (on GPUs they are
//   the _rn intrinsics; the host files that include this header are compiled with
//   -ffp-contract=off), and the two elementary functions needed, log and sin/cos of 2*pi*u,
//   are this file's own polynomials rather than each platform's libm.
// Philox is Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as easy as 1, 2, 3" (SC11):
// ten rounds of two 32x32->64-bit multiplications with a Weyl-sequence key schedule.
#pragma once
#include <stdint.h>
#include <string.h>

#include "core/host_device.h"

namespace dla {
namespace philox {

// The kinds of draw (RandomJob::kind, and the flags of the GPU element job).
enum Kind : int32_t {
  kBits = 0,         // uint64 words as they come (L = 2)
  kUniform = 1,      // a + b * u, u in [0, 1) with `bits` random bits (L = 4 for bits <= 32, else 2)
  kNormal = 2,       // a + b * z, z standard normal by Box-Muller (pairs; L = 4 or 2 as uniform)
  kExponential = 3,  // b * e, e standard exponential: -log(u), u in (0, 1] (L as uniform)
  kIntegers = 4,     // low + r mod 2^64, r uniform in [0, range) (range 0: all of 2^64); L = 4 for
                     // range <= 2^32 (32-bit lanes), else 2
};

// One draw: what the kernels need besides the output.
struct RandomJob {
  uint32_t key[2];
  uint32_t stream;  // the counter's fourth word: independent streams under one key
  int32_t kind;
  uint64_t block;   // the counter block of element 0
  int32_t bits;     // kUniform/kNormal/kExponential: random bits per uniform (8..53)
  int32_t reserved;
  double a, b;              // uniform: low and width; normal: loc and scale; exponential: scale in b
  uint64_t low, range;      // integers
};
// The GPU element job carries it in its 64 bytes of scalars (gpu_ops.h: DLA_GPU_OP_RANDOM).
static_assert(sizeof(RandomJob) == 64, "RandomJob must fit the GPU job's scalars");

// Values per counter block for a draw.
DLA_HOST_DEVICE inline int lanes(const RandomJob& j) {
  if (j.kind == kBits) return 2;
  if (j.kind == kIntegers) return j.range != 0 && j.range <= (uint64_t(1) << 32) ? 4 : 2;
  return j.bits <= 32 ? 4 : 2;
}

// ---- the bit generator ----------------------------------------------------------------------

constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;    // round multipliers
constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;  // key schedule increments

struct Block {
  uint32_t w[4];
};

DLA_HOST_DEVICE inline Block philox4x32_10(Block c, uint32_t k0, uint32_t k1) {
  // (A CPU overlaps the multiplication chains of consecutive blocks on its own: computing 8
  // blocks in lockstep measured 3x slower than this plain loop.)
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += kWeyl0;
      k1 += kWeyl1;
    }
    const uint64_t p0 = static_cast<uint64_t>(kMul0) * c.w[0];
    const uint64_t p2 = static_cast<uint64_t>(kMul1) * c.w[2];
    const Block next = {{static_cast<uint32_t>(p2 >> 32) ^ c.w[1] ^ k0, static_cast<uint32_t>(p2),
                         static_cast<uint32_t>(p0 >> 32) ^ c.w[3] ^ k1, static_cast<uint32_t>(p0)}};
    c = next;
  }
  return c;
}

// The counter of block `b` of a job; `attempt` (the third word) numbers the redraws of
// integers' rejection.
DLA_HOST_DEVICE inline Block counter_of(const RandomJob& j, uint64_t b, uint32_t attempt = 0) {
  return Block{{static_cast<uint32_t>(b), static_cast<uint32_t>(b >> 32), attempt, j.stream}};
}
DLA_HOST_DEVICE inline Block block_at(const RandomJob& j, uint64_t b, uint32_t attempt = 0) {
  return philox4x32_10(counter_of(j, b, attempt), j.key[0], j.key[1]);
}

DLA_HOST_DEVICE inline uint64_t word64(const Block& r, int lane) {
  return (static_cast<uint64_t>(r.w[2 * lane + 1]) << 32) | r.w[2 * lane];
}

// ---- IEEE arithmetic that no compiler contracts -----------------------------------------------

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
DLA_HOST_DEVICE inline double ieee_add(double x, double y) { return __dadd_rn(x, y); }
DLA_HOST_DEVICE inline double ieee_mul(double x, double y) { return __dmul_rn(x, y); }
DLA_HOST_DEVICE inline double ieee_div(double x, double y) { return __ddiv_rn(x, y); }
DLA_HOST_DEVICE inline double ieee_sqrt(double x) { return __dsqrt_rn(x); }
#else
DLA_HOST_DEVICE inline double ieee_add(double x, double y) { return x + y; }
DLA_HOST_DEVICE inline double ieee_mul(double x, double y) { return x * y; }
DLA_HOST_DEVICE inline double ieee_div(double x, double y) { return x / y; }
DLA_HOST_DEVICE inline double ieee_sqrt(double x) { return __builtin_sqrt(x); }  // correctly rounded
#endif

DLA_HOST_DEVICE inline uint64_t bits_of(double x) {
  uint64_t u;
  __builtin_memcpy(&u, &x, sizeof u);  // device-callable under nvcc and hipcc, unlike memcpy
  return u;
}
DLA_HOST_DEVICE inline double double_of(uint64_t u) {
  double x;
  __builtin_memcpy(&x, &u, sizeof x);
  return x;
}

// ---- the elementary functions -----------------------------------------------------------------

// An integer w <= 2^53 as a double, exactly (the value static_cast gives), from bit operations
// and IEEE additions that vector units have: x86 has no 64-bit integer conversion below
// AVX-512, so this keeps the CPU's transform loops vectorizable. Each 32-bit half is the low
// mantissa of 2^52 + half, less 2^52.
DLA_HOST_DEVICE inline double exact_double(uint64_t w) {
  constexpr uint64_t kTwo52 = 0x4330000000000000ull;  // the bits of 2^52
  const double hi = ieee_add(double_of(kTwo52 | (w >> 32)), -4503599627370496.0);
  const double lo = ieee_add(double_of(kTwo52 | (w & 0xFFFFFFFFull)), -4503599627370496.0);
  return ieee_add(ieee_mul(hi, 4294967296.0), lo);
}

// log(x) for a positive normal x: x = 2^e * m with m in [sqrt(1/2), sqrt(2)), then
// log(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716, by its series to s^21 (the first
// term left out is below 2^-60 of the sum); e * log(2) in two parts. Within a few ulp. Written
// without branches (the halving of m is integer arithmetic), so that loops over it vectorize.
DLA_HOST_DEVICE inline double log_positive(double x) {
  const uint64_t u = bits_of(x);
  // m = x's mantissa in [1, 2), halved (exponent 1022 instead of 1023, exact) above sqrt(2),
  // whose mantissa bits are compared as integers (the same order as the doubles in [1, 2)).
  const uint64_t mantissa = u & 0x000FFFFFFFFFFFFFull;
  const uint64_t halve = mantissa > 0x6A09E667F3BCDull ? 1 : 0;  // 1.4142135623730951
  const double m = double_of(mantissa | ((0x3FFull - halve) << 52));
  // e = biased exponent - 1023 (+1 when halved), a small integer: exact as a double.
  const double de = ieee_add(exact_double((u >> 52) + halve), -1023.0);
  const double f = ieee_add(m, -1.0);  // exact (Sterbenz)
  const double s = ieee_div(f, ieee_add(f, 2.0));
  const double z = ieee_mul(s, s);
  // 1/(2k+1) for k = 10 .. 1, Horner from the top.
  double p = 1.0 / 21.0;
  p = ieee_add(ieee_mul(p, z), 1.0 / 19.0);
  p = ieee_add(ieee_mul(p, z), 1.0 / 17.0);
  p = ieee_add(ieee_mul(p, z), 1.0 / 15.0);
  p = ieee_add(ieee_mul(p, z), 1.0 / 13.0);
  p = ieee_add(ieee_mul(p, z), 1.0 / 11.0);
  p = ieee_add(ieee_mul(p, z), 1.0 / 9.0);
  p = ieee_add(ieee_mul(p, z), 1.0 / 7.0);
  p = ieee_add(ieee_mul(p, z), 1.0 / 5.0);
  p = ieee_add(ieee_mul(p, z), 1.0 / 3.0);
  const double two_s = ieee_add(s, s);
  const double log_m = ieee_add(two_s, ieee_mul(ieee_mul(two_s, z), p));  // 2s + 2s * z * p
  const double ln2_hi = 6.93147180369123816490e-01;  // 0x3FE62E42FEE00000: e * ln2_hi is exact
  const double ln2_lo = 1.90821492927058770002e-10;
  return ieee_add(ieee_mul(de, ln2_hi), ieee_add(ieee_mul(de, ln2_lo), log_m));
}

// sin and cos of a in [-pi/4, pi/4] by their Taylor series (to a^17 and a^18: the next terms
// are below 2^-60).
DLA_HOST_DEVICE inline void sincos_small(double a, double& s, double& c) {
  const double z = ieee_mul(a, a);
  double ps = -1.0 / 355687428096000.0;              // -1/17!
  ps = ieee_add(ieee_mul(ps, z), 1.0 / 1307674368000.0);  // 1/15!
  ps = ieee_add(ieee_mul(ps, z), -1.0 / 6227020800.0);    // -1/13!
  ps = ieee_add(ieee_mul(ps, z), 1.0 / 39916800.0);       // 1/11!
  ps = ieee_add(ieee_mul(ps, z), -1.0 / 362880.0);        // -1/9!
  ps = ieee_add(ieee_mul(ps, z), 1.0 / 5040.0);           // 1/7!
  ps = ieee_add(ieee_mul(ps, z), -1.0 / 120.0);           // -1/5!
  ps = ieee_add(ieee_mul(ps, z), 1.0 / 6.0);              // 1/3!
  s = ieee_add(a, -ieee_mul(ieee_mul(a, z), ps));         // a - a^3/3! + ...
  double pc = 1.0 / 6402373705728000.0;                   // 1/18!
  pc = ieee_add(ieee_mul(pc, z), -1.0 / 20922789888000.0);  // -1/16!
  pc = ieee_add(ieee_mul(pc, z), 1.0 / 87178291200.0);      // 1/14!
  pc = ieee_add(ieee_mul(pc, z), -1.0 / 479001600.0);       // -1/12!
  pc = ieee_add(ieee_mul(pc, z), 1.0 / 3628800.0);          // 1/10!
  pc = ieee_add(ieee_mul(pc, z), -1.0 / 40320.0);           // -1/8!
  pc = ieee_add(ieee_mul(pc, z), 1.0 / 720.0);              // 1/6!
  pc = ieee_add(ieee_mul(pc, z), -1.0 / 24.0);              // -1/4!
  pc = ieee_add(ieee_mul(pc, z), 0.5);                      // 1/2!
  c = ieee_add(1.0, -ieee_mul(z, pc));
}

// sin and cos of 2*pi*u for u = w / 2^bits (w an integer below 2^bits, 8 <= bits <= 53). The
// turn is split exactly in integers: 4u = q + f with q the nearest integer and |f| <= 1/2, so
// the angle is q quarter turns plus a = f * pi/2, |a| <= pi/4.
DLA_HOST_DEVICE inline void sincos_turn(uint64_t w, int bits, double& s, double& c) {
  const int shift = bits - 2;  // 4u = w / 2^shift
  const uint64_t q = (w + (uint64_t(1) << (shift - 1))) >> shift;
  // f = w - q * 2^shift, |f| <= 2^50, as a double through f + 2^51 (exact_double's range).
  const double f = ieee_add(exact_double(w - (q << shift) + (uint64_t(1) << 51)), -2251799813685248.0);
  const double scale = double_of(static_cast<uint64_t>(1023 - shift) << 52);  // 2^-shift
  const double a = ieee_mul(ieee_mul(f, scale), 1.5707963267948966);
  double sa, ca;
  sincos_small(a, sa, ca);
  // q quarter turns, without branches: (s, c) = (sa, ca), (ca, -sa), (-sa, -ca), (-ca, sa) for
  // q & 3 = 0 .. 3; a negation is the sign bit flipped, as unary minus does.
  const bool odd = (q & 1) != 0;
  const double s0 = odd ? ca : sa, c0 = odd ? sa : ca;
  s = double_of(bits_of(s0) ^ ((q & 2) << 62));
  c = double_of(bits_of(c0) ^ (((q + 1) & 2) << 62));
}

// ---- from bits to values ----------------------------------------------------------------------

// The `bits`-bit integer of lane `lane` of a block (32-bit lanes when L = 4, 64-bit when L = 2).
DLA_HOST_DEVICE inline uint64_t lane_integer(const Block& r, int lane, int bits, int L) {
  const uint64_t w = L == 4 ? static_cast<uint64_t>(r.w[lane]) : word64(r, lane);
  return w >> ((L == 4 ? 32 : 64) - bits);
}

// 2^-bits, exactly.
DLA_HOST_DEVICE inline double inverse_power_of_two(int bits) {
  return double_of(static_cast<uint64_t>(1023 - bits) << 52);
}

// The values of a draw from its `bits`-bit integers w (lane_integer's), one function per kind;
// the CPU kernel runs them over arrays of integers, the GPU per element, through real_lane.
// kUniform: a + b * u, u = w / 2^bits in [0, 1).
DLA_HOST_DEVICE inline double uniform_value(const RandomJob& j, uint64_t w) {
  const double u = ieee_mul(exact_double(w), inverse_power_of_two(j.bits));
  return ieee_add(j.a, ieee_mul(j.b, u));
}
// kExponential: -b * log(u), u = (w + 1) / 2^bits in (0, 1]: never log(0).
DLA_HOST_DEVICE inline double exponential_value(const RandomJob& j, uint64_t w) {
  const double u = ieee_mul(exact_double(w + 1), inverse_power_of_two(j.bits));
  return ieee_add(0.0, -ieee_mul(j.b, log_positive(u)));  // (+0 for u = 1, not -0)
}
// kNormal: Box-Muller over a lane pair: the first uniform, (w1 + 1) / 2^bits in (0, 1], gives
// the radius, the second the angle; the even lane takes the cosine, the odd one the sine.
DLA_HOST_DEVICE inline void normal_pair_value(const RandomJob& j, uint64_t w1, uint64_t w2, double& even,
                                              double& odd) {
  const double u1 = ieee_mul(exact_double(w1 + 1), inverse_power_of_two(j.bits));
  const double radius = ieee_sqrt(ieee_mul(-2.0, log_positive(u1)));
  double s, c;
  sincos_turn(w2, j.bits, s, c);
  even = ieee_add(j.a, ieee_mul(j.b, ieee_mul(radius, c)));
  odd = ieee_add(j.a, ieee_mul(j.b, ieee_mul(radius, s)));
}

// kNormal over the lane pair (first, first + 1) of block r.
DLA_HOST_DEVICE inline void normal_pair(const RandomJob& j, const Block& r, int first, double& even, double& odd) {
  const int L = lanes(j);
  normal_pair_value(j, lane_integer(r, first, j.bits, L), lane_integer(r, first + 1, j.bits, L), even, odd);
}

// The floating-point value of lane `lane` of block r (kinds kUniform, kNormal, kExponential).
DLA_HOST_DEVICE inline double real_lane(const RandomJob& j, const Block& r, int lane) {
  const int L = lanes(j);
  if (j.kind == kUniform) return uniform_value(j, lane_integer(r, lane, j.bits, L));
  if (j.kind == kExponential) return exponential_value(j, lane_integer(r, lane, j.bits, L));
  double even, odd;
  normal_pair(j, r, lane & ~1, even, odd);
  return (lane & 1) ? odd : even;
}

// high 64 bits of x * y.
DLA_HOST_DEVICE inline uint64_t mul_high(uint64_t x, uint64_t y) {
  const uint64_t x0 = x & 0xFFFFFFFFu, x1 = x >> 32, y0 = y & 0xFFFFFFFFu, y1 = y >> 32;
  const uint64_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
  const uint64_t middle = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
  return p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
}

// kIntegers: low + r, r uniform in [0, range), by Lemire's multiply-and-reject ("Fast random
// integer generation in an interval", 2019), on a 32-bit lane when range <= 2^32 (four values
// per block, lanes() == 4) and on a 64-bit word otherwise. The rejection threshold 2^k mod range
// (a division) is computed only when the product's low part falls below range, as Lemire
// does: a product at or above range is accepted whatever the threshold. A rejected word is
// redrawn from the same block and lane with the counter's third word counting the attempts,
// so every element's value still depends on its index alone. After 64 rejections
// (probability below 2^-64) the last draw is kept.
DLA_HOST_DEVICE inline uint64_t integer_lane(const RandomJob& j, Block r, uint64_t block, int lane) {
  if (j.range == 0) return j.low + word64(r, lane);
  if (j.range <= (uint64_t(1) << 32)) {  // lanes(j) == 4
    if (j.range == (uint64_t(1) << 32)) return j.low + r.w[lane];
    for (uint32_t attempt = 1;; ++attempt) {
      const uint64_t product = static_cast<uint64_t>(r.w[lane]) * j.range;
      const uint32_t product_low = static_cast<uint32_t>(product);
      if (product_low >= j.range || attempt > 64) return j.low + (product >> 32);
      const uint32_t range32 = static_cast<uint32_t>(j.range);
      if (product_low >= (0u - range32) % range32) return j.low + (product >> 32);  // 2^32 mod range
      r = block_at(j, block, attempt);
    }
  }
  for (uint32_t attempt = 1;; ++attempt) {
    const uint64_t w = word64(r, lane);
    const uint64_t product_low = w * j.range;
    if (product_low >= j.range || attempt > 64) return j.low + mul_high(w, j.range);
    if (product_low >= (0 - j.range) % j.range) return j.low + mul_high(w, j.range);  // 2^64 mod range
    r = block_at(j, block, attempt);
  }
}

}  // namespace philox
}  // namespace dla
