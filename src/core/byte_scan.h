// byte_scan.h — scans of byte rows (bools, masks): whether any byte is zero / nonzero, how
// many are nonzero, and where they are. all/any, count_nonzero, nonzero and boolean-mask
// indexing are built on these on host memory.
//
// Bytes are tested as "nonzero", never read as 0/1: a bool array imported from a peer (or a
// NumPy view of uint8 as bool) may hold any byte value for true.
#pragma once
#include <cstdint>

namespace dla {

// Over the n bytes at a, byte stride s (any sign).
bool any_nonzero_byte(const char* a, int64_t s, int64_t n);
bool any_zero_byte(const char* a, int64_t s, int64_t n);
int64_t count_nonzero_bytes(const char* a, int64_t s, int64_t n);

// The positions j in [0, n) of the nonzero bytes among a[0, n) (contiguous), in order, written
// to out; returns how many. out must have room for that count plus kPositionsSpare elements
// (the writes are whole vectors, or unconditional stores, past the last position).
constexpr int64_t kPositionsSpare = 8;
int64_t nonzero_byte_positions(const char* a, int64_t n, int64_t* out);

}  // namespace dla
