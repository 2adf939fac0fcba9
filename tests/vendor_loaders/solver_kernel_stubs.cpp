// solver_kernel_stubs.cpp — host stand-ins for src/backends/gpu/solver_kernels.cu in
// .ci/vendor-loaders-check (no GPU there): the byte fills, copies and pointer arrays on host
// memory, the element kernels no-ops (their arithmetic is checked over the fake backend and on
// GPUs).
#include <cstring>
#include "backends/gpu/solver_kernels.h"
namespace dla::gpu {
int solver_zero_triangle(int, void*, int64_t, int64_t, int64_t, bool, void*) { return 0; }
int solver_identity(int, void*, int64_t, int64_t, int64_t, int64_t, void*) { return 0; }
int solver_upper(int, void*, int64_t, int64_t, int64_t, const void*, int64_t, int64_t, int64_t, void*) { return 0; }
int solver_adjoint(int, void*, const void*, int64_t, int64_t, int64_t, int64_t, int64_t, void*) { return 0; }
int solver_determinant(int, bool, const void*, int64_t, int64_t, const int64_t*, int32_t*, void*, void*, int64_t, void*) { return 0; }
int solver_unpack_vectors(int, void*, int64_t, const void*, const void*, int64_t, int64_t, int64_t, void*) { return 0; }
int solver_pointer_array(void** out, void* base, int64_t step, int64_t batch, void*) {
  for (int64_t i = 0; i < batch; ++i) out[i] = static_cast<char*>(base) + i * step;
  return 0;
}
int solver_widen_pivots(const int32_t* in, int64_t* out, int64_t count, void*) {
  for (int64_t i = 0; i < count; ++i) out[i] = in[i];
  return 0;
}
int solver_memset_zero(void* p, size_t n, void*) { std::memset(p, 0, n); return 0; }
int solver_memcpy(void* d, const void* s, size_t n, void*) { std::memcpy(d, s, n); return 0; }
int solver_memcpy_rows(void* d, size_t dp, const void* s, size_t sp, size_t w, size_t rows, void*) {
  for (size_t i = 0; i < rows; ++i) std::memcpy(static_cast<char*>(d) + i * dp, static_cast<const char*>(s) + i * sp, w);
  return 0;
}
}
