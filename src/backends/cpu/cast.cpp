// cast.cpp — the CPU's dtype-converting loops over host memory (astype, asarray(dtype=), fills).
//
// Rows over convert() (core/convert.h): cast_kernels.h's for every (to, from) pair of the 13
// computing dtypes, and those of float16 and bfloat16 here; float -> integer conversions of NaN and
// out-of-range values are defined (saturating to the target's range, NaN -> 0) instead of
// being C++ undefined behaviour. core/cast.cpp checks the pair and the shapes, copies an
// overlapping source and routes float16 <-> bfloat16 through float32 before these run.
#include "backends/cpu/cast.h"

#include <array>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "backends/cpu/cast_kernels.h"
#include "backends/cpu/half_convert.h"
#include "core/convert.h"
#include "core/dispatch.h"
#include "core/half.h"
#include "core/strided_loop.h"

namespace dla::cpu {
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
      if (s[1] == sizeof(float)) return narrow_half_row(kHalf, reinterpret_cast<const float*>(src), d, s[0], n);
    } else {
      if (s[0] == sizeof(float)) return widen_half_row(kHalf, src, s[1], reinterpret_cast<float*>(d), n);
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
  return cast_rows()[static_cast<int>(to.scalar)][static_cast<int>(from.scalar)];
}

}  // namespace

void cast_host(const Array& dst, const Array& src) {
  RowFn row = pick_row(dst.dtype(), src.dtype());
  Dims ds(dst.ndim()), ss(src.ndim());
  for (int i = 0; i < dst.ndim(); ++i) {
    ds[i] = dst.stride(i) * dst.itemsize();
    ss[i] = src.stride(i) * src.itemsize();
  }
  auto L = coalesce<2>(dst.shape(), {ds.data(), ss.data()});
  for_each_row(L, std::array<char*, 2>{dst.data(), src.data()}, row);
}


}  // namespace dla::cpu
