// random_cpu.cpp — the CPU's kernel for dlarray.random: core/philox.h's numbers, over the
// thread pool, a chunk of counter blocks at a time: the chunk's blocks are computed eight at a
// time in AVX2 lanes where the CPU has it (the same integer function, so the same words), its
// lane integers laid out in element order, and the values computed from them in a loop that
// vectorizes (philox.h's transforms are branch-free for this). Compiled with
// -ffp-contract=off (CMakeLists.txt), so the values are the bits the GPU kernels and the fake
// GPU compute from the same header, whatever the vector width.
#include <algorithm>
#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define DLA_RANDOM_AVX2 1
#endif

#include "backends/cpu/cpu_kernels.h"
#include "backends/cpu/parallel.h"

namespace dla::cpu {
namespace {

using philox::Block;
using philox::RandomJob;

// Counter blocks per chunk (a multiple of 8): its words and integers stay in L1.
constexpr int kChunk = 64;
// Blocks per task: a normal pair costs a log, a square root and a sine/cosine, so tasks are
// far smaller than the elementwise grain.
constexpr int64_t kBlocksPerTask = 2048;

// The words of `count` consecutive counter blocks, word k of block b at w[k][b].
struct Words {
  alignas(32) uint32_t w[4][kChunk];
};

void blocks_scalar(const RandomJob& j, uint64_t first, int begin, int count, Words& out) {
  for (int b = begin; b < count; ++b) {
    const Block r = philox::block_at(j, first + static_cast<uint64_t>(b));
    for (int k = 0; k < 4; ++k) out.w[k][b] = r.w[k];
  }
}

#ifdef DLA_RANDOM_AVX2
// Philox-4x32-10 of eight blocks per vector, two vectors at a time (their chains overlap): each
// 32x32->64 multiplication of philox4x32_10 is _mm256_mul_epu32 on the even lanes and on the odd
// lanes shifted down, and the high and low halves are blended back into 32-bit lanes.
struct Avx2Philox {
  __attribute__((target("avx2"))) static void mul_hi_lo(__m256i x, __m256i m, __m256i& hi, __m256i& lo) {
    const __m256i even = _mm256_mul_epu32(x, m);
    const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(x, 32), m);
    hi = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
    lo = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
  }
};

__attribute__((target("avx2"))) int blocks_avx2(const RandomJob& j, uint64_t first, int count, Words& out) {
  constexpr int G = 2;  // vectors in flight
  const __m256i m0 = _mm256_set1_epi32(static_cast<int>(philox::kMul0));
  const __m256i m1 = _mm256_set1_epi32(static_cast<int>(philox::kMul1));
  const __m256i weyl0 = _mm256_set1_epi32(static_cast<int>(philox::kWeyl0));
  const __m256i weyl1 = _mm256_set1_epi32(static_cast<int>(philox::kWeyl1));
  const __m256i stream = _mm256_set1_epi32(static_cast<int>(j.stream));
  int b = 0;
  for (; b + 8 * G <= count; b += 8 * G) {
    __m256i c0[G], c1[G], c2[G], c3[G];
    for (int g = 0; g < G; ++g) {
      alignas(32) uint32_t lo[8], hi[8];
      for (int l = 0; l < 8; ++l) {
        const uint64_t number = first + static_cast<uint64_t>(b + 8 * g + l);
        lo[l] = static_cast<uint32_t>(number);
        hi[l] = static_cast<uint32_t>(number >> 32);
      }
      c0[g] = _mm256_load_si256(reinterpret_cast<const __m256i*>(lo));
      c1[g] = _mm256_load_si256(reinterpret_cast<const __m256i*>(hi));
      c2[g] = _mm256_setzero_si256();  // the attempt word: 0 for a first draw
      c3[g] = stream;
    }
    __m256i k0 = _mm256_set1_epi32(static_cast<int>(j.key[0])), k1 = _mm256_set1_epi32(static_cast<int>(j.key[1]));
    for (int round = 0; round < 10; ++round) {
      if (round > 0) {
        k0 = _mm256_add_epi32(k0, weyl0);
        k1 = _mm256_add_epi32(k1, weyl1);
      }
#pragma GCC unroll 2
      for (int g = 0; g < G; ++g) {
        __m256i hi0, lo0, hi2, lo2;
        Avx2Philox::mul_hi_lo(c0[g], m0, hi0, lo0);
        Avx2Philox::mul_hi_lo(c2[g], m1, hi2, lo2);
        c0[g] = _mm256_xor_si256(_mm256_xor_si256(hi2, c1[g]), k0);
        c1[g] = lo2;
        c2[g] = _mm256_xor_si256(_mm256_xor_si256(hi0, c3[g]), k1);
        c3[g] = lo0;
      }
    }
    for (int g = 0; g < G; ++g) {
      _mm256_store_si256(reinterpret_cast<__m256i*>(&out.w[0][b + 8 * g]), c0[g]);
      _mm256_store_si256(reinterpret_cast<__m256i*>(&out.w[1][b + 8 * g]), c1[g]);
      _mm256_store_si256(reinterpret_cast<__m256i*>(&out.w[2][b + 8 * g]), c2[g]);
      _mm256_store_si256(reinterpret_cast<__m256i*>(&out.w[3][b + 8 * g]), c3[g]);
    }
  }
  return b;
}
#endif

// Blocks [first, first + count) of the job into `out`.
void blocks_of(const RandomJob& j, uint64_t first, int count, Words& out) {
  int done = 0;
#ifdef DLA_RANDOM_AVX2
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) done = blocks_avx2(j, first, count, out);
#endif
  blocks_scalar(j, first, done, count, out);
}

