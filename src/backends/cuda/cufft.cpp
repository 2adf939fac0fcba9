// cufft.cpp — Fourier transforms on CUDA devices through cuFFT, opened with dlopen on first use.
//
// The cuFFT functions used are declared here from NVIDIA's published API (cufft.h of cuFFT 11
// and 12: plans are ints, cufftResult and cufftType ints, data pointers plain), so cuFFT is not
// needed to build dlarray. The plan cache and the calls are backends/gpu/fft_plans.h's, shared
// with hipFFT (backends/rocm/hipfft.cpp).
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

gpu::FftLibraryLoader<Plan> g_cufft(kSpec, "cufft");  // cuFFT's functions, loaded on first use
gpu::FftPlans<Plan>* g_plans = new gpu::FftPlans<Plan>();  // never destroyed at exit

}  // namespace

int cufft_exec(int device, const DlaGpuFft& j, void* temp, size_t* temp_bytes, void* stream) {
  return g_plans->exec([] { return g_cufft.get(); }, device, j, temp, temp_bytes, stream);
}

}  // namespace dla::cuda
