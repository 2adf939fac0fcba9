// mock_cusolver.cpp — stand-ins for the cuSOLVER entry points that src/backends/cuda/cusolver.cpp
// resolves, for .ci/vendor-loaders-check (no NVIDIA GPU needed): built as a shared object that
// the check opens under cuSOLVER's soname. Written from the prototypes the loader declares.
// "Device" memory is host memory; the entries record what they were given (g_cu_* globals) and
// write each matrix's info slot, so the check sees the batching. Of the batched forms only
// float32 potrfBatched and gesvdjBatched, and XsyevBatched, exist here: the other types must take
// the per-matrix loop.
#include <cstddef>
#include <cstdint>

extern "C" {
int g_cu_loop = 0, g_cu_batched = 0, g_cu_jobz = -1, g_cu_uplo = -1, g_cu_type_a = -1, g_cu_type_w = -1;
long long g_cu_count = 0, g_cu_lda = 0, g_cu_n = 0;
void *g_cu_a = nullptr, *g_cu_w = nullptr, *g_cu_ptrs[8];
int* g_cu_info = nullptr;
size_t g_cu_dev_bytes = 0;

int cusolverDnCreate(void** h) { *h = (void*)0x77; return 0; }
int cusolverDnSetStream(void*, void*) { return 0; }
int cusolverDnCreateParams(void** p) { *p = (void*)0x88; return 0; }
int cusolverDnXsyevd_bufferSize(void*, void*, int, int, int64_t, int, const void*, int64_t, int, const void*, int,
                                size_t* d, size_t* h) { *d = 32; *h = 0; return 0; }
int cusolverDnXsyevd(void*, void*, int, int, int64_t, int, void*, int64_t, int, void*, int, void*, size_t, void*, size_t,
                     int* info) { ++g_cu_loop; *info = 0; return 0; }
int cusolverDnXsyevBatched_bufferSize(void*, void* p, int, int, int64_t n, int, const void*, int64_t lda, int,
                                      const void*, int, size_t* d, size_t* h, int64_t batch) {
  *d = 1000 + size_t(batch); *h = 0;
  return p == (void*)0x88 && lda >= n ? 0 : 3;
}
int cusolverDnXsyevBatched(void*, void* p, int jobz, int uplo, int64_t n, int type_a, void* a, int64_t lda, int type_w,
                           void* w, int, void*, size_t dev_bytes, void*, size_t, int* info, int64_t batch) {
  ++g_cu_batched; g_cu_count = batch; g_cu_lda = lda; g_cu_n = n; g_cu_jobz = jobz; g_cu_uplo = uplo;
  g_cu_type_a = type_a; g_cu_type_w = type_w; g_cu_a = a; g_cu_w = w; g_cu_info = info; g_cu_dev_bytes = dev_bytes;
  for (int64_t i = 0; i < batch; ++i) info[i] = 20 + int(i);
  return p == (void*)0x88 ? 0 : 3;
}
int cusolverDnSpotrfBatched(void* h, int uplo, int n, void** a, int lda, int* info, int batch) {
  ++g_cu_batched; g_cu_count = batch; g_cu_uplo = uplo; g_cu_lda = lda;
  for (int i = 0; i < batch; ++i) { if (i < 8) g_cu_ptrs[i] = a[i]; info[i] = 30 + i; }
  return h == (void*)0x77 && lda >= n ? 0 : 3;
}
int cusolverDnXpotrf_bufferSize(void*, void*, int, int64_t, int, const void*, int64_t, int, size_t* d, size_t* h) {
  *d = 8; *h = 0; return 0;
}
int cusolverDnXpotrf(void*, void*, int, int64_t, int, void*, int64_t, int, void*, size_t, void*, size_t, int* info) {
  ++g_cu_loop; *info = 0; return 0;
}
// gesvdjBatched, float32 only: U's elements are 1000 b + e (matrix b, element e), S's b + j.
int g_cu_svdj_jobz = -1, g_cu_svdj_m = 0, g_cu_svdj_n = 0, g_cu_svdj_lda = 0, g_cu_svdj_ldu = 0, g_cu_svdj_ldv = 0;
int g_cu_svdj_lwork = 0, g_cu_svdj_batch = 0;
void *g_cu_svdj_s = nullptr, *g_cu_svdj_params = nullptr;
int cusolverDnCreateGesvdjInfo(void** info) { static int params; *info = &params; return 0; }
int cusolverDnSgesvdjBatched_bufferSize(void*, int, int m, int n, const void*, int, const void*, const void*, int,
                                        const void*, int, int* lwork, void* params, int) {
  *lwork = 7 * (m + n); return params ? 0 : 3;
}
int cusolverDnSgesvdjBatched(void*, int jobz, int m, int n, float*, int lda, float* s, float* u, int ldu, float* v,
                             int ldv, float*, int lwork, int* info, void* params, int batch) {
  ++g_cu_batched; g_cu_svdj_jobz = jobz; g_cu_svdj_m = m; g_cu_svdj_n = n; g_cu_svdj_lda = lda; g_cu_svdj_ldu = ldu;
  g_cu_svdj_ldv = ldv; g_cu_svdj_lwork = lwork; g_cu_svdj_batch = batch; g_cu_svdj_s = s; g_cu_svdj_params = params;
  const int k = m < n ? m : n;
  for (int b = 0; b < batch; ++b) {
    for (int e = 0; e < m * m; ++e) u[b * m * m + e] = float(1000 * b + e);
    for (int e = 0; e < n * n; ++e) v[b * n * n + e] = 0;
    for (int j = 0; j < k; ++j) s[b * k + j] = float(b + j);
    info[b] = 0;
  }
  return u && v && lwork >= 7 * (m + n) ? 0 : 3;
}
// cuBLAS's handle and batched LU, float32 only (the same shared object answers as libcublas):
// getrf writes pivots 1..n and info 40 + i; getrs records its pointer arrays.
int g_cu_getrf = 0, g_cu_getrs = 0, g_cu_getrs_trans = -1, g_cu_getrs_nrhs = 0, g_cu_lu_batch = 0;
void *g_cu_blas_stream = nullptr, *g_cu_getrs_a[8], *g_cu_getrs_b[8];
int cublasCreate_v2(void** h) { *h = (void*)0x99; return 0; }
int cublasSetStream_v2(void* h, void* s) { g_cu_blas_stream = s; return h == (void*)0x99 ? 0 : 7; }
int cublasSgetrfBatched(void* h, int n, void** a, int lda, int* ipiv, int* info, int batch) {
  ++g_cu_getrf; g_cu_lu_batch = batch;
  for (int i = 0; i < batch; ++i) {
    for (int k = 0; k < n; ++k) ipiv[i * n + k] = k + 1;
    info[i] = 40 + i; (void)a;
  }
  return h == (void*)0x99 && lda >= n ? 0 : 7;
}
int cublasSgetrsBatched(void* h, int trans, int n, int nrhs, void* const* a, int lda, const int*, void** b, int ldb,
                        int* info, int batch) {
  ++g_cu_getrs; g_cu_getrs_trans = trans; g_cu_getrs_nrhs = nrhs;
  for (int i = 0; i < batch && i < 8; ++i) { g_cu_getrs_a[i] = a[i]; g_cu_getrs_b[i] = b[i]; }
  *info = 0;
  return h == (void*)0x99 && lda >= n && ldb >= n ? 0 : 7;
}
#define STUB(name) int name() { return 0; }
STUB(cusolverDnXgetrf_bufferSize) STUB(cusolverDnXgetrf) STUB(cusolverDnXgetrs) STUB(cusolverDnXgeqrf_bufferSize)
STUB(cusolverDnXgeqrf) STUB(cusolverDnSorgqr_bufferSize) STUB(cusolverDnDorgqr_bufferSize)
STUB(cusolverDnCungqr_bufferSize) STUB(cusolverDnZungqr_bufferSize) STUB(cusolverDnSorgqr) STUB(cusolverDnDorgqr)
STUB(cusolverDnCungqr) STUB(cusolverDnZungqr) STUB(cusolverDnXgesvd_bufferSize) STUB(cusolverDnXgesvd)
STUB(cusolverDnXgeev_bufferSize) STUB(cusolverDnXgeev)
}
