// gpu_reduce.cpp — the reduction primitives of reduction.h (fold, divide, scan) for GPU
// arrays. A fold whose reduced axes collapse into one strided axis, and whose kept axes into
// two (whole arrays, a matrix's rows or columns, any axis of a contiguous array), is one
// fold_async job of the vendor table: a balanced tree that reads the input once
// (gpu_fold.cu). Other folds, and dtypes the job does not cover, are composed from the
// elementwise kernels by tree_reduce.h, pairwise too. A scan (cumulative_sum, cumulative_prod,
// the running counts of nonzero and unique) is one scan_async job of the vendor table (CUB or
// rocPRIM, gpu_scan.cu); tree_reduce.h's Hillis–Steele scan stays for a backend that answers
// DLA_GPU_UNSUPPORTED (an older table, a layout or dtype it does not cover). Every pass is
// queued on the current stream; nothing waits for the device.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "backends/gpu/gpu_backend.h"
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
    case FoldOp::NanMax:  // not run here: the GPU table leaves folds_skipping_nan false
    case FoldOp::NanMin:
    case FoldOp::kCount: break;
  }
  throw ValueError("reduction: unknown fold");
}

// One axis of the fold job: its extent and byte strides in `in` and `out`.
struct Axis {
  int64_t n, in, out;
};

// Merges a list of axes (outermost first) into groups, each laid out inside the next outer
// one: groups[0] is the innermost. Returns how many groups (at most `most`), or most + 1 when
// more would be needed.
int collapse(const Axis* axes, int count, Axis* groups, int most) {
  int g = 0;
  for (int i = count - 1; i >= 0; --i) {
    if (g > 0 && axes[i].in == groups[g - 1].in * groups[g - 1].n &&
        axes[i].out == groups[g - 1].out * groups[g - 1].n) {
      groups[g - 1].n *= axes[i].n;
      continue;
    }
    if (g == most) return most + 1;
    groups[g++] = axes[i];
  }
  return g;
}

// The fold job of out (op)= fold(in) when in's reduced axes collapse into one and its kept
// axes into at most two.
bool fold_job(OpId op, const Array& out, const Array& in, const bool* reduced, DlaGpuFold* job) {
  Axis kept[kMaxRank], red[kMaxRank];
  int nk = 0, nr = 0;
  const int64_t item = in.itemsize();
  for (int d = 0; d < in.ndim(); ++d) {
    if (in.shape(d) == 1) continue;
    if (reduced[d]) red[nr++] = Axis{in.shape(d), in.stride(d) * item, 0};
    else kept[nk++] = Axis{in.shape(d), in.stride(d) * item, out.stride(d) * item};
  }
  // The reduced axes in any order (a fold is one tree whatever the order), outermost first:
  // so a transposed array's whole fold still collapses. The kept axes must keep out's order.
  std::sort(red, red + nr, [](const Axis& a, const Axis& b) { return std::abs(a.in) > std::abs(b.in); });
  Axis k[2] = {{1, 0, 0}, {1, 0, 0}}, r[1] = {{1, 0, 0}};
  if (collapse(kept, nk, k, 2) > 2 || collapse(red, nr, r, 1) > 1) return false;
  std::memset(job, 0, sizeof *job);
  job->op = static_cast<int32_t>(op);
  job->dtype = static_cast<int32_t>(in.dtype().scalar);
  job->outer = k[0].n * k[1].n;
  job->outer_low = k[0].n;
  job->inner = r[0].n;
  job->out = out.data();
  job->out_stride = k[0].out;
  job->out_high_stride = k[1].out;
  job->in = in.data();
  job->in_outer_stride = k[0].in;
  job->in_high_stride = k[1].in;
  job->in_inner_stride = r[0].in;
  return true;
}

