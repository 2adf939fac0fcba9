// random.cpp — random_fill's checks and its dispatch to the backend of the array's device.
#include "core/random.h"

#include <string>

#include "core/backend.h"
#include "core/errors.h"

namespace dla {

void random_fill(const Array& out, const philox::RandomJob& job) {
  const ScalarType s = out.dtype().scalar;
  const bool integer_kind = job.kind == philox::kBits || job.kind == philox::kIntegers;
  const bool dtype_ok = integer_kind ? (s == ScalarType::Int64 || s == ScalarType::UInt64)
                                     : (s == ScalarType::Float32 || s == ScalarType::Float64);
  if (!dtype_ok)
    throw ValueError("random_fill: the output's dtype " + out.dtype().name() + " does not fit this kind of draw");
  if (job.kind < philox::kBits || job.kind > philox::kIntegers)
    throw ValueError("random_fill: unknown kind " + std::to_string(job.kind));
  if (!integer_kind && (job.bits < 8 || job.bits > 53))
    throw ValueError("random_fill: bits must be in [8, 53], got " + std::to_string(job.bits));
  if (!out.is_c_contiguous()) throw ValueError("random_fill: the output must be C-contiguous");
  if (out.size() == 0) return;
  const Device& d = out.device();
  const RandomFill fill = backend_of(d.host_accessible() ? DeviceKind::CPU : d.kind).random;
  if (!fill) throw NotImplementedError("random numbers on device '" + d.str() + "' are not available yet");
  fill(out, job);
}

}  // namespace dla
