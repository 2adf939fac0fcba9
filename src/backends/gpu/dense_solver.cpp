// dense_solver.cpp — the LAPACK forms over cuSOLVER or hipSOLVER (see dense_solver.h). Compiled
// into each GPU module: dlarray._core (CUDA) and dlarray._rocm (HIP).
//
// Each job loops over its stack, one routine call per matrix on the job's stream (stacks of
// matrices up to 32 x 32 take the batched routines where the library has them), with device
// workspace from the caller's scratch (the core's stream-ordered pool); what LAPACK's
// conventions need beyond the routines (zeroed triangles, identities, determinants from LU
// factors, complex eigenvectors from real ones) is queued by the kernels of solver_kernels.h.
// Nothing here waits for the device: the core reads the info array back afterwards (its one
// device-to-host transfer per call).
#include "backends/gpu/dense_solver.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "backends/gpu/solver_kernels.h"
#include "core/dtype.h"
#include "core/linalg_ops.h"

namespace dla::gpu {
namespace {

using Status = int;  // the library's status (cusolverStatus_t / hipsolverStatus_t)

// Scratch carved into aligned pieces: the routine's workspace, pivots, tau, temporary matrices.
struct Carve {
  size_t used = 0;
  size_t take(size_t bytes) {
    const size_t at = used;
    used += (bytes + 255) / 256 * 256;
    return at;
  }
};

// Everything one job needs, computed identically by the sizing call and the running call.
struct Run {
  const DenseSolverLibrary& c;
  const DenseSolverEnums& e;
  void* h;
  void* p;
  const DlaGpuSolver& j;
  void* stream;
  std::vector<unsigned char>* host;
  int type, rtype, ctype;  // data type of the elements, of their real part, of the complex type
  int code;                // 0..3: float32, float64, complex64, complex128
  size_t item, real;
  bool is_complex;
  void* svdj = nullptr;     // the handle's gesvdj parameter object, if any
  void* blas = nullptr;     // the BLAS handle for the batched LU, if any
  char* scratch = nullptr;  // nullptr while sizing
  Carve carve = {};
  size_t dev_bytes = 0, host_bytes = 0;  // the routine workspace (the largest asked for)

