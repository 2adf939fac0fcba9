// parallel.cpp — the CPU thread pool behind parallel_for (see parallel.h for why a pool).
#include "backends/cpu/parallel.h"

#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace dla::cpu {
namespace {

thread_local bool t_in_worker = false;
std::atomic<int64_t> g_worker_moves{0};

class Pool {
 public:
  explicit Pool(int nthreads, int cpus) : oversubscribed_(nthreads > cpus) {
    for (int i = 1; i < nthreads; ++i) workers_.emplace_back([this] { worker(); });
  }
  // Never destroyed: joining threads during interpreter exit or in a forked child is unsafe.
  int size() const { return int(workers_.size()) + 1; }

  // Runs task(i) for i in [0, ntasks); the caller takes part. Returns false (nothing run)
  // when another thread is using the pool.
  bool run(int ntasks, const std::function<void(int)>& task) {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    Job job;
    job.task = &task;
    job.ntasks = ntasks;
    job.remaining.store(ntasks, std::memory_order_relaxed);
    caller_cpu_.store(sched_getcpu(), std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lk(m_);
      job_ = &job;
      generation_.fetch_add(1, std::memory_order_release);
    }
    cv_work_.notify_all();
    drain(job);
    // The job lives on this stack: return only when no worker can still reach it. The last
    // task usually ends within microseconds of ours, so look for that first (spin_until, on
    // the atomics alone: spinning on the mutex made a finishing worker wait for it, asleep in
    // the kernel, and two threads took twice one thread's 11 us for a sum of 10^5 float64;
    // yielding between checks, so that a worker sharing this CPU runs its task meanwhile)
    // before sleeping on the condition variable. The last check is under the mutex, which a
    // worker holds to take a reference: none can take one after it.
    auto finished = [&] {
      return job.remaining.load(std::memory_order_acquire) == 0 && job.refs.load(std::memory_order_acquire) == 0;
    };
    spin_until(finished, kCallerSpin, true);
    std::unique_lock<std::mutex> lk(m_);
    cv_done_.wait(lk, finished);
    job_ = nullptr;
    return true;
  }

 private:
  struct Job {
    const std::function<void(int)>* task = nullptr;
    int ntasks = 0;
    std::atomic<int> next{0};
    std::atomic<int> remaining{0};  // tasks not finished
    std::atomic<int> refs{0};       // workers holding a pointer to this job (taken under m_)
  };

  void drain(Job& job) {
    int done = 0;
    for (;;) {
      const int i = job.next.fetch_add(1, std::memory_order_relaxed);
      if (i >= job.ntasks) break;
      (*job.task)(i);
      ++done;
    }
    if (done && job.remaining.fetch_sub(done, std::memory_order_acq_rel) == done) notify_done();
  }
  // After the change the caller waits for: taking the mutex orders it after a sleeper's last
  // check (no lost wake-up); with no sleeper the notification is no system call.
  void notify_done() {
    std::lock_guard<std::mutex> lk(m_);
    cv_done_.notify_all();
  }
  // Spins up to `microseconds` for done() (true when it became true). A thread woken from a
  // condition variable starts tens to hundreds of microseconds later on a virtual machine (the
  // idle vCPU is descheduled), which doubled the time of a parallel 10^6-element sum. The
  // caller waits kCallerSpin for the last task, which is running. A worker waits kWorkerSpin for
  // the next job, yielding the CPU between checks so that spinning never takes it from a thread
  // that has work (several processes on the cores, as pytest -n 2 runs): with 0.1 ms there, a
  // max of 10^6 float64 on two threads took 72 us back to back but 158 and 192 us with 0.2 and
  // 0.5 ms of other work between the calls; with 5 ms, 74-88 us. OpenMP runtimes spin the same
  // way before they sleep (PyTorch's threads about 9 ms on the 2-core VM).
  static constexpr int64_t kCallerSpin = 100, kWorkerSpin = 5000;  // microseconds
  template <class Done>
  static bool spin_until(const Done& done, int64_t microseconds, bool yield) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(microseconds);
    for (int i = 0;; ++i) {
      if (done()) return true;
      cpu_relax();
      if ((i & 63) == 63) {
        if (std::chrono::steady_clock::now() > until) return false;
        if (yield) sched_yield();
      }
    }
  }

