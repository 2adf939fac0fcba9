// strided_loop.h — N-d iteration over several operands as a sequence of 1-d inner loops.
//
// Every CPU kernel is a 1-d loop `f(ptrs, byte_strides, n)`; this header turns an N-d
// strided problem into calls of it. Dimensions are first coalesced (size-1 axes dropped,
// adjacent axes merged when every operand is contiguous across them), so a contiguous
// array of any rank becomes a single call with unit strides: the fast path falls out of
// the general one instead of being written twice.
#pragma once
#include <array>
#include <cstdint>

#include "core/dims.h"

namespace dla {

template <int N>
struct LoopLayout {
  int ndim = 0;                              // after coalescing; 0 means a single element
  int64_t shape[kMaxRank];
  int64_t strides[N][kMaxRank];              // bytes
};

// shape: common (broadcast) shape; byte_strides[k][d]: stride in bytes of operand k on axis d.
template <int N>
LoopLayout<N> coalesce(const Dims& shape, const std::array<const int64_t*, N>& byte_strides) {
  LoopLayout<N> L;
  for (int d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (shape[d] == 0) {  // empty: one zero-length loop
      L.ndim = 1;
      L.shape[0] = 0;
      for (int k = 0; k < N; ++k) L.strides[k][0] = 0;
      return L;
    }
    if (L.ndim > 0) {
      int p = L.ndim - 1;
      bool mergeable = true;
      for (int k = 0; k < N; ++k)
        if (L.strides[k][p] != byte_strides[k][d] * shape[d]) {
          mergeable = false;
          break;
        }
      if (mergeable) {
        L.shape[p] *= shape[d];
        for (int k = 0; k < N; ++k) L.strides[k][p] = byte_strides[k][d];
        continue;
      }
    }
    L.shape[L.ndim] = shape[d];
    for (int k = 0; k < N; ++k) L.strides[k][L.ndim] = byte_strides[k][d];
    ++L.ndim;
  }
  return L;
}

// Calls f(char* ptrs[N], const int64_t inner_strides[N], int64_t n) for each innermost row.
template <int N, class F>
void for_each_row(const LoopLayout<N>& L, std::array<char*, static_cast<size_t>(N)> base, F&& f) {
  int64_t inner[N];
  if (L.ndim == 0) {
    for (int k = 0; k < N; ++k) inner[k] = 0;
    f(base.data(), inner, int64_t(1));
    return;
  }
  const int last = L.ndim - 1;
  for (int k = 0; k < N; ++k) inner[k] = L.strides[k][last];
  const int64_t n = L.shape[last];
  if (n == 0) return;
  if (L.ndim == 1) {
    f(base.data(), inner, n);
    return;
  }
  int64_t idx[kMaxRank] = {};
  std::array<char*, static_cast<size_t>(N)> p = base;
  for (;;) {
    f(p.data(), inner, n);
    int d = last - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < L.shape[d]) {
        for (int k = 0; k < N; ++k) p[k] += L.strides[k][d];
        break;
      }
      for (int k = 0; k < N; ++k) p[k] -= L.strides[k][d] * (L.shape[d] - 1);
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

// for_each_row restricted to the flat element range [begin, end) of the coalesced layout.
template <int N, class F>
void for_each_row_range(const LoopLayout<N>& L, const std::array<char*, N>& base, int64_t begin, int64_t end,
                        F&& f) {
  const int last = L.ndim - 1;
  const int64_t inner = L.shape[last];
  int64_t idx[kMaxRank];
  int64_t row = begin / inner, col = begin % inner;
  for (int d = last - 1; d >= 0; --d) {
    idx[d] = row % L.shape[d];
    row /= L.shape[d];
  }
  std::array<char*, N> p = base;
  int64_t inner_strides[N];
  for (int k = 0; k < N; ++k) {
    inner_strides[k] = L.strides[k][last];
    for (int d = 0; d < last; ++d) p[k] += idx[d] * L.strides[k][d];
  }
  int64_t remaining = end - begin;
  while (remaining > 0) {
    const int64_t cnt = inner - col < remaining ? inner - col : remaining;
    char* q[N];
    for (int k = 0; k < N; ++k) q[k] = p[k] + col * inner_strides[k];
    f(q, inner_strides, cnt);
    remaining -= cnt;
    col = 0;
    for (int d = last - 1; d >= 0; --d) {
      if (++idx[d] < L.shape[d]) {
        for (int k = 0; k < N; ++k) p[k] += L.strides[k][d];
        break;
      }
      for (int k = 0; k < N; ++k) p[k] -= L.strides[k][d] * (L.shape[d] - 1);
      idx[d] = 0;
    }
  }
}

}  // namespace dla
