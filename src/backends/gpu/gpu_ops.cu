// gpu_ops.cu — the vendor half of the GPU backend: memory, streams, events, copy/fill kernels,
// and the entries into the vendor libraries (cuBLAS, cuFFT, cuSOLVER: backends/cuda/cublas.cpp,
// cufft.cpp, cusolver.cpp; hipBLAS, hipFFT, hipSOLVER: backends/rocm/hipblas.cpp, hipfft.cpp,
// hipsolver.cpp, left out of ROCm builds with DLARRAY_ROCM_VENDOR_LIBS=OFF).
//
// Compiled twice from this one file: by nvcc as CUDA (namespace dla::cuda, linked into
// dlarray._core with the static CUDA runtime) and by hipcc as HIP with -DDLA_GPU_HIP
// (namespace dla::rocm, linked into the optional dlarray._rocm). It exports the C table of
// gpu_ops.h and holds the only vendor state that must be global: one memory pool per device.
// Policy (which stream, when to wait, statistics) is the core's, in gpu_backend.cpp.
#include <stdint.h>
#include <string.h>

#include "backends/gpu/gpu_ops.h"
#include "backends/gpu/gpu_runtime.h"
#include "backends/gpu/vendor_item_counts.h"
#include "core/dtype.h"
#if !defined(DLA_GPU_HIP)
#include <vector>

#include "backends/cuda/cuda_libraries.h"  // cuBLAS, cuFFT, cuSOLVER, loaded at run time
#define DLA_GPU_VENDOR_LIBS 1
#define DLA_GPU_BLAS_GEMM cublas_gemm
#define DLA_GPU_FFT_EXEC cufft_exec
#define DLA_GPU_SOLVER_RUN cusolver_run
#elif defined(DLA_ROCM_VENDOR_LIBS)
#include <vector>

#include "backends/rocm/rocm_libraries.h"  // hipBLAS, hipFFT, hipSOLVER, loaded at run time
#define DLA_GPU_VENDOR_LIBS 1
#define DLA_GPU_BLAS_GEMM hipblas_gemm
#define DLA_GPU_FFT_EXEC hipfft_exec
#define DLA_GPU_SOLVER_RUN hipsolver_run
#endif

namespace dla {
namespace DLA_GPU_NS {
namespace {

// gpu_elementwise.cu: the elementwise and cast kernels, on the current device.
}  // namespace
int launch_elementwise(const DlaGpuElementwise& job, void* stream);
// gpu_sort.cu: the segmented stable sort over CUB or rocPRIM, on the current device.
int launch_segmented_sort(const DlaGpuSegmentedSort& job, void* temp, size_t* temp_bytes, void* stream);
// gpu_fold.cu: single-read tree reductions, on the current device.
int launch_fold(const DlaGpuFold& job, void* temp, size_t* temp_bytes, void* stream);
// gpu_scan.cu: running sums and products over CUB or rocPRIM, on the current device.
int launch_scan(const DlaGpuScan& job, void* temp, size_t* temp_bytes, void* stream);
namespace {

constexpr int kMaxDevices = 64;
// Our own pool per device, so that the release threshold we set (keep freed memory cached:
// the next allocation then never reaches the driver) changes nothing for other libraries
// using the device's default pool. Null when the device has no stream-ordered allocator.
gpuMemPool_t g_pools[kMaxDevices];

// Makes `device` current for one call and restores the caller's device afterwards: dlarray
// must not change which device the thread's other libraries see.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    err_ = gpuGetDevice(&prev_);
    if (err_ == gpuSuccess && prev_ != device) {
      err_ = gpuSetDevice(device);
      switched_ = err_ == gpuSuccess;
    }
  }
  ~DeviceGuard() {
    if (switched_) static_cast<void>(gpuSetDevice(prev_));
  }
  gpuError_t error() const { return err_; }

