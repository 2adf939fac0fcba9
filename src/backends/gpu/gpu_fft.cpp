// gpu_fft.cpp — the core half of the GPU Fourier transforms (see gpu_fft.h).
//
// A vendor plan transforms the (at most three) innermost axes of contiguous arrays, so each
// pass copies x once into that layout: the transformed axes moved last, cut or zero-padded to
// the lengths, real input placed in the real parts of a zeroed complex buffer (through a
// float view: no complex kernel is needed). More than three axes take several passes, as
// NumPy composes them: R2C transforms the last axes first and C2C the rest; C2R runs the
// inverse C2C over the leading axes first. The norm factor is applied by the table's last job.
// The result is a view of the output buffer in x's axis order. Nothing waits for the device.
#include "backends/gpu/gpu_fft.h"

#include <algorithm>
#include <string>

#include "backends/gpu/gpu_backend.h"
#include "core/copy.h"
#include "core/errors.h"
#include "core/fill.h"
#include "core/scalar.h"

namespace dla::gpu {
namespace {

constexpr int kMaxPlanRank = 3;

ScalarType complex_of(ScalarType t) {
  return t == ScalarType::Float32 || t == ScalarType::Complex64 ? ScalarType::Complex64 : ScalarType::Complex128;
}
ScalarType real_of(ScalarType t) {
  return t == ScalarType::Float32 || t == ScalarType::Complex64 ? ScalarType::Float32 : ScalarType::Float64;
}

// The real parts of a complex array, as a float array view.
Array real_parts(const Array& c) {
  Dims strides = c.strides();
  for (int d = 0; d < strides.size(); ++d) strides[d] *= 2;
  return c.view(c.shape(), strides, c.byte_offset(), DType::of(real_of(c.dtype().scalar)));
}

// The first len[i] entries of the last axes of x (the leading axes untouched).
Array leading(const Array& x, const Dims& len) {
  Dims shape = x.shape();
  for (int i = 0; i < len.size(); ++i) shape[x.ndim() - len.size() + i] = len[i];
  return x.view(shape, x.strides(), x.byte_offset());
}

// dst = src read at (n - t) mod n along the last axis (same shape, n >= 1).
void copy_reversed(const Array& dst, const Array& src) {
  const int d = src.ndim() - 1;
  const int64_t n = src.shape(d);
  Dims first = src.shape();
  first[d] = 1;
  copy_into(dst.view(first, dst.strides(), dst.byte_offset()), src.view(first, src.strides(), src.byte_offset()));
  if (n == 1) return;
  Dims rest = src.shape();
  rest[d] = n - 1;
  Dims back = src.strides();
  back[d] = -back[d];
  copy_into(dst.view(rest, dst.strides(), dst.byte_offset() + dst.stride(d) * dst.itemsize()),
            src.view(rest, back, src.byte_offset() + (n - 1) * src.stride(d) * src.itemsize()));
}

// x (axes already last) as a new contiguous buffer of `dtype` with the last axes' lengths
// `len`: cut, zero-padded, real input into the real parts of a complex buffer.
Array staged(const Array& x, const Dims& len, ScalarType dtype) {
  Dims shape(x.shape().data(), x.ndim() - len.size());
  for (int64_t v : len) shape.push_back(v);
  Array buf = Array::empty(shape, DType::of(dtype), x.device());
  Dims common(len.size());
  bool padded = false;
  for (int i = 0; i < len.size(); ++i) {
    const int64_t have = x.shape(x.ndim() - len.size() + i);
    common[i] = std::min(have, len[i]);
    padded = padded || have < len[i];
  }
  const bool widen = x.dtype().scalar != dtype;  // real into complex
  if (padded || widen) fill(buf, Scalar::of_int(0));
  const Array dst = leading(buf, common);
  copy_into(widen ? real_parts(dst) : dst, leading(x, common));
  return buf;
}

// Whether the vendor library may overwrite the input of this kind of transform, so that x
// must be copied even when it already is the buffer. cuFFT overwrites only C2R's input; rocFFT
// (under hipFFT) documents that its out-of-place transforms may overwrite the input of every
// kind, so on ROCm an fft must never hand the caller's array to the library.
bool library_may_overwrite_input(FftKind kind, const Device& dev) {
  return kind == FftKind::C2R || dev.kind == DeviceKind::ROCM;
}

void run_job(Backend& be, const Device& dev, DlaGpuFft& job, const std::string& fname) {
  const DlaGpuOps& ops = be.ops();
  auto [stream, keep] = be.resolve(dev.index, nullptr);
  auto fail = [&](int err) {
    if (err == DLA_GPU_UNSUPPORTED)
      throw NotImplementedError(fname + " on device '" + dev.str() + "' is not available yet (the " + ops.name +
                                " backend has no FFT library)");
    if (err == DLA_GPU_LIBRARY_MISSING)
      throw RuntimeError(fname + " on device '" + dev.str() + "': " + ops.error_string(err));
    be.check(err, fname.c_str());
  };
  size_t need = 0;
  if (int err = ops.fft_async(dev.index, &job, nullptr, &need, stream)) fail(err);
  // At least one byte: a NULL scratch pointer is the sizing call.
  const Array scratch = Array::empty(Dims{static_cast<int64_t>(std::max<size_t>(need, 1))},
                                     DType::of(ScalarType::UInt8), dev);
  if (int err = ops.fft_async(dev.index, &job, scratch.data(), &need, stream)) fail(err);
}

// One vendor job over `axes` (at most three); the result in x's axis order.
Array one_pass(const Array& x, FftKind kind, const std::vector<int>& axes, const std::vector<int64_t>& lengths,
               bool forward, double scale, bool reverse, const std::string& fname) {
  const Device dev = x.device();
  Backend* be = backend_for(dev.kind);
  if (!be) throw ValueError("no GPU backend is installed for device '" + dev.str() + "'");
  const int nd = x.ndim(), k = static_cast<int>(axes.size());
  int perm[kMaxRank];
  int p = 0;
  for (int d = 0; d < nd; ++d)
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) perm[p++] = d;
  for (int a : axes) perm[p++] = a;
  const Array xt = x.permuted(perm);

