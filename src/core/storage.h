// storage.h — refcounted bytes on a device: a small host array's bytes inside the block,
// or memory an allocator or a peer owns.
//
// Storage is shared by every view of the same buffer. The refcount is atomic because the
// last reference may be dropped on a thread that holds no GIL (a DLPack deleter called by
// a peer). Two layouts behind one 16-byte header:
//  - inline: CPU arrays of at most kInlineBytes keep their bytes right after the header, in
//    one malloc block (a header block plus a 64-byte-aligned data block cost a 4-element
//    float64 array more memory than NumPy's whole array);
//  - external (ExternalStorage): a DataPtr whose deleter runs exactly once, when the last
//    reference goes: the allocator's memory for larger arrays and for every device, or a
//    peer's (DLPack imports).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "core/allocator.h"
#include "core/device.h"

namespace dla {

class Storage;

// Intrusive pointer: one word, no control block, so an Array stays small.
//
// A pointer can also be *borrowed* (the low bit of the word; Storage blocks are 16-byte
// aligned): it holds no reference, because the Python object around the Array keeps another
// object alive that does (bindings/py_array.cpp, wrap_view). x[0] and x.T cost two locked
// instructions less that way, a tenth of float(x[0]). Borrowing never leaks out of that
// object: copying or moving a borrowed pointer makes a counted one.
class StoragePtr {
 public:
  StoragePtr() = default;
  explicit StoragePtr(Storage* s) : p_(s) {}  // adopts one reference
  StoragePtr(const StoragePtr& o) : p_(o.get()) { retain(); }
  StoragePtr(StoragePtr&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {
    if (borrowed()) {
      p_ = get();
      retain();
    }
  }
  StoragePtr& operator=(StoragePtr o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~StoragePtr() { release(); }
  Storage* get() const {
    return reinterpret_cast<Storage*>(reinterpret_cast<uintptr_t>(p_) & ~kBorrowedBit);
  }
  Storage* operator->() const { return get(); }
  explicit operator bool() const { return p_ != nullptr; }
  bool borrowed() const { return reinterpret_cast<uintptr_t>(p_) & kBorrowedBit; }
  // `o`'s storage without a reference (this pointer must be empty): see above.
  void borrow(const StoragePtr& o) {
    p_ = o.p_ ? reinterpret_cast<Storage*>(reinterpret_cast<uintptr_t>(o.get()) | kBorrowedBit) : nullptr;
  }

 private:
  static constexpr uintptr_t kBorrowedBit = 1;
  void retain();
  void release();
  Storage* p_ = nullptr;
};

class Storage {
 public:
  // Host arrays of at most this many bytes (four float64) share their header's block. Their
  // bytes are aligned as malloc aligns (16), not to 64: no SIMD kernel takes a whole vector
  // from them, and a 64-byte-aligned block is mostly padding at this size. Larger arrays
  // keep the allocator's alignment (64 bytes and more, cpu_backend.cpp).
  static constexpr size_t kInlineBytes = 32;

  // Memory from the device's registered allocator.
  static StoragePtr allocate(size_t nbytes, Device device, StreamHandle stream = nullptr);
  // Memory someone else owns; `data.deleter` (may be null) releases it.
  static StoragePtr adopt(DataPtr data, size_t nbytes, Device device);

  inline void* data() const;
  inline size_t nbytes() const;
  Device device() const { return Device{static_cast<DeviceKind>(device_kind_), device_index_}; }
  intptr_t use_count() const { return refs_.load(std::memory_order_relaxed); }
  // Whether the bytes live in this block (the small host layout above).
  bool holds_bytes_inline() const { return inline_; }

 protected:
  Storage(Device dev, bool in_line, size_t inline_nbytes)
      : device_index_(dev.index),
        device_kind_(static_cast<uint8_t>(dev.kind)),
        inline_(in_line),
        inline_nbytes_(static_cast<uint16_t>(inline_nbytes)) {}
  ~Storage() = default;

 private:
  friend class StoragePtr;
  // Runs the deleter (external) or hands the block back to the CPU allocator (inline).
  static void destroy(Storage* s);

  std::atomic<intptr_t> refs_{1};
  int32_t device_index_;
  uint8_t device_kind_;  // a DLDeviceType; every one fits a byte
  bool inline_;
  uint16_t inline_nbytes_;  // inline only: the array's byte count (at most kInlineBytes)
};
// The inline bytes start right after the header, at malloc's alignment.
static_assert(sizeof(Storage) == 16 && sizeof(Storage) % alignof(std::max_align_t) == 0,
              "inline bytes must start aligned for every dtype");

static_assert(alignof(Storage) >= 2, "StoragePtr keeps its borrowed mark in the pointer's low bit");

// The external layout: the header, then who owns the bytes.
class ExternalStorage final : public Storage {
 public:
  ExternalStorage(DataPtr d, size_t n, Device dev) : Storage(dev, false, 0), data_(d), nbytes_(n) {}
  ~ExternalStorage();

 private:
  friend class Storage;
  DataPtr data_;
  size_t nbytes_;
};

inline void* Storage::data() const {
  if (inline_) return const_cast<char*>(reinterpret_cast<const char*>(this)) + sizeof(Storage);
  return static_cast<const ExternalStorage*>(this)->data_.ptr;
}
inline size_t Storage::nbytes() const {
  return inline_ ? inline_nbytes_ : static_cast<const ExternalStorage*>(this)->nbytes_;
}

// Both only on counted (not borrowed) pointers.
inline void StoragePtr::retain() {
  if (p_) p_->refs_.fetch_add(1, std::memory_order_relaxed);
}
inline void StoragePtr::release() {
  // A count of one read with acquire means ours is the only reference left: no other thread
  // can be copying it, so the buffer is freed without the locked decrement (most arrays are
  // temporaries with one view; the lock costs a few ns on every one of them).
  if (p_ && !borrowed() &&
      (p_->refs_.load(std::memory_order_acquire) == 1 || p_->refs_.fetch_sub(1, std::memory_order_acq_rel) == 1))
    Storage::destroy(p_);
  p_ = nullptr;
}

}  // namespace dla