// The `bits`-bit lane integers of the chunk in element order (lane_integer's, lane l of block b
// at b * L + l).
void lane_integers(const Words& words, int count, int L, int bits, uint64_t* ints) {
  if (L == 4) {
    const int shift = 32 - bits;
    for (int b = 0; b < count; ++b)
      for (int l = 0; l < 4; ++l) ints[b * 4 + l] = words.w[l][b] >> shift;
  } else {
    const int shift = 64 - bits;
    for (int b = 0; b < count; ++b)
      for (int l = 0; l < 2; ++l)
        ints[b * 2 + l] = ((static_cast<uint64_t>(words.w[2 * l + 1][b]) << 32) | words.w[2 * l][b]) >> shift;
  }
}

// The values of m elements from their integers, by kind: straight-line loops over arrays.
template <class T>
inline void values_of(const RandomJob& j, const uint64_t* ints, int m, T* out) {
  if (j.kind == philox::kUniform) {
    for (int e = 0; e < m; ++e) out[e] = static_cast<T>(philox::uniform_value(j, ints[e]));
  } else if (j.kind == philox::kExponential) {
    for (int e = 0; e < m; ++e) out[e] = static_cast<T>(philox::exponential_value(j, ints[e]));
  } else {
    for (int e = 0; e + 1 < m; e += 2) {
      double even, odd;
      philox::normal_pair_value(j, ints[e], ints[e + 1], even, odd);
      out[e] = static_cast<T>(even);
      out[e + 1] = static_cast<T>(odd);
    }
    if (m & 1) {  // the draw's last element: the even lane of a pair whose odd lane is not kept
      double even, odd;
      philox::normal_pair_value(j, ints[m - 1], ints[m], even, odd);  // ints holds whole blocks
      out[m - 1] = static_cast<T>(even);
    }
  }
}
#ifdef DLA_RANDOM_AVX2
template <class T>  // AVX2 without FMA: the same operations in wider vectors
__attribute__((target("avx2"))) void values_of_avx2(const RandomJob& j, const uint64_t* ints, int m, T* out) {
  values_of(j, ints, m, out);
}
#endif

// Calls chunk(job, words, first block index b, blocks) for the draw's blocks, a chunk at a
// time. Each task works on its own copy of the job: stores into the output could otherwise
// alias the job's 64-bit fields, and the compiler would reload them after every element.
template <class F>
void for_each_chunk(int64_t n, const RandomJob& job, F&& chunk) {
  const int L = philox::lanes(job);
  const int64_t blocks = (n + L - 1) / L;
  parallel_for(blocks, kBlocksPerTask, [&](int64_t b0, int64_t b1) {
    const RandomJob j = job;
    Words words;
    for (int64_t b = b0; b < b1; b += kChunk) {
      const int count = static_cast<int>(std::min<int64_t>(kChunk, b1 - b));
      blocks_of(j, j.block + static_cast<uint64_t>(b), count, words);
      chunk(j, words, b, count);
    }
  });
}

