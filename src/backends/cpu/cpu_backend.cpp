// cpu_backend.cpp — the CPU allocator (aligned, counted) and the CPU runtime (no streams).
#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "core/allocator.h"
#include "core/errors.h"
#include "core/runtime.h"

namespace dla {
namespace {

// 64 bytes covers a cache line and AVX-512 loads; blocks of 1 MiB and more get 4 KiB so
// the kernel can back them with whole pages, and blocks of 4 MiB and more 2 MiB and a
// huge-page hint.
constexpr size_t kMinAlign = 64;
constexpr size_t kPageAlign = 4096;
constexpr size_t kPageAlignFrom = 1 << 20;
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kHugePageFrom = size_t(4) << 20;

class CpuAllocator;
CpuAllocator& instance();

class CpuAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes, Device device, StreamHandle) override {
    if (device.kind != DeviceKind::CPU || device.index != 0)
      throw ValueError("CPU allocator asked for memory on '" + device.str() + "'");
    const bool huge = nbytes >= kHugePageFrom;
    size_t align = huge ? kHugePage : nbytes >= kPageAlignFrom ? kPageAlign : kMinAlign;
    // aligned_alloc needs a size that is a multiple of the alignment, and a zero-size
    // array still gets a unique, valid pointer.
    size_t rounded = (nbytes + align - 1) / align * align;
    if (rounded == 0) rounded = align;
    void* p = std::aligned_alloc(align, rounded);
    if (!p) throw MemoryError("out of memory allocating " + std::to_string(nbytes) + " bytes on cpu");
#ifdef MADV_HUGEPAGE
    // Transparent huge pages are often opt-in ("madvise" mode): without the hint a fresh
    // 40 MB output takes 10,000 page faults on first touch, which costs more than the
    // arithmetic filling it (NumPy gives the same hint from 4 MiB).
    if (huge) madvise(p, rounded, MADV_HUGEPAGE);
#endif
    stats_.on_alloc(static_cast<int64_t>(rounded));
    return DataPtr{p, reinterpret_cast<void*>(rounded), &CpuAllocator::release};
  }
  const AllocatorStats& stats() const override { return stats_; }

 private:
  static void release(void* ctx, void* p) {
    std::free(p);
    instance().stats_.on_free(static_cast<int64_t>(reinterpret_cast<size_t>(ctx)));
  }
  friend CpuAllocator& instance();
  AllocatorStats stats_;
};

CpuAllocator& instance() {
  static CpuAllocator a;
  return a;
}

class CpuRuntime final : public DeviceRuntime {
 public:
  int device_count() override { return 1; }
  StreamHandle current_stream(int) override { return nullptr; }
  void copy_bytes(void* dst, Device, const void* src, Device, size_t n, StreamHandle) override {
    if (n) std::memcpy(dst, src, n);
  }
  void synchronize(Device, StreamHandle) override {}
  void stream_wait(Device, StreamHandle, StreamHandle) override {}
};

struct Registrar {
  Registrar() {
    static CpuRuntime runtime;
    register_allocator(DeviceKind::CPU, &instance());
    register_runtime(DeviceKind::CPU, &runtime);
  }
} registrar;

}  // namespace

Allocator& cpu_allocator() { return instance(); }

}  // namespace dla
