// elementwise_kernels_0.cpp — instantiates part 0 of the CPU elementwise kernel table
// (the ops whose index is 0 modulo kCpuKernelParts; see elementwise_loops.h).
#include "backends/cpu/elementwise_loops.h"

namespace dla::cpu {
void fill_kernels_0(KernelTable& table) { fill_kernel_part<0>(table); }
}  // namespace dla::cpu
