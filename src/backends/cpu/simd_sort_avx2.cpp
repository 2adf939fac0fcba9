// simd_sort_avx2.cpp — the quicksort of simd_quicksort.h built over simd_sort_vec.h's AVX2
// traits (8 keys of 32 bits or 4 of 64 a vector), for CPUs without AVX-512: keys alone, or
// 64-bit keys carrying positions (argsort); simd_sort.cpp's entry points call it there.
#define DLA_SORT_ISA_AVX2
#include "backends/cpu/simd_sort.h"

#include "core/cpu_features.h"
#include "backends/cpu/simd_quicksort.h"

namespace dla::cpu {
namespace {

template <class K>
bool sort_keys(K* keys, int64_t n, bool allow_threads) {
  if (!simd_sort_avx2_available()) return false;
  simd_sort_avx2::sort_keys(keys, n, allow_threads);
  return true;
}

// AVX2 compares 64-bit integers only as signed ones (unsigned takes two more operations a
// compare): unsigned keys with their top bit flipped sort as signed integers in the same
// order, and are flipped back after (two passes, cheaper than the compares they save).
__attribute__((target("avx2"))) void flip_top_bits(uint64_t* keys, int64_t n) {
  for (int64_t i = 0; i < n; ++i) keys[i] ^= uint64_t(1) << 63;
}

}  // namespace

bool simd_sort_avx2_available() {
  static const bool ok = vector_level() != VectorLevel::None && __builtin_cpu_supports("bmi2") &&
                         __builtin_cpu_supports("popcnt");
  return ok;
}

bool simd_sort_keys_avx2(uint32_t* keys, int64_t n, bool allow_threads) { return sort_keys(keys, n, allow_threads); }
bool simd_sort_keys_avx2(uint64_t* keys, int64_t n, bool allow_threads) {
  if (!simd_sort_avx2_available()) return false;
  flip_top_bits(keys, n);
  simd_sort_avx2::sort_keys(reinterpret_cast<int64_t*>(keys), n, allow_threads);
  flip_top_bits(keys, n);
  return true;
}
bool simd_argsort_keys_avx2(uint64_t* keys, uint64_t* positions, int64_t n, bool allow_threads) {
  if (!simd_sort_avx2_available()) return false;
  flip_top_bits(keys, n);
  simd_sort_avx2::argsort_keys(reinterpret_cast<int64_t*>(keys), positions, n, allow_threads);
  flip_top_bits(keys, n);
  return true;
}
bool simd_select_keys_avx2(int32_t* keys, int64_t n, int64_t k) {
  if (!simd_sort_avx2_available()) return false;
  simd_sort_avx2::select_key(keys, nullptr, n, k);
  return true;
}
bool simd_select_keys_avx2(int64_t* keys, int64_t n, int64_t k) {
  if (!simd_sort_avx2_available()) return false;
  simd_sort_avx2::select_key(keys, nullptr, n, k);
  return true;
}
bool simd_argselect_keys(int64_t* keys, uint64_t* positions, int64_t n, int64_t k) {
  if (!simd_sort_avx2_available()) return false;
  simd_sort_avx2::select_key<int64_t, true>(keys, positions, n, k);
  return true;
}
bool simd_sort_keys_avx2(int32_t* keys, int64_t n, bool allow_threads) { return sort_keys(keys, n, allow_threads); }
bool simd_sort_keys_avx2(int64_t* keys, int64_t n, bool allow_threads) { return sort_keys(keys, n, allow_threads); }

}  // namespace dla::cpu
