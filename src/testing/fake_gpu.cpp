// fake_gpu.cpp — dlarray._fake_gpu: a host-memory stand-in for a GPU vendor table, for tests.
//
// It implements gpu_ops.h on the CPU and installs itself as the ROCm backend with two
// devices, so the core half of the GPU backend (current streams, stream-ordered allocation
// and free, event ordering for DLPack, copy routing, strided copy and fill jobs) runs and is
// checked on machines without a GPU. It is asynchronous as a device is (fake_streams.h: each
// stream a queue run by a worker thread; eager, lazy or synchronous), and its device memory is
// not readable from the host (fake_device_memory.h: a host read of a device pointer faults; work
// that runs after its block's free is reported). It logs every call, and it rejects what a real
// runtime would: unknown or destroyed streams, misaligned words, pointers outside device
// blocks, the core's kDefaultStream sentinel leaking through, copies between the memory pools
// of two devices before peer access was granted.
// Its elementwise jobs run the GPU's own element bodies on the host, its segmented sort
// stands in for CUB's and rocPRIM's with std::stable_sort, its scan for theirs with a
// sequential loop, its GEMM for cuBLAS's with a plain column-major triple loop, its FFT for
// rocFFT's with separable O(n^2) DFTs (overwriting every input, as rocFFT may), and its dense
// solver for cuSOLVER's with the CPU backend's own LAPACK code (lapack_cpu.cpp, compiled in
// here, over the same OpenBLAS), so GPU linalg results can be compared with the CPU's exactly.
// Every job is checked when it is queued (the errors a launch returns) and run, on a copy of
// it whose pointers are the device memory's readable mirror, when its stream reaches it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "backends/gpu/fft_plans.h"
#include "backends/gpu/gpu_fold.h"
#include "backends/gpu/gpu_ops.h"
#include "backends/gpu/gpu_scan.h"
#include "core/linalg.h"
#include "testing/fake_device_memory.h"
#include "testing/fake_streams.h"

namespace dla::cpu {
void lapack_cpu(const LapackJob& job);  // lapack_cpu.cpp
}

namespace py = pybind11;

namespace {

using dla::fake::DeviceArena;
using dla::fake::DeviceBlock;
using dla::fake::Queue;
using dla::fake::Work;

constexpr int kDevices = 2;
enum Err {
  kOk = 0, kBadDevice = 1, kOutOfMemory = 2, kMisaligned = 3, kBadStream = 4, kBadPointer = 5,
  kAsyncFault = 6, kNoPeerAccess = 7,
};

struct Event {
  int device;
  std::shared_ptr<Queue> queue;  // where it was last recorded, and how far that queue had come
  uint64_t position = 0;
  bool recorded = false;
};

struct Entry {
  std::string op;
  int device;
  uintptr_t a, b;
};

std::mutex g_mu;
std::vector<Entry> g_log;
std::map<void*, std::shared_ptr<Queue>> g_streams;  // live streams (a handle is its queue's address)
std::shared_ptr<Queue> g_null_stream[kDevices];     // each device's default stream, made on first use
std::map<const void*, size_t> g_host_blocks;         // live "pinned" allocations: size
bool g_peer_access[kDevices][kDevices] = {};         // [owner][peer]: peer may use owner's pool memory
bool g_peer_possible = true;                         // whether peer_access can grant it (P2P hardware)

DeviceArena& arena() { return DeviceArena::get(); }

void log(const char* op, int device, const void* a = nullptr, const void* b = nullptr) {
  g_log.push_back({op, device, reinterpret_cast<uintptr_t>(a), reinterpret_cast<uintptr_t>(b)});
}

bool bad_device(int d) { return d < 0 || d >= kDevices; }
bool bad_stream(void* s) { return s != nullptr && !g_streams.count(s); }

// The queue of `stream` (null: the device's default stream); null when the stream is unknown,
// destroyed, or another device's (work is launched on a stream of the device it runs on).
std::shared_ptr<Queue> queue_of(int device, void* stream) {
  if (bad_device(device)) return nullptr;
  if (!stream) {
    if (!g_null_stream[device]) g_null_stream[device] = dla::fake::make_queue(device, false);
    return g_null_stream[device];
  }
  auto it = g_streams.find(stream);
  if (it == g_streams.end() || it->second->device() != device) return nullptr;
  return it->second;
}

thread_local std::string t_fault;  // the text error_string gives for kAsyncFault on this thread

// The fault of queued work that ran since the last report, as the next wait's error.
int reported_fault() {
  if (!dla::fake::take_unreported_fault(&t_fault)) return kOk;
  return kAsyncFault;
}

const char* error_string(int err) {
  switch (err) {
    case kOk: return "no error";
    case kBadDevice: return "fake: invalid device";
    case kOutOfMemory: return "fake: out of memory";
    case kMisaligned: return "fake: misaligned word access";
    case kBadStream: return "fake: invalid (unknown or destroyed) stream";
    case kBadPointer: return "fake: pointer not allocated here";
    case kAsyncFault: return t_fault.c_str();
    case kNoPeerAccess:
      return "fake: copy between the memory pools of two devices without peer access (grant it first: "
             "peer_access)";
    case DLA_GPU_LIBRARY_MISSING: return "fake: cuBLAS could not be loaded (pip install nvidia-cublas)";
    case DLA_GPU_BLAS_STATUS - 3: return "fake: BLAS status 3 (out of memory)";
    case DLA_GPU_SOLVER_STATUS - 2: return "fake: solver status 2 (out of memory)";
    case DLA_GPU_SOLVER_STATUS - 7: return "fake: solver status 7 (internal error)";
  }
  return "fake: unknown error";
}
int is_out_of_memory(int err) {
  return err == kOutOfMemory || err == DLA_GPU_BLAS_STATUS - 3 || err == DLA_GPU_SOLVER_STATUS - 2;
}
int device_count(int* out) {
  *out = kDevices;
  return kOk;
}
int init_device(int device) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (bad_device(device)) return kBadDevice;
  log("init_device", device);
  return kOk;
}

void* alloc(size_t n) { return std::aligned_alloc(256, (n + 255) / 256 * 256); }

// Whether [p, p + n) lies inside one live "device" block (a real device could not reach
// anything else through the pointer).
bool in_device_block(const void* p, size_t n) {
  DeviceBlock b;
  return p && arena().find(p, n, &b);
}
bool in_host_block(const void* p, size_t n) {
  auto it = g_host_blocks.upper_bound(p);
  if (it == g_host_blocks.begin()) return false;
  --it;
  return static_cast<const char*>(p) + n <= static_cast<const char*>(it->first) + std::max<size_t>(it->second, 1);
}

// The device blocks a job touches, and its pointers as the fake's kernels reach them (the
// mirror of device memory; pinned memory as it is). Pointers were checked before.
struct Touch {
  std::vector<uint64_t> ids;
  template <class T>
  T* operator()(T* p) {
    DeviceBlock b;
    if (p && arena().find(p, 1, &b)) {
      if (std::find(ids.begin(), ids.end(), b.id) == ids.end()) ids.push_back(b.id);
      return arena().mirror(p);
    }
    return p;
  }
};

// Queues `run` on `q` (outside g_mu: in synchronous mode it runs here, and a free takes locks),
// after what the legacy default stream semantics order before it: work on a device's default
// stream waits for the work queued so far on its blocking streams, and theirs for the default's.
uint64_t submit(const std::shared_ptr<Queue>& q, std::function<void()> run, Touch& touched, const char* what) {
  Work w{std::move(run), std::move(touched.ids), what, {}};
  {
    std::lock_guard<std::mutex> lock(g_mu);
    const std::shared_ptr<Queue>& null = g_null_stream[q->device()];
    if (q == null) {
      for (auto& [handle, other] : g_streams)
        if (other->device() == q->device() && other->blocking()) w.after.emplace_back(other, other->submitted());
    } else if (q->blocking() && null) {
      w.after.emplace_back(null, null->submitted());
    }
  }
  return q->submit(std::move(w));
}

