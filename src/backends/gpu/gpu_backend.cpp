// gpu_backend.cpp — GPU streams, stream-ordered allocators and the DeviceRuntime over a vendor table.
#include "backends/gpu/gpu_backend.h"
#include "backends/gpu/gpu_elementwise.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <tuple>

#include "core/array.h"
#include "core/backend.h"
#include "core/checked_size.h"
#include "core/errors.h"
#include "core/strided_loop.h"

namespace dla::gpu {
namespace {

// Each thread's current stream per device, one table per vendor (PyTorch and CuPy keep
// theirs per thread too). A null entry is the default stream.
thread_local StreamRef t_current[2][kMaxDevices];

Backend* g_backends[2] = {};

int slot_of(int device_type) { return device_type == kDLCUDA ? 0 : 1; }

// What an allocation remembers to free itself in stream order (the DataPtr's context).
struct Block {
  GpuAllocator* owner;
  StreamBox* box;  // keeps a dlarray-created stream alive until this memory is freed
  void* stream;
  size_t nbytes;
  int device;
  uint64_t ticket;  // the ledger's ticket when it was allocated: later uses by other streams count
};

// Lowest set bit of v, at most 16: the widest power-of-two word every value is a multiple of.
int64_t word_for(uint64_t v) { return static_cast<int64_t>((v | 16) & (~(v | 16) + 1)); }

// Pinned blocks are cached by power-of-two size class (at least a page).
size_t host_size_class(size_t n) {
  size_t c = 4096;
  while (c < n && c <= (SIZE_MAX >> 1)) c <<= 1;
  return c < n ? n : c;
}

}  // namespace

void StreamRef::release_box(StreamBox* b) {
  if (!b || b->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  // Destroying a stream with queued work is allowed: the runtime lets the work finish. But the
  // ledger must not name it afterwards (errors dropped: this runs in destructors).
  try {
    if (b->backend) b->backend->forget_stream(b->device, b->handle);
  } catch (...) {
  }
  if (b->owned) b->ops->stream_destroy(b->device, b->handle);
  delete b;
}

void StreamRef::reset() { release_box(std::exchange(b_, nullptr)); }

// ---- allocators ------------------------------------------------------------------------------

DataPtr GpuAllocator::allocate(size_t nbytes, Device device, StreamHandle stream) {
  Backend& b = *backend_;
  if (device.kind != kind_)
    throw ValueError("the " + std::string(device_kind_name(kind_)) + " allocator was asked for memory on '" +
                     device.str() + "'");
  runtime_for(device);  // ValueError naming the device when it does not exist
  // At least one byte (empty arrays still get a unique, valid pointer); MemoryError for a
  // size no runtime could provide, before the runtime is asked.
  size_t n = checked_alloc_size(nbytes, 1, device.str().c_str());
  const DlaGpuOps& ops = b.ops();
  void* p = nullptr;
  void* native = nullptr;
  StreamRef keep;
  int err;
  if (kind_ == b.device_kind()) {
    b.ensure_device(device.index);
    std::tie(native, keep) = b.resolve_only(device.index, stream);
    err = ops.malloc_async(device.index, n, native, &p);
  } else if (kind_ == b.host_kind()) {
    n = host_size_class(n);
    p = take_cached_host(n);
    err = p ? 0 : ops.malloc_host(n, &p);
  } else {
    err = ops.malloc_managed(device.index, n, &p);
  }
  if (err) b.check(err, ("allocating " + std::to_string(nbytes) + " bytes on " + device.str()).c_str());
  stats_.on_alloc(static_cast<int64_t>(n));
  auto* block = new Block{this, keep.release(), native, n, device.index, b.ticket()};
  return DataPtr{p, block, &GpuAllocator::release};
}

void GpuAllocator::release(void* ctx, void* p) {
  std::unique_ptr<Block> block(static_cast<Block*>(ctx));
  GpuAllocator* a = block->owner;
  const DlaGpuOps& ops = a->backend_->ops();
  // Errors are dropped: a deleter cannot raise, and at interpreter exit the runtime may be gone.
  if (a->kind_ == a->backend_->device_kind()) {
    // The free is queued on the allocating stream: first that stream waits for every other
    // stream that touched this device's memory since the block was made, or the pool could hand
    // the block out while their work still reads it.
    try {
      a->backend_->order_after_users(block->device, block->ticket, block->device, block->stream);
    } catch (...) {
    }
    ops.free_async(block->device, p, block->stream);
  } else if (a->kind_ == a->backend_->host_kind()) {
    a->cache_host(p, block->nbytes, block->ticket);
  }
  else
    ops.free_managed(p);
  a->stats_.on_free(static_cast<int64_t>(block->nbytes));
  StreamRef::release_box(block->box);
}

bool GpuAllocator::host_block_free(const CachedHost& c) const {
  for (const auto& [device, event] : c.events) {
    int done = 0;
    if (backend_->ops().event_query(device, event, &done) != 0 || !done) return false;
  }
  return true;
}

void* GpuAllocator::take_cached_host(size_t size_class) {
  Backend& b = *backend_;
  std::lock_guard<std::mutex> lock(cache_mu_);
  for (auto [it, end] = host_cache_.equal_range(size_class); it != end; ++it) {
    if (!host_block_free(it->second)) continue;
    void* p = it->second.ptr;
    for (const auto& [device, event] : it->second.events) b.give_event(device, event);
    host_cache_.erase(it);
    return p;
  }
  return nullptr;
}

void GpuAllocator::cache_host(void* p, size_t size_class, uint64_t since) {
  Backend& b = *backend_;
  const DlaGpuOps& ops = b.ops();
  // An event on every stream that touched host memory since the block was handed out (a copy
  // from it queued on another device, or on a user's stream), so that it is handed out again
  // only once all of them have passed this point. Errors are dropped (a deleter cannot raise):
  // without its events the block is simply freed, which waits for the device.
  CachedHost cached{p, {}};
  bool ok = true;
  try {
    for (auto [device, handle] : b.users_since(Backend::kHostMemory, since, -1, nullptr)) {
      void* ev = b.take_event(device);
      if (ops.event_record(device, ev, handle) != 0) {
        b.give_event(device, ev);
        ok = false;
        break;
      }
      cached.events.emplace_back(device, ev);
    }
  } catch (...) {
    ok = false;
  }
  if (!ok) {
    for (const auto& [device, event] : cached.events) b.give_event(device, event);
    ops.free_host(p);
    return;
  }
  std::lock_guard<std::mutex> lock(cache_mu_);
  host_cache_.emplace(size_class, std::move(cached));
}

void GpuAllocator::release_cached_host() {
  Backend& b = *backend_;
  std::lock_guard<std::mutex> lock(cache_mu_);
  for (auto it = host_cache_.begin(); it != host_cache_.end();) {
    if (!host_block_free(it->second)) {
      ++it;
      continue;
    }
    b.ops().free_host(it->second.ptr);
    for (const auto& [device, event] : it->second.events) b.give_event(device, event);
    it = host_cache_.erase(it);
  }
}

// ---- backend -----------------------------------------------------------------------------------

Backend::Backend(const DlaGpuOps* ops)
    : ops_(ops),
      device_kind_(static_cast<DeviceKind>(ops->device_type)),
      host_kind_(static_cast<DeviceKind>(ops->host_type)),
      managed_kind_(static_cast<DeviceKind>(ops->managed_type ? ops->managed_type : ops->device_type)),
      slot_(slot_of(ops->device_type)),
      device_alloc_(this, device_kind_),
      host_alloc_(this, host_kind_),
      managed_alloc_(this, managed_kind_) {}

bool Backend::owns(DeviceKind k) const {
  return k == device_kind_ || k == host_kind_ || (has_managed() && k == managed_kind_);
}

GpuAllocator& Backend::allocator_for_kind(DeviceKind k) {
  if (k == device_kind_) return device_alloc_;
  if (k == host_kind_) return host_alloc_;
  return managed_alloc_;
}

void Backend::check(int err, const char* what) const {
  if (err == 0) return;
  std::string msg = std::string(ops_->name) + ": " + what + " failed: " + ops_->error_string(err);
  if (ops_->is_out_of_memory(err)) throw MemoryError(msg);
  throw RuntimeError(msg);
}

int Backend::device_count() {
  // Asked on every DLPack import (does the producer need a stream?): after the first count,
  // one acquire load instead of std::call_once, which sets thread-locals on every call.
  if (counted_.load(std::memory_order_acquire)) return count_;
  std::call_once(count_once_, [this] {
    int n = 0;
    if (int err = ops_->device_count(&n)) {
      why_ = ops_->error_string(err);
      n = 0;
    } else if (n == 0) {
      why_ = "no device found";
    }
    count_ = std::min(n, kMaxDevices);
    counted_.store(true, std::memory_order_release);
  });
  return count_;
}

std::string Backend::why_unavailable() {
  device_count();
  return why_;
}

void Backend::ensure_device(int index) {
  std::call_once(device_once_[index], [&] { check(ops_->init_device(index), "setting up the memory pool"); });
}

StreamRef Backend::current(int index) {
  if (index < 0 || index >= kMaxDevices) return {};
  const StreamRef& s = t_current[slot_][index];
  // An entry set while another table was installed (tests swap backends) reads as default.
  if (s && s.get()->ops != ops_) return {};
  return s;
}

void Backend::set_current(int index, StreamRef s) {
  if (index < 0 || index >= kMaxDevices)
    throw ValueError("device index " + std::to_string(index) + " is out of range");
  t_current[slot_][index] = std::move(s);
}

std::pair<void*, StreamRef> Backend::resolve(int index, StreamHandle stream) {
  auto r = resolve_only(index, stream);
  note_use(index, r.first, r.second, index);
  return r;
}

std::pair<void*, StreamRef> Backend::resolve_only(int index, StreamHandle stream) {
  if (stream == nullptr) {
    StreamRef cur = current(index);
    void* h = cur.handle();
    return {h, std::move(cur)};
  }
  if (stream == kDefaultStream) return {nullptr, StreamRef()};
  return {stream, StreamRef()};
}

StreamRef Backend::create_stream(int index, bool non_blocking) {
  void* h = nullptr;
  check(ops_->stream_create(index, non_blocking ? 1 : 0, &h), "creating a stream");
  auto* box = new StreamBox();
  box->backend = this;
  box->ops = ops_;
  box->handle = h;
  box->device = index;
  box->owned = true;
  return StreamRef(box);
}

StreamRef Backend::wrap_stream(int index, void* handle) {
  if (handle == nullptr) return {};
  auto* box = new StreamBox();
  box->backend = this;
  box->ops = ops_;
  box->handle = handle;
  box->device = index;
  return StreamRef(box);
}

bool Backend::query(int index, void* handle) {
  int done = 0;
  check(ops_->stream_query(index, handle, &done), "querying a stream");
  return done != 0;
}

void* Backend::take_event(int index) {
  {
    std::lock_guard<std::mutex> lock(events_mu_);
    auto& pool = events_[index];
    if (!pool.empty()) {
      void* ev = pool.back();
      pool.pop_back();
      return ev;
    }
  }
  void* ev = nullptr;
  check(ops_->event_create(index, &ev), "creating an event");
  return ev;
}

void Backend::give_event(int index, void* ev) {
  std::lock_guard<std::mutex> lock(events_mu_);
  events_[index].push_back(ev);
}

void Backend::wait(int producer_dev, void* producer, int consumer_dev, void* consumer) {
  auto legacy = [this](void* s) {
    // On CUDA the null handle is the legacy default stream, which DLPack spells 0x1.
    return device_kind_ == DeviceKind::CUDA && (s == nullptr || s == reinterpret_cast<void*>(0x1));
  };
  if (producer_dev == consumer_dev && (producer == consumer || (legacy(producer) && legacy(consumer)))) return;
  // A wait captures the event as recorded at the time of the call, so the event can go
  // back to the pool (and be recorded again) at once.
  void* ev = take_event(producer_dev);
  struct GiveBack {
    Backend* b;
    int dev;
    void* ev;
    ~GiveBack() { b->give_event(dev, ev); }
  } give_back{this, producer_dev, ev};
  check(ops_->event_record(producer_dev, ev, producer), "recording an event");
  check(ops_->stream_wait_event(consumer_dev, consumer, ev), "making a stream wait for an event");
}

// ---- the ledger of stream uses -------------------------------------------------------------

void Backend::note_use(int device, void* handle, const StreamRef& ref, int memory) {
  // A handle passed without its box (an explicit stream= argument) would not tell the ledger
  // when it dies, so it is not recorded: whoever passes a raw stream orders its uses.
  if (handle && !ref) return;
  const uint64_t t = ticket_.fetch_add(1, std::memory_order_relaxed) + 1;
  std::lock_guard<std::mutex> lock(uses_mu_);
  for (StreamUse& u : uses_)
    if (u.device == device && u.handle == handle && u.memory == memory) {
      u.last = t;
      return;
    }
  // A stream only the ledger still holds, whose work has all finished, no longer matters
  // (a dlarray stream is queried; a wrapped foreign one cannot be, and is dropped).
  uses_.push_back(StreamUse{device, handle, memory, t});
}

void Backend::forget_stream(int device, void* handle) {
  bool named = false;
  {
    std::lock_guard<std::mutex> lock(uses_mu_);
    for (const StreamUse& u : uses_) named = named || (u.device == device && u.handle == handle);
  }
  if (!named) return;
  check(ops_->stream_synchronize(device, handle), "synchronizing a stream");
  std::lock_guard<std::mutex> lock(uses_mu_);
  uses_.erase(std::remove_if(uses_.begin(), uses_.end(),
                             [&](const StreamUse& u) { return u.device == device && u.handle == handle; }),
              uses_.end());
}

std::vector<std::pair<int, void*>> Backend::users_since(int memory, uint64_t since, int device, void* handle) {
  std::vector<std::pair<int, void*>> out;
  std::lock_guard<std::mutex> lock(uses_mu_);
  for (const StreamUse& u : uses_)
    if (u.memory == memory && u.last > since && !(u.device == device && u.handle == handle))
      out.emplace_back(u.device, u.handle);
  return out;
}

void Backend::order_after_users(int memory, uint64_t since, int device, void* handle) {
  for (auto [user_device, user_handle] : users_since(memory, since, device, handle))
    wait(user_device, user_handle, device, handle);
}

bool Backend::peers(int a, int b) {
  std::lock_guard<std::mutex> lock(peers_mu_);
  int8_t& known = peers_[a][b];
  if (known == 0) {
    ensure_device(a);  // the pools exist before access to them is granted
    ensure_device(b);
    int ab = 0, ba = 0;
    check(ops_->peer_access(a, b, &ab), "granting peer access between two devices");
    check(ops_->peer_access(b, a, &ba), "granting peer access between two devices");
    known = peers_[b][a] = (ab && ba) ? 1 : -1;
  }
  return known > 0;
}

void Backend::synchronize(Device device, StreamHandle stream) {
  auto [native, keep] = resolve_only(device.index, stream);
  check(ops_->stream_synchronize(device.index, native), "synchronizing a stream");
}

void Backend::stream_wait(Device device, StreamHandle producer, StreamHandle consumer) {
  auto p = resolve_only(device.index, producer);
  auto c = resolve_only(device.index, consumer);
  wait(device.index, p.first, device.index, c.first);
}

void Backend::copy_bytes(void* dst, Device dd, const void* src, Device sd, size_t n, StreamHandle stream) {
  if (n == 0) return;
  const bool dst_on_device = dd.kind == device_kind_, src_on_device = sd.kind == device_kind_;
  if (dst_on_device && src_on_device && dd.index != sd.index && !peers(sd.index, dd.index)) {
    // Two devices that cannot reach each other's pools: through pinned memory, in two legs
    // (each complete before it returns, see below).
    const Device bounce_dev{host_kind_, sd.index};
    DataPtr bounce = host_alloc_.allocate(n, bounce_dev, nullptr);
    struct Release {
      DataPtr& p;
      ~Release() { p.deleter(p.ctx, p.ptr); }
    } release{bounce};
    copy_bytes(bounce.ptr, bounce_dev, src, sd, n, nullptr);
    copy_bytes(dst, dd, bounce.ptr, bounce_dev, n, stream);
    return;
  }
  // The copy runs on a stream of the device side (the destination's when both are devices).
  const Device exec = dst_on_device ? dd : src_on_device ? sd : owns(dd.kind) ? dd : sd;
  auto [native, keep] = resolve_only(exec.index, stream);
  for (Device side : {dd, sd}) {
    if (side.kind == device_kind_) note_use(exec.index, native, keep, side.index);
    else if (owns(side.kind)) note_use(exec.index, native, keep, kHostMemory);
  }
  if (owns(sd.kind) && sd.index != exec.index) {
    // Whatever is still writing the source is queued on its own device's current stream.
    wait(sd.index, current(sd.index).handle(), exec.index, native);
  }
  check(ops_->memcpy_async(exec.index, dst, src, n, native), "copying memory");
  // Into host memory, and out of pinned or managed memory, the copy is complete when this
  // returns (PyTorch's default, non_blocking=False): the host may read or write that memory
  // next by any path (a CPU kernel on a pinned array, float(), the buffer protocol, a reused
  // pinned block), and none of them has to wait first. Out of pageable memory the runtime has
  // taken the bytes before it returns, so device-bound uploads stay asynchronous.
  if (!dst_on_device || (!src_on_device && owns(sd.kind)))
    check(ops_->stream_synchronize(exec.index, native), "synchronizing a stream");
}

void Backend::copy_strided(const Array& dst, const Array& src, StreamHandle stream) {
  const Device d = dst.device();
  if (src.device() != d)
    throw ValueError("strided copy between '" + src.device().str() + "' and '" + d.str() +
                     "': both arrays must be on one device");
  if (dst.size() == 0) return;
  const int64_t item = dst.itemsize();
  Dims ds(dst.ndim()), ss(dst.ndim());
  for (int i = 0; i < dst.ndim(); ++i) {
    ds[i] = dst.stride(i) * item;
    ss[i] = src.stride(i) * item;
  }
  auto L = coalesce<2>(dst.shape(), {ds.data(), ss.data()});
  uint64_t bits = static_cast<uint64_t>(item) | reinterpret_cast<uintptr_t>(dst.data()) |
                  reinterpret_cast<uintptr_t>(src.data());
  for (int k = 0; k < L.ndim; ++k)
    bits |= static_cast<uint64_t>(L.strides[0][k]) | static_cast<uint64_t>(L.strides[1][k]);
  const int64_t word = word_for(bits);

  auto job = std::make_unique<DlaGpuStrided>();
  std::memset(job.get(), 0, sizeof(DlaGpuStrided));
  job->dst = dst.data();
  job->src = src.data();
  job->word = static_cast<int32_t>(word);
  for (int k = 0; k < L.ndim; ++k) {
    job->shape[k] = L.shape[k];
    job->dst_strides[k] = L.strides[0][k];
    job->src_strides[k] = L.strides[1][k];
  }
  job->ndim = L.ndim;
  if (job->ndim == 0) {  // one element
    job->ndim = 1;
    job->shape[0] = 1;
    job->dst_strides[0] = job->src_strides[0] = item;
  }
  // Elements wider than the word become an innermost axis of words, merged into the last
  // axis when both sides are dense there.
  if (const int64_t per = item / word; per > 1) {
    const int last = job->ndim - 1;
    if (job->dst_strides[last] == item && job->src_strides[last] == item) {
      job->shape[last] *= per;
      job->dst_strides[last] = job->src_strides[last] = word;
    } else {
      job->shape[job->ndim] = per;
      job->dst_strides[job->ndim] = job->src_strides[job->ndim] = word;
      ++job->ndim;
    }
  }
  job->count = 1;
  for (int k = 0; k < job->ndim; ++k) job->count *= job->shape[k];

  auto [native, keep] = resolve_only(d.index, stream);
  note_use(d.index, native, keep, d.kind == device_kind_ ? d.index : kHostMemory);
  if (job->ndim == 1 && job->dst_strides[0] == word && job->src_strides[0] == word) {
    check(ops_->memcpy_async(d.index, job->dst, job->src, static_cast<size_t>(job->count * word), native),
          "copying memory");
    return;
  }
  check(ops_->strided_async(d.index, job.get(), native), "launching a strided copy");
}

void Backend::fill(const Array& dst, const void* elem, StreamHandle stream) {
  const Device d = dst.device();
  if (dst.size() == 0) return;
  const int64_t item = dst.itemsize();
  if (item < 1 || item > 16) throw TypeError("fill: unsupported element size for dtype " + dst.dtype().name());
  auto [native, keep] = resolve_only(d.index, stream);
  note_use(d.index, native, keep, d.kind == device_kind_ ? d.index : kHostMemory);
  const auto* bytes = static_cast<const unsigned char*>(elem);
  const bool uniform = std::all_of(bytes, bytes + item, [&](unsigned char c) { return c == bytes[0]; });
  if (uniform && dst.is_c_contiguous()) {
    check(ops_->memset_async(d.index, dst.data(), bytes[0], static_cast<size_t>(dst.nbytes()), native),
          "filling memory");
    return;
  }
  Dims ds(dst.ndim());
  for (int i = 0; i < dst.ndim(); ++i) ds[i] = dst.stride(i) * item;
  auto L = coalesce<1>(dst.shape(), {ds.data()});
  uint64_t bits = static_cast<uint64_t>(item) | reinterpret_cast<uintptr_t>(dst.data());
  for (int k = 0; k < L.ndim; ++k) bits |= static_cast<uint64_t>(L.strides[0][k]);
  const int64_t word = word_for(bits);

  auto job = std::make_unique<DlaGpuStrided>();
  std::memset(job.get(), 0, sizeof(DlaGpuStrided));
  job->dst = dst.data();
  job->word = static_cast<int32_t>(word);
  job->words = static_cast<int32_t>(item / word);
  std::memcpy(job->value, elem, static_cast<size_t>(item));
  job->ndim = std::max(L.ndim, 1);
  job->shape[0] = 1;
  for (int k = 0; k < L.ndim; ++k) {
    job->shape[k] = L.shape[k];
    job->dst_strides[k] = L.strides[0][k];
  }
  job->count = 1;
  for (int k = 0; k < job->ndim; ++k) job->count *= job->shape[k];
  check(ops_->strided_async(d.index, job.get(), native), "launching a fill");
}

void Backend::pool_usage(int index, uint64_t* reserved, uint64_t* used) {
  check(ops_->pool_usage(index, reserved, used), "reading the memory pool's usage");
}

void Backend::empty_cache(int index) {
  // Memory freed on a stream returns to the pool only once that stream reaches the free.
  check(ops_->stream_synchronize(index, current(index).handle()), "synchronizing a stream");
  check(ops_->pool_trim(index), "trimming the memory pool");
  host_alloc_.release_cached_host();
}

// ---- registry ----------------------------------------------------------------------------------

Backend* backend_for(DeviceKind kind) {
  for (Backend* b : g_backends)
    if (b && b->owns(kind)) return b;
  return nullptr;
}

bool Backend::pointer_device(const void* p, Device* out) const {
  if (!ops_->pointer_device) return false;
  int type = 0, device = 0;
  check(ops_->pointer_device(p, &type, &device), "querying a pointer's device");
  if (type == 0 || !owns(static_cast<DeviceKind>(type))) return false;
  *out = Device{static_cast<DeviceKind>(type), device};
  return true;
}

bool install_backend(const DlaGpuOps* ops, std::string* why) {
  if (!ops || ops->abi != DLA_GPU_OPS_ABI) {
    *why = "GPU backend table has ABI " + std::to_string(ops ? ops->abi : 0) + ", dlarray._core expects " +
           std::to_string(DLA_GPU_OPS_ABI) + " (rebuild the backend with this dlarray)";
    return false;
  }
  const bool cuda = ops->device_type == kDLCUDA && ops->host_type == kDLCUDAHost &&
                    (ops->managed_type == 0 || ops->managed_type == kDLCUDAManaged);
  const bool rocm = ops->device_type == kDLROCM && ops->host_type == kDLROCMHost && ops->managed_type == 0;
  const bool complete = ops->error_string && ops->is_out_of_memory && ops->device_count && ops->init_device &&
                        ops->malloc_async && ops->free_async && ops->malloc_host && ops->free_host &&
                        (ops->managed_type == 0 || (ops->malloc_managed && ops->free_managed)) &&
                        ops->memcpy_async && ops->memset_async && ops->strided_async && ops->elementwise_async &&
                        ops->stream_create &&
                        ops->stream_destroy && ops->stream_synchronize && ops->stream_query && ops->event_create &&
                        ops->event_destroy && ops->event_record && ops->stream_wait_event && ops->event_query &&
                        ops->pool_usage &&
                        ops->pool_trim && ops->gemm_async && ops->fft_async && ops->solver_async && ops->peer_access &&
                        ops->name;
  if (!(cuda || rocm) || !complete) {
    *why = "GPU backend table is malformed (device types or missing functions)";
    return false;
  }
  Backend*& slot = g_backends[slot_of(ops->device_type)];
  if (slot) {
    if (&slot->ops() == ops) return true;
    *why = std::string("a ") + ops->name + " backend is already installed";
    return false;
  }
  auto* b = new Backend(ops);  // never deleted: memory it handed out calls back into it
  // Device memory: the whole backend. Pinned and managed memory: memory and streams only, their
  // compute is the CPU's (the host reads them).
  DeviceBackend device;
  device.allocator = &b->allocator_for_kind(b->device_kind());
  device.runtime = b;
  device.elementwise = &execute_elementwise_plan;
  device.cast = &cast_on_device;
  device.reductions = &kReductionKernels;
  device.search_sort = &kSearchSortKernels;
  device.linalg = &kLinalgKernels;
  device.random = &gpu_random_fill;
  register_backend(b->device_kind(), device);
  register_backend(b->host_kind(), DeviceBackend{&b->allocator_for_kind(b->host_kind()), b});
  if (b->has_managed()) {
    auto k = static_cast<DeviceKind>(ops->managed_type);
    register_backend(k, DeviceBackend{&b->allocator_for_kind(k), b});
  }
  slot = b;
  return true;
}

void uninstall_backend(int device_type) {
  Backend*& slot = g_backends[slot_of(device_type)];
  if (!slot || slot->ops().device_type != device_type) return;
  for (int k : {slot->ops().device_type, slot->ops().host_type, slot->ops().managed_type}) {
    if (k == 0) continue;
    unregister_backend(static_cast<DeviceKind>(k));
  }
  slot->allocator_for_kind(slot->host_kind()).release_cached_host();  // nothing can reuse them now
  // Memory the backend handed out may still be freed through it, so it is never deleted; it
  // stays reachable here (pooled events included) rather than becoming a leak.
  // (A pointer, not a vector: a static vector's destructor would run before the leak check.)
  static auto* retired = new std::vector<Backend*>();
  retired->push_back(slot);
  slot = nullptr;
}

}  // namespace dla::gpu
