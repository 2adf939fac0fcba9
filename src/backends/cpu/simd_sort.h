// simd_sort.h — a vector quicksort of 32- and 64-bit keys (order_keys.h, or signed integers
// as themselves), the value sort behind sort/unique when no indices travel with the keys:
// AVX-512 (simd_sort.cpp), or AVX2 (simd_sort_avx2.cpp) on CPUs without it.
//
// Equal keys are indistinguishable, so the sort need not be stable: it partitions with
// vector compares and compresses (as NumPy's SIMD sort does) and finishes blocks of up to
// 16 registers with sorting networks (simd_sort_vec.h's sort_registers). Argsorts carry
// positions with the keys (simd_argsort_keys; 32-bit keys are packed with theirs into 64-bit
// keys instead), and so do value sorts of rows that must keep -0/+0 or NaN payload bits.
#pragma once
#include <cstdint>

namespace dla::cpu {

// Sorts keys[0..n) ascending and returns true; false (keys untouched) when the CPU has
// neither AVX-512 nor AVX2 (simd_sort_keys_available()). With threads, a long row is split by
// the first partitions and the parts sorted on the thread pool.
bool simd_sort_keys(uint32_t* keys, int64_t n, bool allow_threads);
bool simd_sort_keys_available();
// AVX-512 present: the AVX-512-only pieces of the sorts run.
bool simd_sort_available();
// The AVX2 builds, called by simd_sort_keys and simd_argsort_keys where AVX-512 is missing.
bool simd_sort_avx2_available();
bool simd_sort_keys_avx2(uint32_t* keys, int64_t n, bool allow_threads);
bool simd_sort_keys_avx2(uint64_t* keys, int64_t n, bool allow_threads);
bool simd_sort_keys_avx2(int32_t* keys, int64_t n, bool allow_threads);
bool simd_sort_keys_avx2(int64_t* keys, int64_t n, bool allow_threads);
bool simd_argsort_keys_avx2(uint64_t* keys, uint64_t* positions, int64_t n, bool allow_threads);

// Sorts keys[0..n) ascending with positions[0..n) moved along, equal keys in ascending order of
// their positions (so a stable argsort when positions start as 0, 1, 2 ...); false (nothing
// changed) on CPUs with neither AVX-512 (simd_sort.cpp) nor AVX2 (simd_sort_avx2.cpp): both run
// simd_quicksort.h carrying positions. With threads, a long row is split as simd_sort_keys
// splits it.
bool simd_argsort_keys(uint64_t* keys, uint64_t* positions, int64_t n, bool allow_threads);
bool simd_sort_keys(uint64_t* keys, int64_t n, bool allow_threads);
// Selection for partition/argpartition: keys[k] becomes the key a sort would put there, the keys
// before it no greater, those after it no smaller (simd_quicksort.h's select_key); false (keys
// untouched) on CPUs with neither AVX-512 nor AVX2. Signed keys: the callers flip the top bit
// of order keys, as AVX2 compares 64-bit integers only as signed ones. The positioned form
// moves positions[0..n) with the keys (by the AVX2 build, which AVX-512 CPUs run as well).
bool simd_select_keys(int32_t* keys, int64_t n, int64_t k);
bool simd_select_keys(int64_t* keys, int64_t n, int64_t k);
bool simd_argselect_keys(int64_t* keys, uint64_t* positions, int64_t n, int64_t k);
bool simd_select_keys_avx2(int32_t* keys, int64_t n, int64_t k);
bool simd_select_keys_avx2(int64_t* keys, int64_t n, int64_t k);

// Signed integers as themselves (no order-key transform needed).
bool simd_sort_keys(int32_t* keys, int64_t n, bool allow_threads);
bool simd_sort_keys(int64_t* keys, int64_t n, bool allow_threads);

}  // namespace dla::cpu
