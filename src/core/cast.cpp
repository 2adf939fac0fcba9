// cast.cpp — dtype-converting copies on any device: the checks, an overlapping source, and
// float16 <-> bfloat16 through float32 are decided here; the loops are the device's (host
// memory: the CPU's, registered as DeviceKind::CPU's cast).
#include "core/cast.h"

#include "core/backend.h"
#include "core/copy.h"
#include "core/errors.h"
#include "core/half.h"

namespace dla {
namespace {

DeviceCast cast_for(DeviceKind kind) { return backend_of(kind).cast; }

}  // namespace

bool can_convert(const DType& to, const DType& from) {
  auto ok = [](const DType& d) { return d.computes() || half_of(d) != Half::None; };
  return ok(to) && ok(from);
}

void cast_into(const Array& dst, const Array& src) {
  if (dst.dtype() == src.dtype()) return copy_into(dst, src);
  if (!can_convert(dst.dtype(), src.dtype()))
    throw TypeError("cannot convert " + src.dtype().name() + " to " + dst.dtype().name() +
                    ": the float8, float6 and float4 formats are storage-only here (held, exchanged and "
                    "copied, not converted); conversions exist among the 13 standard dtypes, float16 and "
                    "bfloat16");
  if (dst.shape() != src.shape())
    throw ValueError("cast: shape mismatch " + shape_str(dst.shape()) + " vs " + shape_str(src.shape()));
  if (!dst.device().host_accessible() || !src.device().host_accessible()) {
    if (DeviceCast fn = cast_for(dst.device().kind)) return fn(dst, src);
    throw NotImplementedError("dtype conversion on device '" + dst.device().str() + "' is not available yet");
  }
  // The rows assume their input and output apart (their loops vectorize without alias checks):
  // a source that overlaps the destination is converted from a copy.
  if (may_overlap(dst, src)) return cast_into(dst, copy_to(src, src.device()));
  if (half_of(dst.dtype()) != Half::None && half_of(src.dtype()) != Half::None) {  // float16 <-> bfloat16
    Array mid = Array::empty(src.shape(), DType::of(ScalarType::Float32), src.device());
    cast_into(mid, src);
    cast_into(dst, mid);
    return;
  }
  cast_for(DeviceKind::CPU)(dst, src);  // host-readable memory: the CPU's loops
}

Array cast_to(const Array& src, DType dtype) {
  Array out = Array::empty(src.shape(), dtype, src.device());
  cast_into(out, src);
  return out;
}

Array cast_in_order(const Array& src, DType dtype) {
  Array out = empty_in_order_of(src.shape(), dtype, src.device(), &src);
  cast_into(out, src);
  return out;
}

}  // namespace dla
