// vendor_item_counts.h — the item count type each vendor library routine behind the sorts and
// scans takes (CUB under nvcc, rocPRIM under hipcc), and so the most items one call may get.
//
// A count past its routine's type is not refused by the libraries: it is truncated, and the
// results are silently wrong. So gpu_sort.cu and gpu_scan.cu pass counts through these types
// and split their calls at these limits, and gpu_ops.cu advertises the sorts' limit in the
// table (sort_max_items), by which the core splits larger sorts.
//
// CUB (the version is read from <cub/version.cuh>, CUB_VERSION = major * 100000 + minor * 100
// + patch; CCCL 2.2 on gives CCCL and CUB one version):
//   DeviceRadixSort: a templated 64-bit count since CUB 1.16, so in every CUB of CUDA 12 and 13.
//   DeviceSegmentedSort, DeviceScan::InclusiveScan, DeviceScan::InclusiveScanByKey: `int` counts
//     in the CUB of CUDA 12.x toolkits; 64-bit ones from CCCL 3.0 (CUDA 13). (Some of them gained
//     64-bit counts in late 2.x releases; one threshold for all keeps this simple and safe.)
// rocPRIM (every version dlarray builds with, ROCm 5.2 on):
//   radix_sort_pairs, segmented_radix_sort_pairs: unsigned int counts (items and segments).
//   inclusive_scan, inclusive_scan_by_key: size_t, larger inputs split into launches inside.
//
// DLA_FORCE_OLD_CUB_COUNTS=1 compiles the 32-bit CUB path against a newer CUB: a compile check
// of that path on machines that only have CUDA 13.
#pragma once
#include <stdint.h>

#include <limits>
#include <type_traits>

#if !defined(DLA_GPU_HIP)
#include <cub/version.cuh>
#if !defined(CUB_VERSION) || CUB_VERSION < 200000
#error "dlarray's CUDA backend needs CUB 2.0 (CUDA 12) or newer: vendor_item_counts.h knows no older count types"
#endif
#if defined(CCCL_MAJOR_VERSION) && CUB_VERSION / 100000 != CCCL_MAJOR_VERSION
#error "CCCL's and CUB's version macros disagree: vendor_item_counts.h cannot tell which counts CUB takes"
#endif
#endif

namespace dla {
namespace gpu_counts {

#if defined(DLA_GPU_HIP)
using RadixSortCount = unsigned int;
using SegmentedSortCount = unsigned int;
using ScanCount = size_t;
#else
#if CUB_VERSION >= 300000 && !DLA_FORCE_OLD_CUB_COUNTS
inline constexpr bool kCubCounts64 = true;
#else
inline constexpr bool kCubCounts64 = false;
#endif
using RadixSortCount = int64_t;
using SegmentedSortCount = std::conditional_t<kCubCounts64, int64_t, int>;
using ScanCount = std::conditional_t<kCubCounts64, int64_t, int>;
#endif

template <class Count>
inline constexpr int64_t kMaxOf =
    uint64_t(std::numeric_limits<Count>::max()) > uint64_t(INT64_MAX) ? INT64_MAX
                                                                      : int64_t(std::numeric_limits<Count>::max());

// The most items (key-value pairs, scanned elements) one call of each routine may get.
inline constexpr int64_t kMaxRadixSortItems = kMaxOf<RadixSortCount>;
inline constexpr int64_t kMaxSegmentedSortItems = kMaxOf<SegmentedSortCount>;
inline constexpr int64_t kMaxScanItems = kMaxOf<ScanCount>;

// The table's sort_max_items is the radix sort's limit (a single row goes to it whole);
// gpu_sort.cu splits segmented sorts further by rows, which needs the segmented limit to be
// the smaller one.
inline constexpr int64_t kSortMaxItems = kMaxRadixSortItems;
static_assert(kMaxSegmentedSortItems <= kSortMaxItems, "gpu_sort.cu splits segmented sorts, never radix sorts");

}  // namespace gpu_counts
}  // namespace dla
