// hipblas.cpp — matrix products on ROCm devices through hipBLAS, opened with dlopen on first use
// (the counterpart of backends/cuda/cublas.cpp; same job, same semantics).
//
// The few hipBLAS functions dlarray calls are declared here from AMD's published API (hipblas.h
// of the hipBLAS releases of ROCm 5 and 6): hipblasCreate, hipblasSetStream, the optional
// hipblasStatusToString, and hipblas{S,D,C,Z}gemmStridedBatched, whose sizes are int and whose
// strides are hipblasStride (int64_t), or their _64 forms (int64_t sizes and batch count: the
// ILP64 level-3 API of hipBLAS 2.3, ROCm 6.3, and later) where the hipBLAS found has them. So
// neither hipBLAS nor its headers are needed to build dlarray. Enumerations are passed as int,
// complex numbers as std::complex (the layout of hipblasComplex and of hipComplex, which the
// complex functions take depending on the release: the same symbols either way). The handles
// use hipBLAS's default pointer mode (alpha and beta on the host).
#include <atomic>
#include <climits>
#include <complex>
#include <cstdint>
#include <string>

#include <dlfcn.h>

#include "backends/gpu/gemm_call.h"
#include "backends/gpu/handle_pool.h"
#include "backends/gpu/vendor_library.h"
#include "backends/rocm/rocm_libraries.h"
#include "core/dtype.h"

