// lapack_cpu.cpp — the CPU half of the LAPACK forms (see linalg.h): one State class per
// function holds the routine's workspace (sized once by a workspace query) and runs it on
// matrix i of the stack; run_stack is the single batch loop they all go through.
//
// Buffers arrive column-major (linalg.cpp copied them once). A stack of small matrices is
// spread over our threads, each with its own workspace, with OpenBLAS held to one thread; a
// stack of large ones runs one matrix at a time with OpenBLAS's threads.
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "backends/cpu/openblas.h"
#include "backends/cpu/parallel.h"
#include "core/linalg.h"

namespace dla::cpu {
namespace {

using blas::lint;

template <class T>
struct RealOf {
  using type = T;
};
template <class R>
struct RealOf<std::complex<R>> {
  using type = R;
};
template <class T>
using Real = typename RealOf<T>::type;
template <class T>
constexpr bool kComplex = !std::is_same_v<T, Real<T>>;

lint ld(int64_t rows) { return rows > 1 ? rows : 1; }

// ---- one overload set per routine, over the four element types -------------------------------
#define DLA_ANY(p, T)                                                                                    \
  void potrf(char uplo, lint n, T* a, lint* info) {                                                      \
    const lint lda = ld(n);                                                                              \
    blas::scipy_##p##potrf_64_(&uplo, &n, a, &lda, info, 1);                                             \
  }                                                                                                      \
  void getrf(lint n, T* a, lint* ipiv, lint* info) {                                                     \
    const lint lda = ld(n);                                                                              \
    blas::scipy_##p##getrf_64_(&n, &n, a, &lda, ipiv, info);                                             \
  }                                                                                                      \
  void gesv(lint n, lint nrhs, T* a, lint* ipiv, T* b, lint* info) {                                     \
    const lint lda = ld(n);                                                                              \
    blas::scipy_##p##gesv_64_(&n, &nrhs, a, &lda, ipiv, b, &lda, info);                                  \
  }                                                                                                      \
  void getrs(char trans, lint n, lint nrhs, const T* a, const lint* ipiv, T* b, lint* info) {            \
    const lint lda = ld(n);                                                                              \
    blas::scipy_##p##getrs_64_(&trans, &n, &nrhs, a, &lda, ipiv, b, &lda, info, 1);                      \
  }                                                                                                      \
  void geqrf(lint m, lint n, T* a, T* tau, T* work, lint lwork, lint* info) {                            \
    const lint lda = ld(m);                                                                              \
    blas::scipy_##p##geqrf_64_(&m, &n, a, &lda, tau, work, &lwork, info);                                \
  }
DLA_ANY(s, float)
DLA_ANY(d, double)
DLA_ANY(c, blas::cfloat)
DLA_ANY(z, blas::cdouble)
#undef DLA_ANY

// Real: ?orgqr, ?gesdd/?gesvd, ?syevd, ?geev. `rwork` is unused (complex routines need it).
#define DLA_REAL(p, T)                                                                                   \
  void orgqr(lint m, lint n, lint k, T* a, const T* tau, T* work, lint lwork, lint* info) {              \
    const lint lda = ld(m);                                                                              \
    blas::scipy_##p##orgqr_64_(&m, &n, &k, a, &lda, tau, work, &lwork, info);                            \
  }                                                                                                      \
  void gesdd(char jobz, lint m, lint n, T* a, T* s, T* u, lint ldu, T* vt, lint ldvt, T* work, lint lwork, \
             T*, lint* iwork, lint* info) {                                                              \
    const lint lda = ld(m);                                                                              \
    blas::scipy_##p##gesdd_64_(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, info, 1); \
  }                                                                                                      \
  void gesvd(char job, lint m, lint n, T* a, T* s, T* u, lint ldu, T* vt, lint ldvt, T* work, lint lwork, T*, \
             lint* info) {                                                                               \
    const lint lda = ld(m);                                                                              \
    blas::scipy_##p##gesvd_64_(&job, &job, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, info, 1, 1); \
  }                                                                                                      \
  void heevd(char jobz, lint n, T* a, T* w, T* work, lint lwork, T*, lint, lint* iwork, lint liwork,    \
             lint* info) {                                                                               \
    const lint lda = ld(n);                                                                              \
    const char uplo = 'L';                                                                               \
    blas::scipy_##p##syevd_64_(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, info, 1, 1);   \
  }
DLA_REAL(s, float)
DLA_REAL(d, double)
#undef DLA_REAL

#define DLA_COMPLEX(p, T, R)                                                                             \
  void orgqr(lint m, lint n, lint k, T* a, const T* tau, T* work, lint lwork, lint* info) {              \
    const lint lda = ld(m);                                                                              \
    blas::scipy_##p##ungqr_64_(&m, &n, &k, a, &lda, tau, work, &lwork, info);                            \
  }                                                                                                      \
  void gesdd(char jobz, lint m, lint n, T* a, R* s, T* u, lint ldu, T* vt, lint ldvt, T* work, lint lwork, \
             R* rwork, lint* iwork, lint* info) {                                                        \
    const lint lda = ld(m);                                                                              \
    blas::scipy_##p##gesdd_64_(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, rwork, iwork, info, \
                               1);                                                                       \
  }                                                                                                      \
  void gesvd(char job, lint m, lint n, T* a, R* s, T* u, lint ldu, T* vt, lint ldvt, T* work, lint lwork, \
             R* rwork, lint* info) {                                                                     \
    const lint lda = ld(m);                                                                              \
    blas::scipy_##p##gesvd_64_(&job, &job, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, rwork, info, 1, \
                               1);                                                                       \
  }                                                                                                      \
  void heevd(char jobz, lint n, T* a, R* w, T* work, lint lwork, R* rwork, lint lrwork, lint* iwork,    \
             lint liwork, lint* info) {                                                                  \
    const lint lda = ld(n);                                                                              \
    const char uplo = 'L';                                                                               \
    blas::scipy_##p##heevd_64_(&jobz, &uplo, &n, a, &lda, w, work, &lwork, rwork, &lrwork, iwork, &liwork, info, \
                               1, 1);                                                                    \
  }
