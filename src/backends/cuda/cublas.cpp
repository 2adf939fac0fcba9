// cublas.cpp — matrix products on CUDA devices through cuBLAS, opened with dlopen on first use.
//
// The few cuBLAS functions dlarray calls are declared here from NVIDIA's published API
// (cublas_api.h of cuBLAS 12 and 13: the handle functions and the 64-bit-integer
// ?gemmStridedBatched_64, whose sizes and batch count are int64_t), so neither cuBLAS nor its
// headers are needed to build dlarray. Enumerations are passed as int, complex numbers as
// std::complex (the layout of cuComplex / cuDoubleComplex). The handles use the default math
// mode: float32 products are computed in float32, never in TF32 (unless the user sets
// NVIDIA_TF32_OVERRIDE, which is NVIDIA's switch, not ours).
#include <atomic>
#include <complex>
#include <cstdint>
#include <string>

#include <dlfcn.h>

#include "backends/cuda/cuda_libraries.h"
#include "backends/gpu/gemm_call.h"
#include "backends/gpu/handle_pool.h"
#include "backends/gpu/vendor_library.h"
#include "core/dtype.h"

namespace dla::cuda {
namespace {

using Handle = void*;  // cublasHandle_t
using Status = int;    // cublasStatus_t
constexpr int kOpN = 0, kOpT = 1;  // cublasOperation_t

template <class T>
using GemmStridedBatched = Status (*)(Handle, int transa, int transb, int64_t m, int64_t n, int64_t k, const T* alpha,
                                      const T* a, int64_t lda, long long stride_a, const T* b, int64_t ldb,
                                      long long stride_b, const T* beta, T* c, int64_t ldc, long long stride_c,
                                      int64_t batch);

struct Cublas {
  Status (*create)(Handle*);
  Status (*set_stream)(Handle, void*);
  const char* (*status_string)(Status);
  GemmStridedBatched<float> sgemm;
  GemmStridedBatched<double> dgemm;
  GemmStridedBatched<std::complex<float>> cgemm;
  GemmStridedBatched<std::complex<double>> zgemm;
};

const char* const kSonames[] = {"libcublas.so.13", "libcublas.so.12", nullptr};
// CUDA 13 wheels put every library in nvidia/cu13/lib; CUDA 12 ones had a directory each.
const char* const kWheelDirs[] = {"nvidia/cu13/lib", "nvidia/cublas/lib", nullptr};
const gpu::VendorLibrarySpec kSpec = {"cuBLAS", kSonames, kWheelDirs, "nvidia-cublas", "cuda", nullptr,
                                      "cuBLAS 12 or newer"};

std::atomic<const Cublas*> g_cublas{nullptr};

template <class F>
bool resolve(void* lib, const char* name, F* out) {
  return gpu::find_required(kSpec, lib, name, out);
}

// The resolved functions; nullptr (the reason recorded by set_library_missing) when cuBLAS cannot be loaded. No lock
// is held while loading (the sys.path lookup takes the GIL): two threads may both load, and the
// first to publish wins.
const Cublas* cublas() {
  if (const Cublas* c = g_cublas.load(std::memory_order_acquire)) return c;
  std::string why;
  void* lib = gpu::open_vendor_library(kSpec, &why);
  if (!lib) {
    set_library_missing(why);
    return nullptr;
  }
  auto* c = new Cublas{};
  c->status_string = reinterpret_cast<const char* (*)(Status)>(dlsym(lib, "cublasGetStatusString"));  // optional
  if (!(resolve(lib, "cublasCreate_v2", &c->create) && resolve(lib, "cublasSetStream_v2", &c->set_stream) &&
        resolve(lib, "cublasSgemmStridedBatched_64", &c->sgemm) &&
        resolve(lib, "cublasDgemmStridedBatched_64", &c->dgemm) &&
        resolve(lib, "cublasCgemmStridedBatched_64", &c->cgemm) &&
        resolve(lib, "cublasZgemmStridedBatched_64", &c->zgemm))) {
    delete c;
    return nullptr;
  }
  const Cublas* expected = nullptr;
  if (g_cublas.compare_exchange_strong(expected, c, std::memory_order_acq_rel)) return c;
  delete c;
  return expected;
}

struct CublasTag;  // cuBLAS's own handle pool (backends/gpu/handle_pool.h)

}  // namespace

int cublas_gemm(int device, const DlaGpuGemm& job, void* stream) {
  if (device < 0 || device >= gpu::kMaxHandleDevices) return DLA_GPU_BLAS_STATUS - 7;  // CUBLAS_STATUS_INVALID_VALUE
  const Cublas* c = cublas();
  if (!c) return DLA_GPU_LIBRARY_MISSING;
  gpu::BoundHandle b;
  Status s = gpu::HandlePool<CublasTag>::get(device, &b, [c](gpu::BoundHandle* fresh) { return c->create(&fresh->h); });
  Handle h = b.h;
  if (!s) s = c->set_stream(h, stream);
  if (!s) {
    switch (static_cast<ScalarType>(job.dtype)) {
      case ScalarType::Float32: s = gpu::gemm_strided_batched<float>(c->sgemm, h, job, kOpN, kOpT); break;
      case ScalarType::Float64: s = gpu::gemm_strided_batched<double>(c->dgemm, h, job, kOpN, kOpT); break;
      case ScalarType::Complex64: s = gpu::gemm_strided_batched<std::complex<float>>(c->cgemm, h, job, kOpN, kOpT); break;
      case ScalarType::Complex128: s = gpu::gemm_strided_batched<std::complex<double>>(c->zgemm, h, job, kOpN, kOpT); break;
      default: return DLA_GPU_UNSUPPORTED;
    }
  }
  return s ? DLA_GPU_BLAS_STATUS - s : 0;
}

const char* cublas_status_name(int status) {
  const Cublas* c = g_cublas.load(std::memory_order_acquire);
  return c && c->status_string ? c->status_string(status) : nullptr;
}

}  // namespace dla::cuda
