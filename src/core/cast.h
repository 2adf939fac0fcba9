// cast.h — dtype-converting copies (astype and friends).
#pragma once
#include "core/array.h"

namespace dla {

// Whether cast_into supports the pair (computing dtypes, float16, bfloat16).
bool can_convert(const DType& to, const DType& from);
// dst = src converted elementwise (C rules; float->int saturates, NaN -> 0; complex->real
// keeps the real part: the array API's refusal of that cast is enforced by astype).
void cast_into(const Array& dst, const Array& src);
// Conversions on a device whose memory the host cannot read register themselves here
// (dst and src: same shape; cast_into has checked the pair and the shapes).
using DeviceCast = void (*)(const Array& dst, const Array& src);
void register_device_cast(DeviceKind kind, DeviceCast fn);

// A new row-major array of `dtype` on src's device.
Array cast_to(const Array& src, DType dtype);

}  // namespace dla