int malloc_async(int device, size_t n, void* stream, void** out) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (bad_device(device)) return kBadDevice;
  auto q = queue_of(device, stream);
  if (!q) return kBadStream;
  std::string fault;
  *out = arena().allocate(n, device, q.get(), q->pending_frees, &fault);
  if (!fault.empty()) dla::fake::record_fault(fault);
  if (!*out) return kOutOfMemory;
  log("malloc", device, stream);
  return kOk;
}
int free_async(int device, void* p, void* stream) {
  std::shared_ptr<Queue> q;
  std::shared_ptr<dla::fake::PendingFree> pending;
  uint64_t id = 0;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (bad_device(device)) return kBadDevice;
    q = queue_of(device, stream);
    if (!q) {
      log("free_bad_stream", device, stream);
      return kBadStream;
    }
    pending = arena().begin_free(p, &id, q->pending_frees);
    if (!pending) return kBadPointer;
    log("free", device, stream);
  }
  Touch none;
  submit(q, [pending, id] { arena().finish_free(*pending, id); }, none, "free");
  return kOk;
}
int64_t g_host_allocations = 0;
int malloc_host(size_t n, void** out) {
  std::lock_guard<std::mutex> lock(g_mu);
  ++g_host_allocations;
  *out = alloc(n);
  if (!*out) return kOutOfMemory;
  std::memset(*out, dla::fake::kPoison, n);  // garbage until written, as fresh memory is
  g_host_blocks.emplace(*out, n);
  return kOk;
}
int free_host(void* p) {
  // Freeing page-locked memory waits for the device work queued so far, as the runtimes do.
  dla::fake::drain_all();
  std::lock_guard<std::mutex> lock(g_mu);
  if (!g_host_blocks.erase(p)) return kBadPointer;
  std::free(p);
  return kOk;
}

// How a copy's side is reached: a live device block (on *device), pinned memory, or pageable memory.
enum class Side { Device, Pinned, Pageable, Bad };
Side side_of(const void* p, size_t n, int* device) {
  DeviceBlock b;
  if (arena().in_range(p)) {
    if (!arena().find(p, n, &b)) return Side::Bad;
    *device = b.device;
    return Side::Device;
  }
  return in_host_block(p, n) ? Side::Pinned : Side::Pageable;
}

int memcpy_async(int device, void* dst, const void* src, size_t n, void* stream) {
  std::shared_ptr<Queue> q;
  Touch t;
  std::function<void()> run;
  bool wait = false;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (bad_device(device)) return kBadDevice;
    q = queue_of(device, stream);
    if (!q) return kBadStream;
    int dd = device, sd = device;
    const Side ds = side_of(dst, n, &dd), ss = side_of(src, n, &sd);
    if (ds == Side::Bad || ss == Side::Bad) return kBadPointer;
    // Memory of a stream-ordered pool is usable by its own device only until access is granted.
    for (int owner : {dd, sd})
      if (owner != device && !g_peer_access[owner][device]) return kNoPeerAccess;
    void* d = t(dst);
    if (ss == Side::Pageable) {
      // The runtime stages pageable memory before returning: the caller may reuse it at once.
      auto staged = std::make_shared<std::vector<char>>(static_cast<const char*>(src), static_cast<const char*>(src) + n);
      run = [d, staged, n] { std::memmove(d, staged->data(), n); };
    } else {
      const void* s = t(src);
      run = [d, s, n] { std::memmove(d, s, n); };
    }
    wait = ds == Side::Pageable;  // into pageable memory the call returns once the data landed
    log("memcpy", device, stream);
  }
  const uint64_t pos = submit(q, std::move(run), t, "a copy");
  if (wait) q->wait_for(pos);
  return kOk;
}
int memset_async(int device, void* dst, int byte, size_t n, void* stream) {
  std::shared_ptr<Queue> q;
  Touch t;
  void* d;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (bad_device(device)) return kBadDevice;
    q = queue_of(device, stream);
    if (!q) return kBadStream;
    if (!in_device_block(dst, n) && !in_host_block(dst, n)) return kBadPointer;
    d = t(dst);
    log("memset", device, stream);
  }
  submit(q, [d, byte, n] { std::memset(d, byte, n); }, t, "a memset");
  return kOk;
}

// Whether a kernel can reach p (a live device block, or pinned memory, which devices map).
bool kernel_reachable(const void* p) { return in_device_block(p, 1) || in_host_block(p, 1); }

// The same index space as the GPU kernels in gpu_ops.cu, one word at a time.
void run_strided(const DlaGpuStrided& j) {
  const int64_t w = j.word;
  for (int64_t i = 0; i < j.count; ++i) {
    int64_t rest = i, d = 0, s = 0;
    for (int k = j.ndim - 1; k >= 0; --k) {
      const int64_t idx = rest % j.shape[k];
      rest /= j.shape[k];
      d += idx * j.dst_strides[k];
      s += idx * j.src_strides[k];
    }
    char* dst = static_cast<char*>(j.dst) + d;
    if (j.src)
      std::memcpy(dst, static_cast<const char*>(j.src) + s, w);
    else
      std::memcpy(dst, j.value, static_cast<size_t>(w * j.words));
  }
}

int strided_async(int device, const DlaGpuStrided* j, void* stream) {
  std::shared_ptr<Queue> q;
  Touch t;
  auto job = std::make_shared<DlaGpuStrided>(*j);
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (bad_device(device)) return kBadDevice;
    q = queue_of(device, stream);
    if (!q) return kBadStream;
    const int64_t w = j->word;
    if (!(w == 1 || w == 2 || w == 4 || w == 8 || w == 16) || j->ndim < 1 || j->ndim > DLA_GPU_MAX_DIMS) return kBadPointer;
    // Every word's address is a multiple of w exactly when the bases and the strides of the
    // axes longer than one are.
    uint64_t bits = reinterpret_cast<uintptr_t>(j->dst) | reinterpret_cast<uintptr_t>(j->src);
    for (int k = 0; k < j->ndim; ++k)
      if (j->shape[k] > 1) bits |= static_cast<uint64_t>(j->dst_strides[k]) | static_cast<uint64_t>(j->src ? j->src_strides[k] : 0);
    if (bits % static_cast<uint64_t>(w)) return kMisaligned;
    if (!kernel_reachable(j->dst) || (j->src && !kernel_reachable(j->src))) return kBadPointer;
    job->dst = t(j->dst);
    job->src = t(j->src);
    log(j->src ? "strided_copy" : "strided_fill", device, stream, reinterpret_cast<void*>(w));
  }
  submit(q, [job] { run_strided(*job); }, t, j->src ? "a strided copy" : "a fill");
  return kOk;
}

// The GPU's element bodies (gpu_elementwise_kernels.h) under a host "launch": the same
// per-element code a CUDA or HIP thread runs, for every index of the job in turn.
struct HostRunner {
  // A GPU runs operations and casts of 2^31 elements or more as pieces (for_each_piece); here
  // every job over kPiece elements is, so that the tests cover the pieces' offsets and shapes.
  static constexpr int64_t kPiece = 100;

  template <class Body>
  static int run_all(const DlaGpuElementwise& job, void* = nullptr) {
    for (int64_t i = 0; i < job.count; ++i) Body::template run<int64_t>(job, i);
    return kOk;
  }

  template <class Body>
  int run(const DlaGpuElementwise& job) {
    if constexpr (dla::gpu_kernels::Splittable<Body>::value)
      return dla::gpu_kernels::for_each_piece(job, kPiece, run_all<Body>, nullptr);
    else
      return run_all<Body>(job);
  }
};

// Answers whether a job's (op, dtype) pair has a body, without running it (the launch's answer).
struct CoveredRunner {
  template <class Body>
  int run(const DlaGpuElementwise&) {
    return kOk;
  }
};