DLA_COMPLEX(c, blas::cfloat, float)
DLA_COMPLEX(z, blas::cdouble, double)
#undef DLA_COMPLEX

// geev: real matrices give eigenvalues as (wr, wi) and conjugate pairs of eigenvectors packed
// in two real columns; complex ones give them directly.
void geev(char jobvr, lint n, float* a, float* wr, float* wi, float* vr, float* work, lint lwork, float*, lint* info) {
  const lint lda = ld(n), one = 1;
  const char no = 'N';
  blas::scipy_sgeev_64_(&no, &jobvr, &n, a, &lda, wr, wi, nullptr, &one, vr, &lda, work, &lwork, info, 1, 1);
}
void geev(char jobvr, lint n, double* a, double* wr, double* wi, double* vr, double* work, lint lwork, double*,
          lint* info) {
  const lint lda = ld(n), one = 1;
  const char no = 'N';
  blas::scipy_dgeev_64_(&no, &jobvr, &n, a, &lda, wr, wi, nullptr, &one, vr, &lda, work, &lwork, info, 1, 1);
}
void geev(char jobvr, lint n, blas::cfloat* a, blas::cfloat* w, blas::cfloat*, blas::cfloat* vr, blas::cfloat* work,
          lint lwork, float* rwork, lint* info) {
  const lint lda = ld(n), one = 1;
  const char no = 'N';
  blas::scipy_cgeev_64_(&no, &jobvr, &n, a, &lda, w, nullptr, &one, vr, &lda, work, &lwork, rwork, info, 1, 1);
}
void geev(char jobvr, lint n, blas::cdouble* a, blas::cdouble* w, blas::cdouble*, blas::cdouble* vr,
          blas::cdouble* work, lint lwork, double* rwork, lint* info) {
  const lint lda = ld(n), one = 1;
  const char no = 'N';
  blas::scipy_zgeev_64_(&no, &jobvr, &n, a, &lda, w, nullptr, &one, vr, &lda, work, &lwork, rwork, info, 1, 1);
}

