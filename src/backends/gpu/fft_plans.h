// fft_plans.h — a DlaGpuFft through cuFFT or hipFFT (backends/cuda/cufft.cpp,
// backends/rocm/hipfft.cpp): the library's loader, the plan cache and the calls, shared
// because hipFFT mirrors cuFFT's API call for call. The two differ in the plan's C type
// (cuFFT: an int; hipFFT: a pointer), which is `Plan` here; the transform types (cufftType /
// hipfftType), the directions and the status values used here are the same numbers in both
// published APIs.
//
// Plans are made with ?MakePlanMany64 (packed layouts, 64-bit sizes) with automatic work-area
// allocation off: the core passes scratch memory from its stream-ordered pool on every call,
// so one cached plan serves every thread and stream (the cache's mutex orders the set-stream /
// set-work-area / execute calls, which only queue work).
#pragma once
#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <string>

#include "backends/gpu/gpu_ops.h"
#include "backends/gpu/vendor_library.h"
#include "core/dtype.h"

namespace dla::gpu {

// The library's functions, resolved by its loader. Results are ints (cufftResult / hipfftResult).
template <class Plan>
struct FftLibrary {
  int (*create)(Plan*);
  int (*destroy)(Plan);
  int (*set_auto_allocation)(Plan, int);
  int (*make_plan_many64)(Plan, int rank, long long* n, long long* inembed, long long istride, long long idist,
                          long long* onembed, long long ostride, long long odist, int type, long long batch,
                          size_t* work_size);
  int (*set_stream)(Plan, void*);
  int (*set_work_area)(Plan, void*);
  int (*exec_c2c)(Plan, void* in, void* out, int direction);
  int (*exec_r2c)(Plan, void* in, void* out);
  int (*exec_c2r)(Plan, void* in, void* out);
  int (*exec_z2z)(Plan, void* in, void* out, int direction);
  int (*exec_d2z)(Plan, void* in, void* out);
  int (*exec_z2d)(Plan, void* in, void* out);
};

// Fills *c with the library's functions, whose names are `prefix` ("cufft", "hipfft") and
// cuFFT's suffixes (hipFFT mirrors them): resolve(name, &pointer) looks one up and reports a
// missing one itself. False when one is missing.
template <class Plan, class Resolve>
bool resolve_fft_library(const std::string& prefix, FftLibrary<Plan>* c, Resolve&& resolve) {
  auto r = [&](const char* suffix, auto* out) { return resolve((prefix + suffix).c_str(), out); };
  return r("Create", &c->create) && r("Destroy", &c->destroy) && r("SetAutoAllocation", &c->set_auto_allocation) &&
         r("MakePlanMany64", &c->make_plan_many64) && r("SetStream", &c->set_stream) &&
         r("SetWorkArea", &c->set_work_area) && r("ExecC2C", &c->exec_c2c) && r("ExecR2C", &c->exec_r2c) &&
         r("ExecC2R", &c->exec_c2r) && r("ExecZ2Z", &c->exec_z2z) && r("ExecD2Z", &c->exec_d2z) &&
         r("ExecZ2D", &c->exec_z2d);
}

// One vendor library's functions, opened and resolved on first use. get() is called under the
// plan cache's mutex (FftPlans::exec's `load`), which guards the loader; nullptr, with the reason
// recorded by set_library_missing, when the library or a function is missing; a later call tries
// again (a sys.path entry added since is then searched). Only the GPU builds instantiate get().
template <class Plan>
class FftLibraryLoader {
 public:
  FftLibraryLoader(const VendorLibrarySpec& spec, const char* prefix) : spec_(spec), prefix_(prefix) {}

  const FftLibrary<Plan>* get() {
    if (ready_) return &functions_;
    std::string why;
    void* lib = open_vendor_library(spec_, &why);
    if (!lib) {
      set_library_missing(why);
      return nullptr;
    }
    auto find = [&](const char* name, auto* out) { return find_required(spec_, lib, name, out); };
    ready_ = resolve_fft_library(prefix_, &functions_, find);
    return ready_ ? &functions_ : nullptr;
  }

 private:
  const VendorLibrarySpec& spec_;
  const char* prefix_;  // "cufft", "hipfft": the functions' names are it and cuFFT's suffixes
  FftLibrary<Plan> functions_{};
  bool ready_ = false;
};

// The transform types, and the one status this file returns itself (INVALID_VALUE).
constexpr int kFftR2C = 0x2a, kFftC2R = 0x2c, kFftC2C = 0x29, kFftD2Z = 0x6a, kFftZ2D = 0x6c, kFftZ2Z = 0x69;
constexpr int kFftInvalidValue = 0x4;

// The cached plans of one library, least recently used first out. A plan holds device memory
// for its twiddle factors; destroying one frees it, which waits for the work queued with it.
// A plan is destroyed only while its own device is current (the libraries free its memory on
// the current device): one evicted by a call on another device waits in `retired_` until a
// call on its device.
template <class Plan>
class FftPlans {
 public:
  static constexpr size_t kMaxPlans = 64;

