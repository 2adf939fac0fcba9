// cusolver.cpp — the LAPACK forms of the linalg extension on CUDA devices through cuSOLVER,
// opened with dlopen on first use (the DlaGpuSolver entry of gpu_ops.h).
//
// The cuSOLVER functions used are declared here from NVIDIA's published API (cusolverDn.h of
// cuSOLVER 11 and 12): the 64-bit generic ("X") routines potrf, getrf, getrs, geqrf, gesvd, syevd
// and geev, whose sizes are int64_t and whose element type is a cudaDataType argument, plus the
// legacy ?orgqr / ?ungqr, which has no generic form. Enumerations are passed as int; neither
// cuSOLVER nor its headers are needed to build dlarray. Each job loops over its stack, one
// routine call per matrix on the job's stream, with device workspace from the caller's scratch
// (the core's stream-ordered pool); what LAPACK's conventions need beyond the routines (zeroed
// triangles, identities, determinants from LU factors, complex eigenvectors from real ones) is
// queued by the kernels of solver_kernels.cu. Nothing here waits for the device: the core reads
// the info array back afterwards (its one device-to-host transfer per call).
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cuda/cuda_libraries.h"
#include "backends/gpu/vendor_library.h"
#include "core/dtype.h"
#include "core/linalg_ops.h"