  char* at(size_t offset) const { return scratch ? scratch + offset : nullptr; }
  void* a(int64_t i) const { return static_cast<char*>(j.a) + i * j.a_step * item; }
  void* b(int64_t i) const { return static_cast<char*>(j.b) + i * j.b_step * item; }
  void* out(int k, int64_t i, size_t width) const { return static_cast<char*>(j.out[k]) + i * j.out_step[k] * width; }
  int* info(int64_t i) const { return j.info + i; }
  int64_t ld(int64_t rows) const { return rows > 1 ? rows : 1; }
  void need(size_t dev, size_t hst) {
    dev_bytes = std::max(dev_bytes, dev);
    host_bytes = std::max(host_bytes, hst);
  }
};

// The per-op bodies. Each runs twice: sizing (r.scratch == nullptr: only the bufferSize queries
// and the carving) and running (the same carving, then the calls). Returns the library's status,
// or dlarray's own code for a kernel's runtime error.
#define DLA_TRY(call)                           \
  do {                                          \
    if (Status s_ = (call)) return s_;          \
  } while (0)
#define DLA_KERNEL(call)                        \
  do {                                          \
    if (int e_ = (call)) return -e_;            \
  } while (0)

// Stacks of matrices up to this order go through the libraries' batched routines where they
// have them: one launch sequence for the stack, where a loop pays one per matrix (PyTorch takes
// cuSOLVER's batched forms at n <= 32 as well). Larger matrices keep the per-matrix routines,
// which use the device fully on their own.
constexpr int64_t kBatchedMaxN = 32;
// The batched routines take 32-bit batch counts: a larger stack goes in pieces of this many.
constexpr int64_t kBatchPiece = int64_t(1) << 30;

bool use_batched(const Run& r, int64_t n) { return r.j.batch > 1 && n >= 1 && n <= kBatchedMaxN; }

// potrfBatched over the whole stack: the matrix pointers built on the device, one call per piece.
Status cholesky_batched(Run& r, int uplo) {
  const int64_t n = r.j.n;
  const size_t ptrs_at = r.carve.take(sizeof(void*) * size_t(std::min(r.j.batch, kBatchPiece)));
  if (!r.scratch) return 0;
  auto** ptrs = reinterpret_cast<void**>(r.at(ptrs_at));
  for (int64_t first = 0; first < r.j.batch; first += kBatchPiece) {
    const int64_t count = std::min(kBatchPiece, r.j.batch - first);
    DLA_KERNEL(solver_pointer_array(ptrs, r.a(first), r.j.a_step * int64_t(r.item), count, r.stream));
    DLA_TRY(r.c.potrf_batched[r.code](r.h, uplo, int(n), ptrs, int(n), r.info(first), int(count)));
  }
  return 0;
}

Status cholesky(Run& r, size_t work) {
  const int64_t n = r.j.n;
  const int uplo = (r.j.flags & DLA_GPU_SOLVER_UPPER) ? r.e.upper : r.e.lower;
  if (n == 0) return 0;  // nothing to factor (nor to query: sizes of 0 are not every routine's case)
  if (r.c.potrf_batched[r.code] && use_batched(r, n)) {
    DLA_TRY(cholesky_batched(r, uplo));
    if (!r.scratch) return 0;
    DLA_KERNEL(solver_zero_triangle(r.j.dtype, r.j.a, n, r.j.a_step, r.j.batch, uplo == r.e.upper, r.stream));
    return 0;
  }
  size_t dev = 0, hst = 0;
  DLA_TRY(r.c.potrf_size(r.h, r.p, uplo, n, r.type, r.a(0), r.ld(n), r.type, &dev, &hst));
  r.need(dev, hst);
  if (!r.scratch) return 0;
  for (int64_t i = 0; i < r.j.batch; ++i)
    DLA_TRY(r.c.potrf(r.h, r.p, uplo, n, r.type, r.a(i), r.ld(n), r.type, r.at(work), r.dev_bytes,
                      r.host->data(), r.host_bytes, r.info(i)));
  // potrf leaves the other triangle as it was: the factor has zeros there.
  DLA_KERNEL(solver_zero_triangle(r.j.dtype, r.j.a, n, r.j.a_step, r.j.batch, uplo == r.e.upper, r.stream));
  return 0;
}

// A BLAS status (the batched LU's) as the solver's: its allocation failure stays one (so the
// core retries after freeing cached memory), anything else is an execution failure.
Status from_blas(int status, const Run& r) {
  if (status == 0) return 0;
  return status == 3 ? r.e.alloc_failed : r.e.execution_failed;  // 3: CUBLAS_STATUS_ALLOC_FAILED
}
#define DLA_BLAS(call)                                   \
  do {                                                   \
    if (Status s_ = from_blas((call), r)) return s_;     \
  } while (0)

// The LU forms of a stack of small matrices through the BLAS library's getrfBatched /
// getrsBatched: 32-bit pivots (widened for the determinant kernel), pointer arrays for the
// matrices and the right-hand sides (or inv's identities in out[0]).
Status lu_batched(Run& r, LinalgOpId op) {
  const int64_t n = r.j.n;
  const bool det = op == LinalgOpId::det || op == LinalgOpId::slogdet;
  const int64_t piece = std::min(r.j.batch, kBatchPiece);
  const size_t a_ptrs_at = r.carve.take(sizeof(void*) * size_t(piece));
  const size_t b_ptrs_at = r.carve.take(sizeof(void*) * size_t(piece));
  const size_t piv_at = r.carve.take(sizeof(int32_t) * size_t(n * piece));
  const size_t piv64_at = det ? r.carve.take(sizeof(int64_t) * size_t(n * r.j.batch)) : 0;
  if (!r.scratch) return 0;
  auto** a_ptrs = reinterpret_cast<void**>(r.at(a_ptrs_at));
  auto** b_ptrs = reinterpret_cast<void**>(r.at(b_ptrs_at));
  auto* piv = reinterpret_cast<int*>(r.at(piv_at));
  auto* piv64 = reinterpret_cast<int64_t*>(r.at(piv64_at));
  if (op == LinalgOpId::inv) DLA_KERNEL(solver_identity(r.j.dtype, r.j.out[0], n, n, r.j.out_step[0], r.j.batch, r.stream));
  for (int64_t first = 0; first < r.j.batch; first += kBatchPiece) {
    const int64_t count = std::min(kBatchPiece, r.j.batch - first);
    DLA_KERNEL(solver_pointer_array(a_ptrs, r.a(first), r.j.a_step * int64_t(r.item), count, r.stream));
    DLA_BLAS(r.c.getrf_batched[r.code](r.blas, int(n), a_ptrs, int(n), piv, r.info(first), int(count)));
    int host_info = 0;
    if (op == LinalgOpId::inv) {
      DLA_KERNEL(solver_pointer_array(b_ptrs, r.out(0, first, r.item), r.j.out_step[0] * int64_t(r.item), count,
                                      r.stream));
      DLA_BLAS(r.c.getrs_batched[r.code](r.blas, r.e.op_n, int(n), int(n), a_ptrs, int(n), piv, b_ptrs, int(n),
                                         &host_info, int(count)));
    } else if (op == LinalgOpId::solve && r.j.nrhs > 0) {
      const int trans = (r.j.flags & DLA_GPU_SOLVER_TRANSPOSED) ? r.e.op_t : r.e.op_n;
      DLA_KERNEL(solver_pointer_array(b_ptrs, r.b(first), r.j.b_step * int64_t(r.item), count, r.stream));
      DLA_BLAS(r.c.getrs_batched[r.code](r.blas, trans, int(n), int(r.j.nrhs), a_ptrs, int(n), piv, b_ptrs, int(n),
                                         &host_info, int(count)));
    } else if (det) {
      DLA_KERNEL(solver_widen_pivots(piv, piv64 + first * n, count * n, r.stream));
    }
    if (host_info != 0) return r.e.invalid_value;  // an argument getrsBatched refused
  }
  if (det)
    DLA_KERNEL(solver_determinant(r.j.dtype, op == LinalgOpId::slogdet, r.j.a, n, r.j.a_step, piv64, r.j.info,
                                  r.j.out[0], r.j.out[1], r.j.batch, r.stream));
  return 0;
}

// inv (against the identity in out[0]), solve (b), det / slogdet: one LU factorization each.
Status lu_based(Run& r, size_t work, LinalgOpId op) {
  const int64_t n = r.j.n;
  if (r.blas && r.c.getrf_batched[r.code] && r.c.getrs_batched[r.code] && use_batched(r, n) &&
      r.j.nrhs <= INT_MAX)
    return lu_batched(r, op);
  const bool det = op == LinalgOpId::det || op == LinalgOpId::slogdet;
  size_t dev = 0, hst = 0;
  if (n > 0) DLA_TRY(r.c.getrf_size(r.h, r.p, n, n, r.type, r.a(0), r.ld(n), r.type, &dev, &hst));
  r.need(dev, hst);
  // Pivots: one set reused per matrix, or (det) one per matrix for the kernel afterwards.
  const size_t ipiv_at = r.carve.take(sizeof(int64_t) * size_t(n) * size_t(det ? r.j.batch : 1) + 8);
  const size_t info2_at = r.carve.take(sizeof(int));  // getrs's own info (0 unless an argument is wrong)
  if (!r.scratch) return 0;
  auto* ipiv = reinterpret_cast<int64_t*>(r.at(ipiv_at));
  auto* info2 = reinterpret_cast<int*>(r.at(info2_at));
  if (op == LinalgOpId::inv) DLA_KERNEL(solver_identity(r.j.dtype, r.j.out[0], n, n, r.j.out_step[0], r.j.batch, r.stream));
  for (int64_t i = 0; i < r.j.batch && n > 0; ++i) {
    int64_t* piv = det ? ipiv + i * n : ipiv;
    DLA_TRY(r.c.getrf(r.h, r.p, n, n, r.type, r.a(i), r.ld(n), piv, r.type, r.at(work), r.dev_bytes,
                      r.host->data(), r.host_bytes, r.info(i)));
    if (op == LinalgOpId::inv) {
      DLA_TRY(r.c.getrs(r.h, r.p, r.e.op_n, n, n, r.type, r.a(i), r.ld(n), piv, r.type, r.out(0, i, r.item), r.ld(n),
                        info2));
    } else if (op == LinalgOpId::solve && r.j.nrhs > 0) {
      // A transposed a (row-major copy): solve with A^T's factors, trans 'T' (not the conjugate).
      const int trans = (r.j.flags & DLA_GPU_SOLVER_TRANSPOSED) ? r.e.op_t : r.e.op_n;
      DLA_TRY(r.c.getrs(r.h, r.p, trans, n, r.j.nrhs, r.type, r.a(i), r.ld(n), piv, r.type, r.b(i), r.ld(n), info2));
    }
  }
  if (det)
    DLA_KERNEL(solver_determinant(r.j.dtype, op == LinalgOpId::slogdet, r.j.a, n, r.j.a_step, ipiv, r.j.info,
                                  r.j.out[0], r.j.out[1], r.j.batch, r.stream));
  return 0;
}

Status qr(Run& r, size_t work) {
  const int64_t m = r.j.m, n = r.j.n, k = std::min(m, n);
  const bool full = r.j.flags & DLA_GPU_SOLVER_FULL;
  const int64_t qcols = full ? m : k, rrows = full ? m : k;
  if (m > INT_MAX || qcols > INT_MAX) return r.e.not_supported;  // ?orgqr takes 32-bit sizes
  size_t dev = 0, hst = 0;
  const size_t tau_at = r.carve.take(r.item * size_t(k) + 8);
  const size_t info2_at = r.carve.take(sizeof(int));
  if (k > 0) {
    DLA_TRY(r.c.geqrf_size(r.h, r.p, m, n, r.type, r.a(0), r.ld(m), r.type, r.at(tau_at), r.type, &dev, &hst));
    r.need(dev, hst);
    int lwork = 0;
    DLA_TRY(r.c.orgqr_size[r.code](r.h, int(m), int(qcols), int(k), r.out(0, 0, r.item), int(r.ld(m)), r.at(tau_at),
                                   &lwork));
    r.need(r.item * size_t(lwork > 0 ? lwork : 1), 0);
  }
  if (!r.scratch) return 0;
  if (k == 0) {  // no reflectors: Q is the identity (complete mode's m x m; reduced mode's is empty)
    if (m * qcols > 0) DLA_KERNEL(solver_identity(r.j.dtype, r.j.out[0], m, qcols, r.j.out_step[0], r.j.batch, r.stream));
  }
  for (int64_t i = 0; i < r.j.batch && k > 0; ++i) {
    DLA_TRY(r.c.geqrf(r.h, r.p, m, n, r.type, r.a(i), r.ld(m), r.type, r.at(tau_at), r.type, r.at(work), r.dev_bytes,
                      r.host->data(), r.host_bytes, r.info(i)));
    // The reflectors (a's first k columns) into Q, which ?orgqr expands in place.
    void* q = r.out(0, i, r.item);
    DLA_KERNEL(solver_memcpy(q, r.a(i), r.item * size_t(m * k), r.stream));
    const int lwork = static_cast<int>(std::min<size_t>(r.dev_bytes / r.item, INT_MAX));
    DLA_TRY(r.c.orgqr[r.code](r.h, int(m), int(qcols), int(k), q, int(r.ld(m)), r.at(tau_at), r.at(work), lwork,
                              reinterpret_cast<int*>(r.at(info2_at))));
  }
  if (rrows * n > 0)
    DLA_KERNEL(solver_upper(r.j.dtype, r.j.out[1], rrows, n, r.j.out_step[1], r.j.a, m, r.j.a_step, r.j.batch,
                            r.stream));
  return 0;
}

// gesvdjBatched over a contiguous stack of matrices up to 32 x 32 (either shape): U (m x m) into
// out[0] directly when the full factor is asked for, else into scratch and its first k columns
// (the first m k elements, column-major) copied out; V (n x n) into scratch, and Vh = the adjoint
// of its first vtrows columns.
bool svd_batched_fits(const Run& r, int64_t m, int64_t n, int64_t k) {
  return r.svdj && r.c.gesvdj_batched[r.code] && r.j.batch > 1 && k >= 1 && std::max(m, n) <= kBatchedMaxN &&
         r.j.a_step == m * n && r.j.out_step[1] == k;
}

Status svd_batched(Run& r, size_t work) {
  const int64_t m = r.j.m, n = r.j.n, k = std::min(m, n);
  const bool full = r.j.flags & DLA_GPU_SOLVER_FULL, vectors = r.j.flags & DLA_GPU_SOLVER_VECTORS;
  const int64_t ucols = full ? m : k, vtrows = full ? n : k;
  const int jobz = vectors ? r.e.vector : r.e.no_vector;
  const int64_t piece = std::min(r.j.batch, kBatchPiece);
  // U and V get real buffers even for svdvals (the routine is not documented to skip them then).
  const bool u_direct = vectors && ucols == m && r.j.out_step[0] == m * m;
  const size_t u_at = u_direct ? 0 : r.carve.take(r.item * size_t(m * m * piece));
  const size_t v_at = r.carve.take(r.item * size_t(n * n * piece));
  auto u_of = [&](int64_t first) -> void* {
    return u_direct ? r.out(0, first, r.item) : static_cast<void*>(r.at(u_at));
  };
  int lwork = 0;
  DLA_TRY(r.c.gesvdj_batched_size[r.code](r.h, jobz, int(m), int(n), r.a(0), int(m), r.out(1, 0, r.real), u_of(0),
                                          int(m), r.at(v_at), int(n), &lwork, r.svdj, int(piece)));
  r.need(r.item * size_t(lwork > 0 ? lwork : 1), 0);
  if (!r.scratch) return 0;
  const int work_elems = static_cast<int>(std::min<size_t>(r.dev_bytes / r.item, INT_MAX));
  for (int64_t first = 0; first < r.j.batch; first += kBatchPiece) {
    const int64_t count = std::min(kBatchPiece, r.j.batch - first);
    void* v = r.at(v_at);
    DLA_TRY(r.c.gesvdj_batched[r.code](r.h, jobz, int(m), int(n), r.a(first), int(m), r.out(1, first, r.real),
                                       u_of(first), int(m), v, int(n), r.at(work), work_elems, r.info(first), r.svdj,
                                       int(count)));
    if (!vectors) continue;
    if (!u_direct)
      DLA_KERNEL(solver_memcpy_rows(r.out(0, first, r.item), r.item * size_t(r.j.out_step[0]), r.at(u_at),
                                    r.item * size_t(m * m), r.item * size_t(m * ucols), size_t(count), r.stream));
    DLA_KERNEL(solver_adjoint(r.j.dtype, r.out(2, first, r.item), v, n, vtrows, r.j.out_step[2], n * n, count,
                              r.stream));
  }
  return 0;
}

// Xgesvd needs m >= n: a wide matrix is decomposed as its adjoint, A^H = U' S V'^H,
// so A = V' S U'^H: U = V' and Vh = U'^H, each one adjoint kernel away.
Status svd(Run& r, size_t work) {
  const int64_t m = r.j.m, n = r.j.n, k = std::min(m, n);
  const bool full = r.j.flags & DLA_GPU_SOLVER_FULL, vectors = r.j.flags & DLA_GPU_SOLVER_VECTORS;
  const int64_t ucols = full ? m : k, vtrows = full ? n : k;
  const signed char job = vectors ? (full ? 'A' : 'S') : 'N';
  const bool wide = m < n;
  const int64_t tm = wide ? n : m, tn = wide ? m : n;  // the tall matrix handed to gesvd
  const int64_t tu_cols = full ? tm : k;               // its U' is tm x tu_cols, its V'^H tn x tn (tn == k)
  if (svd_batched_fits(r, m, n, k)) return svd_batched(r, work);
  const size_t at_at = wide ? r.carve.take(r.item * size_t(m * n)) : 0;
  const size_t tu_at = wide && vectors ? r.carve.take(r.item * size_t(tm * tu_cols)) : 0;
  const size_t tv_at = wide && vectors ? r.carve.take(r.item * size_t(tn * tn)) : 0;
  if (k > 0) {
    size_t dev = 0, hst = 0;
    DLA_TRY(r.c.gesvd_size(r.h, r.p, job, job, tm, tn, r.type, wide ? r.at(at_at) : r.a(0), r.ld(tm), r.rtype,
                           r.out(1, 0, r.real), r.type, nullptr, r.ld(tm), r.type, nullptr, r.ld(tn), r.type, &dev,
                           &hst));
    r.need(dev, hst);
  }
  if (!r.scratch) return 0;
  if (k == 0) {  // nothing to decompose; the full factors of an empty matrix are identities
    if (vectors && full) {
      if (m > 0) DLA_KERNEL(solver_identity(r.j.dtype, r.j.out[0], m, m, r.j.out_step[0], r.j.batch, r.stream));
      if (n > 0) DLA_KERNEL(solver_identity(r.j.dtype, r.j.out[2], n, n, r.j.out_step[2], r.j.batch, r.stream));
    }
    return 0;
  }
  for (int64_t i = 0; i < r.j.batch; ++i) {
    void* s = r.out(1, i, r.real);
    if (!wide) {
      DLA_TRY(r.c.gesvd(r.h, r.p, job, job, m, n, r.type, r.a(i), r.ld(m), r.rtype, s, r.type,
                        vectors ? r.out(0, i, r.item) : nullptr, r.ld(m), r.type, vectors ? r.out(2, i, r.item) : nullptr,
                        r.ld(vtrows), r.type, r.at(work), r.dev_bytes, r.host->data(), r.host_bytes, r.info(i)));
      continue;
    }
    DLA_KERNEL(solver_adjoint(r.j.dtype, r.at(at_at), r.a(i), m, n, 0, 0, 1, r.stream));
    DLA_TRY(r.c.gesvd(r.h, r.p, job, job, tm, tn, r.type, r.at(at_at), r.ld(tm), r.rtype, s, r.type,
                      vectors ? r.at(tu_at) : nullptr, r.ld(tm), r.type, vectors ? r.at(tv_at) : nullptr, r.ld(tn),
                      r.type, r.at(work), r.dev_bytes, r.host->data(), r.host_bytes, r.info(i)));
    if (vectors) {
      DLA_KERNEL(solver_adjoint(r.j.dtype, r.out(0, i, r.item), r.at(tv_at), tn, ucols, 0, 0, 1, r.stream));
      DLA_KERNEL(solver_adjoint(r.j.dtype, r.out(2, i, r.item), r.at(tu_at), tm, vtrows, 0, 0, 1, r.stream));
    }
  }
  return 0;
}

Status eigh(Run& r, size_t work) {
  const int64_t n = r.j.n;
  const int jobz = (r.j.flags & DLA_GPU_SOLVER_VECTORS) ? r.e.vector : r.e.no_vector;
  if (n == 0) return 0;
  size_t dev = 0, hst = 0;
  // syevBatched wants the stack contiguous (lda n apart) and the eigenvalues n apart.
  if (r.c.syev_batched && use_batched(r, n) && r.j.a_step == n * n && r.j.out_step[0] == n) {
    const int64_t piece = std::min(r.j.batch, kBatchPiece);
    DLA_TRY(r.c.syev_batched_size(r.h, r.p, jobz, r.e.lower, n, r.type, r.a(0), n, r.rtype, r.out(0, 0, r.real),
                                  r.type, &dev, &hst, piece));
    r.need(dev, hst);
    if (!r.scratch) return 0;
    for (int64_t first = 0; first < r.j.batch; first += kBatchPiece) {
      const int64_t count = std::min(kBatchPiece, r.j.batch - first);
      DLA_TRY(r.c.syev_batched(r.h, r.p, jobz, r.e.lower, n, r.type, r.a(first), n, r.rtype, r.out(0, first, r.real),
                               r.type, r.at(work), r.dev_bytes, r.host->data(), r.host_bytes, r.info(first), count));
    }
    return 0;
  }
  DLA_TRY(r.c.syevd_size(r.h, r.p, jobz, r.e.lower, n, r.type, r.a(0), r.ld(n), r.rtype, r.out(0, 0, r.real), r.type,
                         &dev, &hst));
  r.need(dev, hst);
  if (!r.scratch) return 0;
  for (int64_t i = 0; i < r.j.batch; ++i)
    DLA_TRY(r.c.syevd(r.h, r.p, jobz, r.e.lower, n, r.type, r.a(i), r.ld(n), r.rtype, r.out(0, i, r.real), r.type,
                      r.at(work), r.dev_bytes, r.host->data(), r.host_bytes, r.info(i)));
  return 0;
}

// eig: the eigenvalues straight into out[0] as complex numbers (Xgeev's complex-W option for
// real matrices); real matrices' eigenvectors come real, conjugate pairs packed in two columns
// as LAPACK's ?geev packs them, and are unpacked into out[1] afterwards.
Status eig(Run& r, size_t work) {
  const int64_t n = r.j.n;
  const bool vectors = r.j.flags & DLA_GPU_SOLVER_VECTORS;
  const int jobvr = vectors ? r.e.vector : r.e.no_vector;
  const bool packed = vectors && !r.is_complex;
  const size_t vr_at = packed ? r.carve.take(r.item * size_t(n * n) * size_t(r.j.batch)) : 0;
  const int vr_type = r.is_complex ? r.type : r.rtype;
  auto vr = [&](int64_t i) -> void* {
    if (!vectors) return nullptr;
    return packed ? static_cast<void*>(r.at(vr_at) + r.item * size_t(n * n * i)) : r.out(1, i, 2 * r.real);
  };
  if (n == 0) return 0;
  size_t dev = 0, hst = 0;
  DLA_TRY(r.c.geev_size(r.h, r.p, r.e.no_vector, jobvr, n, r.type, r.a(0), r.ld(n), r.ctype, r.out(0, 0, 2 * r.real),
                        vr_type, nullptr, 1, vr_type, vr(0), r.ld(n), r.type, &dev, &hst));
  r.need(dev, hst);
  if (!r.scratch) return 0;
  for (int64_t i = 0; i < r.j.batch; ++i)
    DLA_TRY(r.c.geev(r.h, r.p, r.e.no_vector, jobvr, n, r.type, r.a(i), r.ld(n), r.ctype, r.out(0, i, 2 * r.real),
                     vr_type, nullptr, 1, vr_type, vr(i), r.ld(n), r.type, r.at(work), r.dev_bytes, r.host->data(),
                     r.host_bytes, r.info(i)));
  if (packed)
    DLA_KERNEL(solver_unpack_vectors(r.j.dtype, r.j.out[1], r.j.out_step[1], r.at(vr_at), r.j.out[0],
                                     r.j.out_step[0], n, r.j.batch, r.stream));
  return 0;
}

// The op's body; `work` is where the routine workspace starts in the scratch.
Status dispatch(Run& r, size_t work) {
  const auto op = static_cast<LinalgOpId>(r.j.op);
  switch (op) {
    case LinalgOpId::cholesky: return cholesky(r, work);
    case LinalgOpId::inv:
    case LinalgOpId::solve:
    case LinalgOpId::det:
    case LinalgOpId::slogdet: return lu_based(r, work, op);
    case LinalgOpId::qr: return qr(r, work);
    case LinalgOpId::svd:
    case LinalgOpId::svdvals: return svd(r, work);
    case LinalgOpId::eigh:
    case LinalgOpId::eigvalsh: return eigh(r, work);
    case LinalgOpId::eig:
    case LinalgOpId::eigvals: return eig(r, work);
    default: return r.e.invalid_value;
  }
}

// A status or a kernel's runtime error (negated by DLA_KERNEL) as the table's code.
int code_of(Status s) { return s > 0 ? DLA_GPU_SOLVER_STATUS - s : -s; }

}  // namespace

int dense_solver_check(const DenseSolverEnums& e, const DlaGpuSolver& job, bool has_geev) {
  if (job.batch < 1 || job.m < 0 || job.n < 0) return DLA_GPU_SOLVER_STATUS - e.invalid_value;
  const auto op = static_cast<LinalgOpId>(job.op);
  if ((op == LinalgOpId::eig || op == LinalgOpId::eigvals) && !has_geev) return DLA_GPU_UNSUPPORTED;
  switch (static_cast<ScalarType>(job.dtype)) {
    case ScalarType::Float32:
    case ScalarType::Float64:
    case ScalarType::Complex64:
    case ScalarType::Complex128: return 0;
    default: return DLA_GPU_UNSUPPORTED;
  }
}

namespace {
int run_job(const DenseSolverLibrary& c, const DenseSolverEnums& e, BoundHandle b, const DlaGpuSolver& job, void* temp,
            size_t* temp_bytes, void* stream, std::vector<unsigned char>* host_work) {
  if (int err = dense_solver_check(e, job, c.geev_size && c.geev)) return err;
  int type, rtype, ctype, code;
  switch (static_cast<ScalarType>(job.dtype)) {
    case ScalarType::Float32: type = e.r32f, rtype = e.r32f, ctype = e.c32f, code = 0; break;
    case ScalarType::Float64: type = e.r64f, rtype = e.r64f, ctype = e.c64f, code = 1; break;
    case ScalarType::Complex64: type = e.c32f, rtype = e.r32f, ctype = e.c32f, code = 2; break;
    case ScalarType::Complex128: type = e.c64f, rtype = e.r64f, ctype = e.c64f, code = 3; break;
    default: return DLA_GPU_UNSUPPORTED;
  }
  const size_t real = (code == 1 || code == 3) ? 8 : 4;
  Run r{c, e, b.h, b.p, job, stream, host_work, type, rtype, ctype, code, code >= 2 ? 2 * real : real, real, code >= 2};
  r.svdj = b.svdj;
  r.blas = b.blas;
  // Sizing: the pieces first, the routine workspace after them (its size is known last).
  if (Status s = dispatch(r, 0)) return code_of(s);
  const size_t work = r.carve.take(0);
  const size_t need = work + r.dev_bytes + 256;
  if (!temp) {
    *temp_bytes = need;
    return 0;
  }
  if (*temp_bytes < need) return DLA_GPU_SOLVER_STATUS - e.invalid_value;
  host_work->assign(r.host_bytes, 0);
  Run run{c, e, b.h, b.p, job, stream, host_work, type, rtype, ctype, code, r.item, real, r.is_complex};
  run.svdj = b.svdj;
  run.blas = b.blas;
  run.scratch = static_cast<char*>(temp);
  run.dev_bytes = r.dev_bytes;
  run.host_bytes = r.host_bytes;
  // Every matrix's info starts at 0: routines skipped for empty matrices leave it so.
  if (int err = solver_memset_zero(job.info, sizeof(int32_t) * size_t(job.batch), stream)) return err;
  return code_of(dispatch(run, work));
}
}  // namespace

int dense_solver_run(const DenseSolverLibrary& lib, const DenseSolverEnums& e, BoundHandle b, const DlaGpuSolver& job,
                     void* temp, size_t* temp_bytes, void* stream, std::vector<unsigned char>* host_work) {
  try {  // nothing may cross the C table; what can throw here is allocation
    return run_job(lib, e, b, job, temp, temp_bytes, stream, host_work);
  } catch (...) {
    return DLA_GPU_SOLVER_STATUS - e.alloc_failed;
  }
}

}  // namespace dla::gpu