  // The job on the current device (`device`), or with temp == nullptr its scratch size in
  // *temp_bytes. `load` returns the library's functions, or nullptr (the reason recorded with
  // set_library_missing); it is called under the cache's mutex, so it may wait for the GIL only
  // because no thread takes that mutex while holding the GIL (the core runs transforms with the
  // GIL released). The scaling by job.scale is the caller's.
  int exec(const FftLibrary<Plan>* (*load)(), int device, const DlaGpuFft& j, void* temp, size_t* temp_bytes,
           void* stream) {
    const bool single = j.dtype == static_cast<int32_t>(ScalarType::Complex64);
    if (!single && j.dtype != static_cast<int32_t>(ScalarType::Complex128)) return DLA_GPU_UNSUPPORTED;
    if (j.rank < 1 || j.rank > 3 || j.batch < 1 || type_of(j, single) < 0) return DLA_GPU_FFT_STATUS - kFftInvalidValue;
    std::lock_guard<std::mutex> lock(mu_);
    const FftLibrary<Plan>* c = load();
    if (!c) return DLA_GPU_LIBRARY_MISSING;
    destroy_retired(*c, device);
    Key key{device, type_of(j, single), j.rank, {j.n[0], j.rank > 1 ? j.n[1] : 0, j.rank > 2 ? j.n[2] : 0}, j.batch};
    Cached* p = nullptr;
    if (int r = plan_for(*c, key, &p)) return DLA_GPU_FFT_STATUS - r;
    if (!temp) {
      *temp_bytes = p->work;
      return 0;
    }
    if (*temp_bytes < p->work) return DLA_GPU_FFT_STATUS - kFftInvalidValue;
    int r = c->set_stream(p->plan, stream);
    if (!r) r = c->set_work_area(p->plan, temp);
    if (r) return DLA_GPU_FFT_STATUS - r;
    switch (j.kind) {
      case DLA_GPU_FFT_C2C: r = (single ? c->exec_c2c : c->exec_z2z)(p->plan, j.in, j.out, j.direction); break;
      case DLA_GPU_FFT_R2C: r = (single ? c->exec_r2c : c->exec_d2z)(p->plan, j.in, j.out); break;
      default: r = (single ? c->exec_c2r : c->exec_z2d)(p->plan, j.in, j.out); break;
    }
    return r ? DLA_GPU_FFT_STATUS - r : 0;
  }

 private:
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

  static int type_of(const DlaGpuFft& j, bool single) {
    switch (j.kind) {
      case DLA_GPU_FFT_C2C: return single ? kFftC2C : kFftZ2Z;
      case DLA_GPU_FFT_R2C: return single ? kFftR2C : kFftD2Z;
      case DLA_GPU_FFT_C2R: return single ? kFftC2R : kFftZ2D;
    }
    return -1;
  }

  // The cached plan for `key` (made on the current device on a miss), moved to the front.
  int plan_for(const FftLibrary<Plan>& c, const Key& key, Cached** out) {
    for (auto it = plans_->begin(); it != plans_->end(); ++it)
      if (it->key == key) {
        plans_->splice(plans_->begin(), *plans_, it);
        *out = &plans_->front();
        return 0;
      }
    Plan plan{};
    if (int r = c.create(&plan)) return r;
    size_t work = 0;
    long long n[3] = {key.n[0], key.n[1], key.n[2]};
    int r = c.set_auto_allocation(plan, 0);
    if (!r) r = c.make_plan_many64(plan, key.rank, n, nullptr, 1, 0, nullptr, 1, 0, key.type, key.batch, &work);
    if (r) {
      c.destroy(plan);
      return r;
    }
    if (plans_->size() >= kMaxPlans) {
      if (plans_->back().key.device == key.device)
        c.destroy(plans_->back().plan);
      else
        retired_->push_back(plans_->back());
      plans_->pop_back();
    }
    plans_->push_front(Cached{key, plan, work});
    *out = &plans_->front();
    return 0;
  }

  // Destroys the retired plans of `device` (the current one).
  void destroy_retired(const FftLibrary<Plan>& c, int device) {
    for (auto it = retired_->begin(); it != retired_->end();) {
      if (it->key.device != device) {
        ++it;
        continue;
      }
      c.destroy(it->plan);
      it = retired_->erase(it);
    }
  }

  std::mutex mu_;  // guards the lists, and orders the calls on a shared plan
  std::list<Cached>* plans_ = new std::list<Cached>();  // most recently used first; never destroyed at exit
  std::list<Cached>* retired_ = new std::list<Cached>();  // evicted, waiting for their device
};

}  // namespace dla::gpu
