// gpu_fft.h — discrete Fourier transforms of GPU arrays (gpu_fft.cpp), behind dlarray.fft.
//
// python/dlarray/fft.py owns the functions' arguments (n, s, axes, norm, dtype rules, the
// errors the standard names) for every device; for a GPU array it calls gpu_fft with the
// resolved lengths and norm factor, and this half turns that into the vendor table's fft_async
// jobs (cuFFT), queued on the array's current stream.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/array.h"

namespace dla::gpu {

enum class FftKind : int { C2C = 0, R2C = 1, C2R = 2 };

// The transform of x over `axes` (distinct, in [0, ndim)) with the logical lengths `lengths`
// (each >= 1; x is cut or padded with zeros to them; C2R: the last is the real output's length,
// and the input then needs lengths.back() / 2 + 1 entries there), every output number times
// `scale`.
//   C2C: complex result (real x is taken as complex), sign -1 when `forward`, else +1;
//   R2C: real x (float32 / float64), the last axis then has lengths.back() / 2 + 1 entries;
//   C2R: the real signal of a half spectrum (complex, or real taken as complex).
// reverse (one axis only): hfft and ihfft, which conjugate, computed without a complex kernel:
// C2R's output, or R2C's input after cutting and padding, is read at (n - t) mod n.
// No axes (C2C only): a copy of x in the complex dtype. `fname` ("fft.rfft") names the function
// in errors.
Array gpu_fft(const Array& x, FftKind kind, const std::vector<int>& axes, const std::vector<int64_t>& lengths,
              bool forward, double scale, bool reverse, const std::string& fname);

}  // namespace dla::gpu
