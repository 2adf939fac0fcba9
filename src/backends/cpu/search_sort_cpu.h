// search_sort_cpu.h — the CPU entries of the SearchSortKernels table (core/search_sort.h).
//
// sort_cpu.cpp holds the kernels that sort (sort/argsort, unique, isin); partition_cpu.cpp the
// one that selects (partition/argpartition); search_cpu.cpp the ones that scan (argmax/argmin,
// nonzero, searchsorted) and registers the table.
#pragma once
#include "core/search_sort.h"

namespace dla::cpu {

void cpu_sort(const Array& values, const Array& indices, const Array& x, int axis, bool descending);
UniqueParts cpu_unique(const Array& x, int parts);
void cpu_isin(const Array& out, const Array& x1, const Array& x2, bool invert);
void cpu_partition(const Array& values, const Array& indices, const Array& x, int axis,
                   const std::vector<int64_t>& kth);

}  // namespace dla::cpu
