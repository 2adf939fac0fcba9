// hipfft.cpp — Fourier transforms on ROCm devices through hipFFT, opened with dlopen on first use
// (the counterpart of backends/cuda/cufft.cpp; same transforms, same plan cache).
//
// The hipFFT functions used are declared here from AMD's published API (hipfft.h of ROCm 5 and
// 6's hipFFT, 1.0.x: plans are pointers (struct hipfftHandle_t*), hipfftResult and hipfftType ints
// with cuFFT's values, data pointers plain), so hipFFT is not needed to build dlarray. The plan
// cache and the calls are backends/gpu/fft_plans.h's, shared with cuFFT: hipfftMakePlanMany64
// with automatic work-area allocation off (hipfftSetAutoAllocation) and the core's scratch as
// work area (hipfftSetWorkArea), hipfftSetStream before each execution.
#include "backends/gpu/fft_plans.h"
#include "backends/gpu/vendor_library.h"
#include "backends/rocm/rocm_libraries.h"

namespace dla::rocm {
namespace {

using Plan = void*;  // hipfftHandle

// ROCm 5 and 6 ship libhipfft.so.0; .so.1 is tried first for a later major version. ROCm
// installs it in /opt/rocm/lib (distribution packages: on the library path); no PyPI wheel.
const char* const kSonames[] = {"libhipfft.so.1", "libhipfft.so.0", nullptr};
const char* const kWheelDirs[] = {nullptr};
const char* const kInstallDirs[] = {"/opt/rocm/lib", nullptr};
const gpu::VendorLibrarySpec kSpec = {"hipFFT", kSonames, kWheelDirs, "hipfft", nullptr, kInstallDirs};

gpu::FftLibraryLoader<Plan> g_hipfft(kSpec, "hipfft");  // hipFFT's functions, loaded on first use
gpu::FftPlans<Plan>* g_plans = new gpu::FftPlans<Plan>();  // never destroyed at exit

}  // namespace

int hipfft_exec(int device, const DlaGpuFft& j, void* temp, size_t* temp_bytes, void* stream) {
  return g_plans->exec([] { return g_hipfft.get(); }, device, j, temp, temp_bytes, stream);
}

}  // namespace dla::rocm
