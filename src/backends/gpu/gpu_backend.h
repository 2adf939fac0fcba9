// gpu_backend.h — the core half of a GPU backend: streams, allocators and the DeviceRuntime,
// written once over a vendor table (gpu_ops.h) for CUDA and ROCm alike.
//
// A Backend serves the memory kinds of one vendor (device, pinned host, managed). It keeps
// each thread's current stream per device, pools the events used to order one stream after
// another, and counts allocations per kind. Device memory is stream-ordered: it is taken
// from and given back to the pool on the stream it was allocated on, and a stream dlarray
// created lives until the last allocation made on it is freed. Work dlarray queues on any
// other stream (a `with stream(s)` block, another thread's current stream, a copy queued on
// the other device) is recorded in a ledger of stream uses, so that a free is ordered after
// every stream that touched the device's memory since the block was allocated (PyTorch's
// record_stream, done automatically), and a pinned block is reused only once every stream
// that touched host memory since has passed the point of its free.
#pragma once
#include <atomic>
#include <map>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "backends/gpu/gpu_ops.h"
#include "core/allocator.h"
#include "core/runtime.h"

namespace dla::gpu {

constexpr int kMaxDevices = 64;

class Backend;

// A stream dlarray knows: created by us (destroyed with its last reference) or wrapped.
struct StreamBox {
  std::atomic<intptr_t> refs{1};
  Backend* backend = nullptr;
  const DlaGpuOps* ops = nullptr;
  void* handle = nullptr;
  int device = 0;
  bool owned = false;
};

// Intrusive reference to a StreamBox; null means the device's default stream.
class StreamRef {
 public:
  StreamRef() = default;
  explicit StreamRef(StreamBox* b) : b_(b) {}  // adopts one reference
  StreamRef(const StreamRef& o) : b_(o.b_) { retain(); }
  StreamRef(StreamRef&& o) noexcept : b_(std::exchange(o.b_, nullptr)) {}
  StreamRef& operator=(StreamRef o) noexcept {
    std::swap(b_, o.b_);
    return *this;
  }
  ~StreamRef() { reset(); }
  void* handle() const { return b_ ? b_->handle : nullptr; }
  StreamBox* get() const { return b_; }
  StreamBox* release() { return std::exchange(b_, nullptr); }
  explicit operator bool() const { return b_ != nullptr; }
  void reset();
  static void release_box(StreamBox* b);

 private:
  void retain() {
    if (b_) b_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  StreamBox* b_ = nullptr;
};

class Backend;

class GpuAllocator final : public Allocator {
 public:
  GpuAllocator(Backend* backend, DeviceKind kind) : backend_(backend), kind_(kind) {}
  DataPtr allocate(size_t nbytes, Device device, StreamHandle stream) override;
  const AllocatorStats& stats() const override { return stats_; }
  // Pinned host memory: gives the cached blocks whose last use has finished back to the runtime.
  void release_cached_host();

 private:
  static void release(void* ctx, void* ptr);
  // Pinned host memory is cached, as PyTorch's host allocator does: page-locking costs far
  // more than the transfers it serves. A freed block goes to the cache with an event recorded
  // on its device's current stream, and is handed out again (same power-of-two size class)
  // only once that event has completed, so queued copies never see it reused.
  struct CachedHost {
    void* ptr;
    std::vector<std::pair<int, void*>> events;  // (device, event) on each stream that may still use it
  };
  void* take_cached_host(size_t size_class);
  void cache_host(void* p, size_t size_class, uint64_t since);
  bool host_block_free(const CachedHost& c) const;  // its event has completed
  Backend* backend_;
  DeviceKind kind_;
  AllocatorStats stats_;
  std::mutex cache_mu_;
  std::multimap<size_t, CachedHost> host_cache_;  // size class -> blocks
};

class Backend final : public DeviceRuntime {
 public:
  explicit Backend(const DlaGpuOps* ops);
  const DlaGpuOps& ops() const { return *ops_; }
  DeviceKind device_kind() const { return device_kind_; }
  DeviceKind host_kind() const { return host_kind_; }
  bool has_managed() const { return ops_->managed_type != 0; }
  // One of this backend's memory kinds (device, pinned host, managed).
  bool owns(DeviceKind k) const;