int elementwise_async(int device, const DlaGpuElementwise* j, void* stream) {
  std::shared_ptr<Queue> q;
  Touch t;
  auto job = std::make_shared<DlaGpuElementwise>(*j);
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (bad_device(device)) return kBadDevice;
    q = queue_of(device, stream);
    if (!q) return kBadStream;
    if (j->noperands < 2 || j->noperands > DLA_GPU_MAX_OPERANDS || j->ndim < 1 || j->ndim >= DLA_GPU_MAX_DIMS)
      return kBadPointer;
    // A real device cannot read host memory through these pointers: every operand must be a
    // live "device" block (or a scalar carried in the job).
    for (int k = 0; k < j->noperands; ++k) {
      if (!j->data[k]) {
        if (k == 0) return kBadPointer;
        continue;
      }
      if (!in_device_block(j->data[k], 1)) return kBadPointer;
      job->data[k] = t(j->data[k]);
    }
    CoveredRunner covered;
    if (const int err = dla::gpu_kernels::dispatch_elementwise(*j, covered)) return err;
    log(j->op == DLA_GPU_OP_CAST ? "cast" : "elementwise", device, stream);
  }
  submit(q, [job] {
    HostRunner runner;
    dla::gpu_kernels::dispatch_elementwise(*job, runner);
  }, t, j->op == DLA_GPU_OP_CAST ? "a cast" : "an elementwise kernel");
  return kOk;
}

bool overlap_ranges(const void* a, size_t na, const void* b, size_t nb) {
  const char *p = static_cast<const char*>(a), *q = static_cast<const char*>(b);
  return p < q + nb && q < p + na;
}
bool overlap(const void* a, const void* b, size_t n) { return overlap_ranges(a, n, b, n); }

// The library sort a GPU runs (CUB, rocPRIM) as std::stable_sort per row, over the same job.
// It asks for scratch memory as the libraries do (some bytes per row), so the core's sizing
// call, stream-ordered allocation and reuse across batches are exercised, and checks what a
// library would trip over: pointers outside device blocks, overlapping ranges, too many items.
int64_t g_sort_max_items = INT64_MAX;
size_t fake_sort_scratch(const DlaGpuSegmentedSort& j) { return 64 + static_cast<size_t>(j.segments) * 8; }

template <class K>
void stable_sort_rows(const DlaGpuSegmentedSort& j) {
  const K* kin = static_cast<const K*>(j.keys_in);
  K* kout = static_cast<K*>(j.keys_out);
  std::vector<std::pair<K, int64_t>> row(static_cast<size_t>(j.length));
  for (int64_t r = 0; r < j.segments; ++r) {
    const int64_t o = r * j.length;
    for (int64_t i = 0; i < j.length; ++i) row[size_t(i)] = {kin[o + i], j.values_in[o + i]};
    std::stable_sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (int64_t i = 0; i < j.length; ++i) {
      kout[o + i] = row[size_t(i)].first;
      j.values_out[o + i] = row[size_t(i)].second;
    }
  }
}

int segmented_sort_async(int device, const DlaGpuSegmentedSort* j, void* temp, size_t* temp_bytes, void* stream) {
  std::unique_lock<std::mutex> lock(g_mu);
  if (bad_device(device)) return kBadDevice;
  auto q = queue_of(device, stream);
  if (!q) return kBadStream;
  const int64_t w = j->key_bytes;
  if (!(w == 1 || w == 2 || w == 4 || w == 8) || j->segments < 1 || j->length < 1) return kBadPointer;
  if (j->segments > g_sort_max_items / j->length) return kBadPointer;
  if (!temp) {
    *temp_bytes = fake_sort_scratch(*j);
    log("sort_scratch", device, stream);
    return kOk;
  }
  const size_t n = static_cast<size_t>(j->segments * j->length);
  if (*temp_bytes < fake_sort_scratch(*j) || !in_device_block(temp, *temp_bytes)) return kBadPointer;
  if (!in_device_block(j->keys_in, n * w) || !in_device_block(j->keys_out, n * w) ||
      !in_device_block(j->values_in, n * 8) || !in_device_block(j->values_out, n * 8))
    return kBadPointer;
  if (overlap(j->keys_in, j->keys_out, n * w) || overlap(j->values_in, j->values_out, n * 8)) return kBadPointer;
  Touch t;
  auto job = std::make_shared<DlaGpuSegmentedSort>(*j);
  job->keys_in = t(j->keys_in);
  job->keys_out = t(j->keys_out);
  job->values_in = t(j->values_in);
  job->values_out = t(j->values_out);
  void* scratch = t(temp);
  const size_t scratch_bytes = *temp_bytes;
  log("segmented_sort", device, stream, reinterpret_cast<void*>(static_cast<uintptr_t>(j->segments)));
  lock.unlock();
  submit(q, [job, scratch, scratch_bytes, w] {
    std::memset(scratch, 0xa5, scratch_bytes);  // the library owns the scratch memory while it runs
    switch (w) {
      case 1: stable_sort_rows<uint8_t>(*job); break;
      case 2: stable_sort_rows<uint16_t>(*job); break;
      case 4: stable_sort_rows<uint32_t>(*job); break;
      case 8: stable_sort_rows<uint64_t>(*job); break;
    }
  }, t, "a segmented sort");
  return kOk;
}

// The vendor BLAS's strided-batched GEMM (gpu_ops.h: DlaGpuGemm) as a column-major triple loop,
// with the checks cuBLAS makes (sizes, leading dimensions) and those a device would trip over
// (operands outside "device" blocks, an output overlapping an input). set_gemm_error makes it
// fail as a library would (tests of the core's error messages).
int g_gemm_error = 0;

template <class T>
void host_gemm(const DlaGpuGemm& j) {
  for (int64_t p = 0; p < j.batch; ++p) {
    const T* a = static_cast<const T*>(j.a) + p * j.stride_a;
    const T* b = static_cast<const T*>(j.b) + p * j.stride_b;
    T* c = static_cast<T*>(j.c) + p * j.stride_c;
    for (int64_t col = 0; col < j.n; ++col)
      for (int64_t row = 0; row < j.m; ++row) {
        T acc = T(0);
        for (int64_t q = 0; q < j.k; ++q)
          acc += (j.trans_a ? a[q + row * j.lda] : a[row + q * j.lda]) *
                 (j.trans_b ? b[col + q * j.ldb] : b[q + col * j.ldb]);
        c[row + col * j.ldc] = acc;
      }
  }
}

// The bytes from a stored (rows x cols, leading dimension ld) matrix's first to last element
// over the batch; false when they leave the "device" block they start in.
bool gemm_operand_ok(const void* p, int64_t rows, int64_t cols, int64_t ld, int64_t stride, int64_t batch,
                     int64_t item, size_t* span) {
  if (ld < std::max<int64_t>(1, rows) || stride < 0) return false;
  *span = static_cast<size_t>(((rows - 1) + (cols - 1) * ld + (batch - 1) * stride + 1) * item);
  return in_device_block(p, *span);
}

// The element size of the dtypes the vendor math libraries take (float32, float64, complex64,
// complex128); 0 for any other dtype (the entry answers DLA_GPU_UNSUPPORTED, as a library would).
int64_t vendor_item_bytes(int32_t dtype) {
  switch (static_cast<dla::ScalarType>(dtype)) {
    case dla::ScalarType::Float32: return 4;
    case dla::ScalarType::Float64: return 8;
    case dla::ScalarType::Complex64: return 8;
    case dla::ScalarType::Complex128: return 16;
    default: return 0;
  }
}

