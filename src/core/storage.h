// storage.h — refcounted bytes on a device, owning either our allocation or foreign memory.
//
// Storage is shared by every view of the same buffer. The refcount is atomic because the
// last reference may be dropped on a thread that holds no GIL (a DLPack deleter called by
// a peer); the DataPtr's deleter runs exactly once, in the destructor.
#pragma once
#include <atomic>
#include <cstddef>
#include <utility>

#include "core/allocator.h"
#include "core/device.h"

namespace dla {

class Storage;

// Intrusive pointer: one word, no control block, so an Array stays small.
class StoragePtr {
 public:
  StoragePtr() = default;
  explicit StoragePtr(Storage* s) : p_(s) {}  // adopts one reference
  StoragePtr(const StoragePtr& o) : p_(o.p_) { retain(); }
  StoragePtr(StoragePtr&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  StoragePtr& operator=(StoragePtr o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~StoragePtr() { release(); }
  Storage* get() const { return p_; }
  Storage* operator->() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  void retain();
  void release();
  Storage* p_ = nullptr;
};

class Storage {
 public:
  // Memory from the device's registered allocator.
  static StoragePtr allocate(size_t nbytes, Device device, StreamHandle stream = nullptr);
  // Memory someone else owns; `data.deleter` (may be null) releases it.
  static StoragePtr adopt(DataPtr data, size_t nbytes, Device device);

  void* data() const { return data_.ptr; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }
  intptr_t use_count() const { return refs_.load(std::memory_order_relaxed); }
  ~Storage();

 private:
  Storage(DataPtr d, size_t n, Device dev) : data_(d), nbytes_(n), device_(dev) {}
  friend class StoragePtr;
  std::atomic<intptr_t> refs_{1};
  DataPtr data_;
  size_t nbytes_;
  Device device_;
};

inline void StoragePtr::retain() {
  if (p_) p_->refs_.fetch_add(1, std::memory_order_relaxed);
}
inline void StoragePtr::release() {
  // A count of one read with acquire means ours is the only reference left: no other thread
  // can be copying it, so the buffer is freed without the locked decrement (most arrays are
  // temporaries with one view; the lock costs a few ns on every one of them).
  if (p_ && (p_->refs_.load(std::memory_order_acquire) == 1 ||
             p_->refs_.fetch_sub(1, std::memory_order_acq_rel) == 1))
    delete p_;
  p_ = nullptr;
}

}  // namespace dla
