// cpu_kernels.h — the CPU backend's kernel tables, each defined beside its kernels and
// gathered into one DeviceBackend by cpu_backend.cpp (core/backend.h).
#pragma once
#include "core/elementwise.h"
#include "core/linalg.h"
#include "core/random.h"
#include "core/reduction.h"
#include "core/search_sort.h"

namespace dla::cpu {

void execute_elementwise_plan(ElementwisePlan& p);  // elementwise_cpu.cpp
// Builds the elementwise table now (the vector-math policy it installs is reported before the
// first operation runs: _vector_math_source).
void prepare_elementwise_kernels();                  // elementwise_cpu.cpp
extern const ReductionKernels kReductionKernels;    // reduce.cpp
extern const SearchSortKernels kSearchSortKernels;  // search_cpu.cpp
extern const LinalgKernels kLinalgKernels;          // matmul_cpu.cpp
void random_fill(const Array& out, const philox::RandomJob& job);  // random_cpu.cpp

}  // namespace dla::cpu
