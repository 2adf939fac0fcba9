// cast.cpp — dtype-converting copies on the host (astype, asarray(dtype=), fills).
//
// Rows over convert() (core/convert.h): cast_kernels.h's for every (to, from) pair of the 13
// computing dtypes, and those of float16 and bfloat16 here; float -> integer conversions of NaN and
// out-of-range values are defined (saturating to the target's range, NaN -> 0) instead of
// being C++ undefined behaviour.
#include "core/cast.h"

#include "core/array.h"

#include <array>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "backends/cpu/cast_kernels.h"
#include "backends/cpu/half_convert.h"
#include "core/convert.h"
#include "core/copy.h"
#include "core/dispatch.h"
#include "core/half.h"
#include "core/strided_loop.h"

namespace dla {
namespace {

using RowFn = void (*)(char**, const int64_t*, int64_t);

// Rows that go through float for the 16-bit storage types.
template <bool ToHalf, bool Bf16, class T>
void half_row(char** p, const int64_t* s, int64_t n) {
  char* d = p[0];
  const char* src = p[1];
  constexpr Half kHalf = Bf16 ? Half::BFloat16 : Half::Float16;
  if constexpr (std::is_same_v<T, float>) {  // the common pair: whole rows, vector conversions
    if constexpr (ToHalf) {
      if (s[1] == sizeof(float)) return cpu::narrow_half_row(kHalf, reinterpret_cast<const float*>(src), d, s[0], n);
    } else {
      if (s[0] == sizeof(float)) return cpu::widen_half_row(kHalf, src, s[1], reinterpret_cast<float*>(d), n);
    }
  }
  for (int64_t i = 0; i < n; ++i, d += s[0], src += s[1]) {
    if constexpr (ToHalf && (std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>)) {
      const double v = convert<double>(*reinterpret_cast<const T*>(src));
      *reinterpret_cast<uint16_t*>(d) = double_to_half(Bf16 ? Half::BFloat16 : Half::Float16, v);
    } else if constexpr (ToHalf) {
      float f = convert<float>(*reinterpret_cast<const T*>(src));
      *reinterpret_cast<uint16_t*>(d) = Bf16 ? float_to_bfloat16(f) : float_to_float16(f);
    } else {
      uint16_t h = *reinterpret_cast<const uint16_t*>(src);
      float f = Bf16 ? bfloat16_to_float(h) : float16_to_float(h);
      *reinterpret_cast<T*>(d) = convert<T>(f);
    }
  }
}


RowFn pick_row(const DType& to, const DType& from) {
  Half ht = half_of(to), hf = half_of(from);
  if (ht != Half::None && hf != Half::None) {
    // half <-> half through float32
    return nullptr;
  }
  if (ht != Half::None)
    return visit_scalar(from.scalar, [&](auto tf) -> RowFn {
      using F = typename decltype(tf)::type;
      return ht == Half::BFloat16 ? half_row<true, true, F> : half_row<true, false, F>;
    });
  if (hf != Half::None)
    return visit_scalar(to.scalar, [&](auto tt) -> RowFn {
      using T = typename decltype(tt)::type;
      return hf == Half::BFloat16 ? half_row<false, true, T> : half_row<false, false, T>;
    });
  return cpu::cast_rows()[static_cast<int>(to.scalar)][static_cast<int>(from.scalar)];
}

DeviceCast g_device_casts[32] = {};

}  // namespace

void register_device_cast(DeviceKind kind, DeviceCast fn) {
  const int k = static_cast<int>(kind);
  if (k >= 0 && k < 32) g_device_casts[k] = fn;
}

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
    const int k = static_cast<int>(dst.device().kind);
    if (k >= 0 && k < 32 && g_device_casts[k]) return g_device_casts[k](dst, src);
    throw NotImplementedError("dtype conversion on device '" + dst.device().str() + "' is not available yet");
  }
  // The rows assume their input and output apart (their loops vectorize without alias checks):
  // a source that overlaps the destination is converted from a copy.
  if (may_overlap(dst, src)) return cast_into(dst, copy_to(src, src.device()));
  RowFn row = pick_row(dst.dtype(), src.dtype());
  if (!row) {  // float16 <-> bfloat16: via float32
    Array mid = Array::empty(src.shape(), DType::of(ScalarType::Float32), src.device());
    cast_into(mid, src);
    cast_into(dst, mid);
    return;
  }
  Dims ds(dst.ndim()), ss(src.ndim());
  for (int i = 0; i < dst.ndim(); ++i) {
    ds[i] = dst.stride(i) * dst.itemsize();
    ss[i] = src.stride(i) * src.itemsize();
  }
  auto L = coalesce<2>(dst.shape(), {ds.data(), ss.data()});
  for_each_row(L, std::array<char*, 2>{dst.data(), src.data()}, row);
}

Array cast_to(const Array& src, DType dtype) {
  Array out = Array::empty(src.shape(), dtype, src.device());
  cast_into(out, src);
  return out;
}

}  // namespace dla
