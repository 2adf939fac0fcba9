// gpu_elementwise_launch.h — the kernels and the launcher of the elementwise and cast element
// bodies (gpu_elementwise_kernels.h), included by the translation units that instantiate them.
//
// The element table is spread over several .cu files, each compiled by nvcc (CUDA, into
// dlarray._core) and by hipcc (HIP, into dlarray._rocm): gpu_elementwise.cu holds the casts and
// the helper jobs and routes every job, gpu_elementwise_ops_<k>.cu the elementwise operations
// whose index is k modulo kGpuOpParts. One file took 210 s of nvcc (H100 build: 273 s in
// all); split, the parts compile side by side. One grid-stride kernel per element body (32-bit
// indices; a helper job's body also has a 64-bit one), and for the elementwise operations a
// second one that moves 16-byte vectors (contiguous operands).
#pragma once
#include <stdint.h>

#include <type_traits>

#include "backends/gpu/gpu_elementwise_kernels.h"
#include "backends/gpu/gpu_runtime.h"

namespace dla {
namespace DLA_GPU_NS {

// How many files the elementwise operations are spread over (gpu_elementwise_ops_<k>.cu).
constexpr int kGpuOpParts = 3;

// The operations of part k (gpu_elementwise_ops_<k>.cu): DLA_GPU_UNSUPPORTED for an op of
// another part.
int launch_ops_part0(const DlaGpuElementwise& job, gpuStream_t stream);
int launch_ops_part1(const DlaGpuElementwise& job, gpuStream_t stream);
int launch_ops_part2(const DlaGpuElementwise& job, gpuStream_t stream);

// The grid of a launch on the current device: enough resident blocks to fill every
// multiprocessor, read once per device (gpu_elementwise.cu).
int64_t max_blocks_here();

// Each including file gets its own copy of the kernel templates below (they are instantiated
// only for the bodies that file dispatches).
namespace {

template <class Body, class I>
__global__ void elementwise_kernel(const DlaGpuElementwise job) {
  const I n = static_cast<I>(job.count);
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  for (I i = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    Body::template run<I>(job, i);
}

// ---- the contiguous fast path -----------------------------------------------------------------
// A 1-d job whose operands are all contiguous and 16-byte aligned (or Python scalars) is run
// V elements per thread, each operand read and the output written as one 16-byte vector:
// a GPU's memory system needs that many bytes in flight per thread to reach its bandwidth
// (scalar 4-byte loads top out near 80% of it). The element function is the same functor.

template <class U, int V>
struct alignas(sizeof(U) * V) Pack {
  U v[V];
};

// What an elementwise operation's body (gpu_kernels::OpBody) computes, for the fast path.
template <class Body>
struct OpShape {
  static constexpr int kV = 1;
};
// The result type of an op of N - 1 operands (unevaluated: only its type is used).
template <class F, int N, class A, class T>
auto op_result() {
  if constexpr (N == 2) return decltype(F()(T())){};
  else if constexpr (N == 3) return decltype(F()(T(), T())){};
  else return decltype(F()(A(), T(), T())){};
}

template <class F, int N, class A, class T>
struct OpShape<gpu_kernels::OpBody<F, N, A, T>> {
  using Fn = F;
  using Cond = A;
  using In = T;
  using Out = decltype(op_result<F, N, A, T>());
  static constexpr size_t kWidest = sizeof(Out) > sizeof(T) ? (sizeof(A) > sizeof(Out) ? sizeof(A) : sizeof(Out))
                                                             : (sizeof(A) > sizeof(T) ? sizeof(A) : sizeof(T));
  // Elements per vector: 16 bytes of the widest operand (1: the fast path buys nothing).
  static constexpr int kV = kWidest >= 16 ? 1 : static_cast<int>(16 / kWidest);
};

template <class U, int V>
__device__ inline Pack<U, V> load_pack(const DlaGpuElementwise& j, int k, int64_t p) {
  Pack<U, V> r;
  if (j.data[k] == nullptr) {
    U v;
    __builtin_memcpy(&v, j.scalar[k], sizeof(U));
#pragma unroll
    for (int u = 0; u < V; ++u) r.v[u] = v;
  } else {
    r = reinterpret_cast<const Pack<U, V>*>(j.data[k])[p];
  }
  return r;
}

template <class Body, class I>
__global__ void vector_kernel(const DlaGpuElementwise job) {
  using S = OpShape<Body>;
  using T = typename S::In;
  using R = typename S::Out;
  constexpr int V = S::kV;
  const I n = static_cast<I>(job.count), packs = n / V;
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  const I first = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x;
  typename S::Fn f;
  for (I p = first; p < packs; p += step) {
    Pack<R, V> out;
    if constexpr (Body::N == 2) {
      const Pack<T, V> a = load_pack<T, V>(job, 1, p);
#pragma unroll
      for (int u = 0; u < V; ++u) out.v[u] = f(a.v[u]);
    } else if constexpr (Body::N == 3) {
      const Pack<T, V> a = load_pack<T, V>(job, 1, p), b = load_pack<T, V>(job, 2, p);
#pragma unroll
      for (int u = 0; u < V; ++u) out.v[u] = f(a.v[u], b.v[u]);
    } else {
      const Pack<typename S::Cond, V> c = load_pack<typename S::Cond, V>(job, 1, p);
      const Pack<T, V> a = load_pack<T, V>(job, 2, p), b = load_pack<T, V>(job, 3, p);
#pragma unroll
      for (int u = 0; u < V; ++u) out.v[u] = f(c.v[u], a.v[u], b.v[u]);
    }
    reinterpret_cast<Pack<R, V>*>(job.data[0])[p] = out;
  }
  // The last n % V elements, one per thread, through the element body. The job is 1-d: the
  // offsets need none of the strided path's divisions (which would double the kernel's code).
  if (first < n - packs * V) {
    const int64_t i = static_cast<int64_t>(packs * V + first);
    int64_t off[Body::N];
#pragma unroll
    for (int k = 0; k < Body::N; ++k) off[k] = i * job.strides[k][0];
    Body::run_at(job, off);
  }
}

// Whether the job can take the fast path: 1-d, every operand contiguous and aligned to its
// vector, or a scalar.
template <class Body>
bool vector_ready(const DlaGpuElementwise& job) {
  using S = OpShape<Body>;
  if (job.ndim != 1 || job.count < 4 * S::kV) return false;
  const size_t sizes[4] = {sizeof(typename S::Out), Body::N == 4 ? sizeof(typename S::Cond) : sizeof(typename S::In),
                           sizeof(typename S::In), sizeof(typename S::In)};
  for (int k = 0; k < Body::N; ++k) {
    if (job.data[k] == nullptr) continue;  // a scalar (never operand 0)
    if (job.strides[k][0] != static_cast<int64_t>(sizes[k]) ||
        reinterpret_cast<uintptr_t>(job.data[k]) % (sizes[k] * S::kV) != 0)
      return false;
  }
  return true;
}

struct LaunchRunner {
  gpuStream_t stream;

  // One grid-stride launch over `items` work items (elements, or vectors of them), the grid
  // capped at what fills the device.
  template <class Kernel>
  int launch(Kernel kernel, const DlaGpuElementwise& job, int64_t items) {
    constexpr int kThreads = 256;
    int64_t blocks = (items + kThreads - 1) / kThreads;
    const int64_t max_blocks = max_blocks_here();
    if (blocks > max_blocks) blocks = max_blocks;
    static_cast<void>(gpuGetLastError());  // report this launch's error only
    kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(job);
    return static_cast<int>(gpuGetLastError());
  }

  // Indices are 32-bit while i + grid stride cannot wrap (64-bit division is slow on GPUs).
  // The operations and casts are launched in pieces under that size (for_each_piece), so they
  // need no 64-bit kernel: one kernel per element body instead of two, half the compile time.
  // The helper jobs' bodies use the flat index itself and keep a 64-bit kernel for large jobs.
  static constexpr int64_t kNarrow = int64_t(1) << 31;

  template <class Body>
  static int run_piece(const DlaGpuElementwise& piece, void* self) {
    LaunchRunner& runner = *static_cast<LaunchRunner*>(self);
    if constexpr (OpShape<Body>::kV > 1) {
      if (vector_ready<Body>(piece))
        return runner.launch(vector_kernel<Body, uint32_t>, piece, piece.count / OpShape<Body>::kV);
    }
    return runner.launch(elementwise_kernel<Body, uint32_t>, piece, piece.count);
  }

  template <class Body>
  int run(const DlaGpuElementwise& job) {
    if constexpr (gpu_kernels::Splittable<Body>::value)
      return gpu_kernels::for_each_piece(job, kNarrow, run_piece<Body>, this);
    else
      return job.count < kNarrow ? launch(elementwise_kernel<Body, uint32_t>, job, job.count)
                                 : launch(elementwise_kernel<Body, uint64_t>, job, job.count);
  }
};

}  // namespace
}  // namespace DLA_GPU_NS
}  // namespace dla
