// simd_sort.h — an AVX-512 quicksort of 32- and 64-bit unsigned keys (order_keys.h), the
// value sort behind sort/unique when no indices travel with the keys.
//
// Equal keys are indistinguishable, so the sort need not be stable: it partitions with
// vector compares and compresses (as NumPy's SIMD sort does) and finishes blocks of up to
// 16 registers with bitonic sorting networks. Rows that must keep -0/+0 or NaN payload bits
// carry indices and stay with the stable radix sort.
#pragma once
#include <cstdint>

namespace dla::cpu {

// Sorts keys[0..n) ascending and returns true; false (keys untouched) when the CPU lacks
// AVX-512. With threads, a long row is split by the first partitions and the parts sorted
// on the thread pool.
bool simd_sort_keys(uint32_t* keys, int64_t n, bool allow_threads);
bool simd_sort_available();

// Sorts keys[0..n) ascending with positions[0..n) moved along, equal keys in ascending order of
// their positions (so a stable argsort when positions start as 0, 1, 2 ...); false (nothing
// changed) without AVX-512. With threads, a long row is split as simd_sort_keys splits it.
bool simd_argsort_keys(uint64_t* keys, uint64_t* positions, int64_t n, bool allow_threads);
bool simd_sort_keys(uint64_t* keys, int64_t n, bool allow_threads);
// Signed integers as themselves (no order-key transform needed).
bool simd_sort_keys(int32_t* keys, int64_t n, bool allow_threads);
bool simd_sort_keys(int64_t* keys, int64_t n, bool allow_threads);

}  // namespace dla::cpu
