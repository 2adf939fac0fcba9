// random.h — filling an array with dlarray.random's numbers on its own device. The numbers are
// core/philox.h's, the same bits everywhere; each backend runs them through its `random` entry
// (core/backend.h): backends/cpu/random_cpu.cpp, backends/gpu/gpu_random.cpp.
#pragma once
#include "core/array.h"
#include "core/philox.h"

namespace dla {

// A backend's kernel: `out` is C-contiguous, non-empty, of the dtype random_fill checked.
using RandomFill = void (*)(const Array& out, const philox::RandomJob& job);

// Fills the C-contiguous `out` with draw `job`, element i from counter block
// job.block + i / lanes(job). Real kinds write float32 or float64; kBits and kIntegers int64 or
// uint64 (the same bits). ValueError for another dtype or a strided `out`, NotImplementedError
// for a device whose backend has no random kernel.
void random_fill(const Array& out, const philox::RandomJob& job);

}  // namespace dla
