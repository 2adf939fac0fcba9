// fill.h — the CPU's fill loops (the CPU runtime's DeviceRuntime::fill).
#pragma once
#include "core/array.h"

namespace dla::cpu {

// Every element of dst (host memory, any strides) = the itemsize bytes at elem.
void fill_host(const Array& dst, const char* elem);

}  // namespace dla::cpu
