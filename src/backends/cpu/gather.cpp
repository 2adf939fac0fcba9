// gather.cpp — host kernels for gather_blocks / scatter_blocks (advanced indexing).
//
// The common cases are one element per block (x[idx] on a 1-d array, masks over all axes),
// which become a tight loop over the offsets with a fixed-size element type, and large
// blocks (x[idx] selecting rows), which become one coalesced strided copy per block.
#include "core/gather.h"

#include <array>
#include <cstring>

#include "core/strided_loop.h"

namespace dla {
namespace {

template <size_t K>
struct Elem {
  char b[K];
};

// One element per block; dense side strided by dense_step.
template <class T, bool Scatter>
void move_elements(const BlockMove& m) {
  const int64_t* off = m.offsets;
  char* dense = m.dense;
  for (int64_t i = 0; i < m.count; ++i, dense += m.dense_step) {
    if constexpr (Scatter)
      std::memcpy(m.sparse + off[i], dense, sizeof(T));
    else
      std::memcpy(dense, m.sparse + off[i], sizeof(T));
  }
}

template <class T>
void copy_rows(char** p, const int64_t* s, int64_t n) {  // p[0] <- p[1]
  if (s[0] == sizeof(T) && s[1] == sizeof(T)) {
    std::memcpy(p[0], p[1], n * sizeof(T));
    return;
  }
  char* d = p[0];
  const char* src = p[1];
  for (int64_t i = 0; i < n; ++i, d += s[0], src += s[1]) std::memcpy(d, src, sizeof(T));
}

template <class T, bool Scatter>
void move_blocks(const BlockMove& m) {
  // Operand 0 is the destination, 1 the source.
  const Dims& dst_st = Scatter ? m.sparse_strides : m.dense_strides;
  const Dims& src_st = Scatter ? m.dense_strides : m.sparse_strides;
  auto L = coalesce<2>(m.block_shape, {dst_st.data(), src_st.data()});
  if (L.ndim == 0) return move_elements<T, Scatter>(m);
  char* dense = m.dense;
  for (int64_t i = 0; i < m.count; ++i, dense += m.dense_step) {
    char* sparse = m.sparse + m.offsets[i];
    std::array<char*, 2> base = Scatter ? std::array<char*, 2>{sparse, dense} : std::array<char*, 2>{dense, sparse};
    for_each_row(L, base, copy_rows<T>);
  }
}

template <bool Scatter>
void dispatch(const BlockMove& m) {
  if (m.count == 0) return;
  for (int64_t d : m.block_shape)
    if (d == 0) return;
  switch (m.itemsize) {
    case 1: return move_blocks<Elem<1>, Scatter>(m);
    case 2: return move_blocks<Elem<2>, Scatter>(m);
    case 4: return move_blocks<Elem<4>, Scatter>(m);
    case 8: return move_blocks<Elem<8>, Scatter>(m);
    case 16: return move_blocks<Elem<16>, Scatter>(m);
    case 32: return move_blocks<Elem<32>, Scatter>(m);
  }
  // Other widths (vector-lane storage dtypes): byte-wise.
  const int64_t item = m.itemsize;
  auto L = coalesce<2>(m.block_shape, {(Scatter ? m.sparse_strides : m.dense_strides).data(),
                                       (Scatter ? m.dense_strides : m.sparse_strides).data()});
  char* dense = m.dense;
  for (int64_t i = 0; i < m.count; ++i, dense += m.dense_step) {
    char* sparse = m.sparse + m.offsets[i];
    std::array<char*, 2> base = Scatter ? std::array<char*, 2>{sparse, dense} : std::array<char*, 2>{dense, sparse};
    for_each_row(L, base, [item](char** p, const int64_t* s, int64_t n) {
      for (int64_t k = 0; k < n; ++k) std::memcpy(p[0] + k * s[0], p[1] + k * s[1], item);
    });
  }
}

}  // namespace

void gather_blocks(const BlockMove& m) { dispatch<false>(m); }
void scatter_blocks(const BlockMove& m) { dispatch<true>(m); }

}  // namespace dla
