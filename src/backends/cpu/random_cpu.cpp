// random_cpu.cpp — the CPU's kernel for dlarray.random: core/philox.h's numbers, a counter
// block at a time, over the thread pool. Compiled with -ffp-contract=off (CMakeLists.txt), so
// the values are the bits the GPU kernels and the fake GPU compute from the same header.
#include <algorithm>
#include <cstdint>

#include "backends/cpu/cpu_kernels.h"
#include "backends/cpu/parallel.h"

namespace dla::cpu {
namespace {

using philox::Block;
using philox::RandomJob;

// Blocks per task: a normal pair costs a log, a square root and a sine/cosine (~40 ns), so
// tasks are far smaller than the elementwise grain.
constexpr int64_t kBlocksPerTask = 2048;

// Calls f(job, block r, block number, first element i0, elements m) for every counter block of
// the draw. Each task works on its own copy of the job: stores into the output could otherwise
// alias the job's 64-bit fields, and the compiler would reload them after every element
// (2.5x slower).
template <class F>
void for_each_block(int64_t n, const RandomJob& job, F&& f) {
  const int L = philox::lanes(job);
  const int64_t blocks = (n + L - 1) / L;
  parallel_for(blocks, kBlocksPerTask, [&](int64_t b0, int64_t b1) {
    const RandomJob j = job;
    for (int64_t b = b0; b < b1; ++b) {
      const uint64_t number = j.block + static_cast<uint64_t>(b);
      const int64_t i0 = b * L;
      f(j, philox::block_at(j, number), number, i0, static_cast<int>(std::min<int64_t>(L, n - i0)));
    }
  });
}

template <class T>
void fill_real(T* out, int64_t n, const RandomJob& job) {
  if (job.kind == philox::kNormal) {
    for_each_block(n, job, [out](const RandomJob& j, const Block& r, uint64_t, int64_t i0, int m) {
      for (int lane = 0; lane < m; lane += 2) {  // a pair at once: one log and one sine/cosine
        double even, odd;
        philox::normal_pair(j, r, lane, even, odd);
        out[i0 + lane] = static_cast<T>(even);
        if (lane + 1 < m) out[i0 + lane + 1] = static_cast<T>(odd);
      }
    });
  } else {
    for_each_block(n, job, [out](const RandomJob& j, const Block& r, uint64_t, int64_t i0, int m) {
      for (int lane = 0; lane < m; ++lane) out[i0 + lane] = static_cast<T>(philox::real_lane(j, r, lane));
    });
  }
}

void fill_words(uint64_t* out, int64_t n, const RandomJob& job) {
  if (job.kind == philox::kBits) {
    for_each_block(n, job, [out](const RandomJob&, const Block& r, uint64_t, int64_t i0, int m) {
      for (int lane = 0; lane < m; ++lane) out[i0 + lane] = philox::word64(r, lane);
    });
  } else {
    for_each_block(n, job, [out](const RandomJob& j, const Block& r, uint64_t b, int64_t i0, int m) {
      for (int lane = 0; lane < m; ++lane) out[i0 + lane] = philox::integer_lane(j, r, b, lane);
    });
  }
}

}  // namespace

void random_fill(const Array& out, const RandomJob& job) {
  const int64_t n = out.size();
  switch (out.dtype().scalar) {
    case ScalarType::Float32: fill_real(reinterpret_cast<float*>(out.data()), n, job); break;
    case ScalarType::Float64: fill_real(reinterpret_cast<double*>(out.data()), n, job); break;
    default: fill_words(reinterpret_cast<uint64_t*>(out.data()), n, job); break;  // int64, uint64
  }
}

}  // namespace dla::cpu
