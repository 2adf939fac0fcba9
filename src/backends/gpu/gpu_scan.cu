// gpu_scan.cu — running sums and products (cumulative_sum, cumulative_prod, the running counts
// of nonzero / unique) on the GPU through the vendor library's device-wide scan.
//
// Compiled by nvcc over CUB (into dlarray._core) and by hipcc over rocPRIM (into dlarray._rocm),
// next to gpu_ops.cu, whose table entry scan_async sets the device and calls launch_scan here.
// The core (gpu_reduce.cpp) hands over a C-contiguous outer x length x inner block scanned in
// place along the middle axis; one launch reads and writes every element once, where the
// elementwise Hillis–Steele scan it replaces took log2(length) launches reading everything.
//   inner == 1, one row:  DeviceScan::InclusiveScan (rocprim::inclusive_scan) over the pointer.
//   inner == 1, rows:     InclusiveScanByKey with the row number i / length as the key, so the
//                         rows are one device-wide scan (no per-row launches, no short-row waste).
//   inner > 1, many columns: one thread per column walking it sequentially; neighbouring threads
//                         read neighbouring columns, so every load is coalesced (a scan over
//                         axis 0 of a row-major matrix). kColumnsAlone decides "many".
//   inner > 1, few columns: InclusiveScanByKey over an iterator that visits the block column by
//                         column (reads are strided, but there are too few columns to keep the
//                         GPU busy one thread each).
// Item counts: a vendor call gets at most gpu_counts::kMaxScanItems elements (vendor_item_counts.h:
// `int` in the CUB of CUDA 12, which would silently truncate a larger count). A larger block is
// scanned in calls of whole outer slices (each slice's scans are independent of the others);
// a slice larger than the limit goes to the column kernel when inner > 1 (it takes any size),
// and when inner == 1 its rows are scanned in pieces, each piece's first element combined with
// the previous piece's last result first (a running total carried across calls).
//
// In place: CUB documents d_in == d_out for its scans; the by-key scans load a whole tile
// before storing it and read no other tile's values (only keys, which are computed here), so
// aliasing is safe there too, and rocPRIM's look-back scans are built the same way. The real-GPU
// tests (tests/test_gpu_scan.py, marked gpu) check every branch against the CPU.
//
// Rounding: the CPU's cumulative_sum (backends/cpu/reduce.cpp, scan_typed) is sequential,
// x[k] = x[k-1] + x[k]. The column kernel does exactly that, so its float results equal the CPU's
// bit for bit. CUB's and rocPRIM's scans are sequential within a thread's items, then combine
// the threads' totals by a block scan and the tiles' by the decoupled look-back, adding each
// element's prefix from a few partial sums rather than one running one. Every output is still a
// sum of the same inputs with at most ~log2(tile) + k/tile roundings on its path (fewer than the
// CPU's k), so its error is bounded like the CPU's (k * eps * sum |x|) and usually smaller, but
// float results differ from the CPU's in the last bits; integers are exact (wrap-around adds and
// multiplies are associative). The Hillis–Steele fallback differs from both in the same way.
#include <stdint.h>

#include <algorithm>
#include <cstddef>
#include <iterator>

#include "backends/gpu/gpu_ops.h"
#include "backends/gpu/gpu_runtime.h"
#include "backends/gpu/gpu_scan.h"
#include "backends/gpu/vendor_item_counts.h"

#if defined(DLA_GPU_HIP)
#include <iostream>  // rocPRIM 2.10's scan headers use std::cout (debug_synchronous) without including it
#include <rocprim/device/device_scan.hpp>
#include <rocprim/device/device_scan_by_key.hpp>
#else
#include <cub/device/device_scan.cuh>
#endif

