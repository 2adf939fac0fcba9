// array.h — the strided array: storage + byte offset + shape/strides (elements) + dtype + flags.
//
// An Array is a cheap value (one refcounted pointer and inline dims); copying it makes a
// second view of the same memory, never a copy of the data. Layout helpers used by every
// backend (contiguity, element count, views) live here; data movement lives in
// src/core/copy.h and the backends.
#pragma once
#include <cstdint>
#include <string>

#include "core/checked_size.h"
#include "core/dims.h"
#include "core/dtype.h"
#include "core/storage.h"

namespace dla {

enum ArrayFlags : uint8_t {
  kReadOnly = 1 << 0,
};

class Array {
 public:
  Array() = default;
  Array(StoragePtr storage, int64_t byte_offset, Dims shape, Dims strides, DType dtype,
        uint8_t flags = 0);

  // A fresh row-major array (uninitialised memory). ValueError when the shape is negative or
  // too big to address (checked_size.h), MemoryError when the device cannot provide it.
  static Array empty(const Dims& shape, DType dtype, Device device, StreamHandle stream = nullptr);

  // --- layout ---
  int ndim() const { return shape_.size(); }
  const Dims& shape() const { return shape_; }
  const Dims& strides() const { return strides_; }
  int64_t shape(int i) const { return shape_[i]; }
  int64_t stride(int i) const { return strides_[i]; }
  // Number of elements. Unchecked: every Array's shape passed checked_size.h when it was made.
  int64_t size() const;
  DType dtype() const { return dtype_; }
  Device device() const { return storage_ ? storage_->device() : Device{}; }
  const StoragePtr& storage() const { return storage_; }
  int64_t byte_offset() const { return byte_offset_; }
  // Address of element [0, ..., 0]; for sub-byte dtypes, of the byte holding it.
  char* data() const { return static_cast<char*>(storage_->data()) + byte_offset_; }
  int64_t itemsize() const { return dtype_.itemsize(); }
  int64_t nbytes() const { return dtype_.nbytes_for(size()); }

  bool is_c_contiguous() const;
  bool is_f_contiguous() const;

  bool readonly() const { return flags_ & kReadOnly; }
  uint8_t flags() const { return flags_; }
  void set_readonly(bool ro) { flags_ = ro ? (flags_ | kReadOnly) : (flags_ & ~kReadOnly); }

  // A view sharing storage, with new layout (strides in elements, offset in bytes).
  Array view(Dims shape, Dims strides, int64_t byte_offset, DType dtype) const;
  Array view(Dims shape, Dims strides, int64_t byte_offset) const {
    return view(std::move(shape), std::move(strides), byte_offset, dtype_);
  }
  // Reversed axes (the .T / permute_dims building block).
  Array permuted(const int* axes) const;

 private:
  StoragePtr storage_;
  int64_t byte_offset_ = 0;
  Dims shape_;
  Dims strides_;
  DType dtype_;
  uint8_t flags_ = 0;
};

// Row-major strides (in elements) for shape.
Dims contiguous_strides(const Dims& shape);
// Human-readable "(2, 3)".
std::string shape_str(const Dims& shape);

// Whether the bytes two arrays can touch intersect (by address: two imports of one peer
// buffer are different storages over the same memory).
bool may_overlap(const Array& a, const Array& b);

}  // namespace dla
