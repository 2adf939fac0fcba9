// linalg.cpp — the device-independent half of the C++ linear algebra entries (see linalg.h):
// the kernel registry, the diagonal view, and the one driver every LAPACK form goes through.
#include "core/linalg.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/broadcast.h"
#include "core/backend.h"
#include "core/cast.h"
#include "core/promotion.h"

namespace dla {

const LinalgKernels& linalg_kernels_for(const Array& x, const char* fname) {
  // Host-accessible memory (pinned, managed) is computed on by the CPU kernels.
  const LinalgKernels* r = backend_of(x.device().host_accessible() ? DeviceKind::CPU : x.device().kind).linalg;
  if (!r) throw NotImplementedError(std::string(fname) + " on device '" + x.device().str() + "' is not available yet");
  return *r;
}

std::string batch_index_str(const Dims& batch, int64_t flat) {
  Dims idx(batch.size(), 0);
  for (int d = batch.size() - 1; d >= 0; --d) {
    if (batch[d] > 0) {
      idx[d] = flat % batch[d];
      flat /= batch[d];
    }
  }
  return shape_str(idx);
}

Array diagonal(const Array& x, int64_t offset) {
  const int d = x.ndim();
  if (d < 2)
    throw ValueError("diagonal: x must have at least 2 dimensions (a matrix or a stack of them), got " +
                     std::to_string(d) + "-d");
  const int64_t rows = x.shape(d - 2), cols = x.shape(d - 1);
  // Elements (i, i + offset): rows start at max(0, -offset), columns at max(0, offset). An
  // offset past either edge leaves none; testing that first keeps -offset from overflowing.
  const bool inside = offset > -rows && offset < cols;
  const int64_t r0 = inside && offset < 0 ? -offset : 0, c0 = inside && offset > 0 ? offset : 0;
  const int64_t len = inside ? std::min(rows - r0, cols - c0) : 0;
  Dims shape(x.shape().data(), d - 2), strides(x.strides().data(), d - 2);
  shape.push_back(len);
  strides.push_back(x.stride(d - 2) + x.stride(d - 1));
  const int64_t start = len > 0 ? (r0 * x.stride(d - 2) + c0 * x.stride(d - 1)) * x.itemsize() : 0;
  return x.view(shape, strides, x.byte_offset() + start);
}

}  // namespace dla