// The optimal lwork a workspace query returned (LAPACK writes it into work[0]).
template <class T>
lint queried(const T& w) {
  const lint n = lint(std::real(w));
  return n > 1 ? n : 1;
}

// ---- the per-function states -----------------------------------------------------------------

template <class T>
T* mat(const LapackJob& job, void* base, int64_t step, int64_t i) {
  return static_cast<T*>(base) + i * step;
}

template <class T>
struct Cholesky {
  const LapackJob& job;
  explicit Cholesky(const LapackJob& j) : job(j) {}
  lint run(int64_t i) {
    T* a = mat<T>(job, job.a, job.a_step, i);
    const lint n = job.n;
    lint info = 0;
    potrf(job.upper ? 'U' : 'L', n, a, &info);
    if (info != 0) return info;
    // potrf leaves the other triangle as it was: the factor has zeros there.
    for (lint j = 0; j < n; ++j)
      for (lint r = 0; r < n; ++r)
        if (job.upper ? r > j : r < j) a[r + j * n] = T(0);
    return 0;
  }
};

// inv: ?gesv against the identity (out[0]), as NumPy does: OpenBLAS optimizes ?getrs (blocked
// triangular solves) but not ?getri, which runs 3-5x slower at n = 1024.
template <class T>
struct Inverse {
  const LapackJob& job;
  std::vector<lint> ipiv;
  explicit Inverse(const LapackJob& j) : job(j), ipiv(size_t(ld(j.n))) {}
  lint run(int64_t i) {
    const lint n = job.n;
    T* x = mat<T>(job, job.out[0], job.out_step[0], i);
    std::memset(static_cast<void*>(x), 0, sizeof(T) * size_t(n * n));
    for (lint c = 0; c < n; ++c) x[c + c * n] = T(1);
    lint info = 0;
    gesv(n, n, mat<T>(job, job.a, job.a_step, i), ipiv.data(), x, &info);
    return info;
  }
};

template <class T>
struct Solve {
  const LapackJob& job;
  std::vector<lint> ipiv;
  explicit Solve(const LapackJob& j) : job(j), ipiv(size_t(ld(j.n))) {}
  lint run(int64_t i) {
    lint info = 0;
    T* a = mat<T>(job, job.a, job.a_step, i);
    T* b = mat<T>(job, job.b, job.b_step, i);
    if (!job.transposed) {
      gesv(job.n, job.nrhs, a, ipiv.data(), b, &info);
      return info;
    }
    // a holds the matrix transposed (x1's row-major bytes): factor that and solve A x = b as
    // (A^T)^T x = b, which spares the transposing copy into column-major order.
    getrf(job.n, a, ipiv.data(), &info);
    if (info == 0) getrs('T', job.n, job.nrhs, a, ipiv.data(), b, &info);
    return info;
  }
};

// det (out[0]: T) and slogdet (out[0]: sign T, out[1]: log|det| real) from one LU factorization;
// a singular matrix is a result (0, or sign 0 and -inf), not an error.
template <class T>
struct Determinant {
  const LapackJob& job;
  std::vector<lint> ipiv;
  explicit Determinant(const LapackJob& j) : job(j), ipiv(size_t(ld(j.n))) {}
  lint run(int64_t i) {
    using R = Real<T>;
    T* a = mat<T>(job, job.a, job.a_step, i);
    const lint n = job.n;
    lint info = 0;
    getrf(n, a, ipiv.data(), &info);
    T sign(1);
    R logabs(0);
    T prod(1);
    if (info > 0) {
      sign = T(0);
      prod = T(0);
      logabs = -std::numeric_limits<R>::infinity();
    } else {
      for (lint k = 0; k < n; ++k) {
        const T d = a[k + k * n];
        if (ipiv[size_t(k)] != k + 1) sign = -sign, prod = -prod;
        prod *= d;
        const R mag = std::abs(d);
        sign *= d / mag;
        logabs += std::log(mag);
      }
    }
    if (job.op == LinalgOpId::det) {
      mat<T>(job, job.out[0], job.out_step[0], i)[0] = prod;
    } else {
      mat<T>(job, job.out[0], job.out_step[0], i)[0] = sign;
      mat<R>(job, job.out[1], job.out_step[1], i)[0] = logabs;
    }
    return 0;
  }
};