  // --- DeviceRuntime ---
  int device_count() override;
  StreamHandle current_stream(int index) override { return current(index).handle(); }
  void copy_bytes(void* dst, Device dst_dev, const void* src, Device src_dev, size_t n,
                  StreamHandle stream) override;
  void synchronize(Device device, StreamHandle stream) override;
  void stream_wait(Device device, StreamHandle producer, StreamHandle consumer) override;
  void copy_strided(const Array& dst, const Array& src, StreamHandle stream) override;
  void fill(const Array& dst, const void* elem, StreamHandle stream) override;
  std::string why_unavailable() override;

  // --- streams, for the Python API ---
  StreamRef current(int index);
  void set_current(int index, StreamRef s);
  StreamRef create_stream(int index, bool non_blocking);
  StreamRef wrap_stream(int index, void* handle);  // not owned: the caller keeps it alive
  bool query(int index, void* handle);
  // consumer (on consumer_dev) waits for the work queued so far on producer (on producer_dev).
  void wait(int producer_dev, void* producer, int consumer_dev, void* consumer);
  void pool_usage(int index, uint64_t* reserved, uint64_t* used);
  void empty_cache(int index);
  // The memory kind and device of a foreign pointer; false when the runtime does not know it
  // (or the table has no pointer_device).
  bool pointer_device(const void* p, Device* out) const;

  // --- the ledger of stream uses ---
  // Memory of `memory` (a device index, or kHostMemory: pinned and managed) is touched by work
  // queued now on stream `handle` of `device`; `ref` is the stream's box (null for the default
  // stream). The ledger holds no reference: a stream leaving it is first synchronized.
  static constexpr int kHostMemory = -1;
  void note_use(int device, void* handle, const StreamRef& ref, int memory);
  // A stream's last reference is going: its ledger entries go, after its work is done (a later
  // free could no longer wait for it).
  void forget_stream(int device, void* handle);
  uint64_t ticket() const { return ticket_.load(std::memory_order_relaxed); }
  // The streams other than (device, handle) that touched `memory` after ticket `since`.
  // (A device of -1 excludes nothing.)
  std::vector<std::pair<int, void*>> users_since(int memory, uint64_t since, int device, void* handle);
  // Makes (device, handle) wait for the work queued so far on every such stream.
  void order_after_users(int memory, uint64_t since, int device, void* handle);
  // Whether copies between the memory of devices a and b may go straight (peer access granted
  // both ways, asked once per pair) rather than staged through pinned memory.
  bool peers(int a, int b);

  // Throws the dla exception matching a vendor error code.
  void check(int err, const char* what) const;
  // A native handle for `stream` on device `index` (nullptr: current; kDefaultStream: null
  // stream), with the reference that keeps a dlarray-owned stream alive.
  // Work resolved this way is noted in the ledger as touching device `index`'s memory.
  std::pair<void*, StreamRef> resolve(int index, StreamHandle stream);
  // The same without the ledger (allocations, synchronization).
  std::pair<void*, StreamRef> resolve_only(int index, StreamHandle stream);
  void ensure_device(int index);
  GpuAllocator& allocator_for_kind(DeviceKind k);

 private:
  friend class GpuAllocator;  // events for its pinned-memory cache
  void* take_event(int index);
  void give_event(int index, void* ev);

  const DlaGpuOps* ops_;
  DeviceKind device_kind_, host_kind_, managed_kind_;
  int slot_;  // which per-thread current-stream table (CUDA 0, ROCm 1)
  std::once_flag count_once_;
  std::atomic<bool> counted_{false};
  int count_ = 0;
  std::string why_;
  std::once_flag device_once_[kMaxDevices];
  struct StreamUse {
    int device;
    void* handle;
    int memory;
    uint64_t last;  // ticket of the latest work noted
  };
  std::mutex uses_mu_;
  std::vector<StreamUse> uses_;
  std::atomic<uint64_t> ticket_{0};
  std::mutex peers_mu_;
  int8_t peers_[kMaxDevices][kMaxDevices] = {};  // 0: not asked yet, 1: granted, -1: not possible
  std::mutex events_mu_;
  std::vector<void*> events_[kMaxDevices];
  GpuAllocator device_alloc_, host_alloc_, managed_alloc_;
};

// The backend serving a memory kind, or null when none is installed.
Backend* backend_for(DeviceKind kind);
// Installs a backend from a vendor table (registers its runtimes and allocators); on a bad
// table returns false with the reason in *why.
bool install_backend(const DlaGpuOps* ops, std::string* why);
// Unregisters the backend of device type `device_type` (tests swap backends with it).
// Memory it handed out stays valid: the Backend object is kept for its deleters.
void uninstall_backend(int device_type);

}  // namespace dla::gpu
