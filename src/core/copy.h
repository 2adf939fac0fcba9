// copy.h — moving bytes between arrays: same dtype, any layout, any pair of devices.
//
// Casting copies (dtype changes) belong to the kernel layer; these are the raw moves that
// DLPack export, to_device and contiguous() need.
#pragma once
#include "core/array.h"

namespace dla {

// dst[...] = src[...] elementwise; shapes and dtypes must match (throws ValueError).
// Host-to-host copies are strided loops; device copies go through the device's runtime,
// staged through a contiguous buffer when a side is strided and the sides differ. `stream`
// (nullptr: the current stream) belongs to the device side, the destination's when both are.
void copy_into(const Array& dst, const Array& src, StreamHandle stream = nullptr);

// A new row-major array on `device` holding src's values.
Array copy_to(const Array& src, Device device, StreamHandle stream = nullptr);

// src itself when already row-major, else a row-major copy on the same device.
Array ascontiguous(const Array& src);

}  // namespace dla