// qr: out[0] = Q (m x qcols), out[1] = R (rrows x n); `full` = mode 'complete'.
template <class T>
struct QR {
  const LapackJob& job;
  lint m, n, k, qcols, rrows;
  std::vector<T> tau, work;
  explicit QR(const LapackJob& j)
      : job(j), m(j.m), n(j.n), k(j.m < j.n ? j.m : j.n), qcols(j.full ? j.m : k), rrows(j.full ? j.m : k),
        tau(size_t(k > 0 ? k : 1)) {
    T q1{}, q2{};
    lint info = 0;
    geqrf(m, n, nullptr, nullptr, &q1, -1, &info);
    orgqr(m, qcols, k, nullptr, nullptr, &q2, -1, &info);
    work.resize(size_t(std::max(queried(q1), queried(q2))));
  }
  lint run(int64_t i) {
    T* a = mat<T>(job, job.a, job.a_step, i);
    T* q = mat<T>(job, job.out[0], job.out_step[0], i);
    T* r = mat<T>(job, job.out[1], job.out_step[1], i);
    lint info = 0;
    geqrf(m, n, a, tau.data(), work.data(), lint(work.size()), &info);
    if (info != 0) return info;
    for (lint c = 0; c < n; ++c)
      for (lint row = 0; row < rrows; ++row) r[row + c * rrows] = row <= c ? a[row + c * ld(m)] : T(0);
    if (m == 0) return 0;
    std::memcpy(q, a, sizeof(T) * size_t(m * k));  // the reflectors; orgqr fills the rest
    orgqr(m, qcols, k, q, tau.data(), work.data(), lint(work.size()), &info);
    return info;
  }
};

// Whether a matrix's n elements (real and imaginary parts) are all finite; one pass, which the
// O(n^3) decompositions after it do not notice.
template <class T>
bool all_finite(const T* a, int64_t n) {
  const Real<T>* parts = reinterpret_cast<const Real<T>*>(a);  // std::complex's layout: (re, im)
  for (int64_t e = 0; e < (kComplex<T> ? 2 * n : n); ++e)
    if (!std::isfinite(parts[e])) return false;
  return true;
}