int gemm_async(int device, const DlaGpuGemm* j, void* stream) {
  std::unique_lock<std::mutex> lock(g_mu);
  if (bad_device(device)) return kBadDevice;
  auto q = queue_of(device, stream);
  if (!q) return kBadStream;
  if (g_gemm_error) return g_gemm_error;
  const int64_t item = vendor_item_bytes(j->dtype);
  if (item == 0) return DLA_GPU_UNSUPPORTED;
  if (j->m < 1 || j->n < 1 || j->k < 1 || j->batch < 1) return kBadPointer;
  size_t sa, sb, sc;
  if (!gemm_operand_ok(j->a, j->trans_a ? j->k : j->m, j->trans_a ? j->m : j->k, j->lda, j->stride_a, j->batch, item, &sa) ||
      !gemm_operand_ok(j->b, j->trans_b ? j->n : j->k, j->trans_b ? j->k : j->n, j->ldb, j->stride_b, j->batch, item, &sb) ||
      !gemm_operand_ok(j->c, j->m, j->n, j->ldc, j->stride_c, j->batch, item, &sc))
    return kBadPointer;
  if (overlap_ranges(j->c, sc, j->a, sa) || overlap_ranges(j->c, sc, j->b, sb)) return kBadPointer;
  if (j->batch > 1 && j->stride_c < j->m + (j->n - 1) * j->ldc) return kBadPointer;  // C's matrices overlap
  Touch t;
  auto job = std::make_shared<DlaGpuGemm>(*j);
  job->a = t(j->a);
  job->b = t(j->b);
  job->c = t(j->c);
  log("gemm", device, stream, reinterpret_cast<void*>(static_cast<uintptr_t>(j->batch)));
  lock.unlock();
  submit(q, [job] {
    switch (static_cast<dla::ScalarType>(job->dtype)) {
      case dla::ScalarType::Float32: host_gemm<float>(*job); break;
      case dla::ScalarType::Float64: host_gemm<double>(*job); break;
      case dla::ScalarType::Complex64: host_gemm<std::complex<float>>(*job); break;
      default: host_gemm<std::complex<double>>(*job); break;
    }
  }, t, "a GEMM");
  return kOk;
}

// The vendor FFT (gpu_ops.h: DlaGpuFft) as separable DFTs in double precision over the same job,
// with cuFFT's contract: scratch asked for and checked, C2R's input overwritten afterwards (so a
// core that hands it the caller's array is caught), operands inside "device" blocks.
int g_fft_error = 0;
using Cd = std::complex<double>;
constexpr size_t kFakeFftScratch = 48;

// In-place DFT along `axis` of a C-contiguous array of `shape`, exponent sign `sign`.
void dft_axis(std::vector<Cd>& v, const std::vector<int64_t>& shape, size_t axis, int sign) {
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t n = shape[axis];
  std::vector<Cd> row(static_cast<size_t>(n));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      Cd* base = v.data() + o * n * inner + i;
      for (int64_t k = 0; k < n; ++k) {
        Cd acc = 0;
        for (int64_t t = 0; t < n; ++t)
          acc += base[t * inner] * std::polar(1.0, sign * 2 * M_PI * static_cast<double>((k * t) % n) / n);
        row[size_t(k)] = acc;
      }
      for (int64_t k = 0; k < n; ++k) base[k * inner] = row[size_t(k)];
    }
}

template <class R>
void host_fft(const DlaGpuFft& j) {
  using C = std::complex<R>;
  std::vector<int64_t> shape{j.batch};  // the logical (full) shape
  for (int d = 0; d < j.rank; ++d) shape.push_back(j.n[d]);
  const int64_t n_last = j.n[j.rank - 1], m = n_last / 2 + 1;
  std::vector<int64_t> half = shape;
  half.back() = m;
  int64_t full_count = 1, half_count = 1;
  for (size_t d = 0; d < shape.size(); ++d) full_count *= shape[d], half_count *= half[d];
  if (j.kind == DLA_GPU_FFT_C2C) {
    std::vector<Cd> v(static_cast<size_t>(full_count));
    for (int64_t i = 0; i < full_count; ++i) v[size_t(i)] = Cd(static_cast<const C*>(j.in)[i]);
    for (int d = 1; d <= j.rank; ++d) dft_axis(v, shape, size_t(d), j.direction);
    for (int64_t i = 0; i < full_count; ++i) static_cast<C*>(j.out)[i] = C(v[size_t(i)] * j.scale);
  } else if (j.kind == DLA_GPU_FFT_R2C) {
    std::vector<Cd> v(static_cast<size_t>(full_count));
    for (int64_t i = 0; i < full_count; ++i) v[size_t(i)] = static_cast<const R*>(j.in)[i];
    for (int d = 1; d <= j.rank; ++d) dft_axis(v, shape, size_t(d), -1);
    for (int64_t r = 0; r < full_count / n_last; ++r)
      for (int64_t k = 0; k < m; ++k) static_cast<C*>(j.out)[r * m + k] = C(v[size_t(r * n_last + k)] * j.scale);
  } else {
    std::vector<Cd> h(static_cast<size_t>(half_count));
    for (int64_t i = 0; i < half_count; ++i) h[size_t(i)] = Cd(static_cast<const C*>(j.in)[i]);
    for (int d = 1; d < j.rank; ++d) dft_axis(h, half, size_t(d), +1);
    for (int64_t r = 0; r < half_count / m; ++r)  // the Hermitian completion of each last-axis row
      for (int64_t t = 0; t < n_last; ++t) {
        double acc = 0;
        for (int64_t k = 0; k < n_last; ++k) {
          const Cd z = k < m ? h[size_t(r * m + k)] : std::conj(h[size_t(r * m + n_last - k)]);
          acc += (z * std::polar(1.0, 2 * M_PI * static_cast<double>((k * t) % n_last) / n_last)).real();
        }
        static_cast<R*>(j.out)[r * n_last + t] = static_cast<R>(acc * j.scale);
      }
  }
}

// The FFT library under the plan cache the real backends use (fft_plans.h), as a table of fake
// functions: a plan remembers the device current when it was made and its layout; its exec
// queues the DFTs on the plan's stream; destroying it while another device is current is a
// fault (the library would free its memory on the wrong device).
thread_local int t_current_device = 0;  // what cudaSetDevice / hipSetDevice set, per thread
struct FakePlan {
  int device;
  int type = 0, rank = 0;
  int64_t n[3] = {1, 1, 1};
  int64_t batch = 1;
  void* stream = nullptr;
  void* work = nullptr;
};
std::mutex g_fft_plans_mu;  // the plan cache's own mutex orders calls; this guards the map
std::map<int, FakePlan> g_fft_plans;
int g_next_plan = 0;
int64_t g_fft_plans_made = 0;

int fake_plan_create(int* plan) {
  std::lock_guard<std::mutex> lock(g_fft_plans_mu);
  *plan = ++g_next_plan;
  g_fft_plans[*plan] = FakePlan{t_current_device};
  ++g_fft_plans_made;
  return 0;
}
int fake_plan_destroy(int plan) {
  std::lock_guard<std::mutex> lock(g_fft_plans_mu);
  auto it = g_fft_plans.find(plan);
  if (it == g_fft_plans.end()) return dla::gpu::kFftInvalidValue;
  if (it->second.device != t_current_device)
    dla::fake::record_fault("an FFT plan made on device " + std::to_string(it->second.device) +
                            " was destroyed while device " + std::to_string(t_current_device) +
                            " was current (its memory would be freed on the wrong device)");
  g_fft_plans.erase(it);
  return 0;
}
int fake_plan_auto_allocation(int, int) { return 0; }
int fake_plan_make(int plan, int rank, long long* n, long long*, long long, long long, long long*, long long,
                   long long, int type, long long batch, size_t* work) {
  std::lock_guard<std::mutex> lock(g_fft_plans_mu);
  FakePlan& p = g_fft_plans.at(plan);
  p.type = type;
  p.rank = rank;
  for (int d = 0; d < rank; ++d) p.n[d] = n[d];
  p.batch = batch;
  *work = kFakeFftScratch;
  return 0;
}
int fake_plan_set_stream(int plan, void* stream) {
  std::lock_guard<std::mutex> lock(g_fft_plans_mu);
  g_fft_plans.at(plan).stream = stream;
  return 0;
}
int fake_plan_set_work_area(int plan, void* work) {
  std::lock_guard<std::mutex> lock(g_fft_plans_mu);
  g_fft_plans.at(plan).work = work;
  return 0;
}

