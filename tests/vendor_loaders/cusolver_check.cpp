// cusolver_check.cpp — drives src/backends/cuda/cusolver.cpp's cusolver_run (with the shared
// dense_solver.cpp) against mock_cusolver.cpp on the CPU (.ci/vendor-loaders-check): which stacks
// take cuSOLVER's batched routines (XsyevBatched, ?potrfBatched, ?gesvdjBatched) or cuBLAS's
// batched LU and with which arguments, and
// that the rest keep the per-matrix loop. What it cannot check is cuSOLVER itself.
#include <cstdio>
#include <vector>

#include "backends/cuda/cuda_libraries.h"
#include "core/dtype.h"
#include "core/linalg_ops.h"
extern "C" {
extern int g_cu_loop, g_cu_batched, g_cu_jobz, g_cu_uplo, g_cu_type_a, g_cu_type_w;
extern long long g_cu_count, g_cu_lda, g_cu_n;
extern void *g_cu_a, *g_cu_w, *g_cu_ptrs[8];
extern int* g_cu_info;
extern int g_cu_svdj_jobz, g_cu_svdj_m, g_cu_svdj_n, g_cu_svdj_lda, g_cu_svdj_ldu, g_cu_svdj_ldv, g_cu_svdj_lwork,
    g_cu_svdj_batch;
extern void *g_cu_svdj_s, *g_cu_svdj_params;
extern int g_cu_getrf, g_cu_getrs, g_cu_getrs_trans, g_cu_getrs_nrhs, g_cu_lu_batch;
extern void *g_cu_blas_stream, *g_cu_getrs_a[8], *g_cu_getrs_b[8];
extern size_t g_cu_dev_bytes;
}
namespace dla::cuda {
const char* cublas_status_name(int) { return nullptr; }  // cuBLAS is not part of this check
}
using namespace dla;
static int fails = 0;
#define CHECK(c) do { if (!(c)) { std::printf("FAIL %s:%d %s\n", __FILE__, __LINE__, #c); ++fails; } } while (0)
static int solve(DlaGpuSolver& s) {
  size_t need = 0;
  std::vector<unsigned char> host;
  if (int r = cuda::cusolver_run(0, s, nullptr, &need, (void*)11, &host)) return r;
  static std::vector<char> scratch;
  scratch.assign(need, 0);
  return cuda::cusolver_run(0, s, scratch.data(), &need, (void*)11, &host);
}
int main() {
  const int n = 16, batch = 5;
  std::vector<double> a(batch * n * n), w(batch * n);
  int info[batch];
  DlaGpuSolver s{}; s.op = int(LinalgOpId::eigh); s.dtype = int(ScalarType::Float64); s.flags = DLA_GPU_SOLVER_VECTORS;
  s.batch = batch; s.m = n; s.n = n; s.a = a.data(); s.a_step = n * n; s.out[0] = w.data(); s.out_step[0] = n; s.info = info;
  // eigh of a contiguous stack of 16 x 16: one XsyevBatched call (CUDA_R_64F, vectors, lower)
  CHECK(solve(s) == 0); CHECK(g_cu_batched == 1); CHECK(g_cu_loop == 0); CHECK(g_cu_count == batch);
  CHECK(g_cu_lda == n); CHECK(g_cu_n == n); CHECK(g_cu_jobz == 1); CHECK(g_cu_uplo == 0); CHECK(g_cu_type_a == 1);
  CHECK(g_cu_type_w == 1); CHECK(g_cu_a == a.data()); CHECK(g_cu_w == w.data()); CHECK(g_cu_info == info);
  CHECK(g_cu_dev_bytes >= 1000 + batch); CHECK(info[4] == 24);
  // complex64: CUDA_C_32F matrices, CUDA_R_32F eigenvalues
  std::vector<float> cw(batch * n);
  s.dtype = int(ScalarType::Complex64); s.out[0] = cw.data();
  CHECK(solve(s) == 0); CHECK(g_cu_batched == 2); CHECK(g_cu_type_a == 4); CHECK(g_cu_type_w == 0); CHECK(g_cu_w == cw.data());
  // matrices not n*n apart, a single matrix, and order 33: the per-matrix routine
  s.dtype = int(ScalarType::Float64); s.out[0] = w.data(); s.a_step = n * n + 1;
  CHECK(solve(s) == 0); CHECK(g_cu_batched == 2); CHECK(g_cu_loop == batch);
  s.a_step = n * n; s.batch = 1;
  CHECK(solve(s) == 0); CHECK(g_cu_batched == 2); CHECK(g_cu_loop == batch + 1);
  std::vector<double> big(2 * 33 * 33), bw(2 * 33);
  s.batch = 2; s.m = s.n = 33; s.a = big.data(); s.a_step = 33 * 33; s.out[0] = bw.data(); s.out_step[0] = 33;
  CHECK(solve(s) == 0); CHECK(g_cu_batched == 2); CHECK(g_cu_loop == batch + 3);
  // cholesky float32 stack: potrfBatched over a device array of the matrices' pointers
  std::vector<float> fa(batch * n * n);
  s.op = int(LinalgOpId::cholesky); s.flags = 0; s.dtype = int(ScalarType::Float32); s.batch = batch; s.m = s.n = n;
  s.a = fa.data(); s.a_step = n * n;
  CHECK(solve(s) == 0); CHECK(g_cu_batched == 3); CHECK(g_cu_count == batch); CHECK(g_cu_lda == n); CHECK(g_cu_uplo == 0);
  for (int i = 0; i < batch; ++i) CHECK(g_cu_ptrs[i] == fa.data() + i * n * n);
  CHECK(info[3] == 33);
  // float64 has no potrfBatched in the mock: the loop
  s.dtype = int(ScalarType::Float64); s.a = a.data();
  const int before = g_cu_loop;
  CHECK(solve(s) == 0); CHECK(g_cu_batched == 3); CHECK(g_cu_loop == before + batch);
  // svd float32 of a stack of tall 6 x 4 matrices: gesvdjBatched; reduced U is the first 4 columns
  // (first 24 elements) of each 6 x 6 U, copied out of the scratch
  for (bool full : {false, true}) {
    const int m = 6, n2 = 4, k = 4, ucols = full ? m : k, vtrows = full ? n2 : k;
    std::vector<float> x(batch * m * n2), u(batch * m * ucols, -1), sv(batch * k, -1), vt(batch * vtrows * n2);
    DlaGpuSolver v{}; v.op = int(LinalgOpId::svd); v.dtype = int(ScalarType::Float32);
    v.flags = DLA_GPU_SOLVER_VECTORS | (full ? DLA_GPU_SOLVER_FULL : 0); v.batch = batch; v.m = m; v.n = n2;
    v.a = x.data(); v.a_step = m * n2; v.out[0] = u.data(); v.out[1] = sv.data(); v.out[2] = vt.data();
    v.out_step[0] = m * ucols; v.out_step[1] = k; v.out_step[2] = vtrows * n2; v.info = info;
    const int before_b = g_cu_batched;
    CHECK(solve(v) == 0); CHECK(g_cu_batched == before_b + 1); CHECK(g_cu_svdj_batch == batch);
    CHECK(g_cu_svdj_jobz == 1); CHECK(g_cu_svdj_m == m); CHECK(g_cu_svdj_n == n2); CHECK(g_cu_svdj_lda == m);
    CHECK(g_cu_svdj_ldu == m); CHECK(g_cu_svdj_ldv == n2); CHECK(g_cu_svdj_lwork >= 7 * (m + n2));
    CHECK(g_cu_svdj_s == sv.data()); CHECK(g_cu_svdj_params != nullptr);
    bool u_ok = true;
    for (int b = 0; b < batch; ++b)
      for (int e = 0; e < m * ucols; ++e) u_ok = u_ok && u[b * m * ucols + e] == float(1000 * b + e);
    CHECK(u_ok); CHECK(sv[3 * k + 2] == 5.0f);
  }
  { // svdvals of a wide stack: no vectors, still one batched call
    const int m = 3, n2 = 5, k = 3;
    std::vector<float> x(batch * m * n2), sv(batch * k, -1);
    DlaGpuSolver v{}; v.op = int(LinalgOpId::svdvals); v.dtype = int(ScalarType::Float32); v.batch = batch;
    v.m = m; v.n = n2; v.a = x.data(); v.a_step = m * n2; v.out[1] = sv.data(); v.out_step[1] = k; v.info = info;
    const int before_b = g_cu_batched;
    CHECK(solve(v) == 0); CHECK(g_cu_batched == before_b + 1); CHECK(g_cu_svdj_jobz == 0); CHECK(sv[4 * k] == 4.0f);
  }
  { // solve float32 of a stack (A transposed): cuBLAS's getrfBatched then getrsBatched, 'T', on the stream
    const int m = 8, nrhs = 3;
    std::vector<float> x(batch * m * m), rhs(batch * m * nrhs);
    DlaGpuSolver v{}; v.op = int(LinalgOpId::solve); v.dtype = int(ScalarType::Float32); v.batch = batch;
    v.flags = DLA_GPU_SOLVER_TRANSPOSED; v.m = v.n = m; v.nrhs = nrhs; v.a = x.data(); v.a_step = m * m;
    v.b = rhs.data(); v.b_step = m * nrhs; v.info = info;
    const int before_loop = g_cu_loop;
    CHECK(solve(v) == 0); CHECK(g_cu_getrf == 1); CHECK(g_cu_getrs == 1); CHECK(g_cu_lu_batch == batch);
    CHECK(g_cu_getrs_trans == 1); CHECK(g_cu_getrs_nrhs == nrhs); CHECK(g_cu_blas_stream == (void*)11);
    CHECK(g_cu_loop == before_loop); CHECK(info[2] == 42);
    for (int i = 0; i < batch; ++i) {
      CHECK(g_cu_getrs_a[i] == x.data() + i * m * m); CHECK(g_cu_getrs_b[i] == rhs.data() + i * m * nrhs);
    }
    // inv: getrs against the identities in out[0]
    std::vector<float> inv(batch * m * m);
    v.op = int(LinalgOpId::inv); v.flags = 0; v.out[0] = inv.data(); v.out_step[0] = m * m;
    CHECK(solve(v) == 0); CHECK(g_cu_getrf == 2); CHECK(g_cu_getrs == 2); CHECK(g_cu_getrs_trans == 0);
    CHECK(g_cu_getrs_nrhs == m); CHECK(g_cu_getrs_b[4] == inv.data() + 4 * m * m);
    // det: getrf only (the determinant kernel reads the widened pivots)
    std::vector<float> d(batch);
    v.op = int(LinalgOpId::det); v.out[0] = d.data(); v.out_step[0] = 1;
    CHECK(solve(v) == 0); CHECK(g_cu_getrf == 3); CHECK(g_cu_getrs == 2);
  }
  std::printf("cusolver-check: %s (%d failures)\n", fails ? "FAILED" : "all checks passed", fails);
  return fails != 0;
}