// svd / svdvals: out[0] = U (m x ucols), out[1] = S (k, real), out[2] = Vh (vtrows x n).
// ?gesdd first; when it does not converge, ?gesvd on a saved copy (slower, more robust).
template <class T>
struct SVD {
  using R = Real<T>;
  const LapackJob& job;
  lint m, n, k;
  char jobz;
  lint ucols, vtrows;
  std::vector<T> work, saved;
  std::vector<R> rwork;
  std::vector<lint> iwork;
  explicit SVD(const LapackJob& j)
      : job(j), m(j.m), n(j.n), k(j.m < j.n ? j.m : j.n), jobz(!j.vectors ? 'N' : j.full ? 'A' : 'S'),
        ucols(j.full ? j.m : k), vtrows(j.full ? j.n : k), saved(size_t(j.m * j.n)), iwork(size_t(8 * k + 1)) {
    if constexpr (kComplex<T>) {
      const lint mx = m > n ? m : n;
      rwork.resize(size_t(jobz == 'N' ? 7 * k + 1 : std::max(5 * k * k + 5 * k, 2 * mx * k + 2 * k * k + k) + 1));
    }
    T q{};
    lint info = 0;
    gesdd(jobz, m, n, nullptr, nullptr, nullptr, ld(m), nullptr, ld(vtrows), &q, -1, rwork.data(), nullptr, &info);
    work.resize(size_t(queried(q)));
  }
  lint run(int64_t i) {
    T* a = mat<T>(job, job.a, job.a_step, i);
    R* s = mat<R>(job, job.out[1], job.out_step[1], i);
    T* u = job.vectors ? mat<T>(job, job.out[0], job.out_step[0], i) : nullptr;
    T* vt = job.vectors ? mat<T>(job, job.out[2], job.out_step[2], i) : nullptr;
    if (k == 0) {  // LAPACK returns at once; the full factors of an empty matrix are identities
      if (job.vectors && job.full) {
        for (lint c = 0; c < m * m; ++c) u[c] = c % (m + 1) == 0 ? T(1) : T(0);
        for (lint c = 0; c < n * n; ++c) vt[c] = c % (n + 1) == 0 ? T(1) : T(0);
      }
      return 0;
    }
    if (!all_finite(a, m * n)) return LapackJob::kInfoNonFinite;
    std::memcpy(saved.data(), a, sizeof(T) * saved.size());
    lint info = 0;
    gesdd(jobz, m, n, a, s, u, ld(m), vt, ld(vtrows), work.data(), lint(work.size()), rwork.data(), iwork.data(),
          &info);
    if (info <= 0) return info;
    std::memcpy(a, saved.data(), sizeof(T) * saved.size());
    const char job1 = jobz;  // 'A', 'S' and 'N' mean the same to ?gesvd, for U and Vh alike
    std::vector<R> rw(size_t(kComplex<T> ? 5 * k : 1));
    T q{};
    gesvd(job1, m, n, a, s, u, ld(m), vt, ld(vtrows), &q, -1, rw.data(), &info);
    std::vector<T> w(size_t(queried(q)));
    gesvd(job1, m, n, a, s, u, ld(m), vt, ld(vtrows), w.data(), lint(w.size()), rw.data(), &info);
    return info;
  }
};

// eigh / eigvalsh: out[0] = eigenvalues (n, real, ascending); eigenvectors overwrite a.
template <class T>
struct Eigh {
  using R = Real<T>;
  const LapackJob& job;
  char jobz;
  std::vector<T> work;
  std::vector<R> rwork;
  std::vector<lint> iwork;
  explicit Eigh(const LapackJob& j) : job(j), jobz(j.vectors ? 'V' : 'N') {
    T q{};
    R rq{};
    lint iq = 0, info = 0;
    heevd(jobz, job.n, nullptr, nullptr, &q, -1, &rq, -1, &iq, -1, &info);
    work.resize(size_t(queried(q)));
    if constexpr (kComplex<T>) rwork.resize(size_t(queried(rq)));
    iwork.resize(size_t(iq > 1 ? iq : 1));
  }
  lint run(int64_t i) {
    lint info = 0;
    heevd(jobz, job.n, mat<T>(job, job.a, job.a_step, i), mat<R>(job, job.out[0], job.out_step[0], i), work.data(),
          lint(work.size()), rwork.data(), lint(rwork.size()), iwork.data(), lint(iwork.size()), &info);
    return info;
  }
};

