// gather.h — the byte movers behind advanced indexing: blocks addressed by a list of offsets.
//
// Integer-array and mask indexing reduce to "block i lives at sparse + offsets[i]" on one
// side and "block i is the i-th slot of a regular layout" on the other. Every block has the
// same shape and strides (the axes the index arrays did not touch). Gathers read the sparse
// side (x[idx]); scatters write it (x[idx] = v), later blocks overwriting earlier ones.
#pragma once
#include <cstdint>

#include "core/dims.h"

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

}  // namespace dla
