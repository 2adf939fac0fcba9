// gpu_sort.cu — the vendor half of sorting: segmented stable sorts of (key, index) pairs.
//
// Compiled by nvcc over CUB (into dlarray._core) and by hipcc over rocPRIM (into
// dlarray._rocm), next to gpu_ops.cu, whose table entry segmented_sort_async sets the device
// and calls launch_segmented_sort here. Everything around the library call (key transform,
// row positions, moving the sort axis, gathering the values, batching by sort_max_items) is
// the core's, in gpu_sort.cpp, so the fake backend tests it; what stays here is choosing the
// library routine and laying out its scratch memory.
//
// Item counts: each routine gets its count in the type it takes (vendor_item_counts.h). The
// table's sort_max_items is the radix sort's limit, and the core keeps every job within it; the
// segmented sorts may take fewer (int in the CUB of CUDA 12), so a job is split here by rows.
//
// Both libraries' radix sorts are stable, and the keys arrive already transformed into
// unsigned order, so no comparator or descending variant is instantiated: one routine per key
// width and per strategy.
#include <stdint.h>

#include <algorithm>

#include "backends/gpu/gpu_ops.h"
#include "backends/gpu/gpu_runtime.h"
#include "backends/gpu/vendor_item_counts.h"

#if defined(DLA_GPU_HIP)
#include <rocprim/device/device_radix_sort.hpp>
#include <rocprim/device/device_segmented_radix_sort.hpp>
#else
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#endif

