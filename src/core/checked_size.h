// checked_size.h — the one place the core computes sizes: element counts, byte counts,
// strided extents, offsets and allocation sizes, each with overflow detection.
//
// The invariant these functions keep: every Array's element count, its byte count and the
// bytes its strided layout spans fit in int64_t (Py_ssize_t). Sizes that come from users
// or peers (shapes, counts, repetitions, DLPack and buffer layouts) pass through here
// before anything is allocated, computed or viewed; arithmetic on a valid array's own
// offsets (an index below the extent times a stride) then cannot overflow, which is why
// the hot paths (x[i], kernels' loops) need no checks of their own.
//
// Errors are the ones NumPy users expect: a count that does not fit is ValueError
// ("array is too big; ..." naming the shape and dtype), a negative dimension ValueError,
// an allocation no machine can satisfy MemoryError.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/dims.h"

namespace dla {

struct DType;

// ---- primitives: false when the exact result does not fit ----------------------------------

inline bool mul_fits(int64_t a, int64_t b, int64_t* r) { return !__builtin_mul_overflow(a, b, r); }
inline bool add_fits(int64_t a, int64_t b, int64_t* r) { return !__builtin_add_overflow(a, b, r); }

// Product of a shape whose entries are known to be >= 0 (0 as soon as one is 0, whatever
// the others: a (0, 2**62, 2**62) array is empty, not too big).
inline bool numel_fits(const int64_t* shape, int n, int64_t* out) {
  int64_t p = 1;
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    if (shape[i] == 0) {
      *out = 0;
      return true;
    }
    ok &= mul_fits(p, shape[i], &p);
  }
  *out = p;
  return ok;
}

// Bytes for `count` packed elements of `bits` bits each (sub-byte types round up), without
// forming count * bits (which overflows long before the byte count does).
inline bool packed_nbytes_fits(int64_t count, int64_t bits, int64_t* out) {
  if (bits % 8 == 0) return mul_fits(count, bits / 8, out);
  int64_t whole;
  if (!mul_fits(count / 8, bits, &whole)) return false;
  return add_fits(whole, ((count % 8) * bits + 7) / 8, out);
}

// The byte range [*lo, *hi) that a strided layout spans around its first element (strides
// in elements; *lo <= 0 < *hi unless the layout is empty, then both are 0). False unless
// the range and every stride in bytes fit in int64 (also on axes of length 0 or 1, whose
// strides address nothing but are still multiplied by the item size in the kernels).
// Layouts from outside (DLPack, the buffer protocol) must pass this to become Arrays.
inline bool strided_extent_fits(const int64_t* shape, const int64_t* strides, int n, int64_t itemsize, int64_t* lo,
                                int64_t* hi) {
  *lo = *hi = 0;
  bool empty = false;
  for (int i = 0; i < n; ++i) {
    int64_t bytes;
    if (!mul_fits(strides[i], itemsize, &bytes)) return false;
    empty |= shape[i] == 0;
  }
  if (empty) return true;
  int64_t below = 0, above = itemsize;
  for (int i = 0; i < n; ++i) {
    int64_t span;
    if (shape[i] == 1) continue;
    if (!mul_fits(shape[i] - 1, strides[i], &span) || !mul_fits(span, itemsize, &span)) return false;
    if (!(span < 0 ? add_fits(below, span, &below) : add_fits(above, span, &above))) return false;
  }
  *lo = below;
  *hi = above;
  return true;
}

// ---- throwing forms -------------------------------------------------------------------------

// The element count of `shape`: ValueError for more than kMaxRank axes, a negative
// dimension, or a count past INT64_MAX.
int64_t checked_numel(DimsView shape);
// The byte count of a row-major array of `shape` and `dtype`: checked_numel's errors, and
// ValueError "array is too big" when the bytes do not fit either. Every new array's shape
// passes through here (Array::empty, broadcast views, DLPack imports).
int64_t checked_nbytes(DimsView shape, const DType& dtype);
// Bytes for `count` elements of `dtype`; ValueError when they do not fit.
int64_t checked_nbytes(int64_t count, const DType& dtype);
// a * b and a + b for dimensions being built (tile's r * s, concat's sum of lengths);
// ValueError "array is too big; <what> ..." when the result does not fit.
int64_t checked_dim_mul(int64_t a, int64_t b, const char* what);
int64_t checked_dim_add(int64_t a, int64_t b, const char* what);
// `nbytes` rounded up to a multiple of `align` (a power of two) for an allocator: at least
// `align`, MemoryError naming `device` when no machine could provide it (past PTRDIFF_MAX).
size_t checked_alloc_size(size_t nbytes, size_t align, const char* device);

}  // namespace dla
