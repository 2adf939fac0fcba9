// solver_kernels.cu — the element work around cuSOLVER's and hipSOLVER's routines (declared in
// solver_kernels.h, called by dense_solver.cpp): what LAPACK's conventions as dlarray returns
// them (lapack_cpu.cpp) need beyond the factorizations: zeroed triangles, identities, R out of
// geqrf's result, adjoints for wide SVDs, determinants from LU factors, and complex
// eigenvectors from real ones. Compiled twice, as CUDA and as HIP (-DDLA_GPU_HIP: the runtime
// calls through gpu_runtime.h's names); each build is its own module, so both keep the
// namespace dla::gpu. Every kernel is a grid-stride loop over the whole stack at once, queued
// on the caller's stream of the current device.
#include <stdint.h>

#include <cmath>

#include "backends/gpu/gpu_runtime.h"
#include "backends/gpu/solver_kernels.h"
#include "core/dtype.h"

namespace dla::gpu {
namespace {

template <class R>
struct Cx {
  R re, im;
};

template <class T>
struct Ops {  // real T
  using Real = T;
  __device__ static T zero() { return T(0); }
  __device__ static T one() { return T(1); }
  __device__ static T conj(T x) { return x; }
};
template <class R>
struct Ops<Cx<R>> {
  using Real = R;
  __device__ static Cx<R> zero() { return {R(0), R(0)}; }
  __device__ static Cx<R> one() { return {R(1), R(0)}; }
  __device__ static Cx<R> conj(Cx<R> x) { return {x.re, -x.im}; }
};

constexpr int kThreads = 256;

unsigned blocks_for(int64_t n) {
  const int64_t b = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 65535 ? b : 65535);
}

#define DLA_GRID_LOOP(i, total)                                                                       \
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (total);       \
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)

template <class T>
__global__ void zero_triangle_kernel(T* a, int64_t n, int64_t step, int64_t batch, bool lower) {
  DLA_GRID_LOOP(i, batch * n * n) {
    const int64_t e = i % (n * n), row = e % n, col = e / n;
    if (lower ? row > col : row < col) a[(i / (n * n)) * step + e] = Ops<T>::zero();
  }
}

template <class T>
__global__ void identity_kernel(T* x, int64_t rows, int64_t cols, int64_t step, int64_t batch) {
  DLA_GRID_LOOP(i, batch * rows * cols) {
    const int64_t e = i % (rows * cols);
    x[(i / (rows * cols)) * step + e] = e % rows == e / rows ? Ops<T>::one() : Ops<T>::zero();
  }
}

template <class T>
__global__ void upper_kernel(T* r, int64_t rrows, int64_t n, int64_t r_step, const T* a, int64_t m, int64_t a_step,
                             int64_t batch) {
  DLA_GRID_LOOP(i, batch * rrows * n) {
    const int64_t p = i / (rrows * n), e = i % (rrows * n), row = e % rrows, col = e / rrows;
    r[p * r_step + e] = row <= col ? a[p * a_step + row + col * m] : Ops<T>::zero();
  }
}

template <class T>
__global__ void adjoint_kernel(T* out, const T* in, int64_t rows, int64_t cols, int64_t out_step, int64_t in_step,
                               int64_t batch) {
  DLA_GRID_LOOP(i, batch * rows * cols) {  // i runs over out (cols x rows), column-major
    const int64_t p = i / (rows * cols), e = i % (rows * cols), orow = e % cols, ocol = e / cols;
    out[p * out_step + e] = Ops<T>::conj(in[p * in_step + ocol + orow * rows]);
  }
}