// Queues one transform of `plan` (its layout, stream and work area) on the plan's stream.
int fake_plan_exec(int plan, int kind, void* in, void* out, int direction) {
  FakePlan p;
  {
    std::lock_guard<std::mutex> lock(g_fft_plans_mu);
    p = g_fft_plans.at(plan);
  }
  if (p.device != t_current_device) return dla::gpu::kFftInvalidValue;  // a plan of another device
  const bool single = p.type == dla::gpu::kFftC2C || p.type == dla::gpu::kFftR2C || p.type == dla::gpu::kFftC2R;
  DlaGpuFft job{};
  job.kind = kind;
  job.dtype = static_cast<int32_t>(single ? dla::ScalarType::Complex64 : dla::ScalarType::Complex128);
  job.rank = p.rank;
  job.direction = direction;
  int64_t full = p.batch, half = p.batch;
  for (int d = 0; d < p.rank; ++d) {
    job.n[d] = p.n[d];
    full *= p.n[d];
    half *= d == p.rank - 1 ? p.n[d] / 2 + 1 : p.n[d];
  }
  job.batch = p.batch;
  job.scale = 1.0;
  const size_t real = single ? 4 : 8;
  const size_t in_bytes = kind == DLA_GPU_FFT_R2C ? full * real : (kind == DLA_GPU_FFT_C2R ? half : full) * 2 * real;
  std::shared_ptr<Queue> q;
  Touch t;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    q = queue_of(p.device, p.stream);
    if (!q) return dla::gpu::kFftInvalidValue;
    job.in = t(in);
    job.out = t(out);
  }
  char* work = static_cast<char*>(t(p.work));
  auto shared = std::make_shared<DlaGpuFft>(job);
  submit(q, [shared, work, single, in_bytes] {
    std::memset(work, 0xa5, kFakeFftScratch);
    if (single) host_fft<float>(*shared);
    else host_fft<double>(*shared);
    // rocFFT may overwrite the input of every out-of-place transform (cuFFT: of C2R only), so
    // a core that hands it the caller's array is caught.
    if (shared->in != shared->out) std::memset(shared->in, 0xff, in_bytes);
  }, t, "an FFT");
  return 0;
}
int fake_exec_c2c(int plan, void* in, void* out, int direction) { return fake_plan_exec(plan, DLA_GPU_FFT_C2C, in, out, direction); }
int fake_exec_r2c(int plan, void* in, void* out) { return fake_plan_exec(plan, DLA_GPU_FFT_R2C, in, out, -1); }
int fake_exec_c2r(int plan, void* in, void* out) { return fake_plan_exec(plan, DLA_GPU_FFT_C2R, in, out, 1); }

const dla::gpu::FftLibrary<int>* fake_fft_library() {
  static const dla::gpu::FftLibrary<int> library = {
      &fake_plan_create, &fake_plan_destroy, &fake_plan_auto_allocation, &fake_plan_make,
      &fake_plan_set_stream, &fake_plan_set_work_area, &fake_exec_c2c, &fake_exec_r2c, &fake_exec_c2r,
      &fake_exec_c2c, &fake_exec_r2c, &fake_exec_c2r,
  };
  return &library;
}
dla::gpu::FftPlans<int>* g_fake_fft_cache = new dla::gpu::FftPlans<int>();

// The backends' fft_async: the device made current, then the plan cache.
int fake_fft_exec(int device, const DlaGpuFft& j, void* temp, size_t* temp_bytes, void* stream) {
  t_current_device = device;
  const int err = g_fake_fft_cache->exec(&fake_fft_library, device, j, temp, temp_bytes, stream);
  return err > DLA_GPU_FFT_STATUS - 1000 && err <= DLA_GPU_FFT_STATUS ? kBadPointer : err;
}

int fft_async(int device, const DlaGpuFft* j, void* temp, size_t* temp_bytes, void* stream) {
  std::unique_lock<std::mutex> lock(g_mu);
  if (bad_device(device)) return kBadDevice;
  auto q = queue_of(device, stream);
  if (!q) return kBadStream;
  if (g_fft_error) return g_fft_error;
  const bool single = j->dtype == static_cast<int32_t>(dla::ScalarType::Complex64);
  if (!single && j->dtype != static_cast<int32_t>(dla::ScalarType::Complex128)) return DLA_GPU_UNSUPPORTED;
  if (j->rank < 1 || j->rank > 3 || j->batch < 1 || j->kind < 0 || j->kind > 2) return kBadPointer;
  int64_t full = j->batch, half = j->batch;
  for (int d = 0; d < j->rank; ++d) {
    if (j->n[d] < 1) return kBadPointer;
    full *= j->n[d];
    half *= d == j->rank - 1 ? j->n[d] / 2 + 1 : j->n[d];
  }
  if (!temp) {
    *temp_bytes = kFakeFftScratch;
    log("fft_scratch", device, stream);
    return kOk;
  }
  if (*temp_bytes < kFakeFftScratch || !in_device_block(temp, *temp_bytes)) return kBadPointer;
  const size_t real = single ? 4 : 8;
  const size_t in_bytes = j->kind == DLA_GPU_FFT_R2C ? full * real : (j->kind == DLA_GPU_FFT_C2R ? half : full) * 2 * real;
  const size_t out_bytes = j->kind == DLA_GPU_FFT_C2R ? full * real : (j->kind == DLA_GPU_FFT_R2C ? half : full) * 2 * real;
  if (!in_device_block(j->in, in_bytes) || !in_device_block(j->out, out_bytes)) return kBadPointer;
  if (j->in != j->out && overlap_ranges(j->in, in_bytes, j->out, out_bytes)) return kBadPointer;
  log("fft", device, stream, reinterpret_cast<void*>(static_cast<uintptr_t>(j->batch)));
  lock.unlock();
  if (const int err = fake_fft_exec(device, *j, temp, temp_bytes, stream)) return err;
  if (j->scale == 1.0) return kOk;
  // The scaling a backend queues after the library's transform (gpu_ops.cu's scale kernel).
  Touch t;
  char* out = static_cast<char*>(t(j->out));
  const double scale = j->scale;
  submit(q, [out, out_bytes, single, scale] {
    if (single)
      for (size_t i = 0; i < out_bytes / 4; ++i) reinterpret_cast<float*>(out)[i] *= static_cast<float>(scale);
    else
      for (size_t i = 0; i < out_bytes / 8; ++i) reinterpret_cast<double*>(out)[i] *= scale;
  }, t, "an FFT's scaling");
  return kOk;
}

// The fold a GPU runs (gpu_fold.cu) as a host recursion over the same job: every output's
// elements folded pairwise onto what the output holds. Like the sort it asks for scratch
// memory and checks that every address the job reaches lies in a live device block.
size_t fake_fold_scratch(const DlaGpuFold& j) { return 64 + static_cast<size_t>(j.outer) * 8; }

// Whether every element of a strided 3-d range lies in a device block (the corners suffice:
// the range is affine).
bool strided_in_device(const void* p, const int64_t (&n)[3], const int64_t (&stride)[3], size_t item) {
  const char* b = static_cast<const char*>(p);
  for (int corner = 0; corner < 8; ++corner) {
    int64_t off = 0;
    for (int d = 0; d < 3; ++d) off += ((corner >> d) & 1 ? n[d] - 1 : 0) * stride[d];
    if (!in_device_block(b + off, item)) return false;
  }
  return true;
}

struct HostFold {
  const DlaGpuFold& j;
  template <class T, class F>
  T fold(const char* row, int64_t k0, int64_t n) const {
    if (n == 1) return *reinterpret_cast<const T*>(row + k0 * j.in_inner_stride);
    const int64_t half = n / 2;
    return F()(fold<T, F>(row, k0, half), fold<T, F>(row, k0 + half, n - half));
  }
  template <class T, class F>
  int run() {
    const int64_t high = j.outer / j.outer_low;
    for (int64_t o = 0; o < j.outer; ++o) {
      const int64_t h = o / j.outer_low, l = o % j.outer_low;
      T* out = reinterpret_cast<T*>(static_cast<char*>(j.out) + h * j.out_high_stride + l * j.out_stride);
      const char* row = static_cast<const char*>(j.in) + h * j.in_high_stride + l * j.in_outer_stride;
      *out = F()(*out, fold<T, F>(row, 0, j.inner));
    }
    return kOk;
  }
};

