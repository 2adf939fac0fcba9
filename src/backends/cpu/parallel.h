// parallel.h — CPU threading: a small pool and parallel_for over an index range.
//
// A std::thread pool rather than OpenMP: no libgomp/libomp in the module (PyTorch and
// NumPy's BLAS bring their own, and two OpenMP runtimes in one process fight over
// threads), no spin-waiting workers after each region (the machines are shared), and the
// pool is rebuilt lazily after fork(). Work below two grains, calls from inside a worker and
// calls that find the pool busy (another Python thread without the GIL) run inline.
#pragma once
#include <cstdint>
#include <functional>

namespace dla::cpu {

// Elements per task below which threads cost more than they save (PyTorch uses the same).
constexpr int64_t kGrainSize = 32768;

// Threads used by parallel_for (>= 1): DLARRAY_NUM_THREADS, else the CPUs this process may
// run on.
int num_threads();
void set_num_threads(int n);

// How parallel_for splits [0, n) at `nthreads` threads: `ntasks` tasks of `chunk` elements (the
// last may be shorter), ntasks <= nthreads; ntasks == 1 runs inline. Separate so that tests can
// check the split at thread counts this machine lacks.
struct ChunkPlan {
  int ntasks;
  int64_t chunk;
  int64_t n;
  // Task i's elements: [begin(i), end(i)), never empty.
  int64_t begin(int i) const { return int64_t(i) * chunk; }
  int64_t end(int i) const { return chunk < n - begin(i) ? begin(i) + chunk : n; }
};
ChunkPlan plan_chunks(int64_t n, int64_t grain, int nthreads);

// Tasks of the latest parallel_for call in the process (1: it ran inline), for tests that check
// an operation splits its work over all threads whatever the cores.
int last_parallel_tasks();

// How many times a pool worker found itself on its caller's CPU and moved off (tests).
int64_t worker_moves();

// Calls f(begin, end) on disjoint chunks covering [0, n), on up to num_threads() threads,
// chunks of at least `grain` elements; returns when all are done. f must not throw.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& f);

}  // namespace dla::cpu
