// search_sort.h — running the searching, sorting and set functions of search_sort_ops.h.
//
// The device-independent half: argument rules (axes, dtypes, promotion of x1 with x2, the
// 0-d and 1-d requirements), output shapes and dtypes (indices are int64, the default index
// dtype), keepdims, and the split of unique's parts. The element work is the seven
// primitives of SearchSortKernels, registered per device kind like the reduction kernels.
//
// Order used everywhere (sort, argsort, searchsorted, unique, argmax/argmin ties): numbers in
// ascending order, -0 equal to +0, every NaN after every number; complex numbers by real part,
// then imaginary part (a NaN part counts as larger than any number). `descending` is exactly
// the reverse order of values (so NaNs come first, as in array-api-strict and PyTorch) while
// equal elements keep their original order.
#pragma once
#include <cstdint>
#include <vector>

#include "core/array.h"
#include "core/promotion.h"
#include "core/scalar.h"
#include "core/search_sort_ops.h"

namespace dla {

// The outputs of unique: values always; the others when asked for (empty Array otherwise).
struct UniqueParts {
  Array values;   // 1-d, x's dtype, ascending
  Array indices;  // first occurrence of each value in the flattened x (int64)
  Array inverse;  // x's size, flat (int64): values[inverse] rebuilds x
  Array counts;   // int64
};

// A device's primitives. A GPU backend leaves the ones it has no kernels for null; their
// functions then raise NotImplementedError naming the function and device.
struct SearchSortKernels {
  // Sorts x along `axis` into `values` (x's dtype) and/or `indices` (int64), both row-major
  // with x's shape; an Array with no storage means "not wanted". Always stable.
  void (*sort)(const Array& values, const Array& indices, const Array& x, int axis, bool descending);
  // out (int64, x's shape with extent 1 on `axis`) = position along `axis` of the first
  // largest (is_max) or smallest element; the first NaN wins over every number.
  void (*arg_extreme)(const Array& out, const Array& x, int axis, bool is_max);
  // The coordinates of x's nonzero elements in row-major order: an (ndim, count) int64 array.
  Array (*nonzero)(const Array& x);
  // out (int64, x2's shape) = insertion points of x2 into x1 (1-d, same dtype as x2), which
  // is ascending by itself or, when `sorter` has storage, in the order of sorter (int64,
  // validated by the caller). right: after equal elements instead of before.
  void (*searchsorted)(const Array& out, const Array& x1, const Array& x2, const Array& sorter, bool right);
  // out (bool, x1's shape) = whether x1[i] equals some element of x2 (same dtype), negated
  // when invert. NaN equals nothing, -0 equals +0.
  void (*isin)(const Array& out, const Array& x1, const Array& x2, bool invert);
  // The unique values of x (any shape, flattened row-major) and the parts `parts` asks for.
  UniqueParts (*unique)(const Array& x, int parts);
  // Partitions x along `axis` into `values` and/or `indices` (as sort): for each position k of
  // kth (ascending, distinct, within the axis), the element a sort would put at k is there,
  // with none larger before it and none smaller after. Optional: when null, sort serves
  // (a sorted row is a partition).
  void (*partition)(const Array& values, const Array& indices, const Array& x, int axis,
                    const std::vector<int64_t>& kth);
};

// sort / argsort. axis: any int (checked here).
Array sort_along(SearchSortOpId op, const Array& x, int64_t axis, bool descending, bool stable);
// partition / argpartition (NumPy's): kth positions along axis, negative from the end
// (ValueError "kth(=k) out of bounds (n)" outside); has_axis false: over the flattened array.
Array partition_along(SearchSortOpId op, const Array& x, const std::vector<int64_t>& kth, bool has_axis,
                      int64_t axis);
// argmax / argmin. has_axis false: over the flattened array.
Array arg_extreme(SearchSortOpId op, const Array& x, bool has_axis, int64_t axis, bool keepdims);
// axes: normalized, distinct.
Array count_nonzero(const Array& x, const Dims& axes, bool keepdims);
// One int64 array per axis of x; ValueError for 0-d x.
std::vector<Array> nonzero(const Array& x);
// side_right: side == "right". sorter: null for none.
Array searchsorted(const Array& x1, const Array& x2, bool side_right, const Array* sorter);
Array isin(const Array& x1, const Array& x2, bool invert);
// unique_all / unique_counts / unique_inverse / unique_values; inverse comes shaped like x.
UniqueParts unique(SearchSortOpId op, const Array& x);

// A Python scalar given where an array is expected next to `partner` (searchsorted's and
// isin's scalar arguments): a 0-d array of the dtype the scalar rules give. TypeError when the
// scalar's kind cannot meet partner's dtype, OverflowError for an int out of its range.
Array scalar_as_array(const Scalar& s, PyScalarKind kind, const Array& partner, const char* fname,
                      const char* what);

}  // namespace dla