// Whether every element a fold reads or writes lies in a device block.
struct FoldReachable {
  const DlaGpuFold& j;
  template <class T, class F>
  int run() {
    const int64_t high = j.outer / j.outer_low;
    if (!strided_in_device(j.out, {high, j.outer_low, 1}, {j.out_high_stride, j.out_stride, 0}, sizeof(T)) ||
        !strided_in_device(j.in, {high, j.outer_low, j.inner}, {j.in_high_stride, j.in_outer_stride, j.in_inner_stride},
                           sizeof(T)))
      return kBadPointer;
    return kOk;
  }
};

// Answers whether visit_fold covers a job's op and dtype, as gpu_fold.cu's sizing call does.
struct FoldCovered {
  template <class T, class F>
  int run() {
    return kOk;
  }
};

int fold_async(int device, const DlaGpuFold* j, void* temp, size_t* temp_bytes, void* stream) {
  std::unique_lock<std::mutex> lock(g_mu);
  if (bad_device(device)) return kBadDevice;
  auto q = queue_of(device, stream);
  if (!q) return kBadStream;
  if (j->outer < 1 || j->inner < 1 || j->outer_low < 1 || j->outer % j->outer_low) return kBadPointer;
  FoldCovered covered;
  if (const int err = dla::gpu_kernels::visit_fold(*j, covered)) return err;  // DLA_GPU_UNSUPPORTED
  if (!temp) {
    *temp_bytes = fake_fold_scratch(*j);
    log("fold_scratch", device, stream);
    return kOk;
  }
  if (*temp_bytes < fake_fold_scratch(*j) || !in_device_block(temp, *temp_bytes)) return kBadPointer;
  FoldReachable reachable{*j};
  if (dla::gpu_kernels::visit_fold(*j, reachable)) return kBadPointer;
  Touch t;
  auto job = std::make_shared<DlaGpuFold>(*j);
  job->in = t(j->in);
  job->out = t(j->out);
  void* scratch = t(temp);
  const size_t scratch_bytes = *temp_bytes;
  log("fold", device, stream);
  lock.unlock();
  submit(q, [job, scratch, scratch_bytes] {
    std::memset(scratch, 0xa5, scratch_bytes);
    HostFold folder{*job};
    dla::gpu_kernels::visit_fold(*job, folder);
  }, t, "a fold");
  return kOk;
}

// The scan CUB and rocPRIM run (gpu_scan.cu) as a sequential host loop over the same job, in
// the same element types and functors (gpu_scan.h), so it equals the CPU's cumulative_sum bit
// for bit. Like the fold it asks for scratch memory and checks that the block the job reaches
// lies in a live device block; set_scan_unsupported makes it answer DLA_GPU_UNSUPPORTED as an
// older backend would, so the core's elementwise fallback is tested too.
bool g_scan_unsupported = false;
size_t fake_scan_scratch(const DlaGpuScan& j) { return 32 + static_cast<size_t>(j.outer) * 4; }

struct HostScan {
  const DlaGpuScan& j;
  template <class T, class F>
  int run() {
    T* data = static_cast<T*>(j.data);
    const F f{};
    for (int64_t o = 0; o < j.outer; ++o)
      for (int64_t k = 1; k < j.length; ++k) {
        T* cur = data + (o * j.length + k) * j.inner;
        for (int64_t i = 0; i < j.inner; ++i) cur[i] = f(cur[i - j.inner], cur[i]);
      }
    return kOk;
  }
};

// Whether a scan's block lies in a device block (and visit_scan covers its op and dtype).
struct ScanReachable {
  const DlaGpuScan& j;
  template <class T, class F>
  int run() {
    const size_t bytes = static_cast<size_t>(j.outer * j.length * j.inner) * sizeof(T);
    return in_device_block(j.data, bytes) ? kOk : kBadPointer;
  }
};

int scan_async(int device, const DlaGpuScan* j, void* temp, size_t* temp_bytes, void* stream) {
  std::unique_lock<std::mutex> lock(g_mu);
  if (bad_device(device)) return kBadDevice;
  auto q = queue_of(device, stream);
  if (!q) return kBadStream;
  if (g_scan_unsupported) return DLA_GPU_UNSUPPORTED;
  if (j->outer < 1 || j->length < 1 || j->inner < 1) return kBadPointer;
  if (!temp) {
    *temp_bytes = fake_scan_scratch(*j);
    log("scan_scratch", device, stream);
    return kOk;
  }
  if (*temp_bytes < fake_scan_scratch(*j) || !in_device_block(temp, *temp_bytes)) return kBadPointer;
  ScanReachable reachable{*j};
  if (const int err = dla::gpu_kernels::visit_scan(*j, reachable)) return err;
  Touch t;
  auto job = std::make_shared<DlaGpuScan>(*j);
  job->data = t(j->data);
  void* scratch = t(temp);
  const size_t scratch_bytes = *temp_bytes;
  log("scan", device, stream, reinterpret_cast<void*>(static_cast<uintptr_t>(j->length)));
  lock.unlock();
  submit(q, [job, scratch, scratch_bytes] {
    std::memset(scratch, 0xa5, scratch_bytes);
    HostScan scanner{*job};
    dla::gpu_kernels::visit_scan(*job, scanner);
  }, t, "a scan");
  return kOk;
}

// The vendor dense solver (gpu_ops.h: DlaGpuSolver) as the CPU's LAPACK code over the same job,
// after the checks a device would trip over: every buffer the op reads or writes inside a live
// "device" block, scratch asked for and handed over. set_solver_error makes it fail as a library
// would.
int g_solver_error = 0;
constexpr size_t kFakeSolverScratch = 40;

// Whether `batch` matrices of `elems` elements of `item` bytes, `step` elements apart, lie in
// one device block (nothing to check when they are empty).
bool stack_ok(const void* p, int64_t batch, int64_t step, int64_t elems, int64_t item) {
  if (elems == 0) return true;
  if (step < elems && batch > 1) return false;
  return in_device_block(p, static_cast<size_t>(((batch - 1) * step + elems) * item));
}

bool solver_operands_ok(const DlaGpuSolver& j, int64_t item) {
  using dla::LinalgOpId;
  const int64_t m = j.m, n = j.n, k = std::min(m, n), real = j.dtype == int(dla::ScalarType::Complex128) ? 8
                                                              : j.dtype == int(dla::ScalarType::Float64) ? 8 : 4;
  const bool full = j.flags & DLA_GPU_SOLVER_FULL, vectors = j.flags & DLA_GPU_SOLVER_VECTORS;
  auto out = [&](int slot, int64_t elems, int64_t bytes) {
    return stack_ok(j.out[slot], j.batch, j.out_step[slot], elems, bytes);
  };
  if (!stack_ok(j.a, j.batch, j.a_step, m * n, item) || !in_device_block(j.info, size_t(j.batch) * 4)) return false;
  switch (static_cast<LinalgOpId>(j.op)) {
    case LinalgOpId::cholesky: return m == n;
    case LinalgOpId::inv: return m == n && out(0, n * n, item);
    case LinalgOpId::solve: return m == n && j.nrhs >= 0 && stack_ok(j.b, j.batch, j.b_step, n * j.nrhs, item);
    case LinalgOpId::det: return m == n && out(0, 1, item);
    case LinalgOpId::slogdet: return m == n && out(0, 1, item) && out(1, 1, real);
    case LinalgOpId::qr: return out(0, m * (full ? m : k), item) && out(1, (full ? m : k) * n, item);
    case LinalgOpId::svd:
    case LinalgOpId::svdvals:
      return out(1, k, real) && (!vectors || (out(0, m * (full ? m : k), item) && out(2, (full ? n : k) * n, item)));
    case LinalgOpId::eigh:
    case LinalgOpId::eigvalsh: return m == n && out(0, n, real);
    case LinalgOpId::eig:
    case LinalgOpId::eigvals: return m == n && out(0, n, 2 * real) && (!vectors || out(1, n * n, 2 * real));
    default: return false;
  }
}