 private:
  int prev_ = 0;
  bool switched_ = false;
  gpuError_t err_;
};

#define DLA_ON_DEVICE(device)                           \
  DeviceGuard device_guard_(device);                    \
  if (device_guard_.error() != gpuSuccess) return static_cast<int>(device_guard_.error())

inline gpuStream_t as_stream(void* s) { return static_cast<gpuStream_t>(s); }

// ---- kernels ----------------------------------------------------------------------------

template <int W>
struct Word;
template <>
struct Word<1> { using type = uint8_t; };
template <>
struct Word<2> { using type = uint16_t; };
template <>
struct Word<4> { using type = uint32_t; };
template <>
struct Word<8> { using type = uint64_t; };
template <>
struct Word<16> { using type = uint4; };  // 16-byte aligned vector type of both runtimes

// Byte offsets of flat index i in the job's index space (innermost dimension last).
template <class I, bool kWithSrc>
__device__ inline void offsets_of(const DlaGpuStrided& job, I i, int64_t* dst_off, int64_t* src_off) {
  int64_t d = 0, s = 0;
  for (int k = job.ndim - 1; k >= 0; --k) {
    const I extent = static_cast<I>(job.shape[k]);
    const I idx = i % extent;
    i /= extent;
    d += static_cast<int64_t>(idx) * job.dst_strides[k];
    if (kWithSrc) s += static_cast<int64_t>(idx) * job.src_strides[k];
  }
  *dst_off = d;
  *src_off = s;
}

// I is the index type: 32-bit when the whole space fits, since 64-bit division is slow on GPUs.
template <int W, class I>
__global__ void copy_kernel(const DlaGpuStrided job) {
  using T = typename Word<W>::type;
  const I n = static_cast<I>(job.count);
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  char* dst = static_cast<char*>(job.dst);
  const char* src = static_cast<const char*>(job.src);
  for (I i = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t d, s;
    offsets_of<I, true>(job, i, &d, &s);
    *reinterpret_cast<T*>(dst + d) = *reinterpret_cast<const T*>(src + s);
  }
}

template <int W, class I>
__global__ void fill_kernel(const DlaGpuStrided job) {
  using T = typename Word<W>::type;
  T value[16 / W];
  memcpy(value, job.value, sizeof value);
  const I n = static_cast<I>(job.count);
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  char* dst = static_cast<char*>(job.dst);
  for (I i = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t d, unused;
    offsets_of<I, false>(job, i, &d, &unused);
    T* out = reinterpret_cast<T*>(dst + d);
    for (int w = 0; w < job.words; ++w) out[w] = value[w];
  }
}

template <int W, class I>
int launch(const DlaGpuStrided& job, gpuStream_t stream) {
  constexpr int kThreads = 256;
  // Enough blocks to fill any current GPU; the grid-stride loop covers the rest.
  constexpr int64_t kMaxBlocks = 8192;
  int64_t blocks = (job.count + kThreads - 1) / kThreads;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  // A failed call earlier on this thread (an out-of-memory, say) leaves the last error set;
  // clear it so that the check below reports this launch only.
  static_cast<void>(gpuGetLastError());
  if (job.src)
    copy_kernel<W, I><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(job);
  else
    fill_kernel<W, I><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(job);
  return static_cast<int>(gpuGetLastError());
}

template <int W>
int launch_word(const DlaGpuStrided& job, gpuStream_t stream) {
  // 32-bit indices while i + grid stride cannot wrap.
  if (job.count < (int64_t(1) << 31)) return launch<W, uint32_t>(job, stream);
  return launch<W, uint64_t>(job, stream);
}

// ---- the table's functions -----------------------------------------------------------------

// Negative codes are dlarray's own (gpu_ops.h), the others the runtime's.
const char* error_string(int err) {
#if defined(DLA_GPU_VENDOR_LIBS)
  if (const char* s = library_error_string(err)) return s;
#endif
  if (err == DLA_GPU_UNSUPPORTED) return "not supported by this backend";
  return gpuGetErrorString(static_cast<gpuError_t>(err));
}
int is_out_of_memory(int err) {
#if defined(DLA_GPU_VENDOR_LIBS)
  if (library_out_of_memory(err)) return 1;
#endif
  return err == static_cast<int>(gpuErrorOutOfMemory);
}

int device_count(int* out) {
  *out = 0;
  gpuError_t e = gpuGetDeviceCount(out);
  if (e != gpuSuccess) {
    *out = 0;
    static_cast<void>(gpuGetLastError());  // no driver or no device: not an error the next call should see
  }
  return static_cast<int>(e);
}

int init_device(int device) {
  if (device < 0 || device >= kMaxDevices) return static_cast<int>(gpuErrorInvalidDevice);
  DLA_ON_DEVICE(device);
  int supported = 0;
  if (gpuDeviceGetAttribute(&supported, gpuDevAttrMemoryPoolsSupported, device) != gpuSuccess || !supported) {
    static_cast<void>(gpuGetLastError());
    g_pools[device] = nullptr;  // falls back to synchronous malloc/free
    return 0;
  }
  gpuMemPoolProps props;
  memset(&props, 0, sizeof props);
  props.allocType = gpuMemAllocationTypePinned;
  props.handleTypes = gpuMemHandleTypeNone;
  props.location.type = gpuMemLocationTypeDevice;
  props.location.id = device;
  gpuMemPool_t pool;
  gpuError_t e = gpuMemPoolCreate(&pool, &props);
  if (e != gpuSuccess) return static_cast<int>(e);
  uint64_t keep_everything = UINT64_MAX;
  e = gpuMemPoolSetAttribute(pool, gpuMemPoolAttrReleaseThreshold, &keep_everything);
  g_pools[device] = pool;
  return static_cast<int>(e);
}

int malloc_async(int device, size_t n, void* stream, void** out) {
  DLA_ON_DEVICE(device);
  if (gpuMemPool_t pool = g_pools[device])
    return static_cast<int>(gpuMallocFromPoolAsync(out, n, pool, as_stream(stream)));
  return static_cast<int>(gpuMalloc(out, n));
}

int free_async(int device, void* p, void* stream) {
  DLA_ON_DEVICE(device);
  if (g_pools[device]) return static_cast<int>(gpuFreeAsync(p, as_stream(stream)));
  return static_cast<int>(gpuFree(p));
}

int malloc_host(size_t n, void** out) { return static_cast<int>(gpuHostAlloc(out, n, gpuHostAllocPortable)); }
int free_host(void* p) { return static_cast<int>(gpuFreeHost(p)); }

#if DLA_GPU_MANAGED_TYPE
int malloc_managed(int device, size_t n, void** out) {
  DLA_ON_DEVICE(device);
  return static_cast<int>(gpuMallocManaged(out, n, gpuMemAttachGlobal));
}
int free_managed(void* p) { return static_cast<int>(gpuFree(p)); }
#endif

int memcpy_async(int device, void* dst, const void* src, size_t n, void* stream) {
  DLA_ON_DEVICE(device);
  return static_cast<int>(gpuMemcpyAsync(dst, src, n, gpuMemcpyDefault, as_stream(stream)));
}

int memset_async(int device, void* dst, int byte, size_t n, void* stream) {
  DLA_ON_DEVICE(device);
  return static_cast<int>(gpuMemsetAsync(dst, byte, n, as_stream(stream)));
}

int strided_async(int device, const DlaGpuStrided* job, void* stream) {
  if (job->count <= 0) return 0;
  DLA_ON_DEVICE(device);
  switch (job->word) {
    case 1: return launch_word<1>(*job, as_stream(stream));
    case 2: return launch_word<2>(*job, as_stream(stream));
    case 4: return launch_word<4>(*job, as_stream(stream));
    case 8: return launch_word<8>(*job, as_stream(stream));
    case 16: return launch_word<16>(*job, as_stream(stream));
  }
  return static_cast<int>(gpuErrorInvalidValue);
}

int elementwise_async(int device, const DlaGpuElementwise* job, void* stream) {
  if (job->count <= 0) return 0;
  DLA_ON_DEVICE(device);
  return launch_elementwise(*job, stream);
}

// An empty job of an entry with scratch memory: it queues nothing and needs none.
bool nothing_to_queue(bool empty, void* temp, size_t* temp_bytes) {
  if (empty && !temp) *temp_bytes = 0;
  return empty;
}

int segmented_sort_async(int device, const DlaGpuSegmentedSort* job, void* temp, size_t* temp_bytes, void* stream) {
  if (nothing_to_queue(job->segments <= 0 || job->length <= 0, temp, temp_bytes)) return 0;
  DLA_ON_DEVICE(device);
  return launch_segmented_sort(*job, temp, temp_bytes, stream);
}

// A ROCm build without the vendor libraries (DLARRAY_ROCM_VENDOR_LIBS=OFF) answers the three
// library entries DLA_GPU_UNSUPPORTED: the core raises NotImplementedError for matmul of
// floating dtypes, fft and the LAPACK forms on ROCm devices.
int gemm_async(int device, const DlaGpuGemm* job, void* stream) {
#if !defined(DLA_GPU_VENDOR_LIBS)
  static_cast<void>(device), static_cast<void>(job), static_cast<void>(stream);
  return DLA_GPU_UNSUPPORTED;
#else
  DLA_ON_DEVICE(device);
  return DLA_GPU_BLAS_GEMM(device, *job, stream);
#endif
}

// The norm= factor of a transform: every real number of the output times `s`.
template <class T>
__global__ void scale_kernel(T* p, int64_t n, T s) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) p[i] *= s;
}

