// cast.h — dtype-converting copies (astype and friends).
#pragma once
#include "core/array.h"

namespace dla {

// Whether cast_into supports the pair (computing dtypes, float16, bfloat16).
bool can_convert(const DType& to, const DType& from);
// dst = src converted elementwise (C rules; float->int saturates, NaN -> 0; complex->real
// keeps the real part: the array API's refusal of that cast is enforced by astype).
void cast_into(const Array& dst, const Array& src);
// A backend's conversions (DeviceBackend::cast, core/backend.h): dst and src on its device, same
// shape, a pair can_convert allows (cast_into has checked them); the CPU's serves all host memory.
using DeviceCast = void (*)(const Array& dst, const Array& src);

// A new row-major array of `dtype` on src's device.
Array cast_to(const Array& src, DType dtype);
// A new array of `dtype` on src's device laid out in src's axis order (NumPy's astype, order
// "K"): a transposed or Fortran-ordered array converts in one contiguous pass.
Array cast_in_order(const Array& src, DType dtype);

}  // namespace dla
