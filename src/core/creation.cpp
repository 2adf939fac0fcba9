// creation.cpp — eye, linspace and tril/triu, computed on the host and moved to the requested
// device (device-independent: plain C++ over host memory).
#include "core/creation.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <type_traits>

#include "core/copy.h"
#include "core/dispatch.h"
#include "core/errors.h"

namespace dla {
namespace {

Array to_device(Array host, Device device) { return device == host.device() ? host : copy_to(host, device); }

}  // namespace

Array eye(int64_t rows, int64_t cols, int64_t k, DType dtype, Device device) {
  if (rows < 0 || cols < 0) throw ValueError("eye: n_rows and n_cols must be non-negative");
  if (dtype.is_subbyte()) throw TypeError("eye: sub-byte dtype " + dtype.name() + " is storage-only");
  Array out = Array::empty(Dims{rows, cols}, dtype, Device{});
  // All-zero bytes are zero in every dtype dlarray stores.
  std::memset(out.data(), 0, static_cast<size_t>(out.nbytes()));
  alignas(16) char one[32];
  store_scalar(dtype, Scalar::of_int(1), one);
  const int64_t item = dtype.itemsize();
  k = std::clamp<int64_t>(k, -rows, cols);  // beyond the matrix either way: no ones (and no overflow below)
  for (int64_t i = std::max<int64_t>(0, -k); i < rows && i + k < cols; ++i)
    std::memcpy(out.data() + (i * cols + i + k) * item, one, static_cast<size_t>(item));
  return to_device(std::move(out), device);
}

Array linspace(const Scalar& start, const Scalar& stop, int64_t num, bool endpoint, DType dtype, Device device) {
  if (num < 0) throw ValueError("linspace: num must be non-negative, got " + std::to_string(num));
  if (!dtype.computes() || dtype.scalar == ScalarType::Bool)
    throw TypeError("linspace: dtype must be a numeric dtype, got " + dtype.name());
  const bool cplx = start.kind == Scalar::Kind::Complex || stop.kind == Scalar::Kind::Complex;
  if (cplx && !is_complex(dtype.scalar))
    throw TypeError("linspace: complex start/stop need a complex dtype, got " + dtype.name());
  Array out = Array::empty(Dims{num}, dtype, Device{});
  const int64_t div = endpoint ? num - 1 : num;
  const std::complex<double> a = start.as_complex(), b = stop.as_complex();
  // The same formula for every num, so linspace(.., n, endpoint=False) equals the first n
  // values of linspace(.., n + 1).
  const double step_re = div > 0 ? (b.real() - a.real()) / double(div) : 0.0;
  const double step_im = div > 0 ? (b.imag() - a.imag()) / double(div) : 0.0;
  visit_scalar(dtype.scalar, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* d = reinterpret_cast<T*>(out.data());
    auto value = [&](double re, double im) -> T {
      if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
        using R = typename T::value_type;
        return T(R(re), R(im));
      } else if constexpr (std::is_integral_v<T>) {
        (void)im;
        return T(std::floor(re));
      } else {
        (void)im;
        return T(re);
      }
    };
    for (int64_t i = 0; i < num; ++i)
      d[i] = value(a.real() + double(i) * step_re, a.imag() + double(i) * step_im);
    if (endpoint && num > 1) d[num - 1] = value(b.real(), b.imag());
  });
  return to_device(std::move(out), device);
}

Array triangle(const Array& x, int64_t k, bool lower) {
  const char* fname = lower ? "tril" : "triu";
  if (x.ndim() < 2)
    throw ValueError(std::string(fname) + ": x must have at least 2 dimensions, got " + std::to_string(x.ndim()));
  if (x.dtype().is_subbyte()) throw TypeError(std::string(fname) + ": sub-byte dtypes are storage-only");
  Array out = copy_to(x, Device{});
  const int64_t rows = x.shape(x.ndim() - 2), cols = x.shape(x.ndim() - 1);
  const int64_t item = x.itemsize(), mats = rows != 0 && cols != 0 ? out.size() / rows / cols : 0;
  char* p = out.data();
  k = std::clamp<int64_t>(k, -rows, cols);  // past the matrix either way changes nothing more
  // Column bounds in 128 bits: i + k + 1 may pass INT64_MAX for a (1, 2**63 - 1) matrix.
  auto col = [cols](__int128 j) { return static_cast<int64_t>(std::clamp<__int128>(j, 0, cols)); };
  for (int64_t m = 0; m < mats; ++m) {
    for (int64_t i = 0; i < rows; ++i, p += cols * item) {
      // Zero columns j > i + k (tril) or j < i + k (triu), clamped to the row.
      const int64_t lo = lower ? col(__int128(i) + k + 1) : 0;
      const int64_t hi = lower ? cols : col(__int128(i) + k);
      if (hi > lo) std::memset(p + lo * item, 0, static_cast<size_t>((hi - lo) * item));
    }
  }
  return to_device(std::move(out), x.device());
}

}  // namespace dla
