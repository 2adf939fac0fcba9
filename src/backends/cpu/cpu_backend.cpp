// cpu_backend.cpp — the CPU allocator (aligned, counted; small header+data blocks from
// malloc) and the CPU runtime (no streams).
#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>

#include "backends/cpu/cast.h"
#include "backends/cpu/cpu_kernels.h"
#include "backends/cpu/fill.h"
#include "core/allocator.h"
#include "core/array.h"
#include "core/backend.h"
#include "core/checked_size.h"
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

// Freed blocks of 1 MiB and more are kept (up to a byte cap, default 256 MiB, set with
// DLARRAY_CPU_CACHE_MB; 0 turns it off) and handed out again for the same rounded size.
// Their pages stay mapped, so code that makes a same-sized temporary every iteration stops
// paying the kernel to zero fresh pages: that zeroing is a third of an out-of-place
// elementwise operation on 10^7 elements. Oldest blocks go first when the cap is reached.
class BlockCache {
 public:
  void* take(size_t n) {
    if (n < kPageAlignFrom) return nullptr;
    std::lock_guard<std::mutex> lk(m_);
    for (int i = count_ - 1; i >= 0; --i)
      if (blocks_[i].n == n) {
        void* p = blocks_[i].p;
        bytes_ -= n;
        for (int j = i; j + 1 < count_; ++j) blocks_[j] = blocks_[j + 1];
        --count_;
        return p;
      }
    return nullptr;
  }
  // Keeps p (true) or leaves it to the caller to free (false).
  bool put(void* p, size_t n) {
    if (n < kPageAlignFrom || n > cap()) return false;
    void* evicted[kBlocks];
    int nevicted = 0;
    {
      std::lock_guard<std::mutex> lk(m_);
      while (count_ > 0 && (count_ == kBlocks || bytes_ + n > cap())) {
        evicted[nevicted++] = blocks_[0].p;
        bytes_ -= blocks_[0].n;
        for (int j = 0; j + 1 < count_; ++j) blocks_[j] = blocks_[j + 1];
        --count_;
      }
      blocks_[count_++] = Block{p, n};
      bytes_ += n;
    }
    for (int i = 0; i < nevicted; ++i) std::free(evicted[i]);
    return true;
  }

 private:
  static constexpr int kBlocks = 16;
  struct Block {
    void* p;
    size_t n;
  };
  static size_t cap() {
    static const size_t c = [] {
      const char* env = std::getenv("DLARRAY_CPU_CACHE_MB");
      return (env ? size_t(std::strtoull(env, nullptr, 10)) : size_t(256)) << 20;
    }();
    return c;
  }
  std::mutex m_;
  Block blocks_[kBlocks];
  int count_ = 0;
  size_t bytes_ = 0;
};

// Freed blocks of up to 1 KiB are kept per thread, a few per 64-byte size class, and handed
// out again for the same rounded size: small arrays are made and dropped at every step of
// Python code, and a fresh 64-byte-aligned block from glibc (memalign, then free's
// coalescing) was a fifth of zeros(10)'s time. NumPy keeps a cache of small data blocks for
// the same reason. Per thread, so no lock; a block freed on another thread joins that
// thread's cache. At thread exit the cache frees what it holds; a block released after that
// (a thread's last objects at interpreter exit) is freed at once. Off under AddressSanitizer,
// so that it sees every use after free.
class SmallBlockCache {
 public:
#ifdef __SANITIZE_ADDRESS__
  static constexpr size_t kLargest = 0;
#else
  static constexpr size_t kLargest = 1024;
#endif
  ~SmallBlockCache() {
    alive_ = false;
    for (auto& c : classes_)
      for (int i = 0; i < c.count; ++i) std::free(c.blocks[i]);
  }
  static void* take(size_t n) {
    if (n > kLargest || !alive_) return nullptr;
    Class& c = cache().classes_[n / kMinAlign - 1];
    return c.count ? c.blocks[--c.count] : nullptr;
  }
  static bool put(void* p, size_t n) {
    if (n > kLargest || !alive_) return false;
    Class& c = cache().classes_[n / kMinAlign - 1];
    if (c.count == kPerClass) return false;
    c.blocks[c.count++] = p;
    return true;
  }

 private:
  static constexpr int kPerClass = 8;
  struct Class {
    void* blocks[kPerClass];
    int count = 0;
  };
  static SmallBlockCache& cache() {
    thread_local SmallBlockCache c;
    return c;
  }
  // Trivially destructible, so still readable while and after the cache itself is destroyed.
  static thread_local bool alive_;
  Class classes_[kLargest / kMinAlign + 1];
};
thread_local bool SmallBlockCache::alive_ = true;

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
    const size_t rounded = checked_alloc_size(nbytes, align, "cpu");
    void* p = SmallBlockCache::take(rounded);  // each cache takes only its own sizes
    if (!p) p = cache_.take(rounded);
    if (p) {
      stats_.on_alloc(static_cast<int64_t>(rounded));
      return DataPtr{p, reinterpret_cast<void*>(rounded), &CpuAllocator::release};
    }
    p = std::aligned_alloc(align, rounded);
    if (!p)
      throw MemoryError("Unable to allocate " + std::to_string(nbytes) + " bytes on cpu: out of memory");
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
  // Plain malloc: glibc's per-thread cache already makes these small blocks cheap to take
  // and give back (the SmallBlockCache below exists for the slower 64-byte-aligned path).
  void* allocate_small(size_t total, Device device) override {
    if (device.kind != DeviceKind::CPU || device.index != 0)
      throw ValueError("CPU allocator asked for memory on '" + device.str() + "'");
    void* p = std::malloc(total);
    if (!p) throw MemoryError("Unable to allocate " + std::to_string(total) + " bytes on cpu: out of memory");
    stats_.on_alloc(static_cast<int64_t>(total));
    return p;
  }
  void free_small(void* block, size_t total) override {
    std::free(block);
    stats_.on_free(static_cast<int64_t>(total));
  }

 private:
  static void release(void* ctx, void* p) {
    const size_t n = reinterpret_cast<size_t>(ctx);
    if (!SmallBlockCache::put(p, n) && !instance().cache_.put(p, n)) std::free(p);
    instance().stats_.on_free(static_cast<int64_t>(n));
  }
  friend CpuAllocator& instance();
  AllocatorStats stats_;
  BlockCache cache_;
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
  void fill(const Array& dst, const void* elem, StreamHandle) override {
    cpu::fill_host(dst, static_cast<const char*>(elem));
  }
};

// The CPU backend, whole: its kernels also serve every host-readable memory (pinned, managed).
struct Registrar {
  Registrar() {
    static CpuRuntime runtime;
    DeviceBackend cpu_backend;
    cpu_backend.allocator = &instance();
    cpu_backend.runtime = &runtime;
    cpu_backend.elementwise = &cpu::execute_elementwise_plan;
    cpu_backend.cast = &cpu::cast_host;
    cpu_backend.reductions = &cpu::kReductionKernels;
    cpu_backend.search_sort = &cpu::kSearchSortKernels;
    cpu_backend.linalg = &cpu::kLinalgKernels;
    cpu_backend.random = &cpu::random_fill;
    register_backend(DeviceKind::CPU, cpu_backend);
    cpu::prepare_elementwise_kernels();
  }
} registrar;

}  // namespace

Allocator& cpu_allocator() { return instance(); }

}  // namespace dla
