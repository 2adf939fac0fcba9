// allocator.h — the allocator interface, one registry slot per device kind, and DataPtr.
//
// A DataPtr is a pointer plus what frees it (context + deleter), so memory dlarray
// allocated and memory imported from a peer (a DLPack deleter) are the same to Storage.
// Backends register their allocator at module load; a kind with no allocator raises
// ValueError naming the device when asked for memory.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "core/device.h"

namespace dla {

struct DataPtr {
  void* ptr = nullptr;
  void* ctx = nullptr;
  // Frees ptr. Called exactly once by Storage's destructor; may be null (memory not owned).
  void (*deleter)(void* ctx, void* ptr) = nullptr;
};

// Counters every allocator keeps; tests assert lifetimes with them.
struct AllocatorStats {
  std::atomic<int64_t> allocations{0};
  std::atomic<int64_t> frees{0};
  std::atomic<int64_t> bytes_in_use{0};
  std::atomic<int64_t> peak_bytes{0};
  void on_alloc(int64_t n);
  void on_free(int64_t n);
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  // Memory for nbytes on device, usable in stream order on `stream` (nullptr: the device's
  // current stream; see runtime.h) and freed in that order; ignored on the host.
  // Throws MemoryError on exhaustion, ValueError for a device that does not exist.
  virtual DataPtr allocate(size_t nbytes, Device device, StreamHandle stream) = 0;
  virtual const AllocatorStats& stats() const = 0;
  // A block of `total` bytes at malloc's alignment, holding a Storage header and a small
  // array's bytes after it (storage.h), or nullptr where this allocator keeps data apart
  // from headers (device memory: only the CPU allocator makes such blocks). Counted in
  // stats() like allocate's memory.
  virtual void* allocate_small(size_t total, Device device) {
    (void)total;
    (void)device;
    return nullptr;
  }
  // Frees a block from allocate_small of the same `total`.
  virtual void free_small(void* block, size_t total) {
    (void)block;
    (void)total;
  }
};

// The allocator for a kind; throws ValueError when no backend provides one in this build.
Allocator& allocator_for(DeviceKind kind);
Allocator* find_allocator(DeviceKind kind);

// The CPU allocator: 64-byte alignment at least (cache line, AVX-512), larger for big blocks;
// its small blocks (allocate_small) have malloc's.
Allocator& cpu_allocator();

}  // namespace dla
