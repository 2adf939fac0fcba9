// search_sort_ops.h — THE declaration of the searching, sorting and set functions.
//
// One row per function of those three chapters of the array API (`where` is elementwise and
// lives in elementwise_ops.h), and of NumPy's selection functions beyond the standard
// (partition, argpartition): its chapter, the device primitive that runs it (Prim, one entry
// of the SearchSortKernels table in search_sort.h, so a GPU backend registers the same
// primitives and gets all the functions; Partition may stay null, then Sort serves it), a primitive-specific flag, the dtype kinds it
// accepts, the parameters of its stub and a one-line summary. The bindings (py_searching.cpp,
// py_sorting.cpp, py_sets.cpp), the planning (search_sort.cpp) and the tests
// (dlarray._core._search_sort_ops()) all read this table.
#pragma once
#include <cstdint>

#include "core/elementwise_ops.h"

namespace dla {

enum class SearchChapter : uint8_t { Searching, Sorting, Sets, Selection };  // Selection: beyond the standard

// The device primitive behind a function (see SearchSortKernels).
enum class SearchPrim : uint8_t {
  ArgExtreme,    // flag: 1 = maximum, 0 = minimum
  CountNonzero,  // composed from the reduction kernels (a cast to bool, then an int64 sum)
  Nonzero,
  SearchSorted,
  Sort,          // flag: 1 = values (sort), 0 = indices (argsort)
  IsIn,
  Unique,        // flag: the UniquePart bits the function returns besides the values
  Partition,     // flag: 1 = values (partition), 0 = indices (argpartition)
};

enum UniquePart : uint8_t { kUniqueIndices = 1, kUniqueInverse = 2, kUniqueCounts = 4 };

#define DLA_SS_AXIS_KEEP "x, /, *, axis=None, keepdims=False"
#define DLA_SS_SORT "x, /, *, axis=-1, descending=False, stable=True"
#define DLA_SS_PARTITION "x, kth, /, *, axis=-1"

// X(name, chapter, primitive, flag, accepted kinds, params, summary)
#define DLA_SEARCH_SORT_OPS(X)                                                                         \
  X(argmax, Searching, ArgExtreme, 1, kKindAny, DLA_SS_AXIS_KEEP,                                      \
    "Index of the first largest element along an axis (or of the flattened array); NaN counts as largest.") \
  X(argmin, Searching, ArgExtreme, 0, kKindAny, DLA_SS_AXIS_KEEP,                                      \
    "Index of the first smallest element along an axis (or of the flattened array); NaN counts as smallest.") \
  X(count_nonzero, Searching, CountNonzero, 0, kKindAny, DLA_SS_AXIS_KEEP,                             \
    "Number of nonzero elements along the axes.")                                                      \
  X(nonzero, Searching, Nonzero, 0, kKindAny, "x, /",                                                  \
    "Indices of the nonzero elements, one array per axis, in row-major order.")                        \
  X(searchsorted, Searching, SearchSorted, 0, kKindAny, "x1, x2, /, *, side='left', sorter=None",       \
    "Insertion points of x2 in the ascending 1-d x1 (or x1 taken in sorter's order).")                 \
  X(argsort, Sorting, Sort, 0, kKindAny, DLA_SS_SORT,                                                  \
    "Indices that sort x along an axis; stable by default, NaN after every number.")                  \
  X(sort, Sorting, Sort, 1, kKindAny, DLA_SS_SORT,                                                     \
    "Sorted copy of x along an axis; stable by default, NaN after every number.")                     \
  X(isin, Sets, IsIn, 0, kKindAny, "x1, x2, /, *, invert=False",                                       \
    "Whether each element of x1 equals some element of x2 (NaN equals nothing).")                     \
  X(unique_all, Sets, Unique, kUniqueIndices | kUniqueInverse | kUniqueCounts, kKindAny, "x, /",       \
    "Unique values of the flattened x with first indices, inverse indices and counts.")               \
  X(unique_counts, Sets, Unique, kUniqueCounts, kKindAny, "x, /",                                      \
    "Unique values of the flattened x and their counts.")                                              \
  X(unique_inverse, Sets, Unique, kUniqueInverse, kKindAny, "x, /",                                    \
    "Unique values of the flattened x and the indices that rebuild x from them.")                     \
  X(unique_values, Sets, Unique, 0, kKindAny, "x, /",                                                  \
    "Unique values of the flattened x (NaNs distinct, -0 and +0 one value), in ascending order.")         \
  X(argpartition, Selection, Partition, 0, kKindAny, DLA_SS_PARTITION,                                 \
    "Indices that partition x along an axis (None: flattened) around the kth positions, as NumPy's.")  \
  X(partition, Selection, Partition, 1, kKindAny, DLA_SS_PARTITION,                                    \
    "Copy of x with each kth element where a sort puts it, none larger before, none smaller after.")

enum class SearchSortOpId : uint8_t {
#define DLA_X(name, ...) name,
  DLA_SEARCH_SORT_OPS(DLA_X)
#undef DLA_X
      kCount
};

struct SearchSortOpInfo {
  const char* name;
  SearchChapter chapter;
  SearchPrim prim;
  int flag;
  uint8_t kinds;
  const char* params;
  const char* summary;
};

inline const SearchSortOpInfo& search_sort_op_info(SearchSortOpId id) {
  static const SearchSortOpInfo table[] = {
#define DLA_X(name, chapter, prim, flag, kinds, params, summary) \
  {#name, SearchChapter::chapter, SearchPrim::prim, flag, uint8_t(kinds), params, summary},
      DLA_SEARCH_SORT_OPS(DLA_X)
#undef DLA_X
  };
  return table[static_cast<int>(id)];
}

}  // namespace dla
