// gather.h — the byte movers behind advanced indexing: blocks addressed by a list of offsets.
//
// Integer-array and mask indexing reduce to "block i lives at sparse + offsets[i]" on one
// side and "block i is the i-th slot of a regular layout" on the other. Every block has the
// same shape and strides (the axes the index arrays did not touch). Gathers read the sparse
// side (x[idx]); scatters write it (x[idx] = v), later blocks overwriting earlier ones.
#pragma once
#include <cstdint>

#include "core/dims.h"
#include "core/dtype.h"

namespace dla {

struct BlockMove {
  int64_t count = 0;                 // number of blocks
  const int64_t* offsets = nullptr;  // byte offset of each block from `sparse`
  char* sparse = nullptr;
  char* dense = nullptr;
  int64_t dense_step = 0;            // bytes from one dense block to the next
  Dims block_shape;                  // shape of one block (may be empty: one element)
  Dims sparse_strides, dense_strides;  // bytes, per block axis
  int64_t itemsize = 0;
};

// dense blocks <- sparse blocks (host memory).
void gather_blocks(const BlockMove& m);
// sparse blocks <- dense blocks (host memory).
void scatter_blocks(const BlockMove& m);

// x[idx] for a single integer index array selecting whole elements (host memory), in one pass:
// dense[k] = the element at sparse + wrap(index[k]) * stride_bytes, k < n, with `index` a
// C-contiguous array of integer type `index_type`, negatives wrapping once, and elements of
// `itemsize` bytes (1, 2, 4 or 8). Returns false where that does not apply (other item sizes)
// or an index lies outside [-len, len); the caller then takes the general path, which
// reports the index. An out-of-range index is never dereferenced.
bool gather_indexed_elements(const void* index, ScalarType index_type, int64_t n, int64_t len, int64_t stride_bytes,
                             const char* sparse, char* dense, int64_t itemsize);

}  // namespace dla
