// openblas.h — the BLAS and LAPACK routines dlarray calls, as scipy-openblas64 exports them.
//
// The wheel's OpenBLAS is ILP64 (64-bit integers everywhere) and renames every symbol
// (`dgemm_` -> `scipy_dgemm_64_`, `cblas_dgemm` -> `scipy_cblas_dgemm64_`) so that it can
// live in one process beside NumPy's own copy. Its lapack.h only half-applies that renaming,
// so the few prototypes used here are declared by hand, with overloads on the element type
// (float, double, complex<float>, complex<double>) so that kernels are written once as
// templates. LAPACK's Fortran character arguments carry hidden lengths at the end (gfortran
// ABI); they are passed explicitly.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>

namespace dla::cpu::blas {

using lint = int64_t;  // BLAS/LAPACK integer (ILP64)
using cfloat = std::complex<float>;
using cdouble = std::complex<double>;

enum Order { RowMajor = 101, ColMajor = 102 };
enum Trans { NoTrans = 111, DoTrans = 112, ConjTrans = 113 };

extern "C" {
// Threads of OpenBLAS's own pool (this pthreads build has no per-calling-thread setting).
void scipy_openblas_set_num_threads64_(int n);
int scipy_openblas_get_num_threads64_(void);

#define DLA_GEMM(p, T, S)                                                                              \
  void scipy_cblas_##p##gemm64_(int order, int ta, int tb, lint m, lint n, lint k, S alpha, const T* a, \
                                lint lda, const T* b, lint ldb, S beta, T* c, lint ldc);                \
  void scipy_cblas_##p##gemv64_(int order, int ta, lint m, lint n, S alpha, const T* a, lint lda, const T* x, \
                                lint incx, S beta, T* y, lint incy);
// Dot products (the complex ones unconjugated, their result through a pointer).
float scipy_cblas_sdot64_(lint n, const float* x, lint incx, const float* y, lint incy);
double scipy_cblas_ddot64_(lint n, const double* x, lint incx, const double* y, lint incy);
void scipy_cblas_cdotu_sub64_(lint n, const void* x, lint incx, const void* y, lint incy, void* dotu);
void scipy_cblas_zdotu_sub64_(lint n, const void* x, lint incx, const void* y, lint incy, void* dotu);

DLA_GEMM(s, float, float)
DLA_GEMM(d, double, double)
DLA_GEMM(c, cfloat, const void*)
DLA_GEMM(z, cdouble, const void*)
#undef DLA_GEMM

// LAPACK (Fortran interface; everything by pointer).
#define DLA_LAPACK_COMMON(p, T)                                                                              \
  void scipy_##p##potrf_64_(const char* uplo, const lint* n, T* a, const lint* lda, lint* info, size_t);     \
  void scipy_##p##getrf_64_(const lint* m, const lint* n, T* a, const lint* lda, lint* ipiv, lint* info);   \
  void scipy_##p##gesv_64_(const lint* n, const lint* nrhs, T* a, const lint* lda, lint* ipiv, T* b,          \
                           const lint* ldb, lint* info);                                                     \
  void scipy_##p##getrs_64_(const char* trans, const lint* n, const lint* nrhs, const T* a, const lint* lda,  \
                            const lint* ipiv, T* b, const lint* ldb, lint* info, size_t);                    \
  void scipy_##p##geqrf_64_(const lint* m, const lint* n, T* a, const lint* lda, T* tau, T* work,            \
                            const lint* lwork, lint* info);
DLA_LAPACK_COMMON(s, float)
DLA_LAPACK_COMMON(d, double)
DLA_LAPACK_COMMON(c, cfloat)
DLA_LAPACK_COMMON(z, cdouble)
#undef DLA_LAPACK_COMMON

#define DLA_LAPACK_REAL(p, T)                                                                                 \
  void scipy_##p##orgqr_64_(const lint* m, const lint* n, const lint* k, T* a, const lint* lda, const T* tau, \
                            T* work, const lint* lwork, lint* info);                                          \
  void scipy_##p##gesdd_64_(const char* jobz, const lint* m, const lint* n, T* a, const lint* lda, T* s, T* u, \
                            const lint* ldu, T* vt, const lint* ldvt, T* work, const lint* lwork, lint* iwork, \
                            lint* info, size_t);                                                              \
  void scipy_##p##gesvd_64_(const char* jobu, const char* jobvt, const lint* m, const lint* n, T* a,            \
                            const lint* lda, T* s, T* u, const lint* ldu, T* vt, const lint* ldvt, T* work,   \
                            const lint* lwork, lint* info, size_t, size_t);                                   \
  void scipy_##p##syevd_64_(const char* jobz, const char* uplo, const lint* n, T* a, const lint* lda, T* w,    \
                            T* work, const lint* lwork, lint* iwork, const lint* liwork, lint* info, size_t,  \
                            size_t);                                                                          \
  void scipy_##p##geev_64_(const char* jobvl, const char* jobvr, const lint* n, T* a, const lint* lda, T* wr,  \
                           T* wi, T* vl, const lint* ldvl, T* vr, const lint* ldvr, T* work, const lint* lwork, \
                           lint* info, size_t, size_t);
DLA_LAPACK_REAL(s, float)
DLA_LAPACK_REAL(d, double)
#undef DLA_LAPACK_REAL

