// gpu_linalg.cpp — the linear algebra of GPU arrays: the LinalgKernels entries of a backend's
// device memory (core/linalg.h): matmul (behind matmul, `@`, tensordot and vecdot) and the
// LAPACK forms of the linalg extension (cholesky, inv, solve, det, slogdet, qr, svd, svdvals,
// eigh, eigvalsh, eig, eigvals).
//
// core/matmul.cpp has already applied the standard's rules (1-D operands, broadcasting,
// promotion) and copied any operand BLAS cannot read as it lies (blas_layout.h); this file
// only maps the stack onto the vendor table, queuing everything on the output device's
// current stream:
//   floating and complex dtypes: the table's gemm_async (cuBLAS, loaded on first use). The
//     operands are row-major or transposed, BLAS is column-major, so out = a @ b is passed as
//     out^T = b^T a^T: A and B swap, and each one's row-major storage is already the
//     transpose BLAS wants. The stack axes are coalesced over (out, a, b); the innermost
//     becomes the strided batch (stride 0 where an operand is broadcast), and any outer
//     ones (a broadcast that does not coalesce, (2, 1) @ (1, 3) stacks) a loop of calls.
//   integers: one element job per output element (gpu_elementwise_kernels.h, MatmulBody),
//     with the CPU's wrap-around arithmetic; no vendor library has integer GEMM.
// The LAPACK forms: core/linalg.cpp has validated the arguments and copied every operand
// column-major onto the device; the whole job goes to the table's solver_async (cuSOLVER,
// loaded on first use) with scratch memory and a device-side info array from the device's
// stream-ordered pool. The info array is then copied to the host, which waits for the job: the
// one device-to-host read of a linalg call (as PyTorch and CuPy do), without which a singular
// or non-positive-definite matrix could not raise LinAlgError.
#include <array>
#include <string>
#include <vector>

#include "backends/gpu/gpu_backend.h"
#include "backends/gpu/gpu_elementwise.h"
#include "core/blas_layout.h"
#include "core/errors.h"
#include "core/linalg.h"
#include "core/strided_loop.h"

