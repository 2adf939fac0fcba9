// gpu_fold.cu — single-read reductions (sum, prod, max, min) on the GPU as balanced trees.
//
// Compiled by nvcc (into dlarray._core) and hipcc (into dlarray._rocm) next to gpu_ops.cu,
// whose table entry fold_async sets the device and calls launch_fold here. The core
// (gpu_reduce.cpp) hands over one kept axis (outer, O outputs) and one reduced axis (inner,
// K elements each) after collapsing the array's axes; shapes that do not collapse keep the
// elementwise tree of core/tree_reduce.h.
//
// Why our own kernels rather than CUB's DeviceReduce/DeviceSegmentedReduce: the standard's
// sums should be as accurate on a GPU as on the CPU (pairwise, error growing with log n), and
// CUB accumulates each thread's share sequentially. Here every combination is a node of a
// balanced tree: 16 elements per thread folded pairwise in registers, then the threads of a
// task folded pairwise in shared memory, then the tasks' partial results by the next pass.
// Nothing needs an identity element (the tails are folded as prefixes), so max/min propagate
// NaN and -0.0 sums stay -0.0 exactly as on the CPU. One pass reads the input once; the
// partial results are a 1/128th or less of it.
#include <stdint.h>

#include <cstdlib>

#include "backends/gpu/gpu_fold.h"
#include "backends/gpu/gpu_ops.h"
#include "backends/gpu/gpu_runtime.h"

