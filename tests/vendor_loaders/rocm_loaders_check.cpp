// rocm_loaders_check.cpp — drives src/backends/rocm's hipblas_gemm, hipfft_exec and hipsolver_run
// (with backends/gpu's shared dense_solver.cpp, fft_plans.h, vendor_library.cpp) against
// mock_rocm_libraries.cpp on the CPU (.ci/vendor-loaders-check): the arguments each library call
// gets, the plan cache, the typed gesvd/syevd adapters' workspace split, the status codes and
// their text, and eig through Xgeev or, without it, DLA_GPU_UNSUPPORTED. What it cannot check is AMD's libraries themselves.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "backends/rocm/rocm_libraries.h"
#include "core/dtype.h"
#include "core/linalg_ops.h"
extern "C" { extern char g_last_name[64]; extern int g_log_stream; extern int g_fft_creates, g_fft_plan_type, g_fft_exec;
extern long long g_fft_n0, g_fft_batch; extern void* g_fft_work; extern int g_gesvd_ok, g_gesvd_lwork; extern char g_jobu;
extern void* g_scratch_lo; extern void* g_scratch_hi; extern int g_syevd_jobz, g_syevd_uplo, g_syevd_lwork, g_potrf_uplo, g_potrf_calls;
extern int g_geev_calls, g_geev_type_a, g_geev_type_w, g_geev_type_vr, g_geev_jobvr;
extern int g_potrf_batched_calls, g_potrf_batched_count, g_potrf_batched_uplo, g_potrf_batched_lda; extern void* g_potrf_batched_ptrs[8]; }
using namespace dla;
static int fails = 0;
#define CHECK(c) do { if (!(c)) { std::printf("FAIL %s:%d %s\n", __FILE__, __LINE__, #c); ++fails; } } while (0)
template <class T> void gemm_case(ScalarType st, const char* expect) {
  // column-major C (2x3) = A^T (A stored 4x2, trans) * B (4x3), batch 2
  const int m = 2, n = 3, k = 4, batch = 2;
  std::vector<T> A(batch * k * m), B(batch * k * n), C(batch * m * n, T(-1));
  for (size_t i = 0; i < A.size(); ++i) A[i] = T(i % 7) - T(3);
  for (size_t i = 0; i < B.size(); ++i) B[i] = T(i % 5) + T(1);
  DlaGpuGemm j{}; j.dtype = int(st); j.trans_a = 1; j.trans_b = 0; j.m = m; j.n = n; j.k = k; j.batch = batch;
  j.a = A.data(); j.lda = k; j.stride_a = k * m; j.b = B.data(); j.ldb = k; j.stride_b = k * n; j.c = C.data(); j.ldc = m; j.stride_c = m * n;
  int r = rocm::hipblas_gemm(0, j, (void*)5);
  CHECK(r == 0); CHECK(g_log_stream == 5); CHECK(std::string(g_last_name) == expect);
  for (int p = 0; p < batch; ++p) for (int jj = 0; jj < n; ++jj) for (int i = 0; i < m; ++i) {
    T acc(0); for (int l = 0; l < k; ++l) acc += A[p * k * m + l + i * k] * B[p * k * n + l + jj * k];
    CHECK(std::fabs(double(C[p * m * n + i + jj * m] - acc)) < 1e-9);
  }
}
int main() {
  gemm_case<float>(ScalarType::Float32, "S64");
  gemm_case<double>(ScalarType::Float64, "D32");
  { // complex: the mock answers HIPBLAS_STATUS_NOT_SUPPORTED (7): the code and its text
    DlaGpuGemm j{}; j.dtype = int(ScalarType::Complex64); j.m = j.n = j.k = j.batch = 1;
    int r = rocm::hipblas_gemm(0, j, nullptr);
    CHECK(r == DLA_GPU_BLAS_STATUS - 7);
    CHECK(std::string(rocm::library_error_string(r)) == "hipBLAS status 7 (HIPBLAS_STATUS_NOT_SUPPORTED)");
    DlaGpuGemm big = j; big.dtype = int(ScalarType::Float64); big.m = int64_t(1) << 31;  // 32-bit form: refused
    CHECK(rocm::hipblas_gemm(0, big, nullptr) == DLA_GPU_BLAS_STATUS - 7);
    j.dtype = int(ScalarType::Int32);
    CHECK(rocm::hipblas_gemm(0, j, nullptr) == DLA_GPU_UNSUPPORTED);
  }
  { // fft: size, then run; the plan cached
    DlaGpuFft f{}; f.kind = DLA_GPU_FFT_C2C; f.dtype = int(ScalarType::Complex64); f.rank = 1; f.direction = 1; f.n[0] = 16; f.batch = 3;
    std::vector<float> buf(2 * 16 * 3);
    f.in = f.out = buf.data(); f.scale = 1;
    size_t need = 0;
    CHECK(rocm::hipfft_exec(0, f, nullptr, &need, (void*)9) == 0); CHECK(need == 4096);
    std::vector<char> work(need);
    CHECK(rocm::hipfft_exec(0, f, work.data(), &need, (void*)9) == 0);
    CHECK(g_fft_creates == 1); CHECK(g_fft_plan_type == 0x29); CHECK(g_fft_n0 == 16); CHECK(g_fft_batch == 3);
    CHECK(g_fft_work == work.data()); CHECK(g_fft_exec == 1); CHECK(g_log_stream == 9);
    size_t small = 10;
    CHECK(rocm::hipfft_exec(0, f, work.data(), &small, nullptr) == DLA_GPU_FFT_STATUS - 4);
    CHECK(std::string(rocm::library_error_string(DLA_GPU_FFT_STATUS - 4)) == "hipFFT status 4 (HIPFFT_INVALID_VALUE)");
  }
  auto solve = [](DlaGpuSolver& s, std::vector<char>& scratch) {
    size_t need = 0; std::vector<unsigned char> host;
    int r = rocm::hipsolver_run(0, s, nullptr, &need, (void*)11, &host);
    if (r) return r;
    scratch.assign(need, 0);
    g_scratch_lo = scratch.data(); g_scratch_hi = scratch.data() + scratch.size();
    return rocm::hipsolver_run(0, s, scratch.data(), &need, (void*)11, &host);
  };
  std::vector<char> scratch;
  { // svd of a tall 5x3 float32, reduced, with vectors
    const int m = 5, n = 3, k = 3; std::vector<float> a(m * n, 1), u(m * k), sv(k), vt(k * n); int32_t info[1] = {9};
    DlaGpuSolver s{}; s.op = int(LinalgOpId::svd); s.dtype = int(ScalarType::Float32); s.flags = DLA_GPU_SOLVER_VECTORS;
    s.batch = 1; s.m = m; s.n = n; s.a = a.data(); s.a_step = m * n; s.out[0] = u.data(); s.out[1] = sv.data(); s.out[2] = vt.data();
    s.out_step[0] = m * k; s.out_step[1] = k; s.out_step[2] = k * n; s.info = info;
    CHECK(solve(s, scratch) == 0); CHECK(g_gesvd_ok == 1); CHECK(g_jobu == 'S'); CHECK(info[0] == 0);
  }
  { // eigh float32 with vectors: syevd with HIPSOLVER_EIG_MODE_VECTOR (202), lower (122)
    const int n = 4; std::vector<float> a(n * n), w(n); int32_t info[2];
    DlaGpuSolver s{}; s.op = int(LinalgOpId::eigh); s.dtype = int(ScalarType::Float32); s.flags = DLA_GPU_SOLVER_VECTORS;
    s.batch = 1; s.m = n; s.n = n; s.a = a.data(); s.a_step = n * n; s.out[0] = w.data(); s.out_step[0] = n; s.info = info;
    CHECK(solve(s, scratch) == 0); CHECK(g_syevd_jobz == 202); CHECK(g_syevd_uplo == 122); CHECK(g_syevd_lwork >= 40);
  }
  { // cholesky upper, batch 2
    const int n = 3; std::vector<float> a(2 * n * n); int32_t info[2];
    DlaGpuSolver s{}; s.op = int(LinalgOpId::cholesky); s.dtype = int(ScalarType::Float32); s.flags = DLA_GPU_SOLVER_UPPER;
    s.batch = 2; s.m = n; s.n = n; s.a = a.data(); s.a_step = n * n; s.info = info;
    CHECK(solve(s, scratch) == 0); CHECK(g_potrf_uplo == 121); CHECK(g_potrf_calls == 2);
  }
  { // cholesky float64, a stack of 3 small matrices: one potrfBatched call over device pointers to each
    const int n = 4; std::vector<double> a(3 * n * n); int32_t info[3] = {-1, -1, -1};
    DlaGpuSolver s{}; s.op = int(LinalgOpId::cholesky); s.dtype = int(ScalarType::Float64);
    s.batch = 3; s.m = n; s.n = n; s.a = a.data(); s.a_step = n * n; s.info = info;
    const int loops = g_potrf_calls;
    CHECK(solve(s, scratch) == 0); CHECK(g_potrf_batched_calls == 1); CHECK(g_potrf_calls == loops);
    CHECK(g_potrf_batched_count == 3); CHECK(g_potrf_batched_uplo == 122); CHECK(g_potrf_batched_lda == n);
    for (int i = 0; i < 3; ++i) { CHECK(g_potrf_batched_ptrs[i] == a.data() + i * n * n); CHECK(info[i] == 10 + i); }
    // order 33 (above the batched routines' range) and a single matrix: the per-matrix routine
    const int big = 33; std::vector<double> b(2 * big * big); int32_t info2[2];
    s.n = s.m = big; s.a = b.data(); s.a_step = big * big; s.batch = 2; s.info = info2;
    CHECK(solve(s, scratch) == 0); CHECK(g_potrf_batched_calls == 1); CHECK(g_potrf_calls == loops + 2);
    s.n = s.m = n; s.a = a.data(); s.a_step = n * n; s.batch = 1; s.info = info;
    CHECK(solve(s, scratch) == 0); CHECK(g_potrf_batched_calls == 1); CHECK(g_potrf_calls == loops + 3);
  }
  { // eig: through Xgeev where the hipSOLVER has it (float32: real A, complex W, real packed VR),
    // DLA_GPU_UNSUPPORTED where it does not (the mock built with -DMOCK_WITHOUT_GEEV)
    const int n = 2; std::vector<float> a(n * n), w(2 * n), v(2 * n * n); int32_t info[1];
    DlaGpuSolver s{}; s.op = int(LinalgOpId::eig); s.dtype = int(ScalarType::Float32); s.flags = DLA_GPU_SOLVER_VECTORS;
    s.batch = 1; s.m = n; s.n = n; s.a = a.data(); s.a_step = n * n; s.out[0] = w.data(); s.out_step[0] = n;
    s.out[1] = v.data(); s.out_step[1] = n * n; s.info = info;
    if (std::getenv("MOCK_WITHOUT_GEEV")) {
      CHECK(solve(s, scratch) == DLA_GPU_UNSUPPORTED); CHECK(g_geev_calls == 0);
    } else {
      CHECK(solve(s, scratch) == 0); CHECK(g_geev_calls == 1); CHECK(g_geev_type_a == 0); CHECK(g_geev_type_w == 4);
      CHECK(g_geev_type_vr == 0); CHECK(g_geev_jobvr == 202);
    }
    CHECK(std::string(rocm::library_error_string(DLA_GPU_SOLVER_STATUS - 7)) ==
          "hipSOLVER status 7 (HIPSOLVER_STATUS_NOT_SUPPORTED)");
    CHECK(rocm::library_out_of_memory(DLA_GPU_SOLVER_STATUS - 2) && !rocm::library_out_of_memory(DLA_GPU_SOLVER_STATUS - 7));
  }
  std::printf("rocm-loaders-check: %s (%d failures)\n", fails ? "FAILED" : "all checks passed", fails);
  return fails != 0;
}
