// allocator.cpp — the allocator lookup (through the backend registry, core/backend.h) and
// shared counters.
#include "core/allocator.h"

#include <string>

#include "core/backend.h"
#include "core/errors.h"

namespace dla {

void AllocatorStats::on_alloc(int64_t n) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  int64_t now = bytes_in_use.fetch_add(n, std::memory_order_relaxed) + n;
  int64_t peak = peak_bytes.load(std::memory_order_relaxed);
  while (now > peak && !peak_bytes.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

void AllocatorStats::on_free(int64_t n) {
  frees.fetch_add(1, std::memory_order_relaxed);
  bytes_in_use.fetch_sub(n, std::memory_order_relaxed);
}

Allocator* find_allocator(DeviceKind kind) { return backend_of(kind).allocator; }

Allocator& allocator_for(DeviceKind kind) {
  if (Allocator* a = find_allocator(kind)) return *a;
  throw ValueError(std::string("no allocator for device kind '") + device_kind_name(kind) +
                   "': this build of dlarray has no backend for it");
}

}  // namespace dla
