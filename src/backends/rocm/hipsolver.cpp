// hipsolver.cpp — the LAPACK forms of the linalg extension on ROCm devices through hipSOLVER,
// opened with dlopen on first use (the counterpart of backends/cuda/cusolver.cpp).
//
// The hipSOLVER functions used are declared from AMD's published API (hipsolver-dense64.h and
// hipsolver-dense.h of hipSOLVER 2.3, ROCm 6.3, and later): the compatibility API's 64-bit
// generic routines hipsolverDnXpotrf, Xgetrf, Xgetrs and Xgeqrf (cuSOLVER's prototypes, so
// backends/gpu/dense_solver.h's DenseSolverLibrary types them), and the typed
// hipsolverDn{S,D}orgqr / {C,Z}ungqr, {S,D,C,Z}gesvd and {S,D}syevd / {C,Z}heevd (32-bit sizes,
// lwork in elements), which this file adapts to the generic prototypes (hipSOLVER has no
// Xgesvd, and its Xsyevd is younger: hipSOLVER 3.x); where present, the compatibility API's
// {S,D,C,Z}potrfBatched and gesvdjBatched for stacks of small matrices. Neither hipSOLVER nor its
// headers are needed to build dlarray. Enumerations are passed as int with hipSOLVER's values;
// its data types (hipDataType) have cuSOLVER's. What the ops do is dense_solver.cpp's, shared with cuSOLVER.
//
// eig and eigvals: hipSOLVER's generic hipsolverDnXgeev (cuSOLVER's prototype) is recent (it is
// in hipSOLVER's current API, not in 2.3's), so it is looked up and used where present; where
// absent the table answers DLA_GPU_UNSUPPORTED (NotImplementedError).
#include <dlfcn.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "backends/gpu/dense_solver.h"
#include "backends/gpu/handle_pool.h"
#include "backends/gpu/vendor_library.h"
#include "backends/rocm/rocm_libraries.h"