  static void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }

  // A worker woken from its sleep (or started while another pool's worker spun) is sometimes
  // placed on the CPU of the thread that posted the job: the two then take turns on one CPU
  // while the other idles, until the load balancer parts them milliseconds later (on the
  // 2-vCPU VM after any pause over kWorkerSpin: a two-thread sum of 10^6 float32 took 50-80 us
  // instead of 27). Excluding that CPU from the worker's affinity for a moment moves it at
  // once; the mask is then restored, so nothing stays pinned and the scheduler stays free.
  void leave_callers_cpu() {
    const int cpu = caller_cpu_.load(std::memory_order_relaxed);
    if (!oversubscribed_ && sched_getcpu() == cpu) move_off_cpu(cpu);
  }
  static void move_off_cpu(int cpu) {
    cpu_set_t allowed;
    if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
    if (!CPU_ISSET(cpu, &allowed) || CPU_COUNT(&allowed) < 2) return;
    cpu_set_t elsewhere = allowed;
    CPU_CLR(cpu, &elsewhere);
    if (sched_setaffinity(0, sizeof elsewhere, &elsewhere) != 0) return;
    sched_setaffinity(0, sizeof allowed, &allowed);
    g_worker_moves.fetch_add(1, std::memory_order_relaxed);
  }

  void worker() {
    t_in_worker = true;
    uint64_t seen = 0;
    for (;;) {
      Job* job;
      // Work queued back to back (a loop of array operations) finds the worker awake.
      const bool awake =
          spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; }, kWorkerSpin, true);
      if (awake) leave_callers_cpu();  // spinning on it, as a thread started there (the job may be done)
      {
        std::unique_lock<std::mutex> lk(m_);
        cv_work_.wait(lk, [&] { return generation_.load(std::memory_order_relaxed) != seen && job_ != nullptr; });
        seen = generation_.load(std::memory_order_relaxed);
        job = job_;
        job->refs.fetch_add(1, std::memory_order_relaxed);
      }
      if (!awake) leave_callers_cpu();  // woken from the condition variable: placed anywhere
      drain(*job);
      // The job may be gone once refs is 0: nothing of it is touched after.
      if (job->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) notify_done();
    }
  }

  const bool oversubscribed_;  // more threads than CPUs: sharing a CPU is expected, not moved
  std::atomic<int> caller_cpu_{-1};  // where the latest job's caller ran when it posted it
  std::vector<std::thread> workers_;
  std::mutex busy_;
  std::mutex m_;
  std::condition_variable cv_work_, cv_done_;
  Job* job_ = nullptr;
  std::atomic<uint64_t> generation_{0};  // written under m_; read without it while spinning
};

std::atomic<int> g_requested{0};
std::atomic<Pool*> g_pool{nullptr};
std::mutex g_pool_init;

// The CPUs this process may run on.
int allowed_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n >= 1) return n;
  }
  unsigned hc = std::thread::hardware_concurrency();
  return hc ? int(hc) : 1;
}

int default_threads() {
  if (const char* env = std::getenv("DLARRAY_NUM_THREADS")) {
    int n = std::atoi(env);
    if (n >= 1) return n;
  }
  return allowed_cpus();
}

// The child of a fork has none of the parent's workers: forget the pool (leaked on purpose,
// its mutexes may be held) and build a new one on first use.
void after_fork_in_child() { g_pool.store(nullptr); }

Pool* pool() {
  Pool* p = g_pool.load(std::memory_order_acquire);
  if (p) return p;
  std::lock_guard<std::mutex> lk(g_pool_init);
  p = g_pool.load();
  if (!p) {
    static bool atfork = (pthread_atfork(nullptr, nullptr, after_fork_in_child), true);
    (void)atfork;
    p = new Pool(num_threads(), allowed_cpus());
    g_pool.store(p, std::memory_order_release);
  }
  return p;
}

}  // namespace

int num_threads() {
  int n = g_requested.load();
  if (n < 1) {
    n = default_threads();
    g_requested.store(n);
  }
  return n;
}

void set_num_threads(int n) {
  std::lock_guard<std::mutex> lk(g_pool_init);
  g_requested.store(n < 1 ? 1 : n);
  g_pool.store(nullptr);  // the old pool idles (never destroyed, see Pool)
}

namespace {
std::atomic<int> g_last_tasks{1};
}

int last_parallel_tasks() { return g_last_tasks.load(std::memory_order_relaxed); }

int64_t worker_moves() { return g_worker_moves.load(std::memory_order_relaxed); }

ChunkPlan plan_chunks(int64_t n, int64_t grain, int nthreads) {
  if (n <= 0) return {0, 0, 0};
  if (grain < 1) grain = 1;
  const int64_t max_tasks = n / grain;
  if (max_tasks < 2 || nthreads < 2) return {1, n, n};
  const int ntasks = int(max_tasks < nthreads ? max_tasks : nthreads);
  // Chunk boundaries on multiples of 64 elements keep threads off each other's cache lines,
  // where that still leaves the last task some work. A range of a few coarse items (a
  // reduction's per-thread chunks, a + b.T's row blocks) was rounded into one task: 2 chunks
  // became [0, 64) and [64, 128), so those ran on one thread whatever the thread count.
  // Divisions rather than products and sums, which could overflow for n near 2^63.
  int64_t chunk = n / ntasks + (n % ntasks != 0);
  const int64_t rounded = chunk / 64 * 64 + (chunk % 64 != 0 ? 64 : 0);
  if (rounded <= (n - 1) / (ntasks - 1)) chunk = rounded;  // rounded * (ntasks - 1) < n
  // Whole chunks may cover n in fewer tasks (65 elements on 16 threads: 13 chunks of 5).
  return {int(n / chunk + (n % chunk != 0)), chunk, n};
}

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& f) {
  if (n <= 0) return;
  const ChunkPlan plan = plan_chunks(n, grain, t_in_worker ? 1 : num_threads());
  g_last_tasks.store(plan.ntasks, std::memory_order_relaxed);
  if (plan.ntasks < 2) {
    f(0, n);
    return;
  }
  const std::function<void(int)> task = [&](int i) { f(plan.begin(i), plan.end(i)); };
  if (!pool()->run(plan.ntasks, task)) f(0, n);
}

}  // namespace dla::cpu