namespace dla {
namespace DLA_GPU_NS {
namespace {

// At least this many columns (outer * inner, inner > 1) get a thread each. A GPU needs tens of
// thousands of threads in flight to reach its memory bandwidth; below this the by-key scan's
// full parallelism wins despite its strided reads. (A guess to be measured on a device:
// benchmarks/gpu_compute.py has a 16384 x 16384 axis-0 case.)
constexpr int64_t kColumnsAlone = 4096;
constexpr int kColumnThreads = 256;
constexpr int kColumnUnroll = 8;  // loads a thread issues before the first of them is needed

// A random-access iterator whose element i is map(i): the row keys and the column-by-column
// view of the block. Both libraries only need the iterator traits and the operators below.
template <class Map>
struct MappedIterator {
  using value_type = typename Map::value_type;
  using reference = typename Map::reference;
  using pointer = value_type*;
  using difference_type = std::ptrdiff_t;
  using iterator_category = std::random_access_iterator_tag;
  Map map;
  int64_t i;
  __host__ __device__ reference operator*() const { return map(i); }
  __host__ __device__ reference operator[](difference_type d) const { return map(i + d); }
  __host__ __device__ MappedIterator operator+(difference_type d) const { return MappedIterator{map, i + d}; }
  __host__ __device__ MappedIterator operator-(difference_type d) const { return MappedIterator{map, i - d}; }
  __host__ __device__ difference_type operator-(const MappedIterator& o) const { return i - o.i; }
  __host__ __device__ MappedIterator& operator+=(difference_type d) { i += d; return *this; }
  __host__ __device__ MappedIterator& operator-=(difference_type d) { i -= d; return *this; }
  __host__ __device__ MappedIterator& operator++() { ++i; return *this; }
  __host__ __device__ MappedIterator& operator--() { --i; return *this; }
  __host__ __device__ MappedIterator operator++(int) { MappedIterator t = *this; ++i; return t; }
  __host__ __device__ MappedIterator operator--(int) { MappedIterator t = *this; --i; return t; }
  __host__ __device__ bool operator==(const MappedIterator& o) const { return i == o.i; }
  __host__ __device__ bool operator!=(const MappedIterator& o) const { return i != o.i; }
  __host__ __device__ bool operator<(const MappedIterator& o) const { return i < o.i; }
  __host__ __device__ bool operator>(const MappedIterator& o) const { return i > o.i; }
  __host__ __device__ bool operator<=(const MappedIterator& o) const { return i <= o.i; }
  __host__ __device__ bool operator>=(const MappedIterator& o) const { return i >= o.i; }
};

// The key of flat index i: its row (equal keys are scanned together).
struct RowOf {
  using value_type = int64_t;
  using reference = int64_t;
  int64_t length;
  __host__ __device__ int64_t operator()(int64_t i) const { return i / length; }
};

// Element i of the block visited column by column: column c = (o, j), position k along it.
template <class T>
struct ColumnMajor {
  using value_type = T;
  using reference = T&;
  T* data;
  int64_t length, inner;
  __host__ __device__ T& operator()(int64_t i) const {
    const int64_t c = i / length, k = i - c * length;
    const int64_t o = c / inner, j = c - o * inner;
    return data[(o * length + k) * inner + j];
  }
};

struct SameKey {
  __host__ __device__ bool operator()(int64_t a, int64_t b) const { return a == b; }
};

// One thread per column, sequential along it as on the CPU; kColumnUnroll loads are issued
// ahead so a thread keeps several in flight.
template <class T, class F>
__global__ void scan_columns_kernel(T* data, int64_t columns, int64_t length, int64_t inner) {
  const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= columns) return;
  const int64_t o = c / inner, j = c - o * inner;
  T* p = data + o * length * inner + j;
  F f;
  T acc = p[0];
  for (int64_t k = 1; k < length; k += kColumnUnroll) {
    T v[kColumnUnroll];
#pragma unroll
    for (int u = 0; u < kColumnUnroll; ++u)
      if (k + u < length) v[u] = p[(k + u) * inner];
#pragma unroll
    for (int u = 0; u < kColumnUnroll; ++u)
      if (k + u < length) {
        acc = f(acc, v[u]);
        p[(k + u) * inner] = acc;
      }
  }
}

// data[0] = f(data[-1], data[0]): the running total carried into a piece of a long row.
template <class T, class F>
__global__ void carry_into_kernel(T* data) {
  data[0] = F()(data[-1], data[0]);
}

using gpu_counts::kMaxScanItems;
using gpu_counts::ScanCount;

// n <= kMaxScanItems (the callers split larger scans).
template <class In, class Out, class F>
gpuError_t scan(void* temp, size_t& bytes, In in, Out out, int64_t n, F f, gpuStream_t stream) {
#if defined(DLA_GPU_HIP)
  return rocprim::inclusive_scan(temp, bytes, in, out, static_cast<ScanCount>(n), f, stream);
#else
  return cub::DeviceScan::InclusiveScan(temp, bytes, in, out, f, static_cast<ScanCount>(n), stream);
#endif
}

template <class Keys, class In, class Out, class F>
gpuError_t scan_by_key(void* temp, size_t& bytes, Keys keys, In in, Out out, int64_t n, F f, gpuStream_t stream) {
#if defined(DLA_GPU_HIP)
  return rocprim::inclusive_scan_by_key(temp, bytes, keys, in, out, static_cast<ScanCount>(n), f, SameKey{}, stream);
#else
  return cub::DeviceScan::InclusiveScanByKey(temp, bytes, keys, in, out, f, static_cast<ScanCount>(n), SameKey{},
                                             stream);
#endif
}

struct ScanRunner {
  const DlaGpuScan& job;
  void* temp;
  size_t* temp_bytes;
  gpuStream_t stream;

