// array.cpp — layout queries and view construction for Array.
#include "core/array.h"

#include "core/errors.h"

namespace dla {

Array::Array(StoragePtr storage, int64_t byte_offset, Dims shape, Dims strides, DType dtype,
             uint8_t flags)
    : storage_(std::move(storage)),
      byte_offset_(byte_offset),
      shape_(std::move(shape)),
      strides_(std::move(strides)),
      dtype_(dtype),
      flags_(flags) {}

Dims contiguous_strides(const Dims& shape) {
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

std::string shape_str(const Dims& shape) {
  std::string s = "(";
  for (int i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

Array Array::empty(const Dims& shape, DType dtype, Device device, StreamHandle stream) {
  const int64_t bytes = checked_nbytes(shape, dtype);
  StoragePtr st = Storage::allocate(static_cast<size_t>(bytes), device, stream);
  return Array(std::move(st), 0, shape, contiguous_strides(shape), dtype);
}

int64_t Array::size() const {
  int64_t n = 1;
  for (int64_t d : shape_) n *= d;
  return n;
}

bool Array::is_c_contiguous() const {
  // Size-0 and size-1 dimensions never break contiguity, whatever their stride.
  int64_t expected = 1;
  for (int i = ndim() - 1; i >= 0; --i) {
    if (shape_[i] == 0) return true;
    if (shape_[i] != 1 && strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

bool Array::is_f_contiguous() const {
  int64_t expected = 1;
  for (int i = 0; i < ndim(); ++i) {
    if (shape_[i] == 0) return true;
    if (shape_[i] != 1 && strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

Array Array::view(Dims shape, Dims strides, int64_t byte_offset, DType dtype) const {
  return Array(storage_, byte_offset, std::move(shape), std::move(strides), dtype, flags_);
}

Array Array::permuted(const int* axes) const {
  Dims sh(ndim()), st(ndim());
  for (int i = 0; i < ndim(); ++i) {
    sh[i] = shape_[axes[i]];
    st[i] = strides_[axes[i]];
  }
  return view(std::move(sh), std::move(st), byte_offset_);
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

}  // namespace dla