  const ScalarType ct = complex_of(x.dtype().scalar), rt = real_of(ct);
  Dims in_len(k), out_len(k);
  for (int i = 0; i < k; ++i) in_len[i] = out_len[i] = lengths[size_t(i)];
  if (kind == FftKind::C2R) in_len[k - 1] = lengths.back() / 2 + 1;
  if (kind == FftKind::R2C) out_len[k - 1] = lengths.back() / 2 + 1;
  const ScalarType in_type = kind == FftKind::R2C ? rt : ct, out_type = kind == FftKind::C2R ? rt : ct;

  // x itself when it already is the buffer and the library leaves its input alone.
  Array in;
  if (!library_may_overwrite_input(kind, dev) && !reverse && xt.dtype().scalar == in_type && xt.is_c_contiguous() &&
      std::equal(in_len.begin(), in_len.end(), xt.shape().data() + (nd - k)))
    in = xt;
  else
    in = staged(xt, in_len, in_type);
  if (reverse && kind == FftKind::R2C) {
    Array r = Array::empty(in.shape(), in.dtype(), dev);
    copy_reversed(r, in);
    in = r;
  }
  Dims out_shape(xt.shape().data(), nd - k);
  for (int64_t v : out_len) out_shape.push_back(v);
  Array out = Array::empty(out_shape, DType::of(out_type), dev);

  int64_t batch = 1;
  for (int d = 0; d < nd - k; ++d) batch *= out_shape[d];
  if (batch > 0) {
    DlaGpuFft job{};
    job.kind = static_cast<int32_t>(kind);
    job.dtype = static_cast<int32_t>(ct);
    job.rank = k;
    job.direction = forward ? -1 : 1;
    for (int i = 0; i < k; ++i) job.n[i] = lengths[size_t(i)];
    job.batch = batch;
    job.in = in.data();
    job.out = out.data();
    job.scale = scale;
    run_job(*be, dev, job, fname);
  }
  if (reverse && kind == FftKind::C2R) {
    Array r = Array::empty(out.shape(), out.dtype(), dev);
    copy_reversed(r, out);
    out = r;
  }
  int back[kMaxRank];
  for (int d = 0; d < nd; ++d) back[perm[d]] = d;
  return out.permuted(back);
}

}  // namespace

Array gpu_fft(const Array& x, FftKind kind, const std::vector<int>& axes, const std::vector<int64_t>& lengths,
              bool forward, double scale, bool reverse, const std::string& fname) {
  const ScalarType t = x.dtype().scalar;
  if (!is_floating(t)) throw TypeError(fname + ": x must have a real or complex floating-point dtype, got " + x.dtype().name());
  if (kind == FftKind::R2C && is_complex(t)) throw TypeError(fname + ": x must have a real floating-point dtype, got " + x.dtype().name());
  if (axes.size() != lengths.size() || (axes.empty() && kind != FftKind::C2C) || (reverse && axes.size() != 1))
    throw ValueError(fname + ": inconsistent axes and lengths (a bug in dlarray.fft)");
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < 0 || axes[i] >= x.ndim() || std::count(axes.begin(), axes.end(), axes[i]) != 1)
      throw ValueError(fname + ": axis " + std::to_string(axes[i]) + " is out of range or repeated");
    if (lengths[i] < 1) throw ValueError(fname + ": invalid number of data points (" + std::to_string(lengths[i]) + ")");
  }
  if (axes.empty()) {  // a copy in the complex dtype
    Array out = Array::empty(x.shape(), DType::of(complex_of(t)), x.device());
    if (is_complex(t)) {
      copy_into(out, x);
    } else {
      fill(out, Scalar::of_int(0));
      copy_into(real_parts(out), x);
    }
    return out;
  }
  const size_t k = axes.size(), g = std::min<size_t>(k, kMaxPlanRank);
  if (k == g) return one_pass(x, kind, axes, lengths, forward, scale, reverse, fname);
  // The last g axes in one pass, the others in further ones (C2R: the others first).
  const std::vector<int> last(axes.end() - g, axes.end()), rest(axes.begin(), axes.end() - g);
  const std::vector<int64_t> last_len(lengths.end() - g, lengths.end()), rest_len(lengths.begin(), lengths.end() - g);
  if (kind == FftKind::C2R) {
    const Array y = gpu_fft(x, FftKind::C2C, rest, rest_len, forward, 1.0, false, fname);
    return one_pass(y, FftKind::C2R, last, last_len, forward, scale, false, fname);
  }
  const Array y = one_pass(x, kind, last, last_len, forward, 1.0, false, fname);
  return gpu_fft(y, FftKind::C2C, rest, rest_len, forward, scale, false, fname);
}

}  // namespace dla::gpu
