// host_device.h — DLA_HOST_DEVICE: marks code compiled for both the host and GPU kernels.
//
// Element functors (elementwise_functors.h) are shared by the CPU loops and the CUDA/HIP
// kernels; under nvcc or hipcc they need __host__ __device__, elsewhere nothing.
#pragma once

#if defined(__CUDACC__) || defined(__HIPCC__)
#define DLA_HOST_DEVICE __host__ __device__
#else
#define DLA_HOST_DEVICE
#endif
