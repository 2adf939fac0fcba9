// row_keys.h — what the CPU kernels that order rows share (sort_cpu.cpp, partition_cpu.cpp):
// scratch buffers, the walk over the rows along an axis, and a row's order keys (order_keys.h)
// made from strided values and turned back into values, vectorized for AVX-512 and AVX2.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>

#include "backends/cpu/order_keys.h"
#include "core/array.h"
#include "core/cpu_features.h"

namespace dla::cpu {

template <class T>
std::unique_ptr<T[]> buffer(int64_t n) {
  return std::unique_ptr<T[]>(new T[size_t(std::max<int64_t>(n, 1))]);
}

// Element offset in x of row r of the sort along `axis` (rows enumerate the other axes in
// row-major order, as the row-major output does).
struct RowWalker {
  int ndim = 0;
  int64_t shape[kMaxRank], stride[kMaxRank];  // the other axes
  explicit RowWalker(const Array& x, int axis) {
    for (int d = 0; d < x.ndim(); ++d)
      if (d != axis) {
        shape[ndim] = x.shape(d);
        stride[ndim] = x.stride(d);
        ++ndim;
      }
  }
  int64_t offset(int64_t r) const {
    int64_t off = 0;
    for (int d = ndim - 1; d >= 0; --d) {
      off += (r % shape[d]) * stride[d];
      r /= shape[d];
    }
    return off;
  }
};

// The keys of n values at stride xs into keys[0..n), XORed with flip; returns whether every
// value comes back from its key with its bits (no -0, no NaN but the quiet one). Branch-free
// and split by stride, so that contiguous rows vectorize; compiled once more for AVX-512 and
// for AVX2 (below).
template <class T, class K>
__attribute__((always_inline)) inline bool make_keys_body(const T* x, int64_t xs, int64_t n, K flip, K* keys) {
  using OK = OrderKey<T>;
  K inexact = 0;  // (an integer OR: a bool reduction does not vectorize)
  if (xs == 1) {
    for (int64_t i = 0; i < n; ++i) {
      keys[i] = K(OK::of(x[i]) ^ flip);
      if constexpr (OK::kHasNan) inexact |= K(!OK::exact(x[i]));
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      keys[i] = K(OK::of(x[i * xs]) ^ flip);
      if constexpr (OK::kHasNan) inexact |= K(!OK::exact(x[i * xs]));
    }
  }
  return inexact == 0;
}

// The values of keys[0..n) (XORed with flip) into out at stride os.
template <class T, class K>
__attribute__((always_inline)) inline void values_from_keys_body(const K* keys, int64_t n, K flip, T* out, int64_t os) {
  using OK = OrderKey<T>;
  if (os == 1) {
    for (int64_t i = 0; i < n; ++i) out[i] = OK::value(K(keys[i] ^ flip));
  } else {
    for (int64_t i = 0; i < n; ++i) out[i * os] = OK::value(K(keys[i] ^ flip));
  }
}

// The two bodies compiled for AVX-512 (where 64-bit unsigned compares and selects are single
// instructions) and for AVX2 (64-bit compares; the baseline build has none, and float64 keys
// took 2 ms a pass for 10^6 there).
#define DLA_KEYS_FOR(ISA, TARGET)                                                                   \
  template <class T, class K>                                                                       \
  __attribute__((target(TARGET))) bool make_keys_##ISA(const T* x, int64_t xs, int64_t n, K flip, K* keys) { \
    return make_keys_body(x, xs, n, flip, keys);                                                    \
  }                                                                                                 \
  template <class T, class K>                                                                       \
  __attribute__((target(TARGET))) void values_from_keys_##ISA(const K* keys, int64_t n, K flip, T* out, int64_t os) { \
    values_from_keys_body(keys, n, flip, out, os);                                                  \
  }
DLA_KEYS_FOR(avx512, "avx512f,avx512dq,avx512vl")
DLA_KEYS_FOR(avx2, "avx2")
#undef DLA_KEYS_FOR

template <class T, class K>
bool make_keys(const T* x, int64_t xs, int64_t n, K flip, K* keys) {
  if (vector_level() == VectorLevel::Avx512) return make_keys_avx512(x, xs, n, flip, keys);
  if (vector_level() == VectorLevel::Avx2Fma) return make_keys_avx2(x, xs, n, flip, keys);
  return make_keys_body(x, xs, n, flip, keys);
}
template <class T, class K>
void values_from_keys(const K* keys, int64_t n, K flip, T* out, int64_t os) {
  if (vector_level() == VectorLevel::Avx512) return values_from_keys_avx512(keys, n, flip, out, os);
  if (vector_level() == VectorLevel::Avx2Fma) return values_from_keys_avx2(keys, n, flip, out, os);
  values_from_keys_body(keys, n, flip, out, os);
}

}  // namespace dla::cpu