namespace dla::gpu {
namespace {

void not_available(const Array& out, const std::string& why) {
  throw NotImplementedError("matmul on device '" + out.device().str() + "' is not available yet" + why);
}

void integer_matmul(const Array& out, const Array& a, const Array& b) {
  const int d = out.ndim();
  const int64_t k = a.shape(d - 1);
  DlaGpuElementwise job = blank_job(DLA_GPU_OP_MATMUL, out.dtype().scalar);
  job.noperands = 3;
  job.data[0] = out.data();
  job.data[1] = a.data();
  job.data[2] = b.data();
  job.scalar[1][0] = a.stride(d - 1) * a.itemsize();
  job.scalar[1][1] = k;
  job.scalar[2][0] = b.stride(d - 2) * b.itemsize();
  // Over the output's (..., M, N): a's row stays put along N, b's column along M.
  Dims os = byte_strides(out), as = byte_strides(a), bs = byte_strides(b);
  as[d - 1] = 0;
  as[d - 2] = a.stride(d - 2) * a.itemsize();
  bs[d - 2] = 0;
  bs[d - 1] = b.stride(d - 1) * b.itemsize();
  const int64_t* strides[3] = {os.data(), as.data(), bs.data()};
  submit_gpu_job(out.device(), job, out.shape(), strides, 3, "matmul");
}

void float_matmul(Backend& be, const Array& out, const Array& a, const Array& b) {
  const int d = out.ndim();
  const int64_t m = out.shape(d - 2), n = out.shape(d - 1), k = a.shape(d - 1);
  const BlasLayout la = blas_layout(m, k, a.stride(d - 2), a.stride(d - 1));
  const BlasLayout lb = blas_layout(k, n, b.stride(d - 2), b.stride(d - 1));
  if (!la.ok || !lb.ok)  // core/matmul.cpp copies such operands first
    throw RuntimeError("matmul: an operand reached the GPU kernel in a layout BLAS cannot read (a bug in dlarray)");

  DlaGpuGemm job{};
  job.dtype = static_cast<int32_t>(out.dtype().scalar);
  job.m = n;  // column-major out^T (n x m) = b^T (n x k) a^T (k x m)
  job.n = m;
  job.k = k;
  job.trans_a = lb.transposed;
  job.lda = lb.ld;
  job.trans_b = la.transposed;
  job.ldb = la.ld;
  job.ldc = n;

  // The stack: coalesced over the three operands, in elements.
  const Dims batch(out.shape().data(), d - 2);
  Dims os(d - 2), as(d - 2), bs(d - 2);
  for (int i = 0; i < d - 2; ++i) {
    os[i] = out.stride(i);
    as[i] = a.stride(i);
    bs[i] = b.stride(i);
  }
  const LoopLayout<3> L = coalesce<3>(batch, {os.data(), as.data(), bs.data()});
  // The innermost axis is the strided batch unless it runs backwards (a flipped stack: BLAS
  // libraries do not promise negative batch strides); then every axis is a loop of calls.
  const bool batched = L.ndim > 0 && L.strides[1][L.ndim - 1] >= 0 && L.strides[2][L.ndim - 1] >= 0;
  const int inner = batched ? L.ndim - 1 : L.ndim;  // the loop covers the axes before `inner`
  job.batch = batched ? L.shape[inner] : 1;
  job.stride_c = batched ? L.strides[0][inner] : m * n;
  job.stride_a = batched ? L.strides[2][inner] : 0;
  job.stride_b = batched ? L.strides[1][inner] : 0;

  const int64_t item = out.itemsize();
  auto [stream, keep] = be.resolve(out.device().index, nullptr);
  // One call per index of the outer stack axes (none when they all coalesced).
  int64_t idx[kMaxRank] = {};
  for (;;) {
    int64_t oo = 0, ao = 0, bo = 0;
    for (int i = 0; i < inner; ++i) {
      oo += idx[i] * L.strides[0][i];
      ao += idx[i] * L.strides[1][i];
      bo += idx[i] * L.strides[2][i];
    }
    job.c = out.data() + oo * item;
    job.a = b.data() + bo * item;
    job.b = a.data() + ao * item;
    const int err = be.ops().gemm_async(out.device().index, &job, stream);
    if (err == DLA_GPU_UNSUPPORTED)
      not_available(out, " for dtype " + out.dtype().name() + " (the " + std::string(be.ops().name) +
                             " backend has no BLAS library)");
    if (err == DLA_GPU_LIBRARY_MISSING)  // the loader's text says what was tried and what to install
      throw RuntimeError("matmul on device '" + out.device().str() + "': " + be.ops().error_string(err));
    be.check(err, "matmul");
    int i = inner - 1;
    for (; i >= 0; --i) {
      if (++idx[i] < L.shape[i]) break;
      idx[i] = 0;
    }
    if (i < 0) break;
  }
}

// out (row-major (..., M, N), non-empty) = a (..., M, K) @ b (..., K, N), K >= 1, one dtype.
void gpu_matmul(const Array& out, const Array& a, const Array& b) {
  Backend* be = backend_for(out.device().kind);
  if (!be) throw ValueError("no GPU backend is installed for device '" + out.device().str() + "'");
  const ScalarType t = out.dtype().scalar;
  if (is_integer(t)) return integer_matmul(out, a, b);
  if (!is_floating(t)) not_available(out, " for dtype " + out.dtype().name());
  float_matmul(*be, out, a, b);
}

void gpu_lapack(const LapackJob& job) {
  const Device dev = job.device;
  const char* fname = linalg_op_info(job.op).name;
  Backend* be = backend_for(dev.kind);
  if (!be) throw ValueError("no GPU backend is installed for device '" + dev.str() + "'");
  const DlaGpuOps& ops = be->ops();
  DlaGpuSolver s{};
  s.op = static_cast<int32_t>(job.op);
  s.dtype = static_cast<int32_t>(job.dtype);
  s.flags = (job.upper ? DLA_GPU_SOLVER_UPPER : 0) | (job.full ? DLA_GPU_SOLVER_FULL : 0) |
            (job.vectors ? DLA_GPU_SOLVER_VECTORS : 0) | (job.transposed ? DLA_GPU_SOLVER_TRANSPOSED : 0);
  s.batch = job.batch;
  s.m = job.m;
  s.n = job.n;
  s.nrhs = job.nrhs;
  s.a = job.a;
  s.a_step = job.a_step;
  s.b = job.b;
  s.b_step = job.b_step;
  for (int k = 0; k < 3; ++k) {
    s.out[k] = job.out[k];
    s.out_step[k] = job.out_step[k];
  }
  // Allocated on the current stream, as the job's operands were: freed in order after it.
  const Array info = Array::empty(Dims{job.batch}, DType::of(ScalarType::Int32), dev);
  s.info = static_cast<int32_t*>(static_cast<void*>(info.data()));
  auto [stream, keep] = be->resolve(dev.index, nullptr);
  auto fail = [&](int err) {
    if (err == DLA_GPU_UNSUPPORTED)
      throw NotImplementedError(std::string(fname) + " on device '" + dev.str() + "' is not available yet (the " +
                                ops.name + " backend has no dense solver library" +
                                (dev.kind == DeviceKind::ROCM
                                     ? std::string(" for it: eig and eigvals need hipSOLVER's geev, which dlarray does "
                                                   "not call yet, and a build with DLARRAY_ROCM_VENDOR_LIBS=OFF leaves "
                                                   "hipSOLVER out)")
                                     : ")"));
    if (err == DLA_GPU_LIBRARY_MISSING)  // the loader's text says what was tried and what to install
      throw RuntimeError(std::string(fname) + " on device '" + dev.str() + "': " + ops.error_string(err));
    be->check(err, fname);
  };
  size_t need = 0;
  if (int err = ops.solver_async(dev.index, &s, nullptr, &need, stream)) fail(err);
  // At least one byte: a NULL scratch pointer is the sizing call.
  const Array scratch = Array::empty(Dims{static_cast<int64_t>(need > 0 ? need : 1)}, DType::of(ScalarType::UInt8), dev);
  if (int err = ops.solver_async(dev.index, &s, scratch.data(), &need, stream)) fail(err);
  std::vector<int32_t> host(static_cast<size_t>(job.batch));
  be->copy_bytes(host.data(), Device{DeviceKind::CPU, 0}, info.data(), dev, host.size() * sizeof(int32_t), nullptr);
  for (int64_t i = 0; i < job.batch; ++i) job.info[i] = host[static_cast<size_t>(i)];
}

}  // namespace

extern const LinalgKernels kLinalgKernels{&gpu_matmul, &gpu_lapack};

}  // namespace dla::gpu
