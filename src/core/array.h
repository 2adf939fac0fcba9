// array.h — the strided array: storage + byte offset + shape/strides (elements) + dtype + flags.
//
// An Array is a cheap value (one refcounted pointer and compact dims, 40 bytes); copying it
// makes a second view of the same memory, never a copy of the data. Layout helpers used by
// every backend (contiguity, element count, views) live here; data movement lives in
// src/core/copy.h and the backends.
//
// Shape and strides share one buffer: inside the Array for rank <= 1 (the small arrays and
// scalars that Python code makes by the hundred thousand), on the heap above. Every
// dlarray.Array object embeds one of these, so its size is the size of every array.
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
  // shape and strides have the same rank (at most kMaxRank).
  Array(StoragePtr storage, int64_t byte_offset, DimsView shape, DimsView strides, DType dtype,
        uint8_t flags = 0);
  // A view of `owner`'s storage that holds no reference to it (StoragePtr::borrow): only for
  // an Array built in place inside a Python object that keeps the storage alive otherwise
  // (bindings/py_array.cpp, wrap_view). Copies and moves of it hold references again.
  struct BorrowStorage {};
  Array(BorrowStorage, const Array& owner, int64_t byte_offset, DimsView shape, DimsView strides, DType dtype,
        uint8_t flags);
  Array(const Array& o);
  Array(Array&& o) noexcept;
  Array& operator=(const Array& o);
  Array& operator=(Array&& o) noexcept;
  ~Array() { free_dims(); }

  // A fresh row-major array (uninitialised memory). ValueError when the shape is negative or
  // too big to address (checked_size.h), MemoryError when the device cannot provide it.
  static Array empty(DimsView shape, DType dtype, Device device, StreamHandle stream = nullptr);

  // --- layout ---
  int ndim() const { return ndim_; }
  // Views of this Array's own buffer: valid while it lives and is not assigned to.
  DimsView shape() const { return DimsView(dims(), ndim_); }
  DimsView strides() const { return DimsView(dims() + ndim_, ndim_); }
  int64_t shape(int i) const { return dims()[i]; }
  int64_t stride(int i) const { return dims()[ndim_ + i]; }
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
  Array view(DimsView shape, DimsView strides, int64_t byte_offset, DType dtype) const;
  Array view(DimsView shape, DimsView strides, int64_t byte_offset) const {
    return view(shape, strides, byte_offset, dtype_);
  }
  // Reversed axes (the .T / permute_dims building block).
  Array permuted(const int* axes) const;

 private:
  // Ranks up to this keep shape and strides inline; above, heap_ holds 2 * ndim values.
  static constexpr int kInlineRank = 1;
  const int64_t* dims() const { return ndim_ > kInlineRank ? heap_ : inline_; }
  void set_dims(DimsView shape, DimsView strides);
  void free_dims() {
    if (ndim_ > kInlineRank) delete[] heap_;
  }

  StoragePtr storage_;
  int64_t byte_offset_ = 0;
  DType dtype_;
  uint8_t flags_ = 0;
  uint8_t ndim_ = 0;
  union {
    int64_t inline_[2 * kInlineRank];  // shape, then strides
    int64_t* heap_;
  };
};
// The Python object embeds an Array (bindings/py_array.cpp): 40 bytes keep a 4-element array
// under NumPy's memory per array.
static_assert(sizeof(Array) <= 40, "Array grew: every dlarray.Array object carries one");

// Row-major strides (in elements) for shape.
Dims contiguous_strides(DimsView shape);
// Human-readable "(2, 3)".
std::string shape_str(DimsView shape);

// Whether the bytes two arrays can touch intersect (by address: two imports of one peer
// buffer are different storages over the same memory).
bool may_overlap(const Array& a, const Array& b);

// A new array of `shape` whose memory follows the order of `like`'s strides (NumPy's "K"
// order) when like has that shape, else row-major: an operation or conversion of a transposed
// or Fortran-ordered array then walks every operand contiguously.
Array empty_in_order_of(DimsView shape, DType dtype, Device device, const Array* like);

}  // namespace dla
