// gpu_random.cpp — dlarray.random on GPU arrays: one DLA_GPU_OP_RANDOM element job on the
// current stream, whose kernel (gpu_elementwise_kernels.h: RandomBody) computes core/philox.h's
// numbers, the CPU's bits.
#include <cstring>

#include "backends/gpu/gpu_elementwise.h"

namespace dla::gpu {

void gpu_random_fill(const Array& out, const philox::RandomJob& rj) {
  DlaGpuElementwise job = blank_job(DLA_GPU_OP_RANDOM, out.dtype().scalar);
  job.flags = rj.kind;
  job.data[0] = out.data();
  std::memcpy(&job.scalar[0][0], &rj, sizeof rj);
  const int64_t out_stride = out.itemsize(), none = 0;
  const int64_t* strides[2] = {&out_stride, &none};
  submit_gpu_job(out.device(), job, Dims{out.size()}, strides, 2, "random numbers");
}

}  // namespace dla::gpu
