// mock_rocm_libraries.cpp — stand-ins for the hipBLAS, hipFFT and hipSOLVER entry points that
// src/backends/rocm/*.cpp resolve, for .ci/vendor-loaders-check (no AMD GPU needed): built as one
// shared object that the check links against and the loaders open under the libraries'
// sonames (DLARRAY_GPU_LIBRARY_PATH). Written from the prototypes the loaders declare, not from
// AMD's headers. "Device" memory is host memory here: the GEMM computes for real, the FFT and
// solver entries record what they were given and check it against the API's rules (enumeration
// values, workspace sizes and placement), reporting through the g_* globals.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <complex>
extern "C" {
int g_log_stream = 0;
int64_t g_last[32];
char g_last_name[64];
static void note(const char* n) { std::snprintf(g_last_name, sizeof g_last_name, "%s", n); }
// hipBLAS
int hipblasCreate(void** h) { *h = (void*)0x1234; return 0; }
int hipblasSetStream(void*, void* s) { g_log_stream = (int)(intptr_t)s; return 0; }
const char* hipblasStatusToString(int s) { return s == 7 ? "HIPBLAS_STATUS_NOT_SUPPORTED" : "other"; }
}
template <class T, class I>
static int gemm(int ta, int tb, I m, I n, I k, const T* alpha, const T* A, I lda, int64_t sA, const T* B, I ldb,
                int64_t sB, const T* beta, T* C, I ldc, int64_t sC, I batch) {
  for (I p = 0; p < batch; ++p)
    for (I j = 0; j < n; ++j)
      for (I i = 0; i < m; ++i) {
        T acc(0);
        for (I l = 0; l < k; ++l) {
          T a = ta == 112 ? A[p * sA + l + i * lda] : A[p * sA + i + l * lda];
          T b = tb == 112 ? B[p * sB + j + l * ldb] : B[p * sB + l + j * ldb];
          acc += a * b;
        }
        C[p * sC + i + j * ldc] = *alpha * acc + *beta * T(0);
      }
  return (ta == 111 || ta == 112) && (tb == 111 || tb == 112) ? 0 : 3;
}
extern "C" {
int hipblasSgemmStridedBatched_64(void*, int ta, int tb, int64_t m, int64_t n, int64_t k, const float* al,
                                  const float* A, int64_t lda, int64_t sA, const float* B, int64_t ldb, int64_t sB,
                                  const float* be, float* C, int64_t ldc, int64_t sC, int64_t batch) {
  note("S64");
  return gemm<float, int64_t>(ta, tb, m, n, k, al, A, lda, sA, B, ldb, sB, be, C, ldc, sC, batch);
}
int hipblasDgemmStridedBatched(void*, int ta, int tb, int m, int n, int k, const double* al, const double* A, int lda,
                               int64_t sA, const double* B, int ldb, int64_t sB, const double* be, double* C, int ldc,
                               int64_t sC, int batch) {
  note("D32");
  return gemm<double, int>(ta, tb, m, n, k, al, A, lda, sA, B, ldb, sB, be, C, ldc, sC, batch);
}
int hipblasCgemmStridedBatched_64() { return 7; }
int hipblasZgemmStridedBatched_64() { return 7; }
// hipFFT
int g_fft_creates = 0, g_fft_plan_type = 0, g_fft_exec = 0;
long long g_fft_n0 = 0, g_fft_batch = 0;
void* g_fft_work = nullptr;
int hipfftCreate(void** p) { ++g_fft_creates; *p = new int(7); return 0; }
int hipfftDestroy(void* p) { delete (int*)p; return 0; }
int hipfftSetAutoAllocation(void*, int a) { return a == 0 ? 0 : 4; }
int hipfftMakePlanMany64(void* p, int rank, long long* n, long long* in, long long is, long long id, long long* on,
                         long long os, long long od, int type, long long batch, size_t* work) {
  if (!p || *(int*)p != 7 || in || on) return 1;
  g_fft_plan_type = type; g_fft_n0 = n[0]; g_fft_batch = batch; *work = 4096; (void)rank; (void)is; (void)id; (void)os; (void)od;
  return 0;
}
int hipfftSetStream(void*, void* s) { g_log_stream = (int)(intptr_t)s; return 0; }
int hipfftSetWorkArea(void*, void* w) { g_fft_work = w; return 0; }
int hipfftExecC2C(void* p, void*, void*, int dir) { g_fft_exec = dir; return *(int*)p == 7 ? 0 : 1; }
int hipfftExecR2C(void*, void*, void*) { return 0; }
int hipfftExecC2R(void*, void*, void*) { return 0; }
int hipfftExecZ2Z(void*, void*, void*, int) { return 0; }
int hipfftExecD2Z(void*, void*, void*) { return 0; }
int hipfftExecZ2D(void*, void*, void*) { return 0; }
// hipSOLVER
int hipsolverDnCreate(void** h) { *h = (void*)0x77; return 0; }
int hipsolverDnSetStream(void*, void* s) { g_log_stream = (int)(intptr_t)s; return 0; }
int hipsolverDnCreateParams(void** p) { *p = (void*)0x88; return 0; }
int g_potrf_uplo = 0, g_potrf_calls = 0;
int hipsolverDnXpotrf_bufferSize(void*, void* p, int uplo, int64_t n, int type, const void*, int64_t lda, int, size_t* d, size_t* h) {
  *d = 64; *h = 0; g_potrf_uplo = uplo; return p == (void*)0x88 && (type == 0 || type == 1) && lda >= n ? 0 : 3;
}
int hipsolverDnXpotrf(void*, void*, int uplo, int64_t, int, void*, int64_t, int, void*, size_t, void*, size_t, int* info) {
  ++g_potrf_calls; g_potrf_uplo = uplo; *info = 0; return 0;
}
// The batched Cholesky only in float64 (the other types' absence takes the per-matrix loop):
// records the call and writes info[i] = 10 + i, so the check sees each matrix's own info slot.
int g_potrf_batched_calls = 0, g_potrf_batched_count = 0, g_potrf_batched_uplo = 0, g_potrf_batched_lda = 0;
void* g_potrf_batched_ptrs[8];
int hipsolverDnDpotrfBatched(void* h, int uplo, int n, double** a, int lda, int* info, int batch) {
  ++g_potrf_batched_calls; g_potrf_batched_count = batch; g_potrf_batched_uplo = uplo; g_potrf_batched_lda = lda;
  for (int i = 0; i < batch; ++i) { if (i < 8) g_potrf_batched_ptrs[i] = a[i]; info[i] = 10 + i; }
  return h == (void*)0x77 && lda >= n ? 0 : 3;
}
// Xgeev (cuSOLVER's prototype), left out when built with -DMOCK_WITHOUT_GEEV (an older hipSOLVER):
// records the data types it was given (real A, complex W, real VR for a real matrix).
int g_geev_calls = 0, g_geev_type_a = -1, g_geev_type_w = -1, g_geev_type_vr = -1, g_geev_jobvr = -1;
#ifndef MOCK_WITHOUT_GEEV
int hipsolverDnXgeev_bufferSize(void*, void* p, int, int, int64_t n, int, const void*, int64_t lda, int, const void*,
                                int, const void*, int64_t, int, const void*, int64_t, int, size_t* d, size_t* h) {
  *d = 128; *h = 16; return p == (void*)0x88 && lda >= n ? 0 : 3;
}
int hipsolverDnXgeev(void*, void*, int, int jobvr, int64_t, int type_a, void*, int64_t, int type_w, void*, int,
                     void*, int64_t, int type_vr, void*, int64_t, int, void*, size_t dev, void*, size_t host, int* info) {
  ++g_geev_calls; g_geev_type_a = type_a; g_geev_type_w = type_w; g_geev_type_vr = type_vr; g_geev_jobvr = jobvr;
  *info = 0; return dev >= 128 && host >= 16 ? 0 : 3;
}
#endif
#define STUB(name) int name() { return 0; }
STUB(hipsolverDnXgetrf_bufferSize) STUB(hipsolverDnXgetrf) STUB(hipsolverDnXgetrs) STUB(hipsolverDnXgeqrf_bufferSize)
STUB(hipsolverDnXgeqrf) STUB(hipsolverDnSorgqr_bufferSize) STUB(hipsolverDnDorgqr_bufferSize)
STUB(hipsolverDnCungqr_bufferSize) STUB(hipsolverDnZungqr_bufferSize) STUB(hipsolverDnSorgqr) STUB(hipsolverDnDorgqr)
STUB(hipsolverDnCungqr) STUB(hipsolverDnZungqr)
STUB(hipsolverDnDgesvd) STUB(hipsolverDnCgesvd_bufferSize) STUB(hipsolverDnZgesvd_bufferSize) STUB(hipsolverDnCgesvd) STUB(hipsolverDnZgesvd)
STUB(hipsolverDnDsyevd_bufferSize) STUB(hipsolverDnCheevd_bufferSize) STUB(hipsolverDnZheevd_bufferSize)
STUB(hipsolverDnDsyevd) STUB(hipsolverDnCheevd) STUB(hipsolverDnZheevd)
int g_gesvd_ok = -1; int g_gesvd_lwork = 0; char g_jobu = 0;
int hipsolverDnSgesvd_bufferSize(void*, int m, int n, int* lwork) { *lwork = 100 + m + n; return 0; }
int hipsolverDnDgesvd_bufferSize(void*, int m, int n, int* lwork) { *lwork = 50 + m + n; return 0; }
// Checks that work (lwork floats) and rwork (min(m,n)-1 floats) lie apart, 16-byte-aligned rwork.
void* g_scratch_lo = nullptr; void* g_scratch_hi = nullptr;
int hipsolverDnSgesvd(void*, signed char ju, signed char jv, int m, int n, float* A, int lda, float* S, float* U, int ldu,
                      float* V, int ldv, float* work, int lwork, float* rwork, int* info) {
  g_jobu = ju; g_gesvd_lwork = lwork;
  int k = m < n ? m : n;
  bool ok = lwork >= 100 + m + n && (char*)(work + lwork) <= (char*)rwork && ((uintptr_t)rwork % 16) == 0 &&
            (char*)(rwork + (k - 1)) <= (char*)g_scratch_hi && (char*)work >= (char*)g_scratch_lo && lda >= m &&
            ldu >= m && ldv >= n && ju == jv;
  g_gesvd_ok = ok; *info = 0; (void)A; (void)S; (void)U; (void)V;
  return 0;
}
int g_syevd_jobz = 0, g_syevd_uplo = 0, g_syevd_lwork = 0;
int hipsolverDnSsyevd_bufferSize(void*, int jobz, int uplo, int n, const void*, int lda, const void*, int* lwork) {
  *lwork = 10 * n; g_syevd_jobz = jobz; g_syevd_uplo = uplo; return lda >= n ? 0 : 3;
}
int hipsolverDnSsyevd(void*, int jobz, int uplo, int n, void*, int, void*, void*, int lwork, int* info) {
  g_syevd_lwork = lwork; g_syevd_jobz = jobz; g_syevd_uplo = uplo; *info = 0; return lwork >= 10 * n ? 0 : 3;
}
}