template <class R>
__device__ R magnitude(R x) {
  return fabs(x);
}
template <class R>
__device__ R magnitude(Cx<R> z) {
  return hypot(z.re, z.im);
}
template <class R>
__device__ R times(R a, R b) {
  return a * b;
}
template <class R>
__device__ Cx<R> times(Cx<R> a, Cx<R> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class R>
__device__ R negate(R a) {
  return -a;
}
template <class R>
__device__ Cx<R> negate(Cx<R> a) {
  return {-a.re, -a.im};
}
template <class R>
__device__ R scaled(R a, R s) {
  return a / s;
}
template <class R>
__device__ Cx<R> scaled(Cx<R> a, R s) {
  return {a.re / s, a.im / s};
}

// One thread per matrix, in the order lapack_cpu.cpp's Determinant multiplies.
template <class T>
__global__ void determinant_kernel(bool slog, const T* lu, int64_t n, int64_t step, const int64_t* ipiv,
                                   int32_t* info, T* out0, typename Ops<T>::Real* out1, int64_t batch) {
  using R = typename Ops<T>::Real;
  DLA_GRID_LOOP(p, batch) {
    T sign = Ops<T>::one(), prod = Ops<T>::one();
    R logabs = R(0);
    if (info[p] > 0) {
      sign = prod = Ops<T>::zero();
      logabs = -INFINITY;
    } else {
      const T* a = lu + p * step;
      for (int64_t k = 0; k < n; ++k) {
        const T d = a[k + k * n];
        if (ipiv[p * n + k] != k + 1) sign = negate(sign), prod = negate(prod);
        prod = times(prod, d);
        const R mag = magnitude(d);
        sign = times(sign, scaled(d, mag));
        logabs += log(mag);
      }
    }
    info[p] = 0;  // a singular matrix is a result here, not an error
    if (slog) {
      out0[p] = sign;
      out1[p] = logabs;
    } else {
      out0[p] = prod;
    }
  }
}

// Column c of a real geev's vr: a real eigenvector when w[c] is real; with w[c].im > 0, columns
// c and c+1 hold x and y of the pair x + iy (column c) and x - iy (column c+1).
template <class R>
__global__ void unpack_kernel(Cx<R>* v, int64_t v_step, const R* vr, const Cx<R>* w, int64_t w_step, int64_t n,
                              int64_t batch) {
  DLA_GRID_LOOP(i, batch * n * n) {
    const int64_t p = i / (n * n), e = i % (n * n), row = e % n, col = e / n;
    const Cx<R>* wp = w + p * w_step;
    const R* x = vr + p * n * n;
    Cx<R> out;
    if (wp[col].im == R(0)) {
      out = {x[e], R(0)};
    } else if (wp[col].im > R(0) && col + 1 < n) {
      out = {x[e], x[row + (col + 1) * n]};
    } else if (col > 0) {  // the conjugate of the pair that starts one column before
      out = {x[row + (col - 1) * n], -x[e]};
    } else {
      out = {x[e], R(0)};
    }
    v[p * v_step + e] = out;
  }
}

// out[i] = base + i * step_bytes: the matrix pointers the batched routines take.
__global__ void pointer_array_kernel(void** out, char* base, int64_t step_bytes, int64_t batch) {
  DLA_GRID_LOOP(i, batch) { out[i] = base + i * step_bytes; }
}

__global__ void widen_kernel(const int32_t* in, int64_t* out, int64_t count) {
  DLA_GRID_LOOP(i, count) { out[i] = in[i]; }
}

int last_error() { return static_cast<int>(gpuGetLastError()); }

// The launch (the variadic argument) once per element type T.
#define DLA_BY_DTYPE(dtype, ...)                                                \
  switch (static_cast<ScalarType>(dtype)) {                                     \
    case ScalarType::Float32: { using T = float; __VA_ARGS__; break; }          \
    case ScalarType::Float64: { using T = double; __VA_ARGS__; break; }         \
    case ScalarType::Complex64: { using T = Cx<float>; __VA_ARGS__; break; }    \
    case ScalarType::Complex128: { using T = Cx<double>; __VA_ARGS__; break; }  \
    default: return static_cast<int>(gpuErrorInvalidValue);                    \
  }

}  // namespace

int solver_zero_triangle(int dtype, void* a, int64_t n, int64_t step, int64_t batch, bool lower, void* stream) {
  const int64_t total = batch * n * n;
  if (total == 0) return 0;
  static_cast<void>(gpuGetLastError());
  auto s = static_cast<gpuStream_t>(stream);
  DLA_BY_DTYPE(dtype, zero_triangle_kernel<T><<<blocks_for(total), kThreads, 0, s>>>(static_cast<T*>(a), n, step,
                                                                                     batch, lower));
  return last_error();
}

int solver_identity(int dtype, void* x, int64_t rows, int64_t cols, int64_t step, int64_t batch, void* stream) {
  const int64_t total = batch * rows * cols;
  if (total == 0) return 0;
  static_cast<void>(gpuGetLastError());
  auto s = static_cast<gpuStream_t>(stream);
  DLA_BY_DTYPE(dtype, identity_kernel<T><<<blocks_for(total), kThreads, 0, s>>>(static_cast<T*>(x), rows, cols, step,
                                                                                batch));
  return last_error();
}