template <class T>
int launch_scale(void* p, int64_t n, double s, gpuStream_t stream) {
  constexpr int kThreads = 256;
  const int64_t blocks = n / kThreads + 1 < 8192 ? n / kThreads + 1 : 8192;
  static_cast<void>(gpuGetLastError());
  scale_kernel<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(static_cast<T*>(p), n, static_cast<T>(s));
  return static_cast<int>(gpuGetLastError());
}

int fft_async(int device, const DlaGpuFft* job, void* temp, size_t* temp_bytes, void* stream) {
#if !defined(DLA_GPU_VENDOR_LIBS)
  static_cast<void>(device), static_cast<void>(job), static_cast<void>(temp), static_cast<void>(temp_bytes),
      static_cast<void>(stream);
  return DLA_GPU_UNSUPPORTED;
#else
  DLA_ON_DEVICE(device);
  if (int err = DLA_GPU_FFT_EXEC(device, *job, temp, temp_bytes, stream)) return err;
  if (!temp || job->scale == 1.0) return 0;
  // Real numbers in the output: the complex entries count twice.
  int64_t reals = job->batch * (job->kind == DLA_GPU_FFT_C2R ? 1 : 2);
  for (int d = 0; d < job->rank; ++d)
    reals *= (d == job->rank - 1 && job->kind == DLA_GPU_FFT_R2C) ? job->n[d] / 2 + 1 : job->n[d];
  const bool single = job->dtype == static_cast<int32_t>(ScalarType::Complex64);
  return single ? launch_scale<float>(job->out, reals, job->scale, as_stream(stream))
                : launch_scale<double>(job->out, reals, job->scale, as_stream(stream));
#endif
}

