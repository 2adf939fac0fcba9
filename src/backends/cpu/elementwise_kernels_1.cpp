// elementwise_kernels_1.cpp — instantiates part 1 of the CPU elementwise kernel table
// (the ops whose index is 1 modulo kCpuKernelParts; see elementwise_loops.h), once for the
// baseline ISA and once for AVX2 (DLA_CPU_LOOPS_AVX2, a second object library in CMake).
#include "backends/cpu/elementwise_loops.h"

namespace dla::cpu {
void DLA_CPU_LOOPS_NS::fill_kernels_1(KernelTable& table) { fill_kernel_part<1>(table); }
}  // namespace dla::cpu
