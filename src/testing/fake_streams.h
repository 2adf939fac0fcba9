// fake_streams.h — the fake GPU's streams and events, asynchronous as a real device's.
//
// Each stream is a queue run in order by its own worker thread: work is enqueued and the call
// returns at once; an event completes when its stream reaches the point where it was recorded;
// a stream waiting for an event holds its later work back until then; synchronize really
// waits. So what goes wrong only because a GPU runs behind the host (a host read before the
// copy that fills the memory ran, a block reused or freed while another stream still uses it)
// goes wrong here too. Three modes:
//   eager       the workers run work as soon as they can (optionally after a random delay
//               per item, seeded: set_delays), the default;
//   lazy        work runs only when the host waits for it (synchronize, a query, an event
//               wait that needs it): the most the host can get ahead, deterministically;
//   synchronous work runs inside the call that enqueues it (the old fake; for tests that
//               need a fixed interleaving).
// Work that fails when it runs (a use after free, a copy between pools without access) cannot
// return an error to the call that queued it; it is recorded as a fault, and the next
// synchronize or query reports it, as a real runtime reports a kernel's illegal address.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "testing/fake_device_memory.h"

namespace dla::fake {

enum class Mode { Eager, Lazy, Synchronous };

class Queue;

struct Work {
  std::function<void()> run;     // records its own failures with record_fault
  std::vector<uint64_t> blocks;  // the device blocks it touches, which must be live when it runs
  std::string what;              // for fault messages
  // Positions other queues must have run first: the implicit ordering between the legacy
  // default stream and the blocking streams of its device.
  std::vector<std::pair<std::shared_ptr<Queue>, uint64_t>> after;
};

class Queue {
 public:
  // A blocking stream (created without the non-blocking flag) is ordered with its device's
  // default stream both ways, as CUDA's and HIP's legacy default stream is.
  Queue(int device, bool blocking, uint64_t serial);
  int device() const { return device_; }
  bool blocking() const { return blocking_; }
  // Enqueues; returns the work's position (1, 2, ...).
  uint64_t submit(Work w);
  // Blocks until the queue has run everything up to position `pos` (making it run in lazy mode).
  void wait_for(uint64_t pos);
  // Whether position `pos` has run; in lazy mode it is demanded, so that asking again finishes.
  bool reached(uint64_t pos);
  uint64_t submitted();
  // Lets the worker finish what is queued and stop (a destroyed stream's work still runs).
  void close();
  // Frees queued on this stream and not yet reached (the pool's stream-ordered reuse).
  std::vector<std::shared_ptr<PendingFree>> pending_frees;  // guarded by the arena's mutex

 private:
  void loop();
  void execute(Work& w);
  const int device_;
  const bool blocking_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Work> work_;
  uint64_t submitted_ = 0, done_ = 0, demanded_ = 0;
  bool closing_ = false;
  std::mt19937_64 delay_rng_;
};

// The settings every queue reads (set from Python: dlarray._fake_gpu.set_mode / set_delays).
// Changing the mode first drains every queue.
void set_mode(Mode m);
Mode mode();
void set_delays(int max_microseconds, uint64_t seed);
int max_delay_us();
uint64_t delay_seed();

// Every queue ever made, so that a mode change or free_host can drain them all.
std::shared_ptr<Queue> make_queue(int device, bool blocking);
void drain_all();

// Faults of work that ran (use after free, ...): all of them for the tests, and those not yet
// reported by a synchronize or query.
void record_fault(const std::string& what);
bool take_unreported_fault(std::string* what);
std::vector<std::string> faults();
void clear_faults();

}  // namespace dla::fake
