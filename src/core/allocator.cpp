// allocator.cpp — the allocator registry and shared counters.
#include "core/allocator.h"

#include <string>

#include "core/errors.h"

namespace dla {
namespace {
// Indexed by DLDeviceType value; DLPack's enum is small and dense.
constexpr int kMaxKinds = 32;
Allocator* g_allocators[kMaxKinds] = {};
}  // namespace

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

void register_allocator(DeviceKind kind, Allocator* allocator) {
  g_allocators[static_cast<int>(kind)] = allocator;
}

Allocator* find_allocator(DeviceKind kind) {
  int k = static_cast<int>(kind);
  return (k >= 0 && k < kMaxKinds) ? g_allocators[k] : nullptr;
}

Allocator& allocator_for(DeviceKind kind) {
  if (Allocator* a = find_allocator(kind)) return *a;
  throw ValueError(std::string("no allocator for device kind '") + device_kind_name(kind) +
                   "': this build of dlarray has no backend for it");
}

}  // namespace dla
