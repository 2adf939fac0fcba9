// cast.cpp — the CPU's dtype-converting loops over host memory (astype, asarray(dtype=), fills).
//
// Rows over convert() (core/convert.h): cast_kernels.h's for every (to, from) pair of the 13
// computing dtypes, and those of float16 and bfloat16 here; float -> integer conversions of NaN and
// out-of-range values are defined (saturating to the target's range, NaN -> 0) instead of
// being C++ undefined behaviour. core/cast.cpp checks the pair and the shapes, copies an
// overlapping source and routes float16 <-> bfloat16 through float32 before these run.
#include "backends/cpu/cast.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <type_traits>

#include "backends/cpu/cast_kernels.h"
#include "backends/cpu/half_convert.h"
#include "backends/cpu/parallel.h"
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

// Conversions walk the destination in its memory order (axes by decreasing stride), so that a
// K-ordered result of a transposed source (astype) is one contiguous pass over both. Where the
// source still runs across the destination's rows (a transposing conversion), the rows are cut
// into square tiles whose source lines stay in cache. Large conversions split over threads.
void cast_host(const Array& dst, const Array& src) {
  RowFn row = pick_row(dst.dtype(), src.dtype());
  const int n = dst.ndim();
  int perm[kMaxRank];
  std::iota(perm, perm + n, 0);
  auto mag = [](int64_t v) { return v < 0 ? -v : v; };
  std::stable_sort(perm, perm + n, [&](int a, int b) { return mag(dst.stride(a)) > mag(dst.stride(b)); });
  Dims shape(n), ds(n), ss(n);
  for (int d = 0; d < n; ++d) {
    shape[d] = dst.shape(perm[d]);
    ds[d] = dst.stride(perm[d]) * dst.itemsize();
    ss[d] = src.stride(perm[d]) * src.itemsize();
  }
  const LoopLayout<2> L = coalesce<2>(shape, {ds.data(), ss.data()});
  const std::array<char*, 2> base{dst.data(), src.data()};
  const int64_t total = dst.size();
  constexpr int64_t kTile = 64;
  if (L.ndim == 2 && L.shape[0] >= 2 * kTile && L.shape[1] >= 2 * kTile && mag(L.strides[1][1]) > 64 &&
      mag(L.strides[1][1]) > mag(L.strides[1][0])) {
    const int64_t rows = L.shape[0], cols = L.shape[1], row_tiles = (rows + kTile - 1) / kTile;
    auto tiles = [&](int64_t tb, int64_t te) {
      for (int64_t c0 = 0; c0 < cols; c0 += kTile)
        for (int64_t r = tb * kTile; r < std::min(rows, te * kTile); ++r) {
          char* p[2] = {base[0] + r * L.strides[0][0] + c0 * L.strides[0][1],
                        base[1] + r * L.strides[1][0] + c0 * L.strides[1][1]};
          const int64_t inner[2] = {L.strides[0][1], L.strides[1][1]};
          row(p, inner, std::min(kTile, cols - c0));
        }
    };
    if (total < 2 * kGrainSize) return tiles(0, row_tiles);
    return parallel_for(row_tiles, 1, tiles);
  }
  if (total < 2 * kGrainSize || L.ndim == 0) return for_each_row(L, base, row);
  parallel_for(total, kGrainSize, [&](int64_t b, int64_t e) { for_each_row_range<2>(L, base, b, e, row); });
}

}  // namespace dla::cpu
