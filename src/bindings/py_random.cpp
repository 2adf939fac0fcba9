// py_random.cpp — the two entries dlarray.random (python/dlarray/random.py) stands on: filling a
// fresh array with a draw on its own device, and the bare Philox-4x32-10 block function for the
// known-answer tests.
#include <pybind11/pybind11.h>

#include "bindings/bindings.h"
#include "bindings/py_array.h"
#include "core/random.h"

namespace dla::py {
namespace {

// Fills `out` (C-contiguous) with the draw: kind (philox::Kind), key (64 bits: word 0 low),
// stream (32 bits), block (the counter block of element 0), bits, the real parameters a and b,
// and for integers low and range (as unsigned 64-bit words). Returns the counter blocks the
// draw used (philox::lanes values per block), by which the caller's counter moves on.
uint64_t random_fill_py(pyb::handle out_h, int kind, uint64_t key, uint32_t stream, uint64_t block, int bits, double a,
                    double b, uint64_t low, uint64_t range) {
  const Array& out = unwrap(out_h, "_random_fill: out");
  philox::RandomJob job{};
  job.key[0] = static_cast<uint32_t>(key);
  job.key[1] = static_cast<uint32_t>(key >> 32);
  job.stream = stream;
  job.kind = kind;
  job.block = block;
  job.bits = bits;
  job.a = a;
  job.b = b;
  job.low = low;
  job.range = range;
  {
    pyb::gil_scoped_release unlocked;  // 10^6 normals take milliseconds
    random_fill(out, job);
  }
  const uint64_t lanes = static_cast<uint64_t>(philox::lanes(job));
  return (static_cast<uint64_t>(out.size()) + lanes - 1) / lanes;
}

pyb::tuple philox_block_py(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1) {
  const philox::Block r = philox::philox4x32_10(philox::Block{{c0, c1, c2, c3}}, k0, k1);
  return pyb::make_tuple(r.w[0], r.w[1], r.w[2], r.w[3]);
}

}  // namespace

void bind_random(pyb::module_& m) {
  m.def("_random_fill", &random_fill_py, pyb::arg("out"), pyb::arg("kind"), pyb::arg("key"), pyb::arg("stream"),
        pyb::arg("block"), pyb::arg("bits"), pyb::arg("a"), pyb::arg("b"), pyb::arg("low"), pyb::arg("range"));
  m.def("_philox4x32_10", &philox_block_py, "Philox-4x32-10 of one counter block (c0..c3) under key (k0, k1).",
        pyb::arg("c0"), pyb::arg("c1"), pyb::arg("c2"), pyb::arg("c3"), pyb::arg("k0"), pyb::arg("k1"));
}

}  // namespace dla::py