namespace dla::rocm {
namespace {

using Handle = void*;  // hipsolverDnHandle_t (hipsolverHandle_t)
using Params = void*;  // hipsolverDnParams_t
using Status = int;    // hipsolverStatus_t
constexpr Status kInvalidValue = 3, kNotSupported = 7, kAllocFailed = 2;

// hipSOLVER's values (hipsolver-types.h; hipDataType of hip/library_types.h).
const gpu::DenseSolverEnums kEnums = {
    /*r32f*/ 0, /*r64f*/ 1, /*c32f*/ 4, /*c64f*/ 5,           // hipDataType
    /*lower*/ 122, /*upper*/ 121, /*op_n*/ 111, /*op_t*/ 112,  // hipsolverFillMode_t, hipsolverOperation_t
    /*no_vector*/ 201, /*vector*/ 202,                         // hipsolverEigMode_t
    kInvalidValue, kNotSupported, kAllocFailed, /*execution_failed*/ 5};

// The typed routines adapted below, one per element type (float32, float64, complex64,
// complex128): gesvd's and syevd's (heevd's for complex) buffer-size queries and calls.
struct Typed {
  Status (*gesvd_size[4])(Handle, int m, int n, int* lwork);
  Status (*gesvd[4])(Handle, signed char jobu, signed char jobv, int m, int n, void* a, int lda, void* s, void* u,
                     int ldu, void* v, int ldv, void* work, int lwork, void* rwork, int* info);
  Status (*syevd_size[4])(Handle, int jobz, int uplo, int n, const void* a, int lda, const void* w, int* lwork);
  Status (*syevd[4])(Handle, int jobz, int uplo, int n, void* a, int lda, void* w, void* work, int lwork, int* info);
};

struct Hipsolver {
  Status (*create)(Handle*);
  Status (*set_stream)(Handle, void*);
  Status (*create_params)(Params*);
  gpu::DenseSolverLibrary r;  // the routines, the adapters below for gesvd and syevd
  Typed t;
  // No BLAS handle: the batched LU of stacks is cuBLAS's, which ROCm's path does not load.
  int (*blas_create)(void**) = nullptr;
  int (*blas_set_stream)(void*, void*) = nullptr;
};

// hipSOLVER links against rocSOLVER, rocBLAS and (at run time) rocSPARSE, which ROCm installs
// next to it, where its run path finds them. ROCm 5 and 6 ship libhipsolver.so.0; .so.1 is
// tried first for a later major version.
const char* const kSonames[] = {"libhipsolver.so.1", "libhipsolver.so.0", nullptr};
const char* const kWheelDirs[] = {nullptr};
const char* const kInstallDirs[] = {"/opt/rocm/lib", nullptr};
const gpu::VendorLibrarySpec kSpec = {"hipSOLVER", kSonames, kWheelDirs, "hipsolver", nullptr, kInstallDirs,
                                      "hipSOLVER 2.3 or newer, from ROCm 6.3 on"};

std::atomic<const Hipsolver*> g_hipsolver{nullptr};
const Typed* g_typed = nullptr;  // g_hipsolver's, for the adapters: set before it is published
std::mutex g_load_mu;            // one loader at a time, so that g_typed and g_hipsolver agree

// The element type's index (0..3) from its hipDataType, or -1.
int index_of(int type) {
  switch (type) {
    case 0: return 0;
    case 1: return 1;
    case 4: return 2;
    case 5: return 3;
  }
  return -1;
}
size_t item_of(int index) { return size_t(4) << (index & 1) << (index >> 1); }  // 4, 8, 8, 16
size_t real_of(int index) { return size_t(4) << (index & 1); }

bool fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

// gesvd's real workspace (rwork: the unconverged superdiagonal, min(m, n) - 1 reals) goes at the
// end of the device workspace the generic interface hands over, 16-byte aligned.
size_t rwork_bytes(int index, int64_t m, int64_t n) {
  const int64_t k = m < n ? m : n;
  return (real_of(index) * size_t(k > 1 ? k : 1) + 15) / 16 * 16 + 16;
}

int gesvd_size(void* h, void*, signed char, signed char, int64_t m, int64_t n, int type_a, const void*, int64_t lda,
               int, const void*, int, const void*, int64_t ldu, int, const void*, int64_t ldvt, int, size_t* dev,
               size_t* host) {
  const int i = index_of(type_a);
  if (i < 0) return kInvalidValue;
  if (!(fits_int(m) && fits_int(n) && fits_int(lda) && fits_int(ldu) && fits_int(ldvt))) return kNotSupported;
  int lwork = 0;
  if (Status s = g_typed->gesvd_size[i](h, int(m), int(n), &lwork)) return s;
  *dev = item_of(i) * size_t(lwork > 0 ? lwork : 1) + rwork_bytes(i, m, n);
  *host = 0;
  return 0;
}

int gesvd(void* h, void*, signed char jobu, signed char jobvt, int64_t m, int64_t n, int type_a, void* a, int64_t lda,
          int, void* s, int, void* u, int64_t ldu, int, void* vt, int64_t ldvt, int, void* dev, size_t dev_bytes, void*,
          size_t, int* info) {
  const int i = index_of(type_a);
  if (i < 0) return kInvalidValue;
  if (!(fits_int(m) && fits_int(n) && fits_int(lda) && fits_int(ldu) && fits_int(ldvt))) return kNotSupported;
  const size_t rbytes = rwork_bytes(i, m, n);
  if (dev_bytes < rbytes) return kInvalidValue;
  const uintptr_t base = reinterpret_cast<uintptr_t>(dev);
  const uintptr_t rwork = (base + dev_bytes - rbytes + 15) / 16 * 16;
  const size_t lwork = (rwork - base) / item_of(i);
  return g_typed->gesvd[i](h, jobu, jobvt, int(m), int(n), a, int(lda), s, u, int(ldu), vt, int(ldvt), dev,
                           int(lwork < size_t(INT_MAX) ? lwork : size_t(INT_MAX)), reinterpret_cast<void*>(rwork), info);
}

int syevd_size(void* h, void*, int jobz, int uplo, int64_t n, int type_a, const void* a, int64_t lda, int,
               const void* w, int, size_t* dev, size_t* host) {
  const int i = index_of(type_a);
  if (i < 0) return kInvalidValue;
  if (!(fits_int(n) && fits_int(lda))) return kNotSupported;
  int lwork = 0;
  if (Status s = g_typed->syevd_size[i](h, jobz, uplo, int(n), a, int(lda), w, &lwork)) return s;
  *dev = item_of(i) * size_t(lwork > 0 ? lwork : 1);
  *host = 0;
  return 0;
}

int syevd(void* h, void*, int jobz, int uplo, int64_t n, int type_a, void* a, int64_t lda, int, void* w, int,
          void* dev, size_t dev_bytes, void*, size_t, int* info) {
  const int i = index_of(type_a);
  if (i < 0) return kInvalidValue;
  if (!(fits_int(n) && fits_int(lda))) return kNotSupported;
  const size_t lwork = dev_bytes / item_of(i);
  return g_typed->syevd[i](h, jobz, uplo, int(n), a, int(lda), w, dev,
                           int(lwork < size_t(INT_MAX) ? lwork : size_t(INT_MAX)), info);
}

template <class F>
bool resolve(void* lib, const char* name, F* out) {
  return gpu::find_required(kSpec, lib, name, out);
}

// The resolved functions; nullptr (the reason recorded by set_library_missing) when hipSOLVER
// cannot be loaded. Unlike cuSOLVER's, the loading holds a lock (the adapters' table must be in
// place before the functions are published): safe, because dlarray._rocm sets no sys.path
// provider (vendor_library.h), so the lookup never waits for the GIL.
const Hipsolver* hipsolver() {
  if (const Hipsolver* c = g_hipsolver.load(std::memory_order_acquire)) return c;
  std::lock_guard<std::mutex> lock(g_load_mu);
  if (const Hipsolver* c = g_hipsolver.load(std::memory_order_acquire)) return c;
  std::string why;
  void* lib = gpu::open_vendor_library(kSpec, &why);
  if (!lib) {
    set_library_missing(why);
    return nullptr;
  }
  auto* c = new Hipsolver{};
  const bool ok =
      resolve(lib, "hipsolverDnCreate", &c->create) && resolve(lib, "hipsolverDnSetStream", &c->set_stream) &&
      resolve(lib, "hipsolverDnCreateParams", &c->create_params) &&
      resolve(lib, "hipsolverDnXpotrf_bufferSize", &c->r.potrf_size) && resolve(lib, "hipsolverDnXpotrf", &c->r.potrf) &&
      resolve(lib, "hipsolverDnXgetrf_bufferSize", &c->r.getrf_size) && resolve(lib, "hipsolverDnXgetrf", &c->r.getrf) &&
      resolve(lib, "hipsolverDnXgetrs", &c->r.getrs) &&
      resolve(lib, "hipsolverDnXgeqrf_bufferSize", &c->r.geqrf_size) && resolve(lib, "hipsolverDnXgeqrf", &c->r.geqrf) &&
      resolve(lib, "hipsolverDnSorgqr_bufferSize", &c->r.orgqr_size[0]) &&
      resolve(lib, "hipsolverDnDorgqr_bufferSize", &c->r.orgqr_size[1]) &&
      resolve(lib, "hipsolverDnCungqr_bufferSize", &c->r.orgqr_size[2]) &&
      resolve(lib, "hipsolverDnZungqr_bufferSize", &c->r.orgqr_size[3]) &&
      resolve(lib, "hipsolverDnSorgqr", &c->r.orgqr[0]) && resolve(lib, "hipsolverDnDorgqr", &c->r.orgqr[1]) &&
      resolve(lib, "hipsolverDnCungqr", &c->r.orgqr[2]) && resolve(lib, "hipsolverDnZungqr", &c->r.orgqr[3]) &&
      resolve(lib, "hipsolverDnSgesvd_bufferSize", &c->t.gesvd_size[0]) &&
      resolve(lib, "hipsolverDnDgesvd_bufferSize", &c->t.gesvd_size[1]) &&
      resolve(lib, "hipsolverDnCgesvd_bufferSize", &c->t.gesvd_size[2]) &&
      resolve(lib, "hipsolverDnZgesvd_bufferSize", &c->t.gesvd_size[3]) &&
      resolve(lib, "hipsolverDnSgesvd", &c->t.gesvd[0]) && resolve(lib, "hipsolverDnDgesvd", &c->t.gesvd[1]) &&
      resolve(lib, "hipsolverDnCgesvd", &c->t.gesvd[2]) && resolve(lib, "hipsolverDnZgesvd", &c->t.gesvd[3]) &&
      resolve(lib, "hipsolverDnSsyevd_bufferSize", &c->t.syevd_size[0]) &&
      resolve(lib, "hipsolverDnDsyevd_bufferSize", &c->t.syevd_size[1]) &&
      resolve(lib, "hipsolverDnCheevd_bufferSize", &c->t.syevd_size[2]) &&
      resolve(lib, "hipsolverDnZheevd_bufferSize", &c->t.syevd_size[3]) &&
      resolve(lib, "hipsolverDnSsyevd", &c->t.syevd[0]) && resolve(lib, "hipsolverDnDsyevd", &c->t.syevd[1]) &&
      resolve(lib, "hipsolverDnCheevd", &c->t.syevd[2]) && resolve(lib, "hipsolverDnZheevd", &c->t.syevd[3]);
  if (!ok) {
    delete c;
    return nullptr;
  }
  c->r.gesvd_size = &gesvd_size;
  c->r.gesvd = &gesvd;
  c->r.syevd_size = &syevd_size;
  c->r.syevd = &syevd;
  // potrfBatched and gesvdjBatched (cuSOLVER's prototypes in the compatibility API), used where
  // present for stacks of small matrices; syev_batched stays nullptr (no generic batched syev in
  // the headers this file follows): eigh of such stacks takes the per-matrix loop.
  auto optional = [&](const char* name, auto* out) { return gpu::find_optional(lib, name, out); };
  gpu::resolve_shared_batched("hipsolverDn", &c->r, optional);
  // Xgeev where this hipSOLVER has it; otherwise eig and eigvals are DLA_GPU_UNSUPPORTED (see the top).
  if (!optional("hipsolverDnXgeev_bufferSize", &c->r.geev_size) || !optional("hipsolverDnXgeev", &c->r.geev))
    c->r.geev_size = nullptr, c->r.geev = nullptr;
  g_typed = &c->t;  // the adapters are reached only through c, published (release) after this
  g_hipsolver.store(c, std::memory_order_release);
  return c;
}

struct HipsolverTag;  // hipSOLVER's own handle pool (backends/gpu/handle_pool.h)

}  // namespace

int hipsolver_run(int device, const DlaGpuSolver& job, void* temp, size_t* temp_bytes, void* stream,
                  std::vector<unsigned char>* host_work) {
  return gpu::run_vendor_solver<HipsolverTag>(&hipsolver, kEnums, device, job, temp, temp_bytes, stream, host_work);
}

const char* hipsolver_status_name(int status) {
  switch (status) {
    case 1: return "HIPSOLVER_STATUS_NOT_INITIALIZED";
    case 2: return "HIPSOLVER_STATUS_ALLOC_FAILED";
    case 3: return "HIPSOLVER_STATUS_INVALID_VALUE";
    case 4: return "HIPSOLVER_STATUS_MAPPING_ERROR";
    case 5: return "HIPSOLVER_STATUS_EXECUTION_FAILED";
    case 6: return "HIPSOLVER_STATUS_INTERNAL_ERROR";
    case 7: return "HIPSOLVER_STATUS_NOT_SUPPORTED";
    case 8: return "HIPSOLVER_STATUS_ARCH_MISMATCH";
    case 9: return "HIPSOLVER_STATUS_HANDLE_IS_NULLPTR";
    case 10: return "HIPSOLVER_STATUS_INVALID_ENUM";
    case 11: return "HIPSOLVER_STATUS_UNKNOWN";
    case 12: return "HIPSOLVER_STATUS_ZERO_PIVOT";
    case 13: return "HIPSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
  }
  return nullptr;
}

}  // namespace dla::rocm