// The job through the CPU's LAPACK code; a failure is recorded as the library's error would
// surface, when the host next waits.
void run_solver(const DlaGpuSolver& j) {
  dla::LapackJob job;
  job.op = static_cast<dla::LinalgOpId>(j.op);
  job.dtype = static_cast<dla::ScalarType>(j.dtype);
  job.batch = j.batch;
  job.m = j.m;
  job.n = j.n;
  job.nrhs = j.nrhs;
  job.upper = j.flags & DLA_GPU_SOLVER_UPPER;
  job.full = j.flags & DLA_GPU_SOLVER_FULL;
  job.vectors = j.flags & DLA_GPU_SOLVER_VECTORS;
  job.transposed = j.flags & DLA_GPU_SOLVER_TRANSPOSED;
  job.a = j.a;
  job.a_step = j.a_step;
  job.b = j.b;
  job.b_step = j.b_step;
  for (int k = 0; k < 3; ++k) {
    job.out[k] = j.out[k];
    job.out_step[k] = j.out_step[k];
  }
  std::vector<int64_t> info(static_cast<size_t>(j.batch), 0);
  job.info = info.data();
  try {  // nothing may cross the C table
    dla::cpu::lapack_cpu(job);
  } catch (const std::exception& e) {
    dla::fake::record_fault(std::string("dense solver failed: ") + e.what());
    return;
  } catch (...) {
    dla::fake::record_fault("dense solver failed");
    return;
  }
  for (int64_t i = 0; i < j.batch; ++i) j.info[i] = static_cast<int32_t>(info[size_t(i)]);
}

int solver_async(int device, const DlaGpuSolver* j, void* temp, size_t* temp_bytes, void* stream) {
  std::unique_lock<std::mutex> lock(g_mu);
  if (bad_device(device)) return kBadDevice;
  auto q = queue_of(device, stream);
  if (!q) return kBadStream;
  if (g_solver_error) return g_solver_error;
  const int64_t item = vendor_item_bytes(j->dtype);
  if (item == 0) return DLA_GPU_UNSUPPORTED;
  if (j->batch < 1 || j->m < 0 || j->n < 0) return kBadPointer;
  if (!temp) {
    *temp_bytes = kFakeSolverScratch;
    log("solver_scratch", device, stream);
    return kOk;
  }
  if (*temp_bytes < kFakeSolverScratch || !in_device_block(temp, *temp_bytes)) return kBadPointer;
  if (!solver_operands_ok(*j, item)) return kBadPointer;
  Touch t;
  auto job = std::make_shared<DlaGpuSolver>(*j);
  job->a = t(j->a);
  job->b = t(j->b);
  for (int k = 0; k < 3; ++k) job->out[k] = t(j->out[k]);
  job->info = t(j->info);
  void* scratch = t(temp);
  const size_t scratch_bytes = *temp_bytes;
  log("solver", device, stream, reinterpret_cast<void*>(static_cast<uintptr_t>(j->batch)));
  lock.unlock();
  submit(q, [job, scratch, scratch_bytes] {
    std::memset(scratch, 0xa5, scratch_bytes);
    run_solver(*job);
  }, t, "a dense solver call");
  return kOk;
}

int stream_create(int device, int non_blocking, void** out) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (bad_device(device)) return kBadDevice;
  auto q = dla::fake::make_queue(device, !non_blocking);
  *out = q.get();
  g_streams.emplace(*out, std::move(q));
  log("stream_create", device, *out);
  return kOk;
}
int stream_destroy(int device, void* s) {
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = g_streams.find(s);
  if (it == g_streams.end()) return kBadStream;
  it->second->close();  // its queued work still runs
  g_streams.erase(it);
  log("stream_destroy", device, s);
  return kOk;
}
int stream_synchronize(int device, void* s) {
  std::shared_ptr<Queue> q;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (bad_device(device)) return kBadDevice;
    if (bad_stream(s)) return kBadStream;
    q = queue_of(device, s);
    if (!q) return kBadStream;
    log("sync", device, s);
  }
  q->wait_for(q->submitted());
  return reported_fault();
}
int stream_query(int device, void* s, int* done) {
  std::shared_ptr<Queue> q;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (bad_stream(s)) return kBadStream;
    if (bad_device(device)) return kBadDevice;
    q = queue_of(device, s);
    if (!q) return kBadStream;
  }
  *done = q->reached(q->submitted());
  return reported_fault();
}
int event_create(int device, void** out) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (bad_device(device)) return kBadDevice;
  *out = new Event{device};
  return kOk;
}
int event_destroy(int, void* e) {
  std::lock_guard<std::mutex> lock(g_mu);
  delete static_cast<Event*>(e);  // waits already queued keep what they wait for
  return kOk;
}
int event_record(int device, void* e, void* s) {
  std::lock_guard<std::mutex> lock(g_mu);
  auto* ev = static_cast<Event*>(e);
  if (bad_device(device) || ev->device != device) return kBadDevice;
  auto q = queue_of(device, s);
  if (!q) return kBadStream;
  ev->queue = q;
  ev->position = q->submitted();  // complete once the stream has run what is queued now
  ev->recorded = true;
  log("record", device, s);
  return kOk;
}
int stream_wait_event(int device, void* s, void* e) {
  std::shared_ptr<Queue> consumer, producer;
  uint64_t position;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    auto* ev = static_cast<Event*>(e);
    if (bad_device(device)) return kBadDevice;
    consumer = queue_of(device, s);
    if (!consumer) return kBadStream;
    if (!ev->recorded) return kBadPointer;
    producer = ev->queue;
    position = ev->position;
    log("wait", device, s, producer.get() == g_null_stream[ev->device].get() ? nullptr : producer.get());
  }
  Touch none;
  submit(consumer, [producer, position] { producer->wait_for(position); }, none, "an event wait");
  return kOk;
}
// While g_events_pending is set, recorded events report unfinished work (a busy device).
bool g_events_pending = false;
int event_query(int device, void* e, int* done) {
  std::shared_ptr<Queue> q;
  uint64_t position = 0;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    auto* ev = static_cast<Event*>(e);
    if (bad_device(device) || ev->device != device) return kBadDevice;
    if (g_events_pending) {
      *done = 0;
      return kOk;
    }
    q = ev->queue;
    position = ev->position;
  }
  *done = !q || q->reached(position);
  return reported_fault();
}
int pool_usage(int device, uint64_t* reserved, uint64_t* used) {
  *reserved = *used = arena().live_blocks();
  return bad_device(device) ? kBadDevice : kOk;
}
int pool_trim(int device) { return bad_device(device) ? kBadDevice : kOk; }
int peer_access(int device, int peer, int* granted) {
  std::lock_guard<std::mutex> lock(g_mu);
  *granted = 0;
  if (bad_device(device) || bad_device(peer)) return kBadDevice;
  if (device == peer || g_peer_possible) g_peer_access[device][peer] = true;
  *granted = g_peer_access[device][peer];
  log("peer_access", device, reinterpret_cast<void*>(static_cast<uintptr_t>(peer)));
  return kOk;
}
// Any address inside a live "device" block is that device's memory; anything else is unknown.
int pointer_device(const void* p, int* device_type, int* device) {
  *device_type = 0;
  *device = 0;
  DeviceBlock b;
  if (arena().find(p, 1, &b)) {
    *device_type = 10;  // kDLROCM
    *device = b.device;
  }
  return kOk;
}

// Not const: tests lower sort_max_items (set_sort_max_items) to make the core split sorts.
DlaGpuOps kOps = {
    DLA_GPU_OPS_ABI, 10 /* kDLROCM */, 11 /* kDLROCMHost */, 0, "rocm",
    &error_string, &is_out_of_memory, &device_count, &init_device,
    &malloc_async, &free_async, &malloc_host, &free_host, nullptr, nullptr,
    &memcpy_async, &memset_async, &strided_async, &elementwise_async,
    &stream_create, &stream_destroy, &stream_synchronize, &stream_query,
    &event_create, &event_destroy, &event_record, &stream_wait_event, &event_query,
    &pool_usage, &pool_trim, &pointer_device,
    &segmented_sort_async, INT64_MAX, &gemm_async, &fft_async, &fold_async, &solver_async, &scan_async,
    &peer_access,
};