template <class T>
void fill_real(T* out, int64_t n, const RandomJob& job) {
  const int L = philox::lanes(job);
  for_each_chunk(n, job, [&](const RandomJob& j, const Words& words, int64_t b, int count) {
    alignas(32) uint64_t ints[4 * kChunk];
    lane_integers(words, count, L, j.bits, ints);
    const int64_t i0 = b * L;
    const int m = static_cast<int>(std::min<int64_t>(int64_t(count) * L, n - i0));
#ifdef DLA_RANDOM_AVX2
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (avx2) return values_of_avx2(j, ints, m, out + i0);
#endif
    values_of(j, ints, m, out + i0);
  });
}

// kIntegers on 32-bit lanes (range < 2^32) in the common case, a loop that vectorizes: low +
// the product's high half wherever its low half is at least range (Lemire's accept without the
// threshold); true when some element needs integer_lane's full test (probability range / 2^32
// each), which the caller then runs for those.
inline bool small_integers(const RandomJob& j, const uint32_t* w, int m, uint64_t* out) {
  const uint32_t range = static_cast<uint32_t>(j.range);
  uint32_t unsure = 0;
  for (int e = 0; e < m; ++e) {
    const uint64_t product = static_cast<uint64_t>(w[e]) * range;
    out[e] = j.low + (product >> 32);
    unsure |= static_cast<uint32_t>(static_cast<uint32_t>(product) < range);
  }
  return unsure != 0;
}
#ifdef DLA_RANDOM_AVX2
__attribute__((target("avx2"))) bool small_integers_avx2(const RandomJob& j, const uint32_t* w, int m,
                                                         uint64_t* out) {
  return small_integers(j, w, m, out);
}
#endif

void fill_words(uint64_t* out, int64_t n, const RandomJob& job) {
  const int L = philox::lanes(job);
  const bool small = job.kind == philox::kIntegers && L == 4 && job.range < (uint64_t(1) << 32);
  for_each_chunk(n, job, [&](const RandomJob& j, const Words& words, int64_t b, int count) {
    const int64_t i0 = b * L;
    const int m = static_cast<int>(std::min<int64_t>(int64_t(count) * L, n - i0));
    auto block_of = [&](int k) { return Block{{words.w[0][k], words.w[1][k], words.w[2][k], words.w[3][k]}}; };
    if (small) {
      alignas(32) uint32_t w[4 * kChunk];
      for (int k = 0; k < count; ++k)
        for (int l = 0; l < 4; ++l) w[k * 4 + l] = words.w[l][k];
      bool unsure;
#ifdef DLA_RANDOM_AVX2
      static const bool avx2 = __builtin_cpu_supports("avx2");
      unsure = avx2 ? small_integers_avx2(j, w, m, out + i0) : small_integers(j, w, m, out + i0);
#else
      unsure = small_integers(j, w, m, out + i0);
#endif
      if (unsure) {
        const uint32_t range = static_cast<uint32_t>(j.range);
        for (int e = 0; e < m; ++e)
          if (static_cast<uint32_t>(static_cast<uint64_t>(w[e]) * range) < range)
            out[i0 + e] = philox::integer_lane(j, block_of(e / 4), j.block + static_cast<uint64_t>(b + e / 4), e % 4);
      }
      return;
    }
    if (j.kind == philox::kBits || j.range == 0) {  // whole words (plus low, for integers)
      const uint64_t low = j.kind == philox::kBits ? 0 : j.low;
      for (int e = 0; e < m; ++e) {
        const int k = e >> 1, l = e & 1;
        out[i0 + e] = low + ((static_cast<uint64_t>(words.w[2 * l + 1][k]) << 32) | words.w[2 * l][k]);
      }
      return;
    }
    for (int k = 0, e = 0; k < count && e < m; ++k) {
      const Block r = block_of(k);
      for (int lane = 0; lane < L && e < m; ++lane, ++e)
        out[i0 + e] = philox::integer_lane(j, r, j.block + static_cast<uint64_t>(b + k), lane);
    }
  });
}

}  // namespace

void random_fill(const Array& out, const RandomJob& job) {
  const int64_t n = out.size();
  switch (out.dtype().scalar) {
    case ScalarType::Float32: fill_real(reinterpret_cast<float*>(out.data()), n, job); break;
    case ScalarType::Float64: fill_real(reinterpret_cast<double*>(out.data()), n, job); break;
    default: fill_words(reinterpret_cast<uint64_t*>(out.data()), n, job); break;  // int64, uint64
  }
}

}  // namespace dla::cpu
