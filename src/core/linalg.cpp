// linalg.cpp — the device-independent half of the C++ linear algebra entries (see linalg.h):
// the kernel registry, the diagonal view, and the one driver every LAPACK form goes through.
#include "core/linalg.h"

#include <string>

namespace dla {
namespace {

const LinalgKernels* g_kernels[16] = {};

}  // namespace

void register_linalg_kernels(DeviceKind kind, const LinalgKernels* kernels) {
  const int k = static_cast<int>(kind);
  if (k >= 0 && k < 16) g_kernels[k] = kernels;
}

const LinalgKernels& linalg_kernels_for(const Array& x, const char* fname) {
  // Host-accessible memory (pinned, managed) is computed on by the CPU kernels.
  const int k = static_cast<int>(x.device().host_accessible() ? DeviceKind::CPU : x.device().kind);
  const LinalgKernels* r = (k >= 0 && k < 16) ? g_kernels[k] : nullptr;
  if (!r) throw NotImplementedError(std::string(fname) + " on device '" + x.device().str() + "' is not available yet");
  return *r;
}

std::string batch_index_str(const Dims& batch, int64_t flat) {
  Dims idx(batch.size(), 0);
  for (int d = batch.size() - 1; d >= 0; --d) {
    if (batch[d] > 0) {
      idx[d] = flat % batch[d];
      flat /= batch[d];
    }
  }
  return shape_str(idx);
}

Array diagonal(const Array& x, int64_t offset) {
  const int d = x.ndim();
  if (d < 2)
    throw ValueError("diagonal: x must have at least 2 dimensions (a matrix or a stack of them), got " +
                     std::to_string(d) + "-d");
  const int64_t rows = x.shape(d - 2), cols = x.shape(d - 1);
  // Elements (i, i + offset): rows start at max(0, -offset), columns at max(0, offset).
  const int64_t r0 = offset < 0 ? -offset : 0, c0 = offset > 0 ? offset : 0;
  int64_t len = 0;
  if (r0 < rows && c0 < cols) len = rows - r0 < cols - c0 ? rows - r0 : cols - c0;
  Dims shape(x.shape().data(), d - 2), strides(x.strides().data(), d - 2);
  shape.push_back(len);
  strides.push_back(x.stride(d - 2) + x.stride(d - 1));
  const int64_t start = len > 0 ? (r0 * x.stride(d - 2) + c0 * x.stride(d - 1)) * x.itemsize() : 0;
  return x.view(shape, strides, x.byte_offset() + start);
}

}  // namespace dla
