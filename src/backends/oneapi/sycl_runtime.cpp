// sycl_runtime.cpp — dpctl's C interface loaded with dlopen, and the `oneapi` runtime over it.
//
// The declarations below restate the few libDPCTLSyclInterface entry points dlarray calls
// (dpctl_sycl_*_interface.h): every SYCL object is an opaque pointer, NULL on failure.
#include "backends/oneapi/sycl_runtime.h"

#include <dlfcn.h>

#include <cstring>
#include <mutex>
#include <vector>

#include "core/array.h"
#include "core/backend.h"
#include "core/copy.h"
#include "core/errors.h"

namespace dla::sycl {
namespace {

using Ref = void*;
struct Api {
  Ref (*DeviceMgr_GetDevices)(int);
  size_t (*DeviceVector_Size)(Ref);
  Ref (*DeviceVector_GetAt)(Ref, size_t);
  void (*DeviceVector_Delete)(Ref);
  int (*DeviceMgr_GetPositionInDevices)(Ref, int);
  int (*Device_GetDeviceType)(Ref);
  void (*Device_Delete)(Ref);
  Ref (*FilterSelector_Create)(const char*);
  Ref (*Device_CreateFromSelector)(Ref);
  void (*DeviceSelector_Delete)(Ref);
  Ref (*Queue_CreateForDevice)(Ref, void*, int);
  Ref (*Queue_Copy)(Ref);
  void (*Queue_Delete)(Ref);
  Ref (*Queue_GetContext)(Ref);
  Ref (*Queue_GetDevice)(Ref);
  void (*Queue_Wait)(Ref);
  Ref (*Queue_Memcpy)(Ref, void*, const void*, size_t);
  bool (*Context_AreEq)(Ref, Ref);
  void (*Context_Delete)(Ref);
  void (*Event_Wait)(Ref);
  void (*Event_Delete)(Ref);
  Ref (*malloc_device)(size_t, Ref);
  Ref (*malloc_shared)(size_t, Ref);
  Ref (*malloc_host)(size_t, Ref);
  void (*free_with_queue)(Ref, Ref);
  int (*USM_GetPointerType)(Ref, Ref);
  Ref (*USM_GetPointerDevice)(Ref, Ref);
};

// dpctl_sycl_enum_types.h: every backend and device type, and the CPU device type.
constexpr int kAllDevices = (((1 << 5) - 1) << 16) | ((1 << 6) - 1);
constexpr int kCpuDeviceType = 1 << 2;

Api g_api;
std::vector<Ref> g_queues;  // one per device, alive for the process
std::vector<bool> g_is_cpu;
std::mutex g_mu;
SyclRuntime* g_runtime = nullptr;
SyclAllocator g_allocator;
std::atomic<int> g_usm_kind{static_cast<int>(UsmKind::Device)};

struct Block {  // the context of one of our allocations
  Ref queue;
  size_t n;
};

void release_block(void* ctx, void* ptr) {
  auto* b = static_cast<Block*>(ctx);
  g_api.free_with_queue(ptr, b->queue);
  g_allocator.stats_.on_free(static_cast<int64_t>(b->n));
  delete b;
}

// An Array on the host with `a`'s layout over a copy of every byte `a`'s storage holds.
Array host_mirror(const Array& a) {
  const size_t n = a.storage()->nbytes();
  Array flat = Array::empty(Dims{static_cast<int64_t>(n)}, DType::of(ScalarType::UInt8), Device{});
  if (n) g_runtime->copy_bytes(flat.data(), Device{}, a.storage()->data(), a.device(), n, nullptr);
  return Array(flat.storage(), a.byte_offset(), a.shape(), a.strides(), a.dtype());
}

void write_back(const Array& mirror, const Array& dst) {
  const size_t n = dst.storage()->nbytes();
  if (n) g_runtime->copy_bytes(dst.storage()->data(), dst.device(), mirror.storage()->data(), Device{}, n, nullptr);
}

}  // namespace

bool SyclRuntime::load() {
  if (tried_) return loaded_;
  tried_ = true;
  void* h = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    why_ = std::string("cannot load dpctl's SYCL interface: ") + dlerror();
    return false;
  }
  struct Sym {
    void** slot;
    const char* name;
  };
#define DLA_SYM(field, name) {reinterpret_cast<void**>(&g_api.field), name}
  const Sym syms[] = {
      DLA_SYM(DeviceMgr_GetDevices, "DPCTLDeviceMgr_GetDevices"),
      DLA_SYM(DeviceVector_Size, "DPCTLDeviceVector_Size"),
      DLA_SYM(DeviceVector_GetAt, "DPCTLDeviceVector_GetAt"),
      DLA_SYM(DeviceVector_Delete, "DPCTLDeviceVector_Delete"),
      DLA_SYM(DeviceMgr_GetPositionInDevices, "DPCTLDeviceMgr_GetPositionInDevices"),
      DLA_SYM(Device_GetDeviceType, "DPCTLDevice_GetDeviceType"),
      DLA_SYM(Device_Delete, "DPCTLDevice_Delete"),
      DLA_SYM(FilterSelector_Create, "DPCTLFilterSelector_Create"),
      DLA_SYM(Device_CreateFromSelector, "DPCTLDevice_CreateFromSelector"),
      DLA_SYM(DeviceSelector_Delete, "DPCTLDeviceSelector_Delete"),
      DLA_SYM(Queue_CreateForDevice, "DPCTLQueue_CreateForDevice"),
      DLA_SYM(Queue_Copy, "DPCTLQueue_Copy"),
      DLA_SYM(Queue_Delete, "DPCTLQueue_Delete"),
      DLA_SYM(Queue_GetContext, "DPCTLQueue_GetContext"),
      DLA_SYM(Queue_GetDevice, "DPCTLQueue_GetDevice"),
      DLA_SYM(Queue_Wait, "DPCTLQueue_Wait"),
      DLA_SYM(Queue_Memcpy, "DPCTLQueue_Memcpy"),
      DLA_SYM(Context_AreEq, "DPCTLContext_AreEq"),
      DLA_SYM(Context_Delete, "DPCTLContext_Delete"),
      DLA_SYM(Event_Wait, "DPCTLEvent_Wait"),
      DLA_SYM(Event_Delete, "DPCTLEvent_Delete"),
      DLA_SYM(malloc_device, "DPCTLmalloc_device"),
      DLA_SYM(malloc_shared, "DPCTLmalloc_shared"),
      DLA_SYM(malloc_host, "DPCTLmalloc_host"),
      DLA_SYM(free_with_queue, "DPCTLfree_with_queue"),
      DLA_SYM(USM_GetPointerType, "DPCTLUSM_GetPointerType"),
      DLA_SYM(USM_GetPointerDevice, "DPCTLUSM_GetPointerDevice"),
  };
#undef DLA_SYM
  for (const Sym& s : syms) {
    *s.slot = dlsym(h, s.name);
    if (!*s.slot) {
      why_ = std::string("dpctl's SYCL interface lacks ") + s.name + " (an unsupported dpctl version)";
      return false;
    }
  }
  Ref devices = g_api.DeviceMgr_GetDevices(kAllDevices);
  const size_t n = devices ? g_api.DeviceVector_Size(devices) : 0;
  for (size_t i = 0; i < n; ++i) {
    Ref d = g_api.DeviceVector_GetAt(devices, i);
    Ref q = d ? g_api.Queue_CreateForDevice(d, nullptr, 0) : nullptr;
    g_is_cpu.push_back(d && g_api.Device_GetDeviceType(d) == kCpuDeviceType);
    if (d) g_api.Device_Delete(d);
    if (!q) break;  // numbering must match dpctl's: stop at the first device we cannot use
    g_queues.push_back(q);
  }
  if (devices) g_api.DeviceVector_Delete(devices);
  if (g_queues.empty()) why_ = "the SYCL runtime lists no devices";
  loaded_ = true;
  return true;
}

