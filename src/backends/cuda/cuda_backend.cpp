// cuda_backend.cpp — installs the CUDA build of gpu_ops.cu when dlarray._core loads.
//
// Compiled only when CMake found a CUDA toolkit. The CUDA runtime is linked statically and
// touches the driver lazily, so on a machine without a driver this installs a backend whose
// device_count() is 0: import never fails, and the CUDA device list is empty.
#include <string>

#include "backends/gpu/gpu_backend.h"

namespace {
struct Registrar {
  Registrar() {
    std::string why;
    dla::gpu::install_backend(dla_cuda_gpu_ops(), &why);  // the table is ours: it cannot be malformed
  }
} registrar;
}  // namespace