  template <class T, class F>
  int run() {
    T* data = static_cast<T*>(job.data);
    const int64_t columns = job.outer * job.inner, slice = job.length * job.inner;
    if (job.inner > 1 && (columns >= kColumnsAlone || slice > kMaxScanItems)) {
      if (!temp) {
        *temp_bytes = 0;
        return 0;
      }
      const int64_t blocks = (columns + kColumnThreads - 1) / kColumnThreads;
      if (blocks > 0x7fffffff) return static_cast<int>(gpuErrorInvalidValue);
      static_cast<void>(gpuGetLastError());  // report this launch's error only
      scan_columns_kernel<T, F><<<static_cast<unsigned>(blocks), kColumnThreads, 0, stream>>>(data, columns, job.length,
                                                                                           job.inner);
      return static_cast<int>(gpuGetLastError());
    }
    // A slice longer than one call has inner == 1 here (the column kernel took the others);
    // only a 32-bit count type instantiates the pieces and their kernel.
    if constexpr (kMaxScanItems < INT64_MAX) {
      if (slice > kMaxScanItems) return long_rows<T, F>(data);
    }
    // Calls of whole outer slices, the first the largest (its scratch serves the rest).
    const int64_t call_outer = std::min(job.outer, kMaxScanItems / slice);
    gpuError_t e = gpuSuccess;
    for (int64_t o = 0; o < job.outer && e == gpuSuccess; o += call_outer) {
      const int64_t n = std::min(call_outer, job.outer - o) * slice;
      T* block = data + o * slice;
      size_t bytes = temp ? *temp_bytes : 0;
      const MappedIterator<RowOf> keys{RowOf{job.length}, 0};
      if (job.inner > 1) {
        const MappedIterator<ColumnMajor<T>> it{ColumnMajor<T>{block, job.length, job.inner}, 0};
        e = scan_by_key(temp, bytes, keys, it, it, n, F(), stream);
      } else if (job.outer > 1) {
        e = scan_by_key(temp, bytes, keys, block, block, n, F(), stream);
      } else {
        e = scan(temp, bytes, block, block, n, F(), stream);
      }
      if (!temp) {
        *temp_bytes = bytes;
        break;
      }
    }
    return static_cast<int>(e);
  }

  // Rows (inner == 1) longer than one call takes: each in pieces of kMaxScanItems, the running
  // total carried into the next piece's first element before it is scanned.
  template <class T, class F>
  int long_rows(T* data) {
    size_t bytes = temp ? *temp_bytes : 0;
    if (!temp) {
      const gpuError_t e = scan(nullptr, bytes, data, data, kMaxScanItems, F(), stream);
      *temp_bytes = bytes;
      return static_cast<int>(e);
    }
    gpuError_t e = gpuSuccess;
    for (int64_t r = 0; r < job.outer && e == gpuSuccess; ++r) {
      T* row = data + r * job.length;
      for (int64_t k = 0; k < job.length && e == gpuSuccess; k += kMaxScanItems) {
        if (k > 0) {
          static_cast<void>(gpuGetLastError());  // report this launch's error only
          carry_into_kernel<T, F><<<1, 1, 0, stream>>>(row + k);
          e = gpuGetLastError();
          if (e != gpuSuccess) break;
        }
        bytes = *temp_bytes;
        e = scan(temp, bytes, row + k, row + k, std::min(kMaxScanItems, job.length - k), F(), stream);
      }
    }
    return static_cast<int>(e);
  }
};

}  // namespace

int launch_scan(const DlaGpuScan& job, void* temp, size_t* temp_bytes, void* stream) {
  ScanRunner runner{job, temp, temp_bytes, static_cast<gpuStream_t>(stream)};
  return gpu_kernels::visit_scan(job, runner);
}

}  // namespace DLA_GPU_NS
}  // namespace dla