namespace dla {
namespace DLA_GPU_NS {
namespace {

using gpu_counts::RadixSortCount;
using gpu_counts::SegmentedSortCount;
// The rows' begin offsets of one segmented call, which holds at most kMaxSegmentedSortItems.
using Offset = SegmentedSortCount;

// Rows at least this long are sorted by one device-wide radix sort each: the segmented sorts
// give a long segment a single block, which leaves the GPU mostly idle when the rows are few.
// (A guess to be measured on a device; one row always goes this way.)
constexpr int64_t kRowAlone = int64_t(1) << 20;
// So a segmented call holds at least one row of the shorter ones.
static_assert(kRowAlone <= gpu_counts::kMaxSegmentedSortItems, "a row shorter than kRowAlone must fit one call");

// The segmented sorts' scratch starts with the rows' begin offsets (row r at r * length).
constexpr size_t kAlign = 256;
size_t round_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

__global__ void row_offsets_kernel(Offset* out, int64_t n, Offset length) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    out[i] = static_cast<Offset>(i) * length;
}

template <class K>
gpuError_t radix_sort(void* temp, size_t& bytes, const K* kin, K* kout, const int64_t* vin, int64_t* vout,
                      int64_t n, gpuStream_t stream) {
#if defined(DLA_GPU_HIP)
  return rocprim::radix_sort_pairs(temp, bytes, kin, kout, vin, vout, static_cast<RadixSortCount>(n), 0u,
                                   static_cast<unsigned int>(8 * sizeof(K)), stream);
#else
  return cub::DeviceRadixSort::SortPairs(temp, bytes, kin, kout, vin, vout, static_cast<RadixSortCount>(n), 0,
                                         static_cast<int>(8 * sizeof(K)), stream);
#endif
}

template <class K>
gpuError_t segmented_sort(void* temp, size_t& bytes, const K* kin, K* kout, const int64_t* vin, int64_t* vout,
                          int64_t n, int64_t segments, const Offset* offsets, gpuStream_t stream) {
#if defined(DLA_GPU_HIP)
  return rocprim::segmented_radix_sort_pairs(temp, bytes, kin, kout, vin, vout, static_cast<SegmentedSortCount>(n),
                                             static_cast<SegmentedSortCount>(segments), offsets, offsets + 1, 0u,
                                             static_cast<unsigned int>(8 * sizeof(K)), stream);
#else
  // StableSortPairs, not SortPairs: only the former promises stability for every segment size.
  return cub::DeviceSegmentedSort::StableSortPairs(temp, bytes, kin, kout, vin, vout, static_cast<SegmentedSortCount>(n),
                                                   static_cast<SegmentedSortCount>(segments), offsets, offsets + 1,
                                                   stream);
#endif
}

template <class K>
gpuError_t sort_pairs(const DlaGpuSegmentedSort& job, void* temp, size_t* temp_bytes, gpuStream_t stream) {
  const K* kin = static_cast<const K*>(job.keys_in);
  K* kout = static_cast<K*>(job.keys_out);
  const int64_t len = job.length, rows = job.segments;
  if (rows == 1 || len >= kRowAlone) {
    // One scratch area serves every row in turn: the sorts are ordered on the stream.
    size_t need = 0;
    gpuError_t e = radix_sort<K>(nullptr, need, kin, kout, job.values_in, job.values_out, len, stream);
    if (e != gpuSuccess || temp == nullptr) {
      *temp_bytes = need;
      return e;
    }
    for (int64_t r = 0; r < rows && e == gpuSuccess; ++r) {
      const int64_t o = r * len;
      size_t bytes = *temp_bytes;
      e = radix_sort<K>(temp, bytes, kin + o, kout + o, job.values_in + o, job.values_out + o, len, stream);
    }
    return e;
  }
  // Calls of whole rows within the segmented sort's count type, the first the largest (its
  // scratch serves the rest). Row r of a call starts at r * len whichever rows it holds, so one
  // offsets array serves them all.
  const int64_t call_rows = std::min(rows, gpu_counts::kMaxSegmentedSortItems / len);
  const size_t offsets_bytes = round_up(static_cast<size_t>(call_rows + 1) * sizeof(Offset));
  Offset* offsets = static_cast<Offset*>(temp);
  size_t need = 0;
  gpuError_t e = segmented_sort<K>(nullptr, need, kin, kout, job.values_in, job.values_out, call_rows * len,
                                   call_rows, offsets, stream);
  if (e != gpuSuccess || temp == nullptr) {
    *temp_bytes = offsets_bytes + need;
    return e;
  }
  if (*temp_bytes < offsets_bytes + need) return gpuErrorInvalidValue;
  constexpr int kThreads = 256;
  int64_t blocks = (call_rows + 1 + kThreads - 1) / kThreads;
  if (blocks > 4096) blocks = 4096;
  static_cast<void>(gpuGetLastError());  // report this launch's error only
  row_offsets_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(offsets, call_rows + 1,
                                                                           static_cast<Offset>(len));
  e = gpuGetLastError();
  for (int64_t r0 = 0; r0 < rows && e == gpuSuccess; r0 += call_rows) {
    const int64_t nr = std::min(call_rows, rows - r0), o = r0 * len;
    size_t bytes = *temp_bytes - offsets_bytes;
    e = segmented_sort<K>(static_cast<char*>(temp) + offsets_bytes, bytes, kin + o, kout + o, job.values_in + o,
                          job.values_out + o, nr * len, nr, offsets, stream);
  }
  return e;
}

}  // namespace

int launch_segmented_sort(const DlaGpuSegmentedSort& job, void* temp, size_t* temp_bytes, void* stream) {
  const gpuStream_t s = static_cast<gpuStream_t>(stream);
  switch (job.key_bytes) {
    case 1: return static_cast<int>(sort_pairs<uint8_t>(job, temp, temp_bytes, s));
    case 2: return static_cast<int>(sort_pairs<uint16_t>(job, temp, temp_bytes, s));
    case 4: return static_cast<int>(sort_pairs<uint32_t>(job, temp, temp_bytes, s));
    case 8: return static_cast<int>(sort_pairs<uint64_t>(job, temp, temp_bytes, s));
  }
  return DLA_GPU_UNSUPPORTED;
}

}  // namespace DLA_GPU_NS
}  // namespace dla