int SyclRuntime::device_count() {
  std::lock_guard<std::mutex> lock(g_mu);
  return load() ? static_cast<int>(g_queues.size()) : 0;
}

std::string SyclRuntime::why_unavailable() {
  std::lock_guard<std::mutex> lock(g_mu);
  load();
  return why_;
}

void* SyclRuntime::queue(int index) {
  if (index < 0 || index >= device_count())
    throw ValueError("device 'oneapi:" + std::to_string(index) + "' does not exist (" +
                     std::to_string(device_count()) + " SYCL devices" +
                     (why_unavailable().empty() ? "" : ": " + why_unavailable()) + ")");
  return g_queues[index];
}

void* SyclRuntime::copy_queue(int index) { return g_api.Queue_Copy(queue(index)); }
void SyclRuntime::delete_queue(void* q) {
  if (q) g_api.Queue_Delete(q);
}

DataPtr SyclRuntime::allocate(size_t n, int index, UsmKind kind) {
  Ref q = queue(index);
  const size_t bytes = n ? n : 1;  // USM malloc of 0 bytes may return NULL
  Ref p = kind == UsmKind::Shared ? g_api.malloc_shared(bytes, q)
          : kind == UsmKind::Host ? g_api.malloc_host(bytes, q)
                                  : g_api.malloc_device(bytes, q);
  if (!p)
    throw MemoryError("oneapi:" + std::to_string(index) + ": cannot allocate " + std::to_string(n) + " bytes of " +
                      usm_kind_name(kind) + " USM");
  g_allocator.stats_.on_alloc(static_cast<int64_t>(n));
  return DataPtr{p, new Block{q, n}, &release_block};
}

