// cusolver.cpp — the LAPACK forms of the linalg extension on CUDA devices through cuSOLVER,
// opened with dlopen on first use (the DlaGpuSolver entry of gpu_ops.h).
//
// The cuSOLVER functions used are declared from NVIDIA's published API (cusolverDn.h of
// cuSOLVER 11 and 12): the 64-bit generic ("X") routines potrf, getrf, getrs, geqrf, gesvd, syevd
// and geev, whose sizes are int64_t and whose element type is a cudaDataType argument, plus the
// legacy ?orgqr / ?ungqr, which has no generic form, and where present the batched forms
// ?potrfBatched, XsyevBatched and ?gesvdjBatched for stacks of small matrices (with cuBLAS's
// ?getrfBatched / ?getrsBatched for their LU forms); their prototypes are
// backends/gpu/dense_solver.h's DenseSolverLibrary (enumerations passed as int), so neither
// cuSOLVER nor its headers are needed to build dlarray. This file loads them and names
// cuSOLVER's enumerations; what the ops do with them is backends/gpu/dense_solver.cpp's, shared
// with hipSOLVER (backends/rocm/hipsolver.cpp).
#include <dlfcn.h>

#include <atomic>
#include <string>
#include <vector>

#include "backends/cuda/cuda_libraries.h"
#include "backends/gpu/dense_solver.h"
#include "backends/gpu/handle_pool.h"
#include "backends/gpu/vendor_library.h"

