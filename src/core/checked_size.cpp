// checked_size.cpp — the throwing forms of checked_size.h, with the messages users see.
#include "core/checked_size.h"

#include <string>

#include "core/array.h"
#include "core/errors.h"

namespace dla {
namespace {

[[noreturn]] void too_big(DimsView shape, const DType* dtype, const char* unit) {
  throw ValueError("array is too big; shape " + shape_str(shape) + (dtype ? " of dtype " + dtype->name() : "") +
                   " has more than 2**63 - 1 " + unit);
}

int64_t numel_of(DimsView shape, const DType* dtype) {
  if (shape.size() > kMaxRank)
    throw ValueError("arrays have at most " + std::to_string(kMaxRank) + " dimensions, got " +
                     std::to_string(shape.size()));
  for (int64_t d : shape)
    if (d < 0) throw ValueError("negative dimensions are not allowed: shape " + shape_str(shape));
  int64_t n;
  if (!numel_fits(shape.data(), shape.size(), &n)) too_big(shape, dtype, "elements");
  return n;
}

}  // namespace

int64_t checked_numel(DimsView shape) { return numel_of(shape, nullptr); }

int64_t checked_nbytes(DimsView shape, const DType& dtype) {
  int64_t bytes;
  if (!packed_nbytes_fits(numel_of(shape, &dtype), dtype.bits(), &bytes)) too_big(shape, &dtype, "bytes");
  return bytes;
}

int64_t checked_nbytes(int64_t count, const DType& dtype) {
  int64_t bytes;
  if (count < 0 || !packed_nbytes_fits(count, dtype.bits(), &bytes))
    throw ValueError("array is too big; " + std::to_string(count) + " elements of dtype " + dtype.name() +
                     " need more than 2**63 - 1 bytes");
  return bytes;
}

namespace {
// A dimension built as `a op b` (tile's r * s, concat's running sum) that must fit in int64.
int64_t dim_result(bool fits, int64_t r, int64_t a, char op, int64_t b, const char* what) {
  if (!fits)
    throw ValueError(std::string("array is too big; ") + what + " " + std::to_string(a) + " " + op + " " +
                     std::to_string(b) + " is more than 2**63 - 1");
  return r;
}
}  // namespace

int64_t checked_dim_mul(int64_t a, int64_t b, const char* what) {
  int64_t r;
  const bool fits = mul_fits(a, b, &r);
  return dim_result(fits, r, a, '*', b, what);
}

int64_t checked_dim_add(int64_t a, int64_t b, const char* what) {
  int64_t r;
  const bool fits = add_fits(a, b, &r);
  return dim_result(fits, r, a, '+', b, what);
}

size_t checked_alloc_size(size_t nbytes, size_t align, const char* device) {
  size_t rounded;
  // PTRDIFF_MAX: no allocator hands out more, and pointer differences inside the block must fit.
  if (nbytes > size_t(PTRDIFF_MAX) || __builtin_add_overflow(nbytes, align - 1, &rounded) ||
      rounded > size_t(PTRDIFF_MAX))
    throw MemoryError("cannot allocate " + std::to_string(nbytes) + " bytes on " + device);
  rounded &= ~(align - 1);
  return rounded ? rounded : align;
}

}  // namespace dla
