// simd_sort.cpp — the AVX-512 quicksort of simd_sort.h (simd_quicksort.h over simd_sort_vec.h's
// AVX-512 traits) of keys alone and of keys carrying positions (argsort), and the entry points,
// which run the AVX2 build of the same quicksort (simd_sort_avx2.cpp) on CPUs without AVX-512.
#include "backends/cpu/simd_sort.h"

#include "core/cpu_features.h"
#include "backends/cpu/simd_quicksort.h"

namespace dla::cpu {
namespace {

template <class K>
bool sort_keys(K* keys, int64_t n, bool allow_threads) {
  if (simd_sort_available()) {
    simd_sort_detail::sort_keys(keys, n, allow_threads);
    return true;
  }
  return simd_sort_keys_avx2(keys, n, allow_threads);
}

template <class K>
bool select_keys(K* keys, int64_t n, int64_t k) {
  if (simd_sort_available()) {
    simd_sort_detail::select_key(keys, nullptr, n, k);
    return true;
  }
  return simd_select_keys_avx2(keys, n, k);
}

}  // namespace

bool simd_sort_available() {
  static const bool bmi2 = __builtin_cpu_supports("bmi2");  // (every AVX-512 CPU has it)
  return vector_level() == VectorLevel::Avx512 && bmi2;
}

bool simd_sort_keys_available() { return simd_sort_available() || simd_sort_avx2_available(); }

bool simd_sort_keys(uint32_t* keys, int64_t n, bool allow_threads) { return sort_keys(keys, n, allow_threads); }
bool simd_sort_keys(uint64_t* keys, int64_t n, bool allow_threads) { return sort_keys(keys, n, allow_threads); }
bool simd_sort_keys(int32_t* keys, int64_t n, bool allow_threads) { return sort_keys(keys, n, allow_threads); }
bool simd_sort_keys(int64_t* keys, int64_t n, bool allow_threads) { return sort_keys(keys, n, allow_threads); }

bool simd_argsort_keys(uint64_t* keys, uint64_t* positions, int64_t n, bool allow_threads) {
  if (!simd_sort_available()) return simd_argsort_keys_avx2(keys, positions, n, allow_threads);
  simd_sort_detail::argsort_keys(keys, positions, n, allow_threads);
  return true;
}

bool simd_select_keys(int32_t* keys, int64_t n, int64_t k) { return select_keys(keys, n, k); }
bool simd_select_keys(int64_t* keys, int64_t n, int64_t k) { return select_keys(keys, n, k); }

}  // namespace dla::cpu