int solver_async(int device, const DlaGpuSolver* job, void* temp, size_t* temp_bytes, void* stream) {
#if !defined(DLA_GPU_VENDOR_LIBS)
  static_cast<void>(device), static_cast<void>(job), static_cast<void>(temp), static_cast<void>(temp_bytes),
      static_cast<void>(stream);
  return DLA_GPU_UNSUPPORTED;
#else
  DLA_ON_DEVICE(device);
  // Some solver routines (cuSOLVER's Xgeev) also want host workspace, which must outlive the
  // work they queue: it is held here, and the stream drained before it goes.
  std::vector<unsigned char> host_work;
  const int err = DLA_GPU_SOLVER_RUN(device, *job, temp, temp_bytes, stream, &host_work);
  if (!host_work.empty()) {
    const gpuError_t e = gpuStreamSynchronize(as_stream(stream));
    if (!err && e != gpuSuccess) return static_cast<int>(e);
  }
  return err;
#endif
}

int fold_async(int device, const DlaGpuFold* job, void* temp, size_t* temp_bytes, void* stream) {
  if (nothing_to_queue(job->outer <= 0 || job->inner <= 0, temp, temp_bytes)) return 0;
  DLA_ON_DEVICE(device);
  return launch_fold(*job, temp, temp_bytes, stream);
}

