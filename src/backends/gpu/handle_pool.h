// handle_pool.h — per-thread, per-device handles of a vendor library (cuBLAS, cuSOLVER, hipBLAS,
// hipSOLVER), shared by their loaders in backends/cuda and backends/rocm.
//
// A BLAS or solver handle is bound to the device current when it is made and must not be used
// by two threads at once: each thread keeps one per device, and gives them back to a pool when
// it ends, for the next thread to take. Handles are never destroyed: at process exit the
// device context may already be gone, and threads come and go.
#pragma once
#include <mutex>
#include <vector>

namespace dla::gpu {

constexpr int kMaxHandleDevices = 64;

// A library handle and, for the solvers, its parameter object, its gesvdj parameter object and
// a BLAS handle for the batched LU (each nullptr when unused or when the library lacks it).
struct BoundHandle {
  void* h = nullptr;
  void* p = nullptr;
  void* svdj = nullptr;
  void* blas = nullptr;
};

// One pool per library: `Tag` is any type of the library's own (two libraries must not share
// a pool even when their handles have the same C type).
template <class Tag>
class HandlePool {
 public:
  // The calling thread's handle for `device` (the current one, < kMaxHandleDevices): its own,
  // else one from the pool, else a fresh one from create(BoundHandle*), which returns the
  // library's status (0 when it made one).
  template <class Create>
  static int get(int device, BoundHandle* out, Create&& create) {
    BoundHandle& b = local().b[device];
    if (!b.h) {
      {
        std::lock_guard<std::mutex> lock(mu());
        std::vector<BoundHandle>& free = pool()[device];
        if (!free.empty()) {
          b = free.back();
          free.pop_back();
        }
      }
      if (!b.h) {
        BoundHandle fresh;
        if (int s = create(&fresh)) return s;
        b = fresh;
      }
    }
    *out = b;
    return 0;
  }

 private:
  struct PerThread {
    BoundHandle b[kMaxHandleDevices];
    ~PerThread() {
      std::lock_guard<std::mutex> lock(mu());
      for (int d = 0; d < kMaxHandleDevices; ++d)
        if (b[d].h) pool()[d].push_back(b[d]);
    }
  };
  // Pointers, never freed: no destructor runs at exit while other threads may still end.
  static std::mutex& mu() {
    static auto* m = new std::mutex;
    return *m;
  }
  static std::vector<BoundHandle>* pool() {
    static auto* p = new std::vector<BoundHandle>[kMaxHandleDevices];
    return p;
  }
  static PerThread& local() {
    static thread_local PerThread t;
    return t;
  }
};

}  // namespace dla::gpu
