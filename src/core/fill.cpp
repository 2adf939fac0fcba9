// fill.cpp — one value into every element on any device, and host arange: the value is
// converted here, and the device's runtime fills (host-readable memory: the CPU's loops).
#include "core/fill.h"

#include <cstdint>

#include "core/dispatch.h"
#include "core/errors.h"
#include "core/runtime.h"

namespace dla {

void fill(const Array& dst, const Scalar& s) {
  if (dst.size() == 0) return;
  if (dst.dtype().is_subbyte()) throw TypeError("fill: sub-byte dtype " + dst.dtype().name() + " is storage-only");
  alignas(16) char elem[16];
  store_scalar(dst.dtype(), s, elem);
  if (dst.readonly()) throw ValueError("assignment destination is read-only");
  const Device d = dst.device();
  if (!d.host_accessible()) return runtime_for(d).fill(dst, elem, nullptr);  // a kernel on the current stream
  sync_for_host(d);
  runtime_for(Device{}).fill(dst, elem, nullptr);  // host-readable memory: the CPU's loops
}

Array arange_host(const Scalar& start, const Scalar& step, int64_t n, DType dtype) {
  Array out = Array::empty(Dims{n}, dtype, Device{});
  visit_scalar(dtype.scalar, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* d = reinterpret_cast<T*>(out.data());
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      // Exact integer arithmetic, modulo 2**64 (so wrapping like the dtype when a value
      // overflows it, and defined behaviour when start + i * step leaves int64 on the way).
      const uint64_t a = start.kind == Scalar::Kind::UInt ? start.u : uint64_t(start.i);
      const uint64_t b = step.kind == Scalar::Kind::UInt ? step.u : uint64_t(step.i);
      for (int64_t i = 0; i < n; ++i) d[i] = T(a + uint64_t(i) * b);
    } else if constexpr (std::is_same_v<T, bool>) {
      for (int64_t i = 0; i < n; ++i) d[i] = (start.as_double() + double(i) * step.as_double()) != 0;
    } else {
      const double a = start.as_double(), b = step.as_double();
      for (int64_t i = 0; i < n; ++i) {
        Scalar v = Scalar::of_float(a + double(i) * b);
        store_scalar(dtype, v, d + i);
      }
    }
  });
  return out;
}

}  // namespace dla
