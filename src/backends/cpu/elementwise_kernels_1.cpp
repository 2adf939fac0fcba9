// elementwise_kernels_1.cpp — instantiates part 1 of the CPU elementwise kernel table
// (the ops whose index is 1 modulo kCpuKernelParts; see elementwise_loops.h).
#include "backends/cpu/elementwise_loops.h"

namespace dla::cpu {
void fill_kernels_1(KernelTable& table) { fill_kernel_part<1>(table); }
}  // namespace dla::cpu
