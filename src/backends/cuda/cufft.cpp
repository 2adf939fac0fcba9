// cufft.cpp — Fourier transforms on CUDA devices through cuFFT, opened with dlopen on first use.
//
// The cuFFT functions used are declared here from NVIDIA's published API (cufft.h of cuFFT 11
// and 12: plans are ints, cufftResult and cufftType ints, data pointers plain), so cuFFT is not
// needed to build dlarray. Plans are made with cufftMakePlanMany64 (packed layouts, 64-bit
// sizes) with automatic work-area allocation off: the core passes scratch memory from its
// stream-ordered pool on every call, so one cached plan serves every thread and stream (a
// mutex orders the set-stream / set-work-area / execute calls, which only queue work).
#include <cstdint>
#include <list>
#include <mutex>
#include <string>

#include <dlfcn.h>

#include "backends/cuda/cuda_libraries.h"
#include "backends/gpu/vendor_library.h"
#include "core/dtype.h"

namespace dla::cuda {
namespace {

using Plan = int;    // cufftHandle
using Result = int;  // cufftResult
constexpr int kR2C = 0x2a, kC2R = 0x2c, kC2C = 0x29, kD2Z = 0x6a, kZ2D = 0x6c, kZ2Z = 0x69;  // cufftType
constexpr Result kInvalidValue = 0x4;
// Plans kept (least recently used first out). A plan holds device memory for its twiddle
// factors; destroying one frees it, which waits for the work queued with it.
constexpr size_t kMaxPlans = 64;

struct Cufft {
  Result (*create)(Plan*);
  Result (*destroy)(Plan);
  Result (*set_auto_allocation)(Plan, int);
  Result (*make_plan_many64)(Plan, int rank, long long* n, long long* inembed, long long istride, long long idist,
                             long long* onembed, long long ostride, long long odist, int type, long long batch,
                             size_t* work_size);
  Result (*set_stream)(Plan, void*);
  Result (*set_work_area)(Plan, void*);
  Result (*exec_c2c)(Plan, void* in, void* out, int direction);
  Result (*exec_r2c)(Plan, void* in, void* out);
  Result (*exec_c2r)(Plan, void* in, void* out);
  Result (*exec_z2z)(Plan, void* in, void* out, int direction);
  Result (*exec_d2z)(Plan, void* in, void* out);
  Result (*exec_z2d)(Plan, void* in, void* out);
};

// CUDA 13 wheels: cuFFT 12 in nvidia/cu13/lib; CUDA 12 wheels: cuFFT 11 in nvidia/cufft/lib.
const char* const kSonames[] = {"libcufft.so.12", "libcufft.so.11", nullptr};
const char* const kWheelDirs[] = {"nvidia/cu13/lib", "nvidia/cufft/lib", nullptr};
const gpu::VendorLibrarySpec kSpec = {"cuFFT", kSonames, kWheelDirs, "nvidia-cufft", "cuda"};

template <class F>
bool resolve(void* lib, const char* name, F* out) {
  *out = reinterpret_cast<F>(dlsym(lib, name));
  if (*out) return true;
  set_library_missing(std::string("the cuFFT found lacks ") + name +
                      ": install a current one with `pip install dlarray[cuda]` (or `pip install nvidia-cufft`)");
  return false;
}

struct Key {
  int device, type, rank;
  long long n[3], batch;
  bool operator==(const Key& o) const {
    return device == o.device && type == o.type && rank == o.rank && batch == o.batch && n[0] == o.n[0] &&
           n[1] == o.n[1] && n[2] == o.n[2];
  }
};
struct Cached {
  Key key;
  Plan plan;
  size_t work;
};

std::mutex g_mu;  // guards everything below, and orders the calls on a shared plan
const Cufft* g_cufft = nullptr;
std::list<Cached>* g_plans = new std::list<Cached>();  // most recently used first; never destroyed at exit

// cuFFT's functions, loaded under g_mu on first use. Unlike cuBLAS's loading, a thread here may
// wait for the GIL (sys.path) while holding g_mu: safe, because no thread takes g_mu while
// holding the GIL (the core runs transforms with the GIL released; see py_fft binding).
const Cufft* cufft() {
  if (g_cufft) return g_cufft;
  std::string why;
  void* lib = gpu::open_vendor_library(kSpec, &why);
  if (!lib) {
    set_library_missing(why);
    return nullptr;
  }
  static Cufft c;
  if (!(resolve(lib, "cufftCreate", &c.create) && resolve(lib, "cufftDestroy", &c.destroy) &&
        resolve(lib, "cufftSetAutoAllocation", &c.set_auto_allocation) &&
        resolve(lib, "cufftMakePlanMany64", &c.make_plan_many64) && resolve(lib, "cufftSetStream", &c.set_stream) &&
        resolve(lib, "cufftSetWorkArea", &c.set_work_area) && resolve(lib, "cufftExecC2C", &c.exec_c2c) &&
        resolve(lib, "cufftExecR2C", &c.exec_r2c) && resolve(lib, "cufftExecC2R", &c.exec_c2r) &&
        resolve(lib, "cufftExecZ2Z", &c.exec_z2z) && resolve(lib, "cufftExecD2Z", &c.exec_d2z) &&
        resolve(lib, "cufftExecZ2D", &c.exec_z2d)))
    return nullptr;
  g_cufft = &c;
  return g_cufft;
}

int type_of(const DlaGpuFft& j, bool single) {
  switch (j.kind) {
    case DLA_GPU_FFT_C2C: return single ? kC2C : kZ2Z;
    case DLA_GPU_FFT_R2C: return single ? kR2C : kD2Z;
    case DLA_GPU_FFT_C2R: return single ? kC2R : kZ2D;
  }
  return -1;
}

// The cached plan for `key` (made on the current device on a miss), moved to the front.
Result plan_for(const Cufft& c, const Key& key, Cached** out) {
  for (auto it = g_plans->begin(); it != g_plans->end(); ++it)
    if (it->key == key) {
      g_plans->splice(g_plans->begin(), *g_plans, it);
      *out = &g_plans->front();
      return 0;
    }
  Plan plan = 0;
  if (Result r = c.create(&plan)) return r;
  size_t work = 0;
  long long n[3] = {key.n[0], key.n[1], key.n[2]};
  Result r = c.set_auto_allocation(plan, 0);
  if (!r) r = c.make_plan_many64(plan, key.rank, n, nullptr, 1, 0, nullptr, 1, 0, key.type, key.batch, &work);
  if (r) {
    c.destroy(plan);
    return r;
  }
  if (g_plans->size() >= kMaxPlans) {
    c.destroy(g_plans->back().plan);
    g_plans->pop_back();
  }
  g_plans->push_front(Cached{key, plan, work});
  *out = &g_plans->front();
  return 0;
}

}  // namespace

int cufft_exec(int device, const DlaGpuFft& j, void* temp, size_t* temp_bytes, void* stream) {
  const bool single = j.dtype == static_cast<int32_t>(ScalarType::Complex64);
  if (!single && j.dtype != static_cast<int32_t>(ScalarType::Complex128)) return DLA_GPU_UNSUPPORTED;
  if (j.rank < 1 || j.rank > 3 || j.batch < 1 || type_of(j, single) < 0) return DLA_GPU_FFT_STATUS - kInvalidValue;
  std::lock_guard<std::mutex> lock(g_mu);
  const Cufft* c = cufft();
  if (!c) return DLA_GPU_LIBRARY_MISSING;
  Key key{device, type_of(j, single), j.rank, {j.n[0], j.rank > 1 ? j.n[1] : 0, j.rank > 2 ? j.n[2] : 0}, j.batch};
  Cached* p = nullptr;
  if (Result r = plan_for(*c, key, &p)) return DLA_GPU_FFT_STATUS - r;
  if (!temp) {
    *temp_bytes = p->work;
    return 0;
  }
  if (*temp_bytes < p->work) return DLA_GPU_FFT_STATUS - kInvalidValue;
  Result r = c->set_stream(p->plan, stream);
  if (!r) r = c->set_work_area(p->plan, temp);
  if (r) return DLA_GPU_FFT_STATUS - r;
  switch (j.kind) {
    case DLA_GPU_FFT_C2C: r = (single ? c->exec_c2c : c->exec_z2z)(p->plan, j.in, j.out, j.direction); break;
    case DLA_GPU_FFT_R2C: r = (single ? c->exec_r2c : c->exec_d2z)(p->plan, j.in, j.out); break;
    default: r = (single ? c->exec_c2r : c->exec_z2d)(p->plan, j.in, j.out); break;
  }
  return r ? DLA_GPU_FFT_STATUS - r : 0;
}

}  // namespace dla::cuda
