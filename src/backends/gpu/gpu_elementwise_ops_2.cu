// gpu_elementwise_ops_2.cu — instantiates the GPU kernels of the elementwise operations whose
// index is 2 modulo kGpuOpParts (gpu_elementwise_launch.h); gpu_elementwise.cu routes to it.
#include "backends/gpu/gpu_elementwise_launch.h"

namespace dla {
namespace DLA_GPU_NS {

int launch_ops_part2(const DlaGpuElementwise& job, gpuStream_t stream) {
  LaunchRunner runner{stream};
  return gpu_kernels::dispatch_op_part<2, kGpuOpParts>(job, runner);
}

}  // namespace DLA_GPU_NS
}  // namespace dla
