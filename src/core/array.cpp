// array.cpp — layout queries and view construction for Array.
#include "core/array.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "core/errors.h"

namespace dla {

Array::Array(StoragePtr storage, int64_t byte_offset, DimsView shape, DimsView strides, DType dtype,
             uint8_t flags)
    : storage_(std::move(storage)), byte_offset_(byte_offset), dtype_(dtype), flags_(flags) {
  set_dims(shape, strides);
}

Array::Array(BorrowStorage, const Array& owner, int64_t byte_offset, DimsView shape, DimsView strides,
             DType dtype, uint8_t flags)
    : byte_offset_(byte_offset), dtype_(dtype), flags_(flags) {
  storage_.borrow(owner.storage_);
  set_dims(shape, strides);
}

// Only ever called with ndim_ == 0 (nothing to free): construction, and assignment after
// free_dims.
void Array::set_dims(DimsView shape, DimsView strides) {
  const int n = shape.size();
  if (n != strides.size() || n > kMaxRank)
    throw std::logic_error("Array: shape and strides of ranks " + std::to_string(n) + " and " +
                           std::to_string(strides.size()));
  int64_t* d = inline_;
  if (n > kInlineRank) d = heap_ = new int64_t[2 * n];
  ndim_ = static_cast<uint8_t>(n);
  for (int i = 0; i < n; ++i) {
    d[i] = shape[i];
    d[n + i] = strides[i];
  }
}

Array::Array(const Array& o)
    : storage_(o.storage_), byte_offset_(o.byte_offset_), dtype_(o.dtype_), flags_(o.flags_) {
  set_dims(o.shape(), o.strides());
}

Array::Array(Array&& o) noexcept
    : storage_(std::move(o.storage_)),
      byte_offset_(o.byte_offset_),
      dtype_(o.dtype_),
      flags_(o.flags_),
      ndim_(o.ndim_) {
  // The inline dims or the heap pointer, whichever is there; `o` keeps rank 0, owning nothing.
  std::memcpy(inline_, o.inline_, sizeof(inline_));
  o.ndim_ = 0;
}

Array& Array::operator=(const Array& o) {
  if (this != &o) *this = Array(o);
  return *this;
}

Array& Array::operator=(Array&& o) noexcept {
  if (this != &o) {
    free_dims();
    storage_ = std::move(o.storage_);
    byte_offset_ = o.byte_offset_;
    dtype_ = o.dtype_;
    flags_ = o.flags_;
    ndim_ = o.ndim_;
    std::memcpy(inline_, o.inline_, sizeof(inline_));
    o.ndim_ = 0;
  }
  return *this;
}

Dims contiguous_strides(DimsView shape) {
  Dims s(shape.size());
  int64_t acc = 1;
  for (int i = shape.size() - 1; i >= 0; --i) {
    s[i] = acc;
    // Cannot overflow for a shape that passed checked_numel unless another axis is 0; the
    // strides of an empty array address nothing, so 0 is as good as any there.
    if (!mul_fits(acc, shape[i] > 0 ? shape[i] : 1, &acc)) acc = 0;
  }
  return s;
}

std::string shape_str(DimsView shape) {
  std::string s = "(";
  for (int i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

Array Array::empty(DimsView shape, DType dtype, Device device, StreamHandle stream) {
  const int64_t bytes = checked_nbytes(shape, dtype);
  StoragePtr st = Storage::allocate(static_cast<size_t>(bytes), device, stream);
  return Array(std::move(st), 0, shape, contiguous_strides(shape), dtype);
}

int64_t Array::size() const {
  int64_t n = 1;
  for (int64_t d : shape()) n *= d;
  return n;
}

bool Array::is_c_contiguous() const {
  // Size-0 and size-1 dimensions never break contiguity, whatever their stride.
  int64_t expected = 1;
  for (int i = ndim() - 1; i >= 0; --i) {
    if (shape(i) == 0) return true;
    if (shape(i) != 1 && stride(i) != expected) return false;
    expected *= shape(i);
  }
  return true;
}

bool Array::is_f_contiguous() const {
  int64_t expected = 1;
  for (int i = 0; i < ndim(); ++i) {
    if (shape(i) == 0) return true;
    if (shape(i) != 1 && stride(i) != expected) return false;
    expected *= shape(i);
  }
  return true;
}

Array Array::view(DimsView shape, DimsView strides, int64_t byte_offset, DType dtype) const {
  return Array(storage_, byte_offset, shape, strides, dtype, flags_);
}

Array Array::permuted(const int* axes) const {
  Dims sh(ndim()), st(ndim());
  for (int i = 0; i < ndim(); ++i) {
    sh[i] = shape(axes[i]);
    st[i] = stride(axes[i]);
  }
  return view(sh, st, byte_offset_);
}

// Whether the bytes two arrays can touch intersect. Compares addresses, not storages: two
// imports of one NumPy buffer are different Storage objects over the same memory.
bool may_overlap(const Array& a, const Array& b) {
  auto range = [](const Array& x, const char** lo, const char** hi) {
    int64_t first = 0, last = 0;
    for (int d = 0; d < x.ndim(); ++d) {
      if (x.shape(d) == 0) {
        *lo = *hi = x.data();
        return;
      }
      const int64_t span = (x.shape(d) - 1) * x.stride(d) * x.itemsize();
      (span < 0 ? first : last) += span;
    }
    *lo = x.data() + first;
    *hi = x.data() + last + x.itemsize();
  };
  const char *alo, *ahi, *blo, *bhi;
  range(a, &alo, &ahi);
  range(b, &blo, &bhi);
  return alo < bhi && blo < ahi;
}

// Output memory in the order of `like`'s strides (NumPy's "K" order), so that an operation
// on transposed or Fortran-ordered inputs walks all operands contiguously.
Array empty_in_order_of(DimsView shape, DType dtype, Device device, const Array* like) {
  const int n = shape.size();
  if (!like || n < 2 || like->ndim() != n || like->shape() != shape || like->is_c_contiguous())
    return Array::empty(shape, dtype, device);
  int perm[kMaxRank];
  for (int i = 0; i < n; ++i) perm[i] = i;
  auto mag = [&](int i) { return like->stride(i) < 0 ? -like->stride(i) : like->stride(i); };
  std::stable_sort(perm, perm + n, [&](int x, int y) { return mag(x) > mag(y); });
  Dims pshape(n);
  for (int i = 0; i < n; ++i) pshape[i] = shape[perm[i]];
  Array base = Array::empty(pshape, dtype, device);
  Dims st(n);
  for (int i = 0; i < n; ++i) st[perm[i]] = base.stride(i);
  return base.view(shape, std::move(st), base.byte_offset());
}

}  // namespace dla