namespace dla::cuda {
namespace {

using Handle = void*;  // cusolverDnHandle_t
using Params = void*;  // cusolverDnParams_t
using Status = int;    // cusolverStatus_t
constexpr Status kInvalidValue = 3, kNotSupported = 9;
// cudaDataType
constexpr int kR32F = 0, kR64F = 1, kC32F = 4, kC64F = 5;
// cublasFillMode_t, cublasOperation_t, cusolverEigMode_t
constexpr int kLower = 0, kUpper = 1, kOpN = 0, kOpT = 1, kNoVector = 0, kVector = 1;
constexpr int kMaxDevices = 64;

struct Cusolver {
  Status (*create)(Handle*);
  Status (*set_stream)(Handle, void*);
  Status (*create_params)(Params*);
  Status (*potrf_size)(Handle, Params, int uplo, int64_t n, int type, const void* a, int64_t lda, int compute,
                       size_t* dev, size_t* host);
  Status (*potrf)(Handle, Params, int uplo, int64_t n, int type, void* a, int64_t lda, int compute, void* dev,
                  size_t dev_bytes, void* host, size_t host_bytes, int* info);
  Status (*getrf_size)(Handle, Params, int64_t m, int64_t n, int type, const void* a, int64_t lda, int compute,
                       size_t* dev, size_t* host);
  Status (*getrf)(Handle, Params, int64_t m, int64_t n, int type, void* a, int64_t lda, int64_t* ipiv, int compute,
                  void* dev, size_t dev_bytes, void* host, size_t host_bytes, int* info);
  Status (*getrs)(Handle, Params, int trans, int64_t n, int64_t nrhs, int type_a, const void* a, int64_t lda,
                  const int64_t* ipiv, int type_b, void* b, int64_t ldb, int* info);
  Status (*geqrf_size)(Handle, Params, int64_t m, int64_t n, int type, const void* a, int64_t lda, int type_tau,
                       const void* tau, int compute, size_t* dev, size_t* host);
  Status (*geqrf)(Handle, Params, int64_t m, int64_t n, int type, void* a, int64_t lda, int type_tau, void* tau,
                  int compute, void* dev, size_t dev_bytes, void* host, size_t host_bytes, int* info);
  // ?orgqr / ?ungqr (32-bit sizes; lwork counts elements), one per element type.
  Status (*orgqr_size[4])(Handle, int m, int n, int k, const void* a, int lda, const void* tau, int* lwork);
  Status (*orgqr[4])(Handle, int m, int n, int k, void* a, int lda, const void* tau, void* work, int lwork, int* info);
  Status (*gesvd_size)(Handle, Params, signed char jobu, signed char jobvt, int64_t m, int64_t n, int type_a,
                       const void* a, int64_t lda, int type_s, const void* s, int type_u, const void* u, int64_t ldu,
                       int type_vt, const void* vt, int64_t ldvt, int compute, size_t* dev, size_t* host);
  Status (*gesvd)(Handle, Params, signed char jobu, signed char jobvt, int64_t m, int64_t n, int type_a, void* a,
                  int64_t lda, int type_s, void* s, int type_u, void* u, int64_t ldu, int type_vt, void* vt,
                  int64_t ldvt, int compute, void* dev, size_t dev_bytes, void* host, size_t host_bytes, int* info);
  Status (*syevd_size)(Handle, Params, int jobz, int uplo, int64_t n, int type_a, const void* a, int64_t lda,
                       int type_w, const void* w, int compute, size_t* dev, size_t* host);
  Status (*syevd)(Handle, Params, int jobz, int uplo, int64_t n, int type_a, void* a, int64_t lda, int type_w,
                  void* w, int compute, void* dev, size_t dev_bytes, void* host, size_t host_bytes, int* info);
  Status (*geev_size)(Handle, Params, int jobvl, int jobvr, int64_t n, int type_a, const void* a, int64_t lda,
                      int type_w, const void* w, int type_vl, const void* vl, int64_t ldvl, int type_vr,
                      const void* vr, int64_t ldvr, int compute, size_t* dev, size_t* host);
  Status (*geev)(Handle, Params, int jobvl, int jobvr, int64_t n, int type_a, void* a, int64_t lda, int type_w,
                 void* w, int type_vl, void* vl, int64_t ldvl, int type_vr, void* vr, int64_t ldvr, int compute,
                 void* dev, size_t dev_bytes, void* host, size_t host_bytes, int* info);
};

// cuSOLVER links against cuBLAS, cuBLASLt, cuSPARSE and nvJitLink. Their CUDA 13 wheel puts them
// all in nvidia/cu13/lib, where the libraries' $ORIGIN run path finds them; the CUDA 12 wheels
// have a directory each, which cuSOLVER's own run path may not name. So they are opened first
// (by the same search as cuSOLVER): the dynamic linker then satisfies cuSOLVER's dependencies
// with the already loaded libraries (matched by soname; RTLD_LOCAL does not hide them for that).
const char* const kCublasSonames[] = {"libcublas.so.13", "libcublas.so.12", nullptr};
const char* const kCublasDirs[] = {"nvidia/cu13/lib", "nvidia/cublas/lib", nullptr};
const char* const kJitSonames[] = {"libnvJitLink.so.13", "libnvJitLink.so.12", nullptr};
const char* const kJitDirs[] = {"nvidia/cu13/lib", "nvidia/nvjitlink/lib", nullptr};
const char* const kSparseSonames[] = {"libcusparse.so.12", nullptr};
const char* const kSparseDirs[] = {"nvidia/cu13/lib", "nvidia/cusparse/lib", nullptr};
const gpu::VendorLibrarySpec kDependencies[] = {
    {"cuBLAS", kCublasSonames, kCublasDirs, "nvidia-cublas", "cuda"},
    {"nvJitLink", kJitSonames, kJitDirs, "nvidia-nvjitlink", "cuda"},
    {"cuSPARSE", kSparseSonames, kSparseDirs, "nvidia-cusparse", "cuda"},
};
// CUDA 13 wheels: cuSOLVER 12 in nvidia/cu13/lib; CUDA 12 wheels: cuSOLVER 11 in nvidia/cusolver/lib.
const char* const kSonames[] = {"libcusolver.so.12", "libcusolver.so.11", nullptr};
const char* const kWheelDirs[] = {"nvidia/cu13/lib", "nvidia/cusolver/lib", nullptr};
const gpu::VendorLibrarySpec kSpec = {"cuSOLVER", kSonames, kWheelDirs, "nvidia-cusolver", "cuda"};

std::atomic<const Cusolver*> g_cusolver{nullptr};

template <class F>
bool resolve(void* lib, const char* name, F* out) {
  *out = reinterpret_cast<F>(dlsym(lib, name));
  if (*out) return true;
  set_library_missing(std::string("the cuSOLVER found lacks ") + name +
                      " (dlarray needs cuSOLVER 11.6 or newer, from CUDA 12.6 on): install a current one with "
                      "`pip install dlarray[cuda]` (or `pip install nvidia-cusolver`)");
  return false;
}

// The resolved functions; nullptr (the reason recorded by set_library_missing) when cuSOLVER
// cannot be loaded. As for cuBLAS, no lock is held while loading: the first to publish wins.
const Cusolver* cusolver() {
  if (const Cusolver* c = g_cusolver.load(std::memory_order_acquire)) return c;
  std::string ignored;
  for (const gpu::VendorLibrarySpec& dep : kDependencies) gpu::open_vendor_library(dep, &ignored);
  std::string why;
  void* lib = gpu::open_vendor_library(kSpec, &why);
  if (!lib) {
    set_library_missing(why + " (cuSOLVER also needs cuBLAS, cuSPARSE and nvJitLink: nvidia-cublas, "
                              "nvidia-cusparse and nvidia-nvjitlink, which pip installs with nvidia-cusolver)");
    return nullptr;
  }
  auto* c = new Cusolver{};
  const bool ok =
      resolve(lib, "cusolverDnCreate", &c->create) && resolve(lib, "cusolverDnSetStream", &c->set_stream) &&
      resolve(lib, "cusolverDnCreateParams", &c->create_params) &&
      resolve(lib, "cusolverDnXpotrf_bufferSize", &c->potrf_size) && resolve(lib, "cusolverDnXpotrf", &c->potrf) &&
      resolve(lib, "cusolverDnXgetrf_bufferSize", &c->getrf_size) && resolve(lib, "cusolverDnXgetrf", &c->getrf) &&
      resolve(lib, "cusolverDnXgetrs", &c->getrs) && resolve(lib, "cusolverDnXgeqrf_bufferSize", &c->geqrf_size) &&
      resolve(lib, "cusolverDnXgeqrf", &c->geqrf) &&
      resolve(lib, "cusolverDnSorgqr_bufferSize", &c->orgqr_size[0]) &&
      resolve(lib, "cusolverDnDorgqr_bufferSize", &c->orgqr_size[1]) &&
      resolve(lib, "cusolverDnCungqr_bufferSize", &c->orgqr_size[2]) &&
      resolve(lib, "cusolverDnZungqr_bufferSize", &c->orgqr_size[3]) &&
      resolve(lib, "cusolverDnSorgqr", &c->orgqr[0]) && resolve(lib, "cusolverDnDorgqr", &c->orgqr[1]) &&
      resolve(lib, "cusolverDnCungqr", &c->orgqr[2]) && resolve(lib, "cusolverDnZungqr", &c->orgqr[3]) &&
      resolve(lib, "cusolverDnXgesvd_bufferSize", &c->gesvd_size) && resolve(lib, "cusolverDnXgesvd", &c->gesvd) &&
      resolve(lib, "cusolverDnXsyevd_bufferSize", &c->syevd_size) && resolve(lib, "cusolverDnXsyevd", &c->syevd) &&
      resolve(lib, "cusolverDnXgeev_bufferSize", &c->geev_size) && resolve(lib, "cusolverDnXgeev", &c->geev);
  if (!ok) {
    delete c;
    return nullptr;
  }
  const Cusolver* expected = nullptr;
  if (g_cusolver.compare_exchange_strong(expected, c, std::memory_order_acq_rel)) return c;
  delete c;
  return expected;
}

// Handles as cublas.cpp keeps them: one per thread and device (a handle must not be used by two
// threads at once), back to a pool when the thread ends, never destroyed. Each has its params.
struct Bound {
  Handle h = nullptr;
  Params p = nullptr;
};
std::mutex g_pool_mu;
auto* g_pool = new std::vector<Bound>[kMaxDevices];  // a pointer: no destructor at exit

struct ThreadHandles {
  Bound b[kMaxDevices];
  ~ThreadHandles() {
    std::lock_guard<std::mutex> lock(g_pool_mu);
    for (int d = 0; d < kMaxDevices; ++d)
      if (b[d].h) g_pool[d].push_back(b[d]);
  }
};
thread_local ThreadHandles t_handles;

Status handle_for(const Cusolver& c, int device, Bound* out) {
  Bound& b = t_handles.b[device];
  if (!b.h) {
    {
      std::lock_guard<std::mutex> lock(g_pool_mu);
      if (!g_pool[device].empty()) {
        b = g_pool[device].back();
        g_pool[device].pop_back();
      }
    }
    if (!b.h) {
      Bound fresh;
      if (Status s = c.create(&fresh.h)) return s;  // binds the handle to the current device
      if (Status s = c.create_params(&fresh.p)) return s;
      b = fresh;
    }
  }
  *out = b;
  return 0;
}

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
  const Cusolver& c;
  Handle h;
  Params p;
  const DlaGpuSolver& j;
  void* stream;
  std::vector<unsigned char>* host;
  int type, rtype, ctype;  // cudaDataType of the elements, of their real part, of the complex type
  int code;                // 0..3: float32, float64, complex64, complex128
  size_t item, real;
  bool is_complex;
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
// and the carving) and running (the same carving, then the calls). Returns a cusolverStatus_t,
// or dlarray's own code for a kernel's CUDA error.
#define DLA_TRY(call)                           \
  do {                                          \
    if (Status s_ = (call)) return s_;          \
  } while (0)
#define DLA_KERNEL(call)                        \
  do {                                          \
    if (int e_ = (call)) return -e_;            \
  } while (0)

Status cholesky(Run& r, size_t work) {
  const int64_t n = r.j.n;
  const int uplo = (r.j.flags & DLA_GPU_SOLVER_UPPER) ? kUpper : kLower;
  if (n == 0) return 0;  // nothing to factor (nor to query: sizes of 0 are not every routine's case)
  size_t dev = 0, hst = 0;
  DLA_TRY(r.c.potrf_size(r.h, r.p, uplo, n, r.type, r.a(0), r.ld(n), r.type, &dev, &hst));
  r.need(dev, hst);
  if (!r.scratch) return 0;
  for (int64_t i = 0; i < r.j.batch; ++i)
    DLA_TRY(r.c.potrf(r.h, r.p, uplo, n, r.type, r.a(i), r.ld(n), r.type, r.at(work), r.dev_bytes,
                      r.host->data(), r.host_bytes, r.info(i)));
  // potrf leaves the other triangle as it was: the factor has zeros there.
  DLA_KERNEL(solver_zero_triangle(r.j.dtype, r.j.a, n, r.j.a_step, r.j.batch, uplo == kUpper, r.stream));
  return 0;
}

// inv (against the identity in out[0]), solve (b), det / slogdet: one LU factorization each.
Status lu_based(Run& r, size_t work, LinalgOpId op) {
  const int64_t n = r.j.n;
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
      DLA_TRY(r.c.getrs(r.h, r.p, kOpN, n, n, r.type, r.a(i), r.ld(n), piv, r.type, r.out(0, i, r.item), r.ld(n),
                        info2));
    } else if (op == LinalgOpId::solve && r.j.nrhs > 0) {
      // A transposed a (row-major copy): solve with A^T's factors, trans 'T' (not the conjugate).
      const int trans = (r.j.flags & DLA_GPU_SOLVER_TRANSPOSED) ? kOpT : kOpN;
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
  if (m > INT_MAX || qcols > INT_MAX) return kNotSupported;  // ?orgqr takes 32-bit sizes
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

// cusolverDnXgesvd needs m >= n: a wide matrix is decomposed as its adjoint, A^H = U' S V'^H,
// so A = V' S U'^H: U = V' and Vh = U'^H, each one adjoint kernel away.
Status svd(Run& r, size_t work) {
  const int64_t m = r.j.m, n = r.j.n, k = std::min(m, n);
  const bool full = r.j.flags & DLA_GPU_SOLVER_FULL, vectors = r.j.flags & DLA_GPU_SOLVER_VECTORS;
  const int64_t ucols = full ? m : k, vtrows = full ? n : k;
  const signed char job = vectors ? (full ? 'A' : 'S') : 'N';
  const bool wide = m < n;
  const int64_t tm = wide ? n : m, tn = wide ? m : n;  // the tall matrix handed to gesvd
  const int64_t tu_cols = full ? tm : k;               // its U' is tm x tu_cols, its V'^H tn x tn (tn == k)
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
  const int jobz = (r.j.flags & DLA_GPU_SOLVER_VECTORS) ? kVector : kNoVector;
  if (n == 0) return 0;
  size_t dev = 0, hst = 0;
  DLA_TRY(r.c.syevd_size(r.h, r.p, jobz, kLower, n, r.type, r.a(0), r.ld(n), r.rtype, r.out(0, 0, r.real), r.type,
                         &dev, &hst));
  r.need(dev, hst);
  if (!r.scratch) return 0;
  for (int64_t i = 0; i < r.j.batch; ++i)
    DLA_TRY(r.c.syevd(r.h, r.p, jobz, kLower, n, r.type, r.a(i), r.ld(n), r.rtype, r.out(0, i, r.real), r.type,
                      r.at(work), r.dev_bytes, r.host->data(), r.host_bytes, r.info(i)));
  return 0;
}

// eig: the eigenvalues straight into out[0] as complex numbers (Xgeev's complex-W option for
// real matrices); real matrices' eigenvectors come real, conjugate pairs packed in two columns
// as LAPACK's ?geev packs them, and are unpacked into out[1] afterwards.
Status eig(Run& r, size_t work) {
  const int64_t n = r.j.n;
  const bool vectors = r.j.flags & DLA_GPU_SOLVER_VECTORS;
  const int jobvr = vectors ? kVector : kNoVector;
  const bool packed = vectors && !r.is_complex;
  const size_t vr_at = packed ? r.carve.take(r.item * size_t(n * n) * size_t(r.j.batch)) : 0;
  const int vr_type = r.is_complex ? r.type : r.rtype;
  auto vr = [&](int64_t i) -> void* {
    if (!vectors) return nullptr;
    return packed ? static_cast<void*>(r.at(vr_at) + r.item * size_t(n * n * i)) : r.out(1, i, 2 * r.real);
  };
  if (n == 0) return 0;
  size_t dev = 0, hst = 0;
  DLA_TRY(r.c.geev_size(r.h, r.p, kNoVector, jobvr, n, r.type, r.a(0), r.ld(n), r.ctype, r.out(0, 0, 2 * r.real),
                        vr_type, nullptr, 1, vr_type, vr(0), r.ld(n), r.type, &dev, &hst));
  r.need(dev, hst);
  if (!r.scratch) return 0;
  for (int64_t i = 0; i < r.j.batch; ++i)
    DLA_TRY(r.c.geev(r.h, r.p, kNoVector, jobvr, n, r.type, r.a(i), r.ld(n), r.ctype, r.out(0, i, 2 * r.real),
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
    default: return kInvalidValue;
  }
}

// A status or a kernel's CUDA error (negated by DLA_KERNEL) as the table's code.
int code_of(Status s) { return s > 0 ? DLA_GPU_SOLVER_STATUS - s : -s; }

}  // namespace

namespace {
int run_job(int device, const DlaGpuSolver& job, void* temp, size_t* temp_bytes, void* stream,
            std::vector<unsigned char>* host_work) {
  if (device < 0 || device >= kMaxDevices || job.batch < 1 || job.m < 0 || job.n < 0)
    return DLA_GPU_SOLVER_STATUS - kInvalidValue;
  int type, rtype, ctype, code;
  switch (static_cast<ScalarType>(job.dtype)) {
    case ScalarType::Float32: type = kR32F, rtype = kR32F, ctype = kC32F, code = 0; break;
    case ScalarType::Float64: type = kR64F, rtype = kR64F, ctype = kC64F, code = 1; break;
    case ScalarType::Complex64: type = kC32F, rtype = kR32F, ctype = kC32F, code = 2; break;
    case ScalarType::Complex128: type = kC64F, rtype = kR64F, ctype = kC64F, code = 3; break;
    default: return DLA_GPU_UNSUPPORTED;
  }
  const Cusolver* c = cusolver();
  if (!c) return DLA_GPU_LIBRARY_MISSING;
  Bound b;
  if (Status s = handle_for(*c, device, &b)) return DLA_GPU_SOLVER_STATUS - s;
  if (Status s = c->set_stream(b.h, stream)) return DLA_GPU_SOLVER_STATUS - s;
  const size_t real = (code == 1 || code == 3) ? 8 : 4;
  Run r{*c, b.h, b.p, job, stream, host_work, type, rtype, ctype, code, code >= 2 ? 2 * real : real, real, code >= 2};
  // Sizing: the pieces first, the routine workspace after them (its size is known last).
  if (Status s = dispatch(r, 0)) return code_of(s);
  const size_t work = r.carve.take(0);
  const size_t need = work + r.dev_bytes + 256;
  if (!temp) {
    *temp_bytes = need;
    return 0;
  }
  if (*temp_bytes < need) return DLA_GPU_SOLVER_STATUS - kInvalidValue;
  host_work->assign(r.host_bytes, 0);
  Run run{*c, b.h, b.p, job, stream, host_work, type, rtype, ctype, code, r.item, real, r.is_complex};
  run.scratch = static_cast<char*>(temp);
  run.dev_bytes = r.dev_bytes;
  run.host_bytes = r.host_bytes;
  // Every matrix's info starts at 0: routines skipped for empty matrices leave it so.
  if (int e = solver_memset_zero(job.info, sizeof(int32_t) * size_t(job.batch), stream)) return e;
  return code_of(dispatch(run, work));
}
}  // namespace

int cusolver_run(int device, const DlaGpuSolver& job, void* temp, size_t* temp_bytes, void* stream,
                 std::vector<unsigned char>* host_work) {
  try {  // nothing may cross the C table; what can throw here is allocation
    return run_job(device, job, temp, temp_bytes, stream, host_work);
  } catch (...) {
    return DLA_GPU_SOLVER_STATUS - 2;  // CUSOLVER_STATUS_ALLOC_FAILED
  }
}

const char* cusolver_status_name(int status) {
  switch (status) {
    case 1: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case 2: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case 3: return "CUSOLVER_STATUS_INVALID_VALUE";
    case 4: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case 5: return "CUSOLVER_STATUS_MAPPING_ERROR";
    case 6: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case 7: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case 8: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case 9: return "CUSOLVER_STATUS_NOT_SUPPORTED";
  }
  return nullptr;
}

}  // namespace dla::cuda
