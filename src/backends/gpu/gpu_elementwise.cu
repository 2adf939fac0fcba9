// gpu_elementwise.cu — launches the elementwise and cast kernels of gpu_elementwise_kernels.h.
//
// Compiled by nvcc (CUDA, into dlarray._core) and by hipcc (HIP, into dlarray._rocm) next to
// gpu_ops.cu, whose table entry elementwise_async sets the device and calls
// launch_elementwise here. One grid-stride kernel per element body and index width.
#include "backends/gpu/gpu_elementwise_kernels.h"
#include "backends/gpu/gpu_runtime.h"

namespace dla {
namespace DLA_GPU_NS {
namespace {

template <class Body, class I>
__global__ void elementwise_kernel(const DlaGpuElementwise job) {
  const I n = static_cast<I>(job.count);
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  for (I i = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    Body::template run<I>(job, i);
}

// The grid of a launch on the current device: enough resident blocks to fill every
// multiprocessor (32 blocks of 256 threads each), read once per device; the grid-stride loop
// covers the rest of the elements.
int64_t max_blocks_here() {
  constexpr int kDevices = 64;
  static int cached[kDevices];  // 0: not read yet (a benign race: every thread writes the same)
  int device = 0;
  if (gpuGetDevice(&device) != gpuSuccess || device < 0 || device >= kDevices) {
    static_cast<void>(gpuGetLastError());
    return 65536;
  }
  if (cached[device] == 0) {
    int sms = 0;
    if (gpuDeviceGetAttribute(&sms, gpuDevAttrMultiProcessorCount, device) != gpuSuccess || sms <= 0) {
      static_cast<void>(gpuGetLastError());
      sms = 2048;  // 65536 blocks
    }
    cached[device] = sms * 32;
  }
  return cached[device];
}

struct LaunchRunner {
  gpuStream_t stream;
  template <class Body>
  int run(const DlaGpuElementwise& job) {
    constexpr int kThreads = 256;
    const int64_t max_blocks = max_blocks_here();
    int64_t blocks = (job.count + kThreads - 1) / kThreads;
    if (blocks > max_blocks) blocks = max_blocks;
    static_cast<void>(gpuGetLastError());  // report this launch's error only
    // 32-bit indices while i + grid stride cannot wrap.
    if (job.count < (int64_t(1) << 31))
      elementwise_kernel<Body, uint32_t><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(job);
    else
      elementwise_kernel<Body, uint64_t><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(job);
    return static_cast<int>(gpuGetLastError());
  }
};

}  // namespace

int launch_elementwise(const DlaGpuElementwise& job, void* stream) {
  LaunchRunner runner{static_cast<gpuStream_t>(stream)};
  return gpu_kernels::dispatch_elementwise(job, runner);
}

}  // namespace DLA_GPU_NS
}  // namespace dla