namespace dla {
namespace DLA_GPU_NS {
namespace {

constexpr int kThreads = 256;   // per block
constexpr int kItems = 16;      // elements one thread folds in registers per pass
constexpr int kColLanes = 32;   // outputs side by side in a column block (coalesced reads)
constexpr int kColGroups = kThreads / kColLanes;
constexpr int64_t kColChunk = int64_t(kColGroups) * kItems;  // reduced elements per column block

// Where output o's data lies: o = (h, l) = (o / low, o % low), at h * high + l * step bytes.
struct Split {
  int64_t low, step, high;
  __device__ int64_t at(int64_t o) const {
    if (low == 0) return o * step;  // one axis: no division
    const int64_t h = o / low;
    return h * high + (o - h * low) * step;
  }
};

// One pass: out_or_partial[o, c] = tree fold of in[o, k] over the c-th chunk of k.
struct FoldPass {
  const char* in;
  int64_t outer, inner;  // O, K
  Split in_outer;        // where in[o, 0] is
  int64_t in_inner;      // byte stride along k
  int64_t chunks;        // chunks per output (1: the last pass)
  char* dst;             // partials, or the output on the last pass
  Split dst_outer;       // where dst[o, 0] is
  int64_t dst_chunk;     // byte stride along the chunk
  int lane_shift;        // rows: log2 of the threads per task
};

// Shared memory for a block's values, as bytes aligned for any element type.
template <size_t N>
struct alignas(16) SharedBytes {
  unsigned char bytes[N];
};

// v[0] = the pairwise fold of v[0..m) (m <= N); nothing when m == 0.
template <class T, class F, int N>
__device__ inline void fold_prefix(T (&v)[N], int m, F f) {
#pragma unroll
  for (int step = 1; step < N; step *= 2)
#pragma unroll
    for (int i = 0; i + step < N; i += 2 * step)
      if (i + step < m) v[i] = f(v[i], v[i + step]);
}

// The pass's result for one (o, chunk): the output combined with what it held, or a partial.
template <class T, class F>
__device__ inline void store_result(const FoldPass& p, int64_t o, int64_t c, T r, F f) {
  T* d = reinterpret_cast<T*>(p.dst + p.dst_outer.at(o) + c * p.dst_chunk);
  *d = p.chunks == 1 ? f(*d, r) : r;
}

// Rows: the reduced elements of an output lie closer together than the outputs do. A task
// (o, chunk) has 2^lane_shift threads reading consecutive elements, so each warp's loads are
// contiguous when the inner stride is; short rows get narrow tasks, several to a block.
template <class T, class F>
__global__ void fold_rows_kernel(const FoldPass p) {
  // Raw bytes: element types with constructors (complex) cannot be __shared__ arrays.
  __shared__ SharedBytes<kThreads * sizeof(T)> raw;
  T* s = reinterpret_cast<T*>(raw.bytes);
  const int tid = threadIdx.x, lanes = 1 << p.lane_shift, lane = tid & (lanes - 1);
  const int64_t task = static_cast<int64_t>(blockIdx.x) * (kThreads >> p.lane_shift) + (tid >> p.lane_shift);
  const int64_t o = task / p.chunks, c = task - o * p.chunks;
  const int64_t chunk_items = int64_t(lanes) * kItems, first = c * chunk_items;
  const bool active = o < p.outer;
  // Elements first + lane + u * lanes for u < m are this thread's.
  int m = 0;
  if (active && first + lane < p.inner) {
    const int64_t left = (p.inner - first - lane + lanes - 1) / lanes;
    m = left < kItems ? static_cast<int>(left) : kItems;
  }
  F f;
  T v[kItems];
  const char* base = p.in + (active ? p.in_outer.at(o) : 0) + (first + lane) * p.in_inner;
  const int64_t step = int64_t(lanes) * p.in_inner;
#pragma unroll
  for (int u = 0; u < kItems; ++u) v[u] = u < m ? *reinterpret_cast<const T*>(base + u * step) : T();
  fold_prefix(v, m, f);
  s[tid] = v[0];
  // Lanes [0, valid) hold values: the task's share of the row is a prefix of its lanes.
  const int64_t in_task = active ? p.inner - first : 0;
  const int valid = in_task < lanes ? static_cast<int>(in_task) : lanes;
  for (int width = 1; width < lanes; width *= 2) {
    __syncthreads();
    if ((lane & (2 * width - 1)) == 0 && lane + width < valid) s[tid] = f(s[tid], s[tid + width]);
  }
  __syncthreads();
  if (lane == 0 && valid > 0) store_result<T>(p, o, c, s[tid], f);
}

// Columns: the outputs lie closer together than their reduced elements (a sum over axis 0 of
// a row-major matrix). 32 neighbouring outputs per block, read side by side; the block's 8
// thread groups take interleaved elements of a chunk of 128 and are folded in shared memory.
template <class T, class F>
__global__ void fold_cols_kernel(const FoldPass p) {
  __shared__ SharedBytes<kColGroups * kColLanes * sizeof(T)> raw;
  auto s = reinterpret_cast<T(*)[kColLanes]>(raw.bytes);
  const int x = threadIdx.x % kColLanes, y = threadIdx.x / kColLanes;
  const int64_t groups = (p.outer + kColLanes - 1) / kColLanes;
  const int64_t c = blockIdx.x / groups, o = (blockIdx.x - c * groups) * kColLanes + x;
  const int64_t first = c * kColChunk;
  int m = 0;
  if (o < p.outer && first + y < p.inner) {
    const int64_t left = (p.inner - first - y + kColGroups - 1) / kColGroups;
    m = left < kItems ? static_cast<int>(left) : kItems;
  }
  F f;
  T v[kItems];
  const char* base = p.in + (o < p.outer ? p.in_outer.at(o) : 0) + (first + y) * p.in_inner;
  const int64_t step = int64_t(kColGroups) * p.in_inner;
#pragma unroll
  for (int u = 0; u < kItems; ++u) v[u] = u < m ? *reinterpret_cast<const T*>(base + u * step) : T();
  fold_prefix(v, m, f);
  s[y][x] = v[0];
  const int64_t in_chunk = p.inner - first;
  const int valid = in_chunk < kColGroups ? static_cast<int>(in_chunk) : kColGroups;
  for (int width = 1; width < kColGroups; width *= 2) {
    __syncthreads();
    if ((y & (2 * width - 1)) == 0 && y + width < valid) s[y][x] = f(s[y][x], s[y + width][x]);
  }
  __syncthreads();
  if (y == 0 && o < p.outer) store_result<T>(p, o, c, s[0][x], f);
}

// The passes of a job: the first reads the input; each later one folds the partial results of
// the one before, until one chunk per output is left and the last pass writes the output.
// Partials alternate between two scratch areas (even and odd passes). With launch == false it
// only measures the scratch memory.
template <class T, class F>
int run_passes(const DlaGpuFold& job, char* temp, size_t* temp_bytes, gpuStream_t stream, bool launch) {
  constexpr int64_t kSize = sizeof(T);
  const int64_t k_align = 256;
  FoldPass p;
  p.in = static_cast<const char*>(job.in);
  p.outer = job.outer;
  p.inner = job.inner;
  // low == 0 marks a single kept axis (no division in the kernels).
  const int64_t low = job.outer_low == job.outer ? 0 : job.outer_low;
  p.in_outer = Split{low, job.in_outer_stride, job.in_high_stride};
  p.in_inner = job.in_inner_stride;
  int64_t area[2] = {0, 0};  // bytes each scratch area needs
  for (int pass = 0;; ++pass) {
    // Columns when neighbouring outputs are nearer in memory than neighbouring elements.
    const bool cols = p.outer > 1 && p.inner > kItems && std::abs(p.in_outer.step) < std::abs(p.in_inner);
    int lane_shift = 0;
    if (!cols) {
      while ((int64_t(1) << lane_shift) * kItems < p.inner && (1 << lane_shift) < kThreads) ++lane_shift;
    }
    const int64_t chunk = cols ? kColChunk : (int64_t(1) << lane_shift) * kItems;
    p.chunks = (p.inner + chunk - 1) / chunk;
    p.lane_shift = lane_shift;
    const bool last = p.chunks == 1;
    char* scratch = temp + (pass % 2 ? (area[0] + k_align - 1) / k_align * k_align : 0);
    if (last) {
      p.dst = static_cast<char*>(job.out);
      p.dst_outer = Split{low, job.out_stride, job.out_high_stride};
      p.dst_chunk = 0;
    } else {
      int64_t& need = area[pass % 2];
      need = need > p.outer * p.chunks * kSize ? need : p.outer * p.chunks * kSize;
      p.dst = scratch;
      // Column passes write each chunk's outputs side by side, so the next pass reads them as
      // columns again; row passes write each output's chunks side by side.
      p.dst_outer = Split{0, cols ? kSize : p.chunks * kSize, 0};
      p.dst_chunk = cols ? p.outer * kSize : kSize;
    }
    if (launch) {
      const int64_t blocks = cols ? (p.outer + kColLanes - 1) / kColLanes * p.chunks
                                  : (p.outer * p.chunks + (kThreads >> lane_shift) - 1) / (kThreads >> lane_shift);
      if (blocks > 0x7fffffff) return static_cast<int>(gpuErrorInvalidValue);
      static_cast<void>(gpuGetLastError());  // report this launch's error only
      if (cols) fold_cols_kernel<T, F><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(p);
      else fold_rows_kernel<T, F><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(p);
      const gpuError_t e = gpuGetLastError();
      if (e != gpuSuccess) return static_cast<int>(e);
    }
    if (last) break;
    p.in = p.dst;
    p.inner = p.chunks;
    p.in_outer = p.dst_outer;
    p.in_inner = p.dst_chunk;
  }
  const size_t need = static_cast<size_t>((area[0] + k_align - 1) / k_align * k_align + area[1]);
  if (!launch) *temp_bytes = need;
  else if (*temp_bytes < need) return static_cast<int>(gpuErrorInvalidValue);
  return 0;
}

struct PassRunner {
  const DlaGpuFold& job;
  void* temp;
  size_t* temp_bytes;
  gpuStream_t stream;
  template <class T, class F>
  int run() {
    return run_passes<T, F>(job, static_cast<char*>(temp), temp_bytes, stream, temp != nullptr);
  }
};

}  // namespace

int launch_fold(const DlaGpuFold& job, void* temp, size_t* temp_bytes, void* stream) {
  PassRunner runner{job, temp, temp_bytes, static_cast<gpuStream_t>(stream)};
  return gpu_kernels::visit_fold(job, runner);
}

}  // namespace DLA_GPU_NS
}  // namespace dla
