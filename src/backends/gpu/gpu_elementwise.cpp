// gpu_elementwise.cpp — the core half of GPU elementwise operations and dtype conversions:
// turns an elementwise plan (or a cast) into one DlaGpuElementwise job and queues it on the
// output device's current stream through the vendor table. The kernels are in
// gpu_elementwise_kernels.h; nothing here waits for the device.
#include "backends/gpu/gpu_elementwise.h"

#include <cstring>
#include <string>

#include "backends/gpu/gpu_backend.h"
#include "core/cast.h"
#include "core/elementwise.h"
#include "core/errors.h"
#include "core/half.h"
#include "core/strided_loop.h"

namespace dla::gpu {
namespace {

// Coalesces the operands' byte strides over `shape` into the job (a single element becomes
// a one-element axis: kernels always see ndim >= 1).
void set_layout(DlaGpuElementwise& job, const Dims& shape, const int64_t* const* strides, int count) {
  static const int64_t kZeros[kMaxRank] = {};
  std::array<const int64_t*, DLA_GPU_MAX_OPERANDS> sp;
  for (int k = 0; k < DLA_GPU_MAX_OPERANDS; ++k) sp[k] = k < count ? strides[k] : kZeros;
  const LoopLayout<DLA_GPU_MAX_OPERANDS> L = coalesce<DLA_GPU_MAX_OPERANDS>(shape, sp);
  job.noperands = count;
  job.ndim = L.ndim > 0 ? L.ndim : 1;
  job.shape[0] = 1;
  for (int k = 0; k < count; ++k) job.strides[k][0] = 0;
  for (int d = 0; d < L.ndim; ++d) {
    job.shape[d] = L.shape[d];
    for (int k = 0; k < count; ++k) job.strides[k][d] = L.strides[k][d];
  }
}

// `what` names the operation; `which` ends the error when no kernel covers it (the dtype).
void submit(const Device& device, DlaGpuElementwise& job, const std::string& what, const std::string& which) {
  Backend* b = backend_for(device.kind);
  if (!b) throw ValueError("no GPU backend is installed for device '" + device.str() + "'");
  auto [stream, keep] = b->resolve(device.index, nullptr);
  const int err = b->ops().elementwise_async(device.index, &job, stream);
  if (err == DLA_GPU_UNSUPPORTED)
    throw NotImplementedError(what + " on device '" + device.str() + "' is not available yet" + which);
  b->check(err, ("launching " + what).c_str());
}

// The job's code for a dtype: its ScalarType, or the code of a 16-bit storage float.
int32_t cast_code(const DType& d) {
  switch (half_of(d)) {
    case Half::Float16: return DLA_GPU_FLOAT16;
    case Half::BFloat16: return DLA_GPU_BFLOAT16;
    case Half::None: break;
  }
  return static_cast<int32_t>(d.scalar);
}

void execute(ElementwisePlan& p);

// float16 / bfloat16 operations run as float32 ones (beyond the standard, as on the CPU):
// the half operands are widened by cast jobs, the float32 kernel runs, and a half result is
// rounded back once.
void execute_half(ElementwisePlan& p) {
  if (p.op == OpId::nextafter)  // the CPU steps in the half's own grid; no GPU kernel does yet
    throw NotImplementedError(std::string("nextafter on device '") + p.out.device().str() +
                              "' is not available yet for " + half_name(p.half));
  const DType f32 = DType::of(ScalarType::Float32);
  for (int k = 0; k < p.nin; ++k) {
    ElementwisePlan::Input& in = p.in[k];
    if (in.is_scalar || !in.half) continue;
    in.hold(cast_to(in.array(), f32));
    in.half = false;
  }
  p.half = Half::None;
  if (p.result != ScalarType::Float32) return execute(p);  // comparisons: bool results
  Array half_out = p.out;
  p.out = Array::empty(half_out.shape(), f32, half_out.device());
  execute(p);
  cast_into(half_out, p.out);
  p.out = std::move(half_out);
}

void execute(ElementwisePlan& p) {
  if (p.half != Half::None) return execute_half(p);
  const std::string name = op_info(p.op).name;
  ElementwiseOperands ops;
  elementwise_operands(p, &ops);
  DlaGpuElementwise job;
  std::memset(&job, 0, offsetof(DlaGpuElementwise, shape));
  job.op = static_cast<int32_t>(p.op);
  job.dtype = static_cast<int32_t>(p.compute);
  job.count = p.numel;
  job.data[0] = ops.base[0];
  for (int k = 1; k < ops.count; ++k) {
    const ElementwisePlan::Input& in = p.in[k - 1];
    if (in.is_scalar) std::memcpy(job.scalar[k], in.value, sizeof job.scalar[k]);  // travels in the launch
    else job.data[k] = ops.base[k];
  }
  const int64_t* strides[DLA_GPU_MAX_OPERANDS];
  for (int k = 0; k < ops.count; ++k) strides[k] = ops.strides[k];
  set_layout(job, ops.shape, strides, ops.count);
  submit(p.out.device(), job, name, " for dtype " + DType::of(p.compute).name());
}

void cast(const Array& dst, const Array& src) {
  if (dst.device() != src.device())
    throw ValueError("cast: arrays are on different devices ('" + dst.device().str() + "' and '" +
                     src.device().str() + "')");
  if (dst.size() == 0) return;
  DlaGpuElementwise job;
  std::memset(&job, 0, offsetof(DlaGpuElementwise, shape));
  job.op = DLA_GPU_OP_CAST;
  job.dtype = cast_code(src.dtype());
  job.out_dtype = cast_code(dst.dtype());
  job.count = dst.size();
  job.data[0] = dst.data();
  job.data[1] = src.data();
  Dims ds(dst.ndim()), ss(src.ndim());
  for (int i = 0; i < dst.ndim(); ++i) {
    ds[i] = dst.stride(i) * dst.itemsize();
    ss[i] = src.stride(i) * src.itemsize();
  }
  const int64_t* strides[2] = {ds.data(), ss.data()};
  set_layout(job, dst.shape(), strides, 2);
  // The message names both dtypes: either may be the one no kernel covers.
  submit(dst.device(), job, "conversion from " + src.dtype().name() + " to " + dst.dtype().name(), "");
}

}  // namespace

void submit_gpu_job(const Device& device, DlaGpuElementwise& job, const Dims& shape, const int64_t* const* strides,
                    int count, const std::string& what) {
  int64_t n = 1;
  for (int d = 0; d < shape.size(); ++d) n *= shape[d];
  if (n == 0) return;
  job.count = n;
  set_layout(job, shape, strides, count);
  submit(device, job, what, "");
}

void execute_elementwise_plan(ElementwisePlan& p) { execute(p); }
void cast_on_device(const Array& dst, const Array& src) { cast(dst, src); }

}  // namespace dla::gpu