// Queues a table entry that takes scratch memory (fold_async, scan_async) on dev's current
// stream: `entry(temp, need, stream)` is called once with temp == NULL to size the scratch, then
// with the scratch. False when the entry answers DLA_GPU_UNSUPPORTED to the sizing call (the
// caller composes the work from elementwise jobs); any other error raises, naming `what`.
template <class Entry>
bool queue_with_scratch(Backend& b, Device dev, const char* what, Entry&& entry) {
  auto [stream, keep] = b.resolve(dev.index, nullptr);
  size_t need = 0;
  int err = entry(nullptr, &need, stream);
  if (err == DLA_GPU_UNSUPPORTED) return false;
  if (err) b.check(err, (std::string("sizing the scratch memory of a ") + what).c_str());
  // Freed in stream order once queued: the work that uses it runs first.
  const Array scratch = Array::empty(Dims{static_cast<int64_t>(need > 0 ? need : 1)}, DType::of(ScalarType::UInt8), dev);
  err = entry(scratch.data(), &need, stream);
  if (err) b.check(err, (std::string("launching a ") + what).c_str());
  return true;
}

// The single-read fold; false when the backend does not cover the job (then the caller
// composes it from elementwise jobs).
bool fold_kernel(OpId op, const Array& out, const Array& in, const bool* reduced) {
  const Device dev = in.device();
  Backend* b = backend_for(dev.kind);
  DlaGpuFold job;
  if (!b || !b->ops().fold_async || !fold_job(op, out, in, reduced, &job)) return false;
  return queue_with_scratch(*b, dev, "reduction", [&](void* temp, size_t* need, void* stream) {
    return b->ops().fold_async(dev.index, &job, temp, need, stream);
  });
}

void fold(FoldOp f, const Array& out, const Array& in, const bool* reduced) {
  if (in.dtype().scalar == ScalarType::Bool && (f == FoldOp::Max || f == FoldOp::Min)) {
    // max/min of bool (any/all, as on the CPU) are uint8 max/min of the same 0/1 bytes: the
    // fold and maximum/minimum tables have no bool entries.
    const DType bytes = DType::of(ScalarType::UInt8);
    return fold(f, out.view(out.shape(), out.strides(), out.byte_offset(), bytes),
                in.view(in.shape(), in.strides(), in.byte_offset(), bytes), reduced);
  }
  const OpId op = op_of(f);
  if (fold_kernel(op, out, in, reduced)) return;
  combine_into(op, out, tree_fold(op, in, reduced));
}

void divide(const Array& out, double divisor) {
  ElemArg args[2] = {ElemArg::of(out), ElemArg::of(Scalar::of_float(divisor), PyScalarKind::Float)};
  ElementwisePlan plan = plan_elementwise(OpId::divide, args, 2, &out);
  execute_elementwise(plan);
}

// The vendor library's scan of a C-contiguous out along `axis`; false when the backend does not
// cover it (then the caller composes it from elementwise jobs).
bool scan_kernel(OpId op, const Array& out, int axis) {
  const Device dev = out.device();
  Backend* b = backend_for(dev.kind);
  if (!b || !b->ops().scan_async || !out.is_c_contiguous()) return false;
  DlaGpuScan job;
  std::memset(&job, 0, sizeof job);
  job.op = static_cast<int32_t>(op);
  job.dtype = static_cast<int32_t>(out.dtype().scalar);
  job.outer = job.inner = 1;
  for (int d = 0; d < axis; ++d) job.outer *= out.shape(d);
  for (int d = axis + 1; d < out.ndim(); ++d) job.inner *= out.shape(d);
  job.length = out.shape(axis);
  job.data = out.data();
  return queue_with_scratch(*b, dev, "scan", [&](void* temp, size_t* need, void* stream) {
    return b->ops().scan_async(dev.index, &job, temp, need, stream);
  });
}

void scan(FoldOp f, const Array& out, int axis) { scan_in_place(op_of(f), out, axis); }

}  // namespace

extern const ReductionKernels kReductionKernels{&fold, &divide, &scan};

void scan_in_place(OpId op, const Array& out, int axis) {
  if (out.size() == 0 || out.shape(axis) < 2) return;
  if (!scan_kernel(op, out, axis)) tree_scan(op, out, axis);
}

}  // namespace dla::gpu