#define DLA_LAPACK_COMPLEX(p, T, R)                                                                           \
  void scipy_##p##ungqr_64_(const lint* m, const lint* n, const lint* k, T* a, const lint* lda, const T* tau, \
                            T* work, const lint* lwork, lint* info);                                          \
  void scipy_##p##gesdd_64_(const char* jobz, const lint* m, const lint* n, T* a, const lint* lda, R* s, T* u, \
                            const lint* ldu, T* vt, const lint* ldvt, T* work, const lint* lwork, R* rwork,   \
                            lint* iwork, lint* info, size_t);                                                 \
  void scipy_##p##gesvd_64_(const char* jobu, const char* jobvt, const lint* m, const lint* n, T* a,            \
                            const lint* lda, R* s, T* u, const lint* ldu, T* vt, const lint* ldvt, T* work,   \
                            const lint* lwork, R* rwork, lint* info, size_t, size_t);                         \
  void scipy_##p##heevd_64_(const char* jobz, const char* uplo, const lint* n, T* a, const lint* lda, R* w,    \
                            T* work, const lint* lwork, R* rwork, const lint* lrwork, lint* iwork,            \
                            const lint* liwork, lint* info, size_t, size_t);                                  \
  void scipy_##p##geev_64_(const char* jobvl, const char* jobvr, const lint* n, T* a, const lint* lda, T* w,   \
                           T* vl, const lint* ldvl, T* vr, const lint* ldvr, T* work, const lint* lwork,      \
                           R* rwork, lint* info, size_t, size_t);
DLA_LAPACK_COMPLEX(c, cfloat, float)
DLA_LAPACK_COMPLEX(z, cdouble, double)
#undef DLA_LAPACK_COMPLEX
}

// ---- type-generic wrappers: one name per routine -------------------------------------------

#define DLA_GEMM_WRAP(p, T, ALPHA)                                                                            \
  inline void gemm(Trans ta, Trans tb, lint m, lint n, lint k, const T* a, lint lda, const T* b, lint ldb,  \
                   T* c, lint ldc) {                                                                          \
    const T one(1), zero(0);                                                                                  \
    scipy_cblas_##p##gemm64_(RowMajor, ta, tb, m, n, k, ALPHA(one), a, lda, b, ldb, ALPHA(zero), c, ldc);    \
  }                                                                                                           \
  inline void gemv(Trans ta, lint m, lint n, const T* a, lint lda, const T* x, lint incx, T* y, lint incy) { \
    const T one(1), zero(0);                                                                                  \
    scipy_cblas_##p##gemv64_(RowMajor, ta, m, n, ALPHA(one), a, lda, x, incx, ALPHA(zero), y, incy);         \
  }
#define DLA_BY_VALUE(v) (v)
#define DLA_BY_POINTER(v) (static_cast<const void*>(&(v)))
DLA_GEMM_WRAP(s, float, DLA_BY_VALUE)
DLA_GEMM_WRAP(d, double, DLA_BY_VALUE)
DLA_GEMM_WRAP(c, cfloat, DLA_BY_POINTER)
DLA_GEMM_WRAP(z, cdouble, DLA_BY_POINTER)
#undef DLA_GEMM_WRAP
inline float dot(lint n, const float* x, lint incx, const float* y, lint incy) {
  return scipy_cblas_sdot64_(n, x, incx, y, incy);
}
inline double dot(lint n, const double* x, lint incx, const double* y, lint incy) {
  return scipy_cblas_ddot64_(n, x, incx, y, incy);
}
inline cfloat dot(lint n, const cfloat* x, lint incx, const cfloat* y, lint incy) {
  cfloat r;
  scipy_cblas_cdotu_sub64_(n, x, incx, y, incy, &r);
  return r;
}
inline cdouble dot(lint n, const cdouble* x, lint incx, const cdouble* y, lint incy) {
  cdouble r;
  scipy_cblas_zdotu_sub64_(n, x, incx, y, incy, &r);
  return r;
}
#undef DLA_BY_VALUE
#undef DLA_BY_POINTER

// At or below this many multiply-adds per matrix (about m n k), OpenBLAS runs every call a
// product or a matrix's LAPACK routine makes on the calling thread: its gemm threads only above
// m n k = 65536 * GEMM_MULTITHREAD_THRESHOLD (4), its getrf below 10^4 elements never.
constexpr int64_t kWorkOpenBlasKeepsOnOneThread = 64 * 64 * 64;

// While alive, OpenBLAS runs every call on the calling thread: set around regions where our
// own parallel_for spreads a stack of small problems over the cores, so that the two pools
// never oversubscribe them. Only used for problems small enough that OpenBLAS would not
// thread them anyway; the setting is process-wide, so a concurrent large call from another
// Python thread runs single-threaded for that moment (slower, and rounded as one thread
// rounds): run_beside_blas_pool sets it only where OpenBLAS could thread the stack's calls.
class SingleThreadedRegion {
 public:
  SingleThreadedRegion() : previous_(scipy_openblas_get_num_threads64_()) {
    if (previous_ != 1) scipy_openblas_set_num_threads64_(1);
  }
  ~SingleThreadedRegion() {
    if (previous_ != 1) scipy_openblas_set_num_threads64_(previous_);
  }
  SingleThreadedRegion(const SingleThreadedRegion&) = delete;
  SingleThreadedRegion& operator=(const SingleThreadedRegion&) = delete;

 private:
  int previous_;
};

// Runs f, which calls BLAS from several of dlarray's threads at once with `work` multiply-adds
// per call, with OpenBLAS's pool switched off around it only where OpenBLAS could thread such a
// call. The switch is process-wide (this OpenBLAS has no per-thread setting): a BLAS call of
// another thread at that moment runs on one thread, with other rounding than the same call
// alone, so it is avoided where it changes nothing.
template <class F>
void run_beside_blas_pool(int64_t work, F&& f) {
  if (work <= kWorkOpenBlasKeepsOnOneThread) return f();
  SingleThreadedRegion one_blas_thread;
  f();
}

}  // namespace dla::cpu::blas
