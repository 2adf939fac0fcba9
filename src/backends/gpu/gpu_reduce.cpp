// gpu_reduce.cpp — the reduction primitives of reduction.h (fold, divide, scan) for GPU
// arrays, composed from the GPU elementwise kernels by tree_reduce.h: sums are pairwise,
// max/min propagate NaN, every pass is queued on the current stream. (A single-pass kernel
// over CUB/rocPRIM is the faster design; this one needs no code outside the element bodies,
// so the fake backend checks all of it.)
#include "backends/gpu/gpu_elementwise.h"

#include "core/elementwise.h"
#include "core/errors.h"
#include "core/reduction.h"
#include "core/tree_reduce.h"

namespace dla::gpu {
namespace {

OpId op_of(FoldOp f) {
  switch (f) {
    case FoldOp::Sum: return OpId::add;
    case FoldOp::Prod: return OpId::multiply;
    case FoldOp::Max: return OpId::maximum;
    case FoldOp::Min: return OpId::minimum;
    case FoldOp::kCount: break;
  }
  throw ValueError("reduction: unknown fold");
}

void fold(FoldOp f, const Array& out, const Array& in, const bool* reduced) {
  combine_into(op_of(f), out, tree_fold(op_of(f), in, reduced));
}

void divide(const Array& out, double divisor) {
  ElemArg args[2] = {ElemArg::of(out), ElemArg::of(Scalar::of_float(divisor), PyScalarKind::Float)};
  ElementwisePlan plan = plan_elementwise(OpId::divide, args, 2, &out);
  execute_elementwise(plan);
}

void scan(FoldOp f, const Array& out, int axis) { tree_scan(op_of(f), out, axis); }

const ReductionKernels kGpuReductions = {&fold, &divide, &scan};

}  // namespace

void register_gpu_reductions(DeviceKind device_kind) { register_reduction_kernels(device_kind, &kGpuReductions); }

}  // namespace dla::gpu
