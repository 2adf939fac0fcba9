// sycl_runtime.h — the `oneapi` device kind (DLPack kDLOneAPI): SYCL devices through dpctl's C API.
//
// dpctl (the SYCL layer under dpnp) ships libDPCTLSyclInterface, a C interface to the SYCL
// runtime: devices, queues, USM allocation and pointer queries, memcpy. dlarray loads it at run
// time with dlopen (never a build or import dependency) from the path Python finds for the
// installed dpctl package. Device N is the N-th device of dpctl.get_devices() (the numbering
// dpctl uses for DLPack device ids); each has one queue in the platform's default context,
// the context dpctl and dpnp allocate in, so pointers pass between us and them both ways.
// There are no kernels: copies and fills stage through the host.
#pragma once
#include <cstddef>
#include <string>

#include "core/allocator.h"
#include "core/runtime.h"

namespace dla::sycl {

enum class UsmKind : int { Unknown = 0, Device = 1, Shared = 2, Host = 3 };

struct PointerInfo {
  UsmKind kind = UsmKind::Unknown;
  int device = -1;          // our index of the device the allocation is bound to
  bool host_readable = false;  // shared or host USM, or any USM of a CPU device
};

// Points the runtime at dpctl's library (loaded on first use) and registers it for `oneapi`.
void configure(const std::string& library_path);
// The runtime, or nullptr before configure().
class SyclRuntime* runtime();

class SyclRuntime final : public DeviceRuntime {
 public:
  explicit SyclRuntime(std::string path) : path_(std::move(path)) {}
  int device_count() override;
  StreamHandle current_stream(int) override { return nullptr; }  // queues are synchronous here
  void copy_bytes(void* dst, Device dst_dev, const void* src, Device src_dev, size_t n, StreamHandle) override;
  void synchronize(Device device, StreamHandle) override;
  void stream_wait(Device, StreamHandle, StreamHandle) override {}  // every operation completes before returning
  void copy_strided(const Array& dst, const Array& src, StreamHandle stream) override;
  void fill(const Array& dst, const void* elem, StreamHandle stream) override;
  std::string why_unavailable() override;

  // USM memory of `kind` on device `index`, freed by the returned DataPtr's deleter.
  DataPtr allocate(size_t n, int index, UsmKind kind);
  // The USM kind and device of `p` within SYCL context `ctx` (a DPCTLSyclContextRef).
  PointerInfo pointer_info(const void* p, void* ctx);
  // A new reference to a queue's context (release with delete_context); the device index
  // of a queue, -1 when it is none of ours; whether a context is the one our queue of device
  // `index` uses (pointers of other contexts are not ours to use).
  void* queue_context(void* queue);
  void delete_context(void* ctx);
  int queue_device(void* queue);
  bool is_our_context(void* ctx, int index);
  // Blocks until the work queued on a (foreign) queue is done.
  void wait_queue(void* queue);
  // Our queue of device `index` (owned by the runtime), and a new reference to it
  // (DPCTLQueue_Copy) for a SUAI export's capsule, with its deleter.
  void* queue(int index);
  void* copy_queue(int index);
  void delete_queue(void* q);
  // A device by SYCL filter string ("opencl:cpu:0", "cpu", "gpu:1"); -1 when it names none.
  int device_from_filter(const char* filter);
  const char* usm_kind_name(UsmKind k) const;

 private:
  bool load();
  std::string path_, why_;
  bool tried_ = false, loaded_ = false;
};

// The allocator of `oneapi` arrays: USM of the kind set with set_default_usm_kind (device).
class SyclAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes, Device device, StreamHandle stream) override;
  const AllocatorStats& stats() const override { return stats_; }
  AllocatorStats stats_;
};
void set_default_usm_kind(UsmKind k);
UsmKind default_usm_kind();

}  // namespace dla::sycl