int scan_async(int device, const DlaGpuScan* job, void* temp, size_t* temp_bytes, void* stream) {
  if (nothing_to_queue(job->outer <= 0 || job->length <= 0 || job->inner <= 0, temp, temp_bytes)) return 0;
  DLA_ON_DEVICE(device);
  return launch_scan(*job, temp, temp_bytes, stream);
}

int stream_create(int device, int non_blocking, void** out) {
  DLA_ON_DEVICE(device);
  gpuStream_t s = nullptr;
  gpuError_t e = gpuStreamCreateWithFlags(&s, non_blocking ? gpuStreamNonBlocking : gpuStreamDefault);
  *out = s;
  return static_cast<int>(e);
}

int stream_destroy(int device, void* stream) {
  DLA_ON_DEVICE(device);
  return static_cast<int>(gpuStreamDestroy(as_stream(stream)));
}

int stream_synchronize(int device, void* stream) {
  DLA_ON_DEVICE(device);
  return static_cast<int>(gpuStreamSynchronize(as_stream(stream)));
}

int stream_query(int device, void* stream, int* done) {
  DLA_ON_DEVICE(device);
  gpuError_t e = gpuStreamQuery(as_stream(stream));
  *done = e == gpuSuccess;
  if (e == gpuErrorNotReady) {
    static_cast<void>(gpuGetLastError());
    return 0;
  }
  return static_cast<int>(e);
}

int event_create(int device, void** out) {
  DLA_ON_DEVICE(device);
  gpuEvent_t ev = nullptr;
  gpuError_t e = gpuEventCreateWithFlags(&ev, gpuEventDisableTiming);
  *out = ev;
  return static_cast<int>(e);
}

int event_destroy(int device, void* event) {
  DLA_ON_DEVICE(device);
  return static_cast<int>(gpuEventDestroy(static_cast<gpuEvent_t>(event)));
}

int event_record(int device, void* event, void* stream) {
  DLA_ON_DEVICE(device);
  return static_cast<int>(gpuEventRecord(static_cast<gpuEvent_t>(event), as_stream(stream)));
}

int stream_wait_event(int device, void* stream, void* event) {
  DLA_ON_DEVICE(device);
  return static_cast<int>(gpuStreamWaitEvent(as_stream(stream), static_cast<gpuEvent_t>(event), 0));
}

int event_query(int device, void* event, int* done) {
  DLA_ON_DEVICE(device);
  gpuError_t e = gpuEventQuery(static_cast<gpuEvent_t>(event));
  *done = e == gpuSuccess;
  if (e == gpuErrorNotReady) {
    static_cast<void>(gpuGetLastError());  // not an error: the work is still running
    return 0;
  }
  return static_cast<int>(e);
}