namespace dla::rocm {
namespace {

using Handle = void*;  // hipblasHandle_t
using Status = int;    // hipblasStatus_t
constexpr int kOpN = 111, kOpT = 112;  // hipblasOperation_t (the CBLAS values)
constexpr Status kInvalidValue = 3, kNotSupported = 7;  // HIPBLAS_STATUS_INVALID_VALUE, _NOT_SUPPORTED

template <class T>
using GemmStridedBatched64 = Status (*)(Handle, int transa, int transb, int64_t m, int64_t n, int64_t k,
                                        const T* alpha, const T* a, int64_t lda, int64_t stride_a, const T* b,
                                        int64_t ldb, int64_t stride_b, const T* beta, T* c, int64_t ldc,
                                        int64_t stride_c, int64_t batch);
template <class T>
using GemmStridedBatched = Status (*)(Handle, int transa, int transb, int m, int n, int k, const T* alpha, const T* a,
                                      int lda, int64_t stride_a, const T* b, int ldb, int64_t stride_b, const T* beta,
                                      T* c, int ldc, int64_t stride_c, int batch);

// One element type's GEMM: the _64 form when hipBLAS has it, else the 32-bit one.
template <class T>
struct Gemm {
  GemmStridedBatched64<T> wide = nullptr;
  GemmStridedBatched<T> narrow = nullptr;
};

struct Hipblas {
  Status (*create)(Handle*);
  Status (*set_stream)(Handle, void*);
  const char* (*status_string)(Status);
  Gemm<float> sgemm;
  Gemm<double> dgemm;
  Gemm<std::complex<float>> cgemm;
  Gemm<std::complex<double>> zgemm;
};

// The soname follows hipBLAS's major version (2.x, ROCm 6: .so.2; .so.3 for its successor; the
// older ones back to ROCm 5's .so.0). ROCm installs it in /opt/rocm/lib (distribution packages:
// on the library path); there is no PyPI wheel to search for.
const char* const kSonames[] = {"libhipblas.so.3", "libhipblas.so.2", "libhipblas.so.1", "libhipblas.so.0", nullptr};
const char* const kWheelDirs[] = {nullptr};
const char* const kInstallDirs[] = {"/opt/rocm/lib", nullptr};
const gpu::VendorLibrarySpec kSpec = {"hipBLAS", kSonames, kWheelDirs, "hipblas", nullptr, kInstallDirs};

std::atomic<const Hipblas*> g_hipblas{nullptr};

template <class F>
bool resolve(void* lib, const char* name, F* out) {
  return gpu::find_required(kSpec, lib, name, out);
}

template <class T>
bool resolve_gemm(void* lib, const char* name, Gemm<T>* g) {
  g->wide = reinterpret_cast<GemmStridedBatched64<T>>(dlsym(lib, (std::string(name) + "_64").c_str()));
  return g->wide || resolve(lib, name, &g->narrow);
}

// The resolved functions; nullptr (the reason recorded by set_library_missing) when hipBLAS
// cannot be loaded. No lock is held while loading: two threads may both load, and the first to
// publish wins.
const Hipblas* hipblas() {
  if (const Hipblas* c = g_hipblas.load(std::memory_order_acquire)) return c;
  std::string why;
  void* lib = gpu::open_vendor_library(kSpec, &why);
  if (!lib) {
    set_library_missing(why);
    return nullptr;
  }
  auto* c = new Hipblas{};
  c->status_string = reinterpret_cast<const char* (*)(Status)>(dlsym(lib, "hipblasStatusToString"));  // optional
  if (!(resolve(lib, "hipblasCreate", &c->create) && resolve(lib, "hipblasSetStream", &c->set_stream) &&
        resolve_gemm(lib, "hipblasSgemmStridedBatched", &c->sgemm) &&
        resolve_gemm(lib, "hipblasDgemmStridedBatched", &c->dgemm) &&
        resolve_gemm(lib, "hipblasCgemmStridedBatched", &c->cgemm) &&
        resolve_gemm(lib, "hipblasZgemmStridedBatched", &c->zgemm))) {
    delete c;
    return nullptr;
  }
  const Hipblas* expected = nullptr;
  if (g_hipblas.compare_exchange_strong(expected, c, std::memory_order_acq_rel)) return c;
  delete c;
  return expected;
}

struct HipblasTag;  // hipBLAS's own handle pool (backends/gpu/handle_pool.h)

bool fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

template <class T>
Status gemm(const Gemm<T>& g, Handle h, const DlaGpuGemm& j) {
  if (g.wide) return gpu::gemm_strided_batched<T>(g.wide, h, j, kOpN, kOpT);
  // A hipBLAS without the _64 forms: sizes past int are beyond it.
  if (!(fits_int(j.m) && fits_int(j.n) && fits_int(j.k) && fits_int(j.lda) && fits_int(j.ldb) && fits_int(j.ldc) &&
        fits_int(j.batch)))
    return kNotSupported;
  return gpu::gemm_strided_batched<T>(g.narrow, h, j, kOpN, kOpT);
}

}  // namespace

int hipblas_gemm(int device, const DlaGpuGemm& job, void* stream) {
  if (device < 0 || device >= gpu::kMaxHandleDevices) return DLA_GPU_BLAS_STATUS - kInvalidValue;
  const Hipblas* c = hipblas();
  if (!c) return DLA_GPU_LIBRARY_MISSING;
  gpu::BoundHandle b;  // hipblasCreate binds the handle to the current device
  Status s = gpu::HandlePool<HipblasTag>::get(device, &b, [c](gpu::BoundHandle* fresh) { return c->create(&fresh->h); });
  if (!s) s = c->set_stream(b.h, stream);
  if (!s) {
    switch (static_cast<ScalarType>(job.dtype)) {
      case ScalarType::Float32: s = gemm(c->sgemm, b.h, job); break;
      case ScalarType::Float64: s = gemm(c->dgemm, b.h, job); break;
      case ScalarType::Complex64: s = gemm(c->cgemm, b.h, job); break;
      case ScalarType::Complex128: s = gemm(c->zgemm, b.h, job); break;
      default: return DLA_GPU_UNSUPPORTED;
    }
  }
  return s ? DLA_GPU_BLAS_STATUS - s : 0;
}

const char* hipblas_status_name(int status) {
  const Hipblas* c = g_hipblas.load(std::memory_order_acquire);
  return c && c->status_string ? c->status_string(status) : nullptr;
}

}  // namespace dla::rocm