namespace dla::cuda {
namespace {

using Handle = void*;  // cusolverDnHandle_t
using Params = void*;  // cusolverDnParams_t
using Status = int;    // cusolverStatus_t

// cuSOLVER's values (cusolver_common.h, library_types.h, cublas_api.h).
const gpu::DenseSolverEnums kEnums = {
    /*r32f*/ 0, /*r64f*/ 1, /*c32f*/ 4, /*c64f*/ 5,     // cudaDataType
    /*lower*/ 0, /*upper*/ 1, /*op_n*/ 0, /*op_t*/ 1,   // cublasFillMode_t, cublasOperation_t
    /*no_vector*/ 0, /*vector*/ 1,                      // cusolverEigMode_t
    /*invalid_value*/ 3, /*not_supported*/ 9, /*alloc_failed*/ 2, /*execution_failed*/ 6};

struct Cusolver {
  Status (*create)(Handle*);
  Status (*set_stream)(Handle, void*);
  Status (*create_params)(Params*);
  gpu::DenseSolverLibrary r;  // the routines
  // cuBLAS's handle functions, for the batched LU's handle (nullptr without cuBLAS's batched LU).
  int (*blas_create)(void**);
  int (*blas_set_stream)(void*, void*);
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
const gpu::VendorLibrarySpec kSpec = {"cuSOLVER", kSonames, kWheelDirs, "nvidia-cusolver", "cuda", nullptr,
                                      "cuSOLVER 11.6 or newer, from CUDA 12.6 on"};

std::atomic<const Cusolver*> g_cusolver{nullptr};

template <class F>
bool resolve(void* lib, const char* name, F* out) {
  return gpu::find_required(kSpec, lib, name, out);
}

// The resolved functions; nullptr (the reason recorded by set_library_missing) when cuSOLVER
// cannot be loaded. As for cuBLAS, no lock is held while loading: the first to publish wins.
const Cusolver* cusolver() {
  if (const Cusolver* c = g_cusolver.load(std::memory_order_acquire)) return c;
  std::string ignored;
  void* cublas = nullptr;
  for (const gpu::VendorLibrarySpec& dep : kDependencies) {
    void* opened = gpu::open_vendor_library(dep, &ignored);
    if (&dep == &kDependencies[0]) cublas = opened;
  }
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
      resolve(lib, "cusolverDnXpotrf_bufferSize", &c->r.potrf_size) && resolve(lib, "cusolverDnXpotrf", &c->r.potrf) &&
      resolve(lib, "cusolverDnXgetrf_bufferSize", &c->r.getrf_size) && resolve(lib, "cusolverDnXgetrf", &c->r.getrf) &&
      resolve(lib, "cusolverDnXgetrs", &c->r.getrs) && resolve(lib, "cusolverDnXgeqrf_bufferSize", &c->r.geqrf_size) &&
      resolve(lib, "cusolverDnXgeqrf", &c->r.geqrf) &&
      resolve(lib, "cusolverDnSorgqr_bufferSize", &c->r.orgqr_size[0]) &&
      resolve(lib, "cusolverDnDorgqr_bufferSize", &c->r.orgqr_size[1]) &&
      resolve(lib, "cusolverDnCungqr_bufferSize", &c->r.orgqr_size[2]) &&
      resolve(lib, "cusolverDnZungqr_bufferSize", &c->r.orgqr_size[3]) &&
      resolve(lib, "cusolverDnSorgqr", &c->r.orgqr[0]) && resolve(lib, "cusolverDnDorgqr", &c->r.orgqr[1]) &&
      resolve(lib, "cusolverDnCungqr", &c->r.orgqr[2]) && resolve(lib, "cusolverDnZungqr", &c->r.orgqr[3]) &&
      resolve(lib, "cusolverDnXgesvd_bufferSize", &c->r.gesvd_size) && resolve(lib, "cusolverDnXgesvd", &c->r.gesvd) &&
      resolve(lib, "cusolverDnXsyevd_bufferSize", &c->r.syevd_size) && resolve(lib, "cusolverDnXsyevd", &c->r.syevd) &&
      resolve(lib, "cusolverDnXgeev_bufferSize", &c->r.geev_size) && resolve(lib, "cusolverDnXgeev", &c->r.geev);
  if (!ok) {
    delete c;
    return nullptr;
  }
  // The batched forms for stacks of small matrices, used where present (XsyevBatched came with
  // cuSOLVER 11.7, CUDA 12.6 Update 2): without them such stacks take the per-matrix loop.
  using gpu::find_optional;
  gpu::resolve_shared_batched("cusolverDn", &c->r,
                              [&](const char* name, auto* out) { return find_optional(lib, name, out); });
  if (find_optional(lib, "cusolverDnXsyevBatched_bufferSize", &c->r.syev_batched_size))
    find_optional(lib, "cusolverDnXsyevBatched", &c->r.syev_batched);
  if (!c->r.syev_batched) c->r.syev_batched_size = nullptr;
  // cuBLAS's batched LU (cuSOLVER has none), for solve, inv, det and slogdet of such stacks.
  const char* const lu[4][2] = {{"cublasSgetrfBatched", "cublasSgetrsBatched"},
                                {"cublasDgetrfBatched", "cublasDgetrsBatched"},
                                {"cublasCgetrfBatched", "cublasCgetrsBatched"},
                                {"cublasZgetrfBatched", "cublasZgetrsBatched"}};
  if (cublas && find_optional(cublas, "cublasCreate_v2", &c->blas_create) &&
      find_optional(cublas, "cublasSetStream_v2", &c->blas_set_stream))
    for (int k = 0; k < 4; ++k)
      if (!find_optional(cublas, lu[k][0], &c->r.getrf_batched[k]) ||
          !find_optional(cublas, lu[k][1], &c->r.getrs_batched[k]))
        c->r.getrf_batched[k] = nullptr;
  const Cusolver* expected = nullptr;
  if (g_cusolver.compare_exchange_strong(expected, c, std::memory_order_acq_rel)) return c;
  delete c;
  return expected;
}

struct CusolverTag;  // cuSOLVER's own handle pool (backends/gpu/handle_pool.h)

}  // namespace

int cusolver_run(int device, const DlaGpuSolver& job, void* temp, size_t* temp_bytes, void* stream,
                 std::vector<unsigned char>* host_work) {
  return gpu::run_vendor_solver<CusolverTag>(&cusolver, kEnums, device, job, temp, temp_bytes, stream, host_work);
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
