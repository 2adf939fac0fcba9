// elementwise_kernels_2.cpp — instantiates part 2 of the CPU elementwise kernel table
// (the ops whose index is 2 modulo kCpuKernelParts; see elementwise_loops.h).
#include "backends/cpu/elementwise_loops.h"

namespace dla::cpu {
void fill_kernels_2(KernelTable& table) { fill_kernel_part<2>(table); }
}  // namespace dla::cpu