void SyclRuntime::copy_bytes(void* dst, Device dst_dev, const void* src, Device src_dev, size_t n, StreamHandle) {
  if (n == 0) return;
  const Device d = dst_dev.kind == DeviceKind::ONEAPI ? dst_dev : src_dev;
  Ref ev = g_api.Queue_Memcpy(queue(d.index), dst, src, n);
  if (!ev) throw RuntimeError("oneapi: memcpy of " + std::to_string(n) + " bytes failed");
  g_api.Event_Wait(ev);
  g_api.Event_Delete(ev);
}

void SyclRuntime::synchronize(Device device, StreamHandle) { g_api.Queue_Wait(queue(device.index)); }

void SyclRuntime::copy_strided(const Array& dst, const Array& src, StreamHandle) {
  // No kernels: both sides through the host (dst's other bytes are written back unchanged).
  Array s = host_mirror(src), d = host_mirror(dst);
  copy_into(d, s);
  write_back(d, dst);
}

void SyclRuntime::fill(const Array& dst, const void* elem, StreamHandle) {
  Array values = Array::empty(dst.shape(), dst.dtype(), Device{});
  const int64_t item = dst.itemsize(), count = dst.size();
  for (int64_t i = 0; i < count; ++i) std::memcpy(values.data() + i * item, elem, static_cast<size_t>(item));
  if (dst.is_c_contiguous()) {
    copy_bytes(dst.data(), dst.device(), values.data(), Device{}, static_cast<size_t>(count * item), nullptr);
    return;
  }
  Array d = host_mirror(dst);
  copy_into(d, values);
  write_back(d, dst);
}

PointerInfo SyclRuntime::pointer_info(const void* p, void* ctx) {
  PointerInfo info;
  info.kind = static_cast<UsmKind>(g_api.USM_GetPointerType(const_cast<void*>(p), ctx));
  if (info.kind == UsmKind::Unknown) return info;
  if (Ref dev = g_api.USM_GetPointerDevice(const_cast<void*>(p), ctx)) {
    info.device = g_api.DeviceMgr_GetPositionInDevices(dev, kAllDevices);
    const bool cpu = g_api.Device_GetDeviceType(dev) == kCpuDeviceType;
    // Shared and host USM are host memory by definition; a CPU device's device USM is too.
    info.host_readable = info.kind != UsmKind::Device || cpu;
    g_api.Device_Delete(dev);
  }
  return info;
}

void* SyclRuntime::queue_context(void* q) { return g_api.Queue_GetContext(q); }
void SyclRuntime::delete_context(void* ctx) {
  if (ctx) g_api.Context_Delete(ctx);
}
void SyclRuntime::wait_queue(void* q) { g_api.Queue_Wait(q); }

int SyclRuntime::queue_device(void* q) {
  Ref dev = g_api.Queue_GetDevice(q);
  if (!dev) return -1;
  const int i = g_api.DeviceMgr_GetPositionInDevices(dev, kAllDevices);
  g_api.Device_Delete(dev);
  return i < device_count() ? i : -1;
}

bool SyclRuntime::is_our_context(void* ctx, int index) {
  Ref ours = g_api.Queue_GetContext(queue(index));
  const bool eq = ours && ctx && g_api.Context_AreEq(ctx, ours);
  if (ours) g_api.Context_Delete(ours);
  return eq;
}

int SyclRuntime::device_from_filter(const char* filter) {
  if (device_count() == 0) return -1;
  Ref sel = g_api.FilterSelector_Create(filter);
  if (!sel) return -1;
  Ref dev = g_api.Device_CreateFromSelector(sel);
  g_api.DeviceSelector_Delete(sel);
  if (!dev) return -1;
  const int i = g_api.DeviceMgr_GetPositionInDevices(dev, kAllDevices);
  g_api.Device_Delete(dev);
  return i < device_count() ? i : -1;
}

const char* SyclRuntime::usm_kind_name(UsmKind k) const {
  switch (k) {
    case UsmKind::Device: return "device";
    case UsmKind::Shared: return "shared";
    case UsmKind::Host: return "host";
    default: return "unknown";
  }
}

DataPtr SyclAllocator::allocate(size_t nbytes, Device device, StreamHandle) {
  if (!g_runtime) throw ValueError("device '" + device.str() + "' needs dpctl (pip install dpctl)");
  return g_runtime->allocate(nbytes, device.index, default_usm_kind());
}

void set_default_usm_kind(UsmKind k) { g_usm_kind = static_cast<int>(k); }
UsmKind default_usm_kind() { return static_cast<UsmKind>(g_usm_kind.load()); }

void configure(const std::string& library_path) {
  if (g_runtime) return;
  g_runtime = new SyclRuntime(library_path);  // never deleted: our allocations call back into it
  register_backend(DeviceKind::ONEAPI, DeviceBackend{&g_allocator, g_runtime});  // memory and copies, no kernels yet
}

SyclRuntime* runtime() { return g_runtime; }

}  // namespace dla::sycl
