// gpu_elementwise_ops_1.cu — instantiates the GPU kernels of the elementwise operations whose
// index is 1 modulo kGpuOpParts (gpu_elementwise_launch.h); gpu_elementwise.cu routes to it.
#include "backends/gpu/gpu_elementwise_launch.h"

namespace dla {
namespace DLA_GPU_NS {

int launch_ops_part1(const DlaGpuElementwise& job, gpuStream_t stream) {
  LaunchRunner runner{stream};
  return gpu_kernels::dispatch_op_part<1, kGpuOpParts>(job, runner);
}

}  // namespace DLA_GPU_NS
}  // namespace dla
