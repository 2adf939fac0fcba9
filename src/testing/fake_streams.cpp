// fake_streams.cpp — the fake GPU's stream queues, their worker threads, modes and faults
// (fake_streams.h).
#include "testing/fake_streams.h"

#include <atomic>
#include <chrono>
#include <thread>

namespace dla::fake {
namespace {

std::atomic<Mode> g_mode{Mode::Eager};
std::atomic<int> g_max_delay_us{0};
std::atomic<uint64_t> g_delay_seed{0};

std::mutex g_registry_mu;
// Never shrinks: a closed queue's worker may still be finishing; the objects are small.
std::vector<std::shared_ptr<Queue>>* g_queues = new std::vector<std::shared_ptr<Queue>>();

std::mutex g_faults_mu;
std::vector<std::string> g_faults;
size_t g_reported = 0;

}  // namespace

Queue::Queue(int device, bool blocking, uint64_t serial)
    : device_(device), blocking_(blocking), delay_rng_(serial * 0x9e3779b97f4a7c15ull) {
  std::thread([this] { loop(); }).detach();
}

uint64_t Queue::submit(Work w) {
  if (mode() == Mode::Synchronous) {
    execute(w);
    std::lock_guard<std::mutex> lock(mu_);
    ++done_;
    return ++submitted_;
  }
  std::lock_guard<std::mutex> lock(mu_);
  work_.push_back(std::move(w));
  cv_.notify_all();
  return ++submitted_;
}

void Queue::wait_for(uint64_t pos) {
  std::unique_lock<std::mutex> lock(mu_);
  if (pos > demanded_) {
    demanded_ = pos;
    cv_.notify_all();
  }
  cv_.wait(lock, [&] { return done_ >= pos; });
}

bool Queue::reached(uint64_t pos) {
  std::lock_guard<std::mutex> lock(mu_);
  if (pos > demanded_) {
    demanded_ = pos;
    cv_.notify_all();
  }
  return done_ >= pos;
}

uint64_t Queue::submitted() {
  std::lock_guard<std::mutex> lock(mu_);
  return submitted_;
}

void Queue::close() {
  std::lock_guard<std::mutex> lock(mu_);
  closing_ = true;
  demanded_ = submitted_;
  cv_.notify_all();
}

void Queue::loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [&] {
      return (!work_.empty() && (g_mode.load() != Mode::Lazy || demanded_ > done_)) || (closing_ && work_.empty());
    });
    if (work_.empty()) return;  // closed and drained
    Work w = std::move(work_.front());
    work_.pop_front();
    const int max_delay = g_max_delay_us.load();
    const uint64_t draw = max_delay > 0 ? delay_rng_() : 0;
    lock.unlock();
    if (max_delay > 0) std::this_thread::sleep_for(std::chrono::microseconds(draw % (uint64_t(max_delay) + 1)));
    execute(w);
    lock.lock();
    ++done_;
    cv_.notify_all();
  }
}

void Queue::execute(Work& w) {
  for (auto& [queue, position] : w.after)
    if (queue.get() != this) queue->wait_for(position);
  uint64_t dead = 0;
  if (!DeviceArena::get().all_live(w.blocks, &dead)) {
    record_fault("use after free: " + w.what + " on a stream of device " + std::to_string(device_) +
                 " ran after the free of device block #" + std::to_string(dead) +
                 " that it touches (the free's stream did not wait for this one)");
    return;
  }
  w.run();
}

void set_mode(Mode m) {
  drain_all();
  g_mode.store(m);
  std::lock_guard<std::mutex> lock(g_registry_mu);
  for (auto& q : *g_queues) q->reached(0);  // wakes the workers to see the new mode
}

Mode mode() { return g_mode.load(); }

void set_delays(int max_microseconds, uint64_t seed) {
  g_max_delay_us.store(max_microseconds < 0 ? 0 : max_microseconds);
  g_delay_seed.store(seed);
}
int max_delay_us() { return g_max_delay_us.load(); }
uint64_t delay_seed() { return g_delay_seed.load(); }

std::shared_ptr<Queue> make_queue(int device, bool blocking) {
  std::lock_guard<std::mutex> lock(g_registry_mu);
  auto q = std::make_shared<Queue>(device, blocking, (g_delay_seed.load() << 20) + g_queues->size() + 1);
  g_queues->push_back(q);
  return q;
}

void drain_all() {
  std::vector<std::shared_ptr<Queue>> all;
  {
    std::lock_guard<std::mutex> lock(g_registry_mu);
    all = *g_queues;
  }
  for (auto& q : all) q->wait_for(q->submitted());
}

void record_fault(const std::string& what) {
  std::lock_guard<std::mutex> lock(g_faults_mu);
  g_faults.push_back(what);
}

bool take_unreported_fault(std::string* what) {
  std::lock_guard<std::mutex> lock(g_faults_mu);
  if (g_reported == g_faults.size()) return false;
  *what = g_faults[g_reported++];
  return true;
}

std::vector<std::string> faults() {
  std::lock_guard<std::mutex> lock(g_faults_mu);
  return g_faults;
}

void clear_faults() {
  std::lock_guard<std::mutex> lock(g_faults_mu);
  g_faults.clear();
  g_reported = 0;
}

}  // namespace dla::fake
