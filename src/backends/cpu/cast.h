// cast.h — the CPU's dtype-converting loops (registered as the host cast: core/cast.h).
#pragma once
#include "core/array.h"

namespace dla::cpu {

// dst = src converted, both in host memory with the same shape, not overlapping, and not the
// pair float16 <-> bfloat16 (core/cast.cpp's cast_into sees to all three).
void cast_host(const Array& dst, const Array& src);

}  // namespace dla::cpu