dla::fake::Mode parse_mode(const char* m) {
  const std::string s(m);
  if (s == "eager") return dla::fake::Mode::Eager;
  if (s == "lazy") return dla::fake::Mode::Lazy;
  if (s == "synchronous") return dla::fake::Mode::Synchronous;
  throw py::value_error("fake GPU mode must be 'eager', 'lazy' or 'synchronous', not '" + s + "'");
}
const char* mode_name(dla::fake::Mode m) {
  switch (m) {
    case dla::fake::Mode::Eager: return "eager";
    case dla::fake::Mode::Lazy: return "lazy";
    default: return "synchronous";
  }
}

}  // namespace

PYBIND11_MODULE(_fake_gpu, m) {
  m.doc() = "Test double: a host-memory GPU vendor table installed as dlarray's ROCm backend.";
  m.def("install", []() {
    // The environment picks the mode for whole runs (CI runs the GPU test files with random
    // delays): DLARRAY_FAKE_GPU_MODE=eager|lazy|synchronous, DLARRAY_FAKE_GPU_DELAY_US=max,
    // DLARRAY_FAKE_GPU_SEED=n.
    if (const char* m = std::getenv("DLARRAY_FAKE_GPU_MODE")) dla::fake::set_mode(parse_mode(m));
    if (const char* d = std::getenv("DLARRAY_FAKE_GPU_DELAY_US")) {
      const char* seed = std::getenv("DLARRAY_FAKE_GPU_SEED");
      dla::fake::set_delays(std::atoi(d), seed ? std::strtoull(seed, nullptr, 10) : 0);
    }
    auto registrar = reinterpret_cast<DlaGpuRegistrar>(PyCapsule_Import(DLA_GPU_REGISTRAR_CAPSULE, 0));
    if (!registrar) throw py::error_already_set();
    char err[512] = {0};
    if (registrar(&kOps, err, sizeof err) != 0) throw std::runtime_error(err);
  });
  m.def("log", []() {
    std::lock_guard<std::mutex> lock(g_mu);
    py::list out;
    for (const Entry& e : g_log) out.append(py::make_tuple(e.op, e.device, e.a, e.b));
    return out;
  }, "Calls so far as (op, device, a, b): a is the stream; for 'wait', b is the stream waited for.");
  m.def("clear_log", []() {
    std::lock_guard<std::mutex> lock(g_mu);
    g_log.clear();
  });
  m.def("live_streams", []() {
    std::lock_guard<std::mutex> lock(g_mu);
    return g_streams.size();
  });
  m.def("live_device_blocks", []() { return arena().live_blocks(); });
  m.def("set_mode", [](const std::string& mode) {
    const char* before = mode_name(dla::fake::mode());
    const dla::fake::Mode next = parse_mode(mode.c_str());
    py::gil_scoped_release release;  // drains the queues first
    dla::fake::set_mode(next);
    return std::string(before);
  }, "Sets how streams run queued work: 'eager' (worker threads, at once), 'lazy' (only when the "
     "host waits for it) or 'synchronous' (inside the call); drains every queue first; returns the previous mode.");
  m.def("mode", []() { return std::string(mode_name(dla::fake::mode())); });
  m.def("set_delays", [](int max_microseconds, uint64_t seed) {
    const int before = dla::fake::max_delay_us();
    dla::fake::set_delays(max_microseconds, seed);
    return before;
  }, py::arg("max_microseconds"), py::arg("seed") = 0,
     "Makes each stream wait a random 0..max_microseconds before each piece of work (0: none), "
     "drawn from `seed`; returns the previous maximum.");
  m.def("synchronize_all", []() {
    py::gil_scoped_release release;
    dla::fake::drain_all();
  }, "Waits until every stream has run what is queued.");
  m.def("read_device", [](uintptr_t address, size_t nbytes) {
    DeviceBlock b;
    const void* p = reinterpret_cast<const void*>(address);
    if (!arena().find(p, nbytes, &b)) throw py::value_error("read_device: not inside a live device block");
    {
      py::gil_scoped_release release;
      dla::fake::drain_all();
    }
    return py::bytes(static_cast<const char*>(arena().mirror(p)), nbytes);
  }, "The bytes at a device address, once every stream has run what is queued (the host itself "
     "cannot read device memory: it faults).");
  m.def("write_device", [](uintptr_t address, const py::bytes& data) {
    const std::string bytes = data;
    void* p = reinterpret_cast<void*>(address);
    DeviceBlock b;
    if (!arena().find(p, bytes.size(), &b)) throw py::value_error("write_device: not inside a live device block");
    {
      py::gil_scoped_release release;
      dla::fake::drain_all();
    }
    std::memcpy(arena().mirror(p), bytes.data(), bytes.size());
  }, "Writes bytes at a device address once every stream has run what is queued (as another "
     "library's kernel would).");
  m.def("free_async", [](uintptr_t address, int device, uintptr_t stream) {
    return free_async(device, reinterpret_cast<void*>(address), reinterpret_cast<void*>(stream));
  }, "The table's free_async, called directly (as a faulty core would): returns its error code.");
  m.def("fft_plans", []() {
    std::lock_guard<std::mutex> lock(g_fft_plans_mu);
    return py::make_tuple(g_fft_plans.size(), g_fft_plans_made);
  }, "(live FFT plans, plans made so far).");
  m.def("faults", []() { return dla::fake::faults(); },
        "Faults of queued work when it ran (use after free, ...), oldest first.");
  m.def("clear_faults", []() { dla::fake::clear_faults(); });
  m.def("set_peer_access_possible", [](bool possible) {
    std::lock_guard<std::mutex> lock(g_mu);
    const bool before = g_peer_possible;
    g_peer_possible = possible;
    for (auto& row : g_peer_access)
      for (bool& granted : row) granted = false;
    return before;
  }, "Whether peer_access can grant access between the two devices (P2P hardware); resets every "
     "grant; returns the previous setting.");
  m.def("set_events_pending", [](bool pending) {
    std::lock_guard<std::mutex> lock(g_mu);
    g_events_pending = pending;
  }, "While True, recorded events report unfinished work (as on a busy device).");
  m.def("host_allocations", []() {
    std::lock_guard<std::mutex> lock(g_mu);
    return g_host_allocations;
  }, "malloc_host calls so far.");
  m.def("set_sort_max_items", [](int64_t n) {
    std::lock_guard<std::mutex> lock(g_mu);
    const int64_t before = kOps.sort_max_items;
    kOps.sort_max_items = g_sort_max_items = n;
    return before;
  }, "Sets the most pairs one segmented_sort_async call takes; returns the previous limit.");
  m.def("set_gemm_error", [](int code) {
    std::lock_guard<std::mutex> lock(g_mu);
    const int before = g_gemm_error;
    g_gemm_error = code;
    return before;
  }, "Makes gemm_async return `code` (0: work again), e.g. DLA_GPU_LIBRARY_MISSING (-2); returns the previous.");
  m.def("set_fft_error", [](int code) {
    std::lock_guard<std::mutex> lock(g_mu);
    const int before = g_fft_error;
    g_fft_error = code;
    return before;
  }, "Makes fft_async return `code` (0: work again); returns the previous.");
  m.def("set_solver_error", [](int code) {
    std::lock_guard<std::mutex> lock(g_mu);
    const int before = g_solver_error;
    g_solver_error = code;
    return before;
  }, "Makes solver_async return `code` (0: work again), e.g. DLA_GPU_LIBRARY_MISSING (-2); returns the previous.");
  m.def("set_scan_unsupported", [](bool unsupported) {
    std::lock_guard<std::mutex> lock(g_mu);
    const bool before = g_scan_unsupported;
    g_scan_unsupported = unsupported;
    return before;
  }, "While True, scan_async answers DLA_GPU_UNSUPPORTED (an older backend); returns the previous.");
  m.def("live_host_blocks", []() {
    std::lock_guard<std::mutex> lock(g_mu);
    return g_host_blocks.size();
  });
}
