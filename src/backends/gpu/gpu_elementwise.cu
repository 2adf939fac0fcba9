// gpu_elementwise.cu — routes an elementwise job to the file that holds its kernels, and
// launches the casts and the sort/search/matmul helper jobs itself.
//
// Compiled by nvcc (CUDA, into dlarray._core) and by hipcc (HIP, into dlarray._rocm) next to
// gpu_ops.cu, whose table entry elementwise_async sets the device and calls
// launch_elementwise here. The kernels and their launcher are in gpu_elementwise_launch.h;
// the elementwise operations are instantiated in gpu_elementwise_ops_<k>.cu.
#include "backends/gpu/gpu_elementwise_launch.h"

namespace dla {
namespace DLA_GPU_NS {

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

int launch_elementwise(const DlaGpuElementwise& job, void* stream) {
  const auto s = static_cast<gpuStream_t>(stream);
  if (job.op == DLA_GPU_OP_CAST || gpu_kernels::is_helper_job(job.op)) {
    LaunchRunner runner{s};
    return job.op == DLA_GPU_OP_CAST ? gpu_kernels::dispatch_cast(job, runner)
                                     : gpu_kernels::dispatch_helper_job(job, runner);
  }
  if (job.op < 0) return DLA_GPU_UNSUPPORTED;  // no such job
  // The elementwise operations: the file of the op's part.
  static int (*const parts[kGpuOpParts])(const DlaGpuElementwise&, gpuStream_t) = {
      launch_ops_part0, launch_ops_part1, launch_ops_part2};
  return parts[job.op % kGpuOpParts](job, s);
}

}  // namespace DLA_GPU_NS
}  // namespace dla