// eig / eigvals: out[0] = eigenvalues (n, complex), out[1] = eigenvectors (n x n, complex).
template <class T>
struct Eig {
  using R = Real<T>;
  using C = std::complex<R>;
  const LapackJob& job;
  lint n;
  char jobvr;
  std::vector<T> wr, wi, vr, work;
  std::vector<R> rwork;
  explicit Eig(const LapackJob& j)
      : job(j), n(j.n), jobvr(j.vectors ? 'V' : 'N'), wr(size_t(ld(n))), wi(size_t(ld(n))),
        vr(size_t(j.vectors && !kComplex<T> ? n * n : 1)), rwork(size_t(2 * ld(n))) {
    T q{};
    lint info = 0;
    geev(jobvr, n, nullptr, nullptr, nullptr, nullptr, &q, -1, rwork.data(), &info);
    work.resize(size_t(queried(q)));
  }
  lint run(int64_t i) {
    T* a = mat<T>(job, job.a, job.a_step, i);
    C* w = mat<C>(job, job.out[0], job.out_step[0], i);
    C* v = job.vectors ? mat<C>(job, job.out[1], job.out_step[1], i) : nullptr;
    if (!all_finite(a, n * n)) return LapackJob::kInfoNonFinite;
    lint info = 0;
    if constexpr (kComplex<T>) {
      geev(jobvr, n, a, w, nullptr, v, work.data(), lint(work.size()), rwork.data(), &info);
    } else {
      geev(jobvr, n, a, wr.data(), wi.data(), job.vectors ? vr.data() : nullptr, work.data(), lint(work.size()),
           nullptr, &info);
      if (info != 0) return info;
      for (lint c = 0; c < n; ++c) w[c] = C(wr[size_t(c)], wi[size_t(c)]);
      if (job.vectors) {
        // A pair (c, c+1) with wi[c] > 0 stores v_c = x + iy in columns c (x) and c+1 (y);
        // v_{c+1} is its conjugate.
        for (lint c = 0; c < n; ++c) {
          if (wi[size_t(c)] != 0 && c + 1 < n) {
            for (lint r = 0; r < n; ++r) {
              const R x = vr[size_t(r + c * n)], y = vr[size_t(r + (c + 1) * n)];
              v[r + c * n] = C(x, y);
              v[r + (c + 1) * n] = C(x, -y);
            }
            ++c;
          } else {
            for (lint r = 0; r < n; ++r) v[r + c * n] = C(vr[size_t(r + c * n)], 0);
          }
        }
      }
    }
    return info;
  }
};

// ---- the batch loop ------------------------------------------------------------------------------

// Below this many flops per matrix (about n^3), OpenBLAS's LAPACK does not thread, so a stack is
// parallelised over its matrices instead.
constexpr int64_t kSmallMatrix = 128 * 128 * 128;

template <template <class> class State, class T>
void run_stack(const LapackJob& job) {
  const int64_t k = job.m < job.n ? job.m : job.n;
  const int64_t work = job.m * job.n * (k > 1 ? k : 1);
  auto chunk = [&](int64_t lo, int64_t hi) {
    State<T> state(job);
    for (int64_t i = lo; i < hi; ++i) job.info[i] = state.run(i);
  };
  if (job.batch > 1 && work <= kSmallMatrix && num_threads() > 1) {
    const int64_t grain = work >= kGrainSize ? 1 : kGrainSize / (work > 0 ? work : 1);
    blas::run_beside_blas_pool(work, [&] { parallel_for(job.batch, grain, chunk); });
  } else {
    chunk(0, job.batch);
  }
}

template <class T>
void run_typed(const LapackJob& job) {
  switch (job.op) {
    case LinalgOpId::cholesky: return run_stack<Cholesky, T>(job);
    case LinalgOpId::inv: return run_stack<Inverse, T>(job);
    case LinalgOpId::solve: return run_stack<Solve, T>(job);
    case LinalgOpId::det:
    case LinalgOpId::slogdet: return run_stack<Determinant, T>(job);
    case LinalgOpId::qr: return run_stack<QR, T>(job);
    case LinalgOpId::svd:
    case LinalgOpId::svdvals: return run_stack<SVD, T>(job);
    case LinalgOpId::eigh:
    case LinalgOpId::eigvalsh: return run_stack<Eigh, T>(job);
    case LinalgOpId::eig:
    case LinalgOpId::eigvals: return run_stack<Eig, T>(job);
    default: throw ValueError(std::string(linalg_op_info(job.op).name) + " has no LAPACK form");
  }
}

}  // namespace

void lapack_cpu(const LapackJob& job) {
  switch (job.dtype) {
    case ScalarType::Float32: return run_typed<float>(job);
    case ScalarType::Float64: return run_typed<double>(job);
    case ScalarType::Complex64: return run_typed<std::complex<float>>(job);
    case ScalarType::Complex128: return run_typed<std::complex<double>>(job);
    default: throw TypeError("LAPACK forms run on float32, float64, complex64 and complex128");
  }
}

}  // namespace dla::cpu