// ---- the LAPACK forms: validate, copy once into column-major buffers, run, check ----------------
namespace dla {
namespace {

DType of(ScalarType s) { return DType::of(s); }

ScalarType real_of(ScalarType s) {
  return s == ScalarType::Complex64 ? ScalarType::Float32 : s == ScalarType::Complex128 ? ScalarType::Float64 : s;
}
ScalarType complex_of(ScalarType s) {
  return s == ScalarType::Float32 ? ScalarType::Complex64 : s == ScalarType::Float64 ? ScalarType::Complex128 : s;
}

// The dtype LAPACK runs in: x's floating dtype, or float64 for integer input (as NumPy).
ScalarType float_dtype(DType d, const char* fname, const char* what = "x") {
  if (!d.computes() || !(kind_bit(d.scalar) & kKindNumeric))
    throw TypeError(std::string(fname) + ": " + what + " must have a numeric (preferably floating-point) dtype, got " +
                    d.name());
  return is_floating(d.scalar) ? d.scalar : ScalarType::Float64;
}

// The stack of a (..., rows, cols) argument; ValueError below 2 dimensions or, when `square`,
// for non-square matrices.
Dims stack_of(const Array& x, const char* fname, bool square, const char* what = "x") {
  const int d = x.ndim();
  if (d < 2)
    throw ValueError(std::string(fname) + ": " + what + " must have at least 2 dimensions (a matrix or a stack of " +
                     "matrices), got shape " + shape_str(x.shape()));
  if (square && x.shape(d - 2) != x.shape(d - 1))
    throw ValueError(std::string(fname) + ": " + what + " must be square in its last two dimensions, got shape " +
                     shape_str(x.shape()));
  return Dims(x.shape().data(), d - 2);
}

int64_t count_of(const Dims& batch) {
  int64_t c = 1;
  for (int64_t v : batch) c *= v;
  return c;
}

Dims with(const Dims& batch, std::initializer_list<int64_t> tail) {
  Dims s = batch;
  for (int64_t v : tail) s.push_back(v);
  return s;
}

// A row-major buffer (batch..., cols, rows): its matrices are rows x cols in column-major
// order, as LAPACK wants them; matrices_of() presents them as (batch..., rows, cols).
Array fortran_buffer(const Dims& batch, int64_t rows, int64_t cols, ScalarType dtype, Device device) {
  return Array::empty(with(batch, {cols, rows}), of(dtype), device);
}
Array matrices_of(const Array& buf) {
  const int d = buf.ndim();
  int axes[kMaxRank];
  for (int i = 0; i < d; ++i) axes[i] = i;
  axes[d - 2] = d - 1;
  axes[d - 1] = d - 2;
  return buf.permuted(axes);
}
// x's matrices (broadcast to `batch`, converted to dtype) copied once into a fortran_buffer.
Array fortran_copy(const Array& x, const Dims& batch, ScalarType dtype) {
  const int d = x.ndim();
  const int64_t rows = x.shape(d - 2), cols = x.shape(d - 1);
  Array buf = fortran_buffer(batch, rows, cols, dtype, x.device());
  cast_into(matrices_of(buf), broadcast_view(x, with(batch, {rows, cols})));
  return buf;
}

int64_t matrix_step(const Array& buf) {
  const int d = buf.ndim();
  return buf.shape(d - 1) * buf.shape(d - 2);
}

// The LinAlgError message for a matrix whose info says it failed (> 0, or kInfoNonFinite).
std::string failure(const LapackJob& job, const char* fname, const Dims& batch, int64_t i, int64_t info) {
  const std::string which = batch.empty() ? std::string("the matrix") : "the matrix at stack index " + batch_index_str(batch, i);
  if (info == LapackJob::kInfoNonFinite)
    return std::string(fname) + ": " + which + " contains NaN or infinity, where this decomposition is not defined";
  switch (job.op) {
    case LinalgOpId::cholesky:
      return std::string(fname) + ": " + which + " is not positive definite (its leading minor of order " +
             std::to_string(info) + " is not positive)";
    case LinalgOpId::inv:
    case LinalgOpId::solve:
      return std::string(fname) + ": " + which + " is singular (pivot " + std::to_string(info) +
             " of its LU factorization is exactly zero)";
    default:
      return std::string(fname) + ": the algorithm did not converge for " + which + " (LAPACK info " +
             std::to_string(info) + ")";
  }
}

// The single driver: every LAPACK form ends here.
void run_lapack(LapackJob& job, const Array& x, const Dims& batch, const char* fname) {
  const LinalgKernels& k = linalg_kernels_for(x, fname);
  if (!k.lapack) throw NotImplementedError(std::string(fname) + " on device '" + x.device().str() + "' is not available yet");
  std::vector<int64_t> info(size_t(job.batch > 0 ? job.batch : 1), 0);
  job.info = info.data();
  if (job.batch > 0) k.lapack(job);
  for (int64_t i = 0; i < job.batch; ++i) {
    if (info[size_t(i)] > 0 || info[size_t(i)] == LapackJob::kInfoNonFinite)
      throw LinAlgError(failure(job, fname, batch, i, info[size_t(i)]));
    if (info[size_t(i)] < 0)
      throw RuntimeError(std::string(fname) + ": LAPACK rejected argument " + std::to_string(-info[size_t(i)]) +
                         " (a bug in dlarray; please report it)");
  }
}

LapackJob job_for(LinalgOpId op, ScalarType dtype, const Dims& batch, int64_t m, int64_t n, Array& a) {
  LapackJob job;
  job.op = op;
  job.dtype = dtype;
  job.device = a.device();
  job.batch = count_of(batch);
  job.m = m;
  job.n = n;
  job.a = a.data();
  job.a_step = matrix_step(a);
  return job;
}

void set_out(LapackJob& job, int slot, const Array& buf, int64_t step) {
  job.out[slot] = buf.data();
  job.out_step[slot] = step;
}

}  // namespace

Array cholesky(const Array& x, bool upper) {
  const Dims batch = stack_of(x, "cholesky", true);
  const ScalarType t = float_dtype(x.dtype(), "cholesky");
  const int64_t n = x.shape(x.ndim() - 1);
  Array a = fortran_copy(x, batch, t);
  LapackJob job = job_for(LinalgOpId::cholesky, t, batch, n, n, a);
  job.upper = upper;
  run_lapack(job, x, batch, "cholesky");
  return matrices_of(a);
}

Array inv(const Array& x) {
  const Dims batch = stack_of(x, "inv", true);
  const ScalarType t = float_dtype(x.dtype(), "inv");
  const int64_t n = x.shape(x.ndim() - 1);
  Array a = fortran_copy(x, batch, t);
  Array out = fortran_buffer(batch, n, n, t, x.device());
  LapackJob job = job_for(LinalgOpId::inv, t, batch, n, n, a);
  set_out(job, 0, out, n * n);
  run_lapack(job, x, batch, "inv");
  return matrices_of(out);
}

Array solve(const Array& x1, const Array& x2) {
  const Dims b1 = stack_of(x1, "solve", true, "x1");
  if (x1.device() != x2.device())
    throw ValueError("solve: x1 and x2 are on different devices ('" + x1.device().str() + "' and '" +
                     x2.device().str() + "')");
  const ScalarType t = float_dtype(of(promote_types(float_dtype(x1.dtype(), "solve", "x1"),
                                                    float_dtype(x2.dtype(), "solve", "x2"))),
                                   "solve");
  const int64_t n = x1.shape(x1.ndim() - 1);
  // 2025.12: a 1-D x2 of shape (M,) is one right-hand side for every matrix of x1; otherwise
  // x2 is (..., M, K) and the stacks broadcast.
  const bool vector = x2.ndim() == 1;
  if (x2.ndim() == 0) throw ValueError("solve: x2 must have at least one dimension, got a 0-d array");
  const int64_t rows2 = x2.shape(vector ? 0 : x2.ndim() - 2);
  if (rows2 != n)
    throw ValueError("solve: x1 of shape " + shape_str(x1.shape()) + " needs x2 with " + std::to_string(n) +
                     " rows, got shape " + shape_str(x2.shape()));
  const Array rhs = vector ? x2.view(Dims{n, 1}, Dims{x2.stride(0), 0}, x2.byte_offset()) : x2;
  const int64_t k = rhs.shape(rhs.ndim() - 1);
  const Dims batch = vector ? b1 : broadcast_shapes(b1, Dims(rhs.shape().data(), rhs.ndim() - 2));
  // Large matrices are copied row-major: the same bytes as their transposes in column-major
  // order, so a plain (often contiguous) copy replaces a transposing one that costs as much as
  // the factorization's tail, and the backend solves with A^T (two LAPACK calls). Small ones,
  // where the per-call cost dominates, take one ?gesv on a column-major copy.
  const bool transposed = n >= 64;
  Array a = transposed ? Array::empty(with(batch, {n, n}), of(t), x1.device()) : fortran_copy(x1, batch, t);
  if (transposed) cast_into(a, broadcast_view(x1, with(batch, {n, n})));
  Array b = fortran_copy(rhs, batch, t);
  LapackJob job = job_for(LinalgOpId::solve, t, batch, n, n, a);
  job.transposed = transposed;
  job.nrhs = k;
  job.b = b.data();
  job.b_step = matrix_step(b);
  run_lapack(job, x1, batch, "solve");
  const Array out = matrices_of(b);
  if (!vector) return out;
  Dims shape = batch, strides(out.strides().data(), batch.size());
  shape.push_back(n);
  strides.push_back(out.stride(out.ndim() - 2));
  return out.view(shape, strides, out.byte_offset());
}

namespace {
std::vector<Array> determinant(LinalgOpId op, const Array& x, const char* fname) {
  const Dims batch = stack_of(x, fname, true);
  const ScalarType t = float_dtype(x.dtype(), fname);
  const int64_t n = x.shape(x.ndim() - 1);
  Array a = fortran_copy(x, batch, t);
  Array first = Array::empty(batch, of(t), x.device());
  Array second = Array::empty(batch, of(real_of(t)), x.device());
  LapackJob job = job_for(op, t, batch, n, n, a);
  set_out(job, 0, first, 1);
  set_out(job, 1, second, 1);
  run_lapack(job, x, batch, fname);
  return {first, second};
}
}  // namespace

Array det(const Array& x) { return determinant(LinalgOpId::det, x, "det")[0]; }
std::vector<Array> slogdet(const Array& x) { return determinant(LinalgOpId::slogdet, x, "slogdet"); }

std::vector<Array> qr(const Array& x, bool complete) {
  const Dims batch = stack_of(x, "qr", false);
  const ScalarType t = float_dtype(x.dtype(), "qr");
  const int64_t m = x.shape(x.ndim() - 2), n = x.shape(x.ndim() - 1), k = m < n ? m : n;
  const int64_t qcols = complete ? m : k, rrows = complete ? m : k;
  Array a = fortran_copy(x, batch, t);
  Array q = fortran_buffer(batch, m, qcols, t, x.device());
  Array r = fortran_buffer(batch, rrows, n, t, x.device());
  LapackJob job = job_for(LinalgOpId::qr, t, batch, m, n, a);
  job.full = complete;
  set_out(job, 0, q, m * qcols);
  set_out(job, 1, r, rrows * n);
  run_lapack(job, x, batch, "qr");
  return {matrices_of(q), matrices_of(r)};
}

std::vector<Array> svd(const Array& x, bool full_matrices, bool compute_uv) {
  const char* fname = compute_uv ? "svd" : "svdvals";
  const Dims batch = stack_of(x, fname, false);
  const ScalarType t = float_dtype(x.dtype(), fname);
  const int64_t m = x.shape(x.ndim() - 2), n = x.shape(x.ndim() - 1), k = m < n ? m : n;
  const int64_t ucols = full_matrices ? m : k, vtrows = full_matrices ? n : k;
  Array a = fortran_copy(x, batch, t);
  Array s = Array::empty(with(batch, {k}), of(real_of(t)), x.device());
  LapackJob job = job_for(compute_uv ? LinalgOpId::svd : LinalgOpId::svdvals, t, batch, m, n, a);
  job.full = full_matrices;
  job.vectors = compute_uv;
  set_out(job, 1, s, k);
  if (!compute_uv) {
    run_lapack(job, x, batch, fname);
    return {s};
  }
  Array u = fortran_buffer(batch, m, ucols, t, x.device());
  Array vh = fortran_buffer(batch, vtrows, n, t, x.device());
  set_out(job, 0, u, m * ucols);
  set_out(job, 2, vh, vtrows * n);
  run_lapack(job, x, batch, fname);
  return {matrices_of(u), s, matrices_of(vh)};
}

std::vector<Array> eigh(const Array& x, bool vectors) {
  const char* fname = vectors ? "eigh" : "eigvalsh";
  const Dims batch = stack_of(x, fname, true);
  const ScalarType t = float_dtype(x.dtype(), fname);
  const int64_t n = x.shape(x.ndim() - 1);
  Array a = fortran_copy(x, batch, t);
  Array w = Array::empty(with(batch, {n}), of(real_of(t)), x.device());
  LapackJob job = job_for(vectors ? LinalgOpId::eigh : LinalgOpId::eigvalsh, t, batch, n, n, a);
  job.vectors = vectors;
  set_out(job, 0, w, n);
  run_lapack(job, x, batch, fname);
  if (!vectors) return {w};
  return {w, matrices_of(a)};
}

std::vector<Array> eig(const Array& x, bool vectors) {
  const char* fname = vectors ? "eig" : "eigvals";
  const Dims batch = stack_of(x, fname, true);
  const ScalarType t = float_dtype(x.dtype(), fname);
  const int64_t n = x.shape(x.ndim() - 1);
  Array a = fortran_copy(x, batch, t);
  Array w = Array::empty(with(batch, {n}), of(complex_of(t)), x.device());
  LapackJob job = job_for(vectors ? LinalgOpId::eig : LinalgOpId::eigvals, t, batch, n, n, a);
  job.vectors = vectors;
  set_out(job, 0, w, n);
  Array v;
  if (vectors) {
    v = fortran_buffer(batch, n, n, complex_of(t), x.device());
    set_out(job, 1, v, n * n);
  }
  run_lapack(job, x, batch, fname);
  if (!vectors) return {w};
  return {w, matrices_of(v)};
}

}  // namespace dla
