// cufft.cpp — Fourier transforms on CUDA devices through cuFFT, opened with dlopen on first use.
//
// The cuFFT functions used are declared here from NVIDIA's published API (cufft.h of cuFFT 11
// and 12: plans are ints, cufftResult and cufftType ints, data pointers plain), so cuFFT is not
// needed to build dlarray. The plan cache and the calls are backends/gpu/fft_plans.h's, shared
// with hipFFT (backends/rocm/hipfft.cpp).
#include <string>

#include <dlfcn.h>

#include "backends/cuda/cuda_libraries.h"
#include "backends/gpu/fft_plans.h"
#include "backends/gpu/vendor_library.h"

namespace dla::cuda {
namespace {

using Plan = int;  // cufftHandle

// CUDA 13 wheels: cuFFT 12 in nvidia/cu13/lib; CUDA 12 wheels: cuFFT 11 in nvidia/cufft/lib.
const char* const kSonames[] = {"libcufft.so.12", "libcufft.so.11", nullptr};
const char* const kWheelDirs[] = {"nvidia/cu13/lib", "nvidia/cufft/lib", nullptr};
const gpu::VendorLibrarySpec kSpec = {"cuFFT", kSonames, kWheelDirs, "nvidia-cufft", "cuda"};

template <class F>
bool resolve(void* lib, const char* name, F* out) {
  return gpu::find_required(kSpec, lib, name, out);
}

const gpu::FftLibrary<Plan>* g_cufft = nullptr;  // guarded by the plan cache's mutex

// cuFFT's functions, loaded on first use (under the plan cache's mutex: see fft_plans.h).
const gpu::FftLibrary<Plan>* cufft() {
  if (g_cufft) return g_cufft;
  std::string why;
  void* lib = gpu::open_vendor_library(kSpec, &why);
  if (!lib) {
    set_library_missing(why);
    return nullptr;
  }
  static gpu::FftLibrary<Plan> c;
  if (!gpu::resolve_fft_library("cufft", &c, [lib](const char* name, auto* out) { return resolve(lib, name, out); }))
    return nullptr;
  g_cufft = &c;
  return g_cufft;
}

gpu::FftPlans<Plan>* g_plans = new gpu::FftPlans<Plan>();  // never destroyed at exit

}  // namespace

int cufft_exec(int device, const DlaGpuFft& j, void* temp, size_t* temp_bytes, void* stream) {
  return g_plans->exec(&cufft, device, j, temp, temp_bytes, stream);
}

}  // namespace dla::cuda
