// fake_device_memory.h — the fake GPU's device memory: addresses the host cannot read, a pool
// that reuses memory as a stream-ordered allocator does, and a record of which blocks are live.
//
// Device pointers handed to dlarray lie in a reserved address range mapped PROT_NONE, so a host
// read or write of "device memory" faults at once (as on a real GPU, where the host cannot
// dereference a device pointer). The fake's kernels reach the same bytes through a second,
// readable mapping at a fixed offset (mirror()). Every allocation gets a serial id; work queued
// on a stream remembers the ids of the blocks it touches, and when it runs, each must still be
// live: a free whose stream has passed its free point ends the block, and later work on it is a
// use after free (a fault, reported as a real device reports an illegal address). Freed bytes
// are poisoned, and the poison is checked when the range is handed out again (a write through a
// dangling pointer). Fresh memory holds the poison too: a read of memory never written gives
// garbage, as on a device, instead of zeros. (Blocks over kPoisonLimit are neither poisoned nor
// checked: their pages are given back to the host on free instead.)
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

namespace dla::fake {

constexpr unsigned char kPoison = 0xdb;
constexpr size_t kPoisonLimit = size_t(64) << 20;

// A free queued on a stream but not yet reached: allocations on the same stream may take its
// range at once (work they queue runs after the free), others only once it has run.
struct PendingFree {
  size_t offset, span;
  size_t taken = 0;       // bytes from the start already handed to allocations on its stream
  bool finished = false;  // guarded by the arena's mutex
};

struct DeviceBlock {
  size_t size, span;  // requested bytes; bytes of the arena it holds
  int device;
  uint64_t id;
  const void* stream;  // the stream it was allocated on (for the fault messages)
};

class DeviceArena {
 public:
  // The most device memory a fake device offers (larger requests fail as out of memory), less
  // where the process may not reserve that much address space (RLIMIT_AS): capacity().
  static constexpr size_t kCapacity = size_t(1) << 36;
  size_t capacity() const { return capacity_; }

  // Thread-safe throughout (the stream workers finish frees and check ids while the table allocates).
  static DeviceArena& get();

  // A new block on `device`, taken first from frees still pending on the same stream
  // (`pending_here`), then from finished frees, then from untouched memory; nullptr when full.
  void* allocate(size_t n, int device, const void* stream, std::vector<std::shared_ptr<PendingFree>>& pending_here,
                 std::string* fault);
  // Ends the block at `p` (which must start one) for new work: the returned record is queued on
  // the freeing stream and handed to finish_free when the stream reaches it. Null when p is not
  // the start of a live block. The record is added to `pending_here`, the freeing stream's.
  std::shared_ptr<PendingFree> begin_free(void* p, uint64_t* id, std::vector<std::shared_ptr<PendingFree>>& pending_here);
  // The free's stream reached it: the block dies (later work touching it is a use after free);
  // its range is poisoned and returned unless an allocation on the same stream took it.
  void finish_free(const PendingFree& f, uint64_t id);

  // The live block holding [p, p + n) into *out; false when there is none.
  bool find(const void* p, size_t n, DeviceBlock* out) const;
  bool in_range(const void* p) const {
    auto a = reinterpret_cast<uintptr_t>(p), b = reinterpret_cast<uintptr_t>(device_base_);
    return device_base_ && a >= b && a < b + capacity_;
  }
  // The readable address of a device address (the fake kernels' view of device memory).
  template <class T>
  T* mirror(T* p) const {
    if (!p || !in_range(p)) return p;
    return reinterpret_cast<T*>(reinterpret_cast<uintptr_t>(p) + offset_);
  }
  // Whether every block id is still live (not yet freed in stream order); the first dead one in
  // *dead.
  bool all_live(const std::vector<uint64_t>& ids, uint64_t* dead) const;
  size_t live_blocks() const;

 private:
  DeviceArena();
  char* device_base_ = nullptr;  // PROT_NONE
  char* mirror_base_ = nullptr;  // the same bytes, readable
  uintptr_t offset_ = 0;
  size_t capacity_ = 0;
  size_t high_water_ = 0;             // nothing beyond it was ever handed out
  struct FreeRange {
    size_t bytes;
    bool poisoned;  // every byte holds kPoison (false for ranges over the limit, and mixes)
  };
  std::map<size_t, FreeRange> free_;  // finished frees by offset (coalesced)
  std::map<size_t, DeviceBlock> blocks_;  // live blocks by offset
  uint64_t next_id_ = 1;
  mutable std::mutex mu_;
  std::unordered_set<uint64_t> live_ids_;  // allocated and not yet freed in stream order
  size_t take_free(size_t span, bool* poisoned);  // offset, or SIZE_MAX
  void give_free(size_t offset, size_t span, bool poisoned);
};

}  // namespace dla::fake