int solver_upper(int dtype, void* r, int64_t rrows, int64_t n, int64_t r_step, const void* a, int64_t m,
                 int64_t a_step, int64_t batch, void* stream) {
  const int64_t total = batch * rrows * n;
  if (total == 0) return 0;
  static_cast<void>(gpuGetLastError());
  auto s = static_cast<gpuStream_t>(stream);
  DLA_BY_DTYPE(dtype, upper_kernel<T><<<blocks_for(total), kThreads, 0, s>>>(
                          static_cast<T*>(r), rrows, n, r_step, static_cast<const T*>(a), m, a_step, batch));
  return last_error();
}

int solver_adjoint(int dtype, void* out, const void* in, int64_t rows, int64_t cols, int64_t out_step,
                   int64_t in_step, int64_t batch, void* stream) {
  const int64_t total = batch * rows * cols;
  if (total == 0) return 0;
  static_cast<void>(gpuGetLastError());
  auto s = static_cast<gpuStream_t>(stream);
  DLA_BY_DTYPE(dtype, adjoint_kernel<T><<<blocks_for(total), kThreads, 0, s>>>(
                          static_cast<T*>(out), static_cast<const T*>(in), rows, cols, out_step, in_step, batch));
  return last_error();
}

int solver_determinant(int dtype, bool slog, const void* lu, int64_t n, int64_t step, const int64_t* ipiv,
                       int32_t* info, void* out0, void* out1, int64_t batch, void* stream) {
  if (batch == 0) return 0;
  static_cast<void>(gpuGetLastError());
  auto s = static_cast<gpuStream_t>(stream);
  DLA_BY_DTYPE(dtype, determinant_kernel<T><<<blocks_for(batch), kThreads, 0, s>>>(
                          slog, static_cast<const T*>(lu), n, step, ipiv, info, static_cast<T*>(out0),
                          static_cast<typename Ops<T>::Real*>(out1), batch));
  return last_error();
}

int solver_unpack_vectors(int dtype, void* v, int64_t v_step, const void* vr, const void* w, int64_t w_step,
                          int64_t n, int64_t batch, void* stream) {
  const int64_t total = batch * n * n;
  if (total == 0) return 0;
  static_cast<void>(gpuGetLastError());
  auto s = static_cast<gpuStream_t>(stream);
  switch (static_cast<ScalarType>(dtype)) {
    case ScalarType::Float32:
      unpack_kernel<float><<<blocks_for(total), kThreads, 0, s>>>(
          static_cast<Cx<float>*>(v), v_step, static_cast<const float*>(vr), static_cast<const Cx<float>*>(w), w_step,
          n, batch);
      break;
    case ScalarType::Float64:
      unpack_kernel<double><<<blocks_for(total), kThreads, 0, s>>>(
          static_cast<Cx<double>*>(v), v_step, static_cast<const double*>(vr), static_cast<const Cx<double>*>(w),
          w_step, n, batch);
      break;
    default: return static_cast<int>(gpuErrorInvalidValue);
  }
  return last_error();
}

int solver_pointer_array(void** out, void* base, int64_t step_bytes, int64_t batch, void* stream) {
  if (batch == 0) return 0;
  static_cast<void>(gpuGetLastError());
  pointer_array_kernel<<<blocks_for(batch), kThreads, 0, static_cast<gpuStream_t>(stream)>>>(
      out, static_cast<char*>(base), step_bytes, batch);
  return last_error();
}

int solver_widen_pivots(const int32_t* in, int64_t* out, int64_t count, void* stream) {
  if (count == 0) return 0;
  static_cast<void>(gpuGetLastError());
  widen_kernel<<<blocks_for(count), kThreads, 0, static_cast<gpuStream_t>(stream)>>>(in, out, count);
  return last_error();
}

int solver_memset_zero(void* p, size_t n, void* stream) {
  if (n == 0) return 0;
  return static_cast<int>(gpuMemsetAsync(p, 0, n, static_cast<gpuStream_t>(stream)));
}

int solver_memcpy_rows(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width, size_t rows,
                       void* stream) {
  if (width == 0 || rows == 0) return 0;
  return static_cast<int>(gpuMemcpy2DAsync(dst, dst_pitch, src, src_pitch, width, rows, gpuMemcpyDefault,
                                           static_cast<gpuStream_t>(stream)));
}

int solver_memcpy(void* dst, const void* src, size_t n, void* stream) {
  if (n == 0) return 0;
  return static_cast<int>(gpuMemcpyAsync(dst, src, n, gpuMemcpyDefault, static_cast<gpuStream_t>(stream)));
}

}  // namespace dla::gpu