int pool_usage(int device, uint64_t* reserved, uint64_t* used) {
  *reserved = *used = 0;
  if (device < 0 || device >= kMaxDevices || !g_pools[device]) return 0;
  gpuError_t e = gpuMemPoolGetAttribute(g_pools[device], gpuMemPoolAttrReservedMemCurrent, reserved);
  if (e == gpuSuccess) e = gpuMemPoolGetAttribute(g_pools[device], gpuMemPoolAttrUsedMemCurrent, used);
  return static_cast<int>(e);
}

int pool_trim(int device) {
  if (device < 0 || device >= kMaxDevices || !g_pools[device]) return 0;
  return static_cast<int>(gpuMemPoolTrimTo(g_pools[device], 0));
}

int peer_access(int device, int peer, int* granted) {
  *granted = 0;
  if (device < 0 || device >= kMaxDevices || peer < 0 || peer >= kMaxDevices)
    return static_cast<int>(gpuErrorInvalidDevice);
  // Without a pool the memory came from plain malloc, which copies between devices reach.
  if (device == peer || !g_pools[device]) {
    *granted = 1;
    return 0;
  }
  int can = 0;
  gpuError_t e = gpuDeviceCanAccessPeer(&can, peer, device);
  if (e != gpuSuccess || !can) return static_cast<int>(e);
  gpuMemAccessDesc desc;
  memset(&desc, 0, sizeof desc);
  desc.location.type = gpuMemLocationTypeDevice;
  desc.location.id = peer;
  desc.flags = gpuMemAccessFlagsProtReadWrite;
  e = gpuMemPoolSetAccess(g_pools[device], &desc, 1);
  if (e == gpuSuccess) *granted = 1;
  return static_cast<int>(e);
}

#if !defined(DLA_GPU_HIP)
// HIP's pointer attributes changed field names between releases (memoryType -> type), and
// nothing HIP imports needs it yet (__cuda_array_interface__ is CUDA's protocol): CUDA only.
int pointer_device(const void* p, int* device_type, int* device) {
  cudaPointerAttributes attr{};
  *device_type = 0;
  *device = 0;
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();  // an unknown pointer is an answer, not a sticky error
    return 0;
  }
  switch (attr.type) {
    case cudaMemoryTypeDevice: *device_type = DLA_GPU_DEVICE_TYPE; break;
    case cudaMemoryTypeHost: *device_type = DLA_GPU_HOST_TYPE; break;
    case cudaMemoryTypeManaged: *device_type = DLA_GPU_MANAGED_TYPE; break;
    default: return 0;
  }
  *device = attr.device < 0 ? 0 : attr.device;
  return 0;
}
#endif

const DlaGpuOps kOps = {
    DLA_GPU_OPS_ABI,
    DLA_GPU_DEVICE_TYPE,
    DLA_GPU_HOST_TYPE,
    DLA_GPU_MANAGED_TYPE,
    DLA_GPU_NAME,
    &error_string,
    &is_out_of_memory,
    &device_count,
    &init_device,
    &malloc_async,
    &free_async,
    &malloc_host,
    &free_host,
#if DLA_GPU_MANAGED_TYPE
    &malloc_managed,
    &free_managed,
#else
    nullptr,
    nullptr,
#endif
    &memcpy_async,
    &memset_async,
    &strided_async,
    &elementwise_async,
    &stream_create,
    &stream_destroy,
    &stream_synchronize,
    &stream_query,
    &event_create,
    &event_destroy,
    &event_record,
    &stream_wait_event,
    &event_query,
    &pool_usage,
    &pool_trim,
#if !defined(DLA_GPU_HIP)
    &pointer_device,
#else
    nullptr,
#endif
    &segmented_sort_async,
    gpu_counts::kSortMaxItems,  // the radix sort's count type (vendor_item_counts.h)
    &gemm_async,
    &fft_async,
    &fold_async,
    &solver_async,
    &scan_async,
    &peer_access,
};

}  // namespace
}  // namespace DLA_GPU_NS
}  // namespace dla

extern "C" const DlaGpuOps* DLA_GPU_ENTRY(void) { return &dla::DLA_GPU_NS::kOps; }
