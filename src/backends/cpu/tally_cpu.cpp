// tally_cpu.cpp — the CPU's tally for bincount and histogram (core/reduction.h): one pass that
// adds 1, or a weight, to the bin of each value. With many values per bin each thread fills a
// table of its own over a contiguous range and the tables are then added in thread order;
// with few (a table per thread would cost more than the pass) one thread does it all.
#include <atomic>
#include <type_traits>
#include <cstdint>
#include <vector>

#include "backends/cpu/parallel.h"
#include "core/reduction.h"

namespace dla::cpu {
namespace {

// Adds [begin, end) of x into table (bins entries); false when a value lies outside [0, bins).
template <class X, class Acc>
bool tally_range(const X* x, const double* w, int64_t begin, int64_t end, uint64_t bins, Acc* table) {
  bool in_range = true;
  for (int64_t i = begin; i < end; ++i) {
    const uint64_t v = static_cast<uint64_t>(static_cast<int64_t>(x[i]));  // negative -> huge
    if (v >= bins) {
      in_range = false;
      continue;
    }
    if constexpr (std::is_same_v<Acc, double>) table[v] += w[i];
    else table[v] += 1;
  }
  return in_range;
}

template <class X, class Acc>
bool tally_typed(Acc* out, const X* x, const double* w, int64_t n, int64_t bins) {
  // Per-thread tables pay off when each thread's range is much longer than a table.
  const int threads = num_threads();
  const ChunkPlan plan = plan_chunks(n, kGrainSize, threads);
  if (plan.ntasks <= 1 || bins > plan.chunk / 4)
    return tally_range(x, w, 0, n, static_cast<uint64_t>(bins), out);
  std::vector<std::vector<Acc>> tables(plan.ntasks, std::vector<Acc>(bins, Acc(0)));
  std::atomic<bool> in_range{true};
  parallel_for(plan.ntasks, 1, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t)
      if (!tally_range(x, w, plan.begin(int(t)), plan.end(int(t)), static_cast<uint64_t>(bins), tables[t].data()))
        in_range.store(false, std::memory_order_relaxed);
  });
  for (const auto& table : tables)  // thread order: the same sums at a given thread count
    for (int64_t b = 0; b < bins; ++b) out[b] += table[b];
  return in_range.load();
}

}  // namespace

bool tally(const Array& out, const Array& x, const Array* weights) {
  const int64_t n = x.size(), bins = out.size();
  const double* w = weights ? reinterpret_cast<const double*>(weights->data()) : nullptr;
  const bool x32 = x.dtype().scalar == ScalarType::Int32;
  if (weights) {
    double* o = reinterpret_cast<double*>(out.data());
    return x32 ? tally_typed(o, reinterpret_cast<const int32_t*>(x.data()), w, n, bins)
               : tally_typed(o, reinterpret_cast<const int64_t*>(x.data()), w, n, bins);
  }
  int64_t* o = reinterpret_cast<int64_t*>(out.data());
  return x32 ? tally_typed(o, reinterpret_cast<const int32_t*>(x.data()), w, n, bins)
             : tally_typed(o, reinterpret_cast<const int64_t*>(x.data()), w, n, bins);
}

}  // namespace dla::cpu
