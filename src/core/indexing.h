// indexing.h — x[key] and x[key] = value in the core: the index language, views, gather/scatter.
//
// A key is a list of IndexItems (the bindings parse Python objects into it). Basic items
// (integers, slices, Ellipsis, None) only change the layout and give a view; array items
// (integer arrays, boolean masks) become per-element byte offsets into that view, and the
// bytes are moved by the gather/scatter kernels. NumPy's semantics throughout: index arrays
// broadcast together, and their result axes go where the first one was when all advanced
// items are adjacent in the key, else in front.
#pragma once
#include <cstdint>

#include "core/array.h"
#include "core/scalar.h"

namespace dla {

// A plain aggregate: keys live in uninitialised stack arrays on the x[i] hot path.
struct IndexItem {
  enum class Kind : uint8_t { Integer, Slice, Ellipsis, NewAxis, Array };
  Kind kind;
  // Integer: `start` is the index. Slice: start/stop/step as Python's PySlice_Unpack gives
  // them (omitted bounds become +-INT64_MAX; step is never 0).
  int64_t start, stop, step;
  const Array* array;  // Kind::Array: an integer or boolean array (borrowed)

  static IndexItem integer(int64_t i) { return {Kind::Integer, i, 0, 1, nullptr}; }
  static IndexItem slice(int64_t start, int64_t stop, int64_t step) { return {Kind::Slice, start, stop, step, nullptr}; }
  static IndexItem full() { return slice(0, INT64_MAX, 1); }
  static IndexItem of(const Array& a) { return {Kind::Array, 0, 0, 1, &a}; }
  static IndexItem marker(Kind k) { return {k, 0, 0, 1, nullptr}; }  // Ellipsis, NewAxis
};

// Keys longer than this cannot index any array (64 axes consumed plus 64 new ones, one Ellipsis).
constexpr int kMaxIndexItems = 2 * kMaxRank + 1;

// Python's slice normalisation: clamps start/stop to [0, len] (or [-1, len-1] backwards) and
// returns the number of selected elements.
// (Inline: it is on the x[1:3] hot path.)
inline int64_t adjust_slice(int64_t len, int64_t* start, int64_t* stop, int64_t step) {
  auto clamp = [&](int64_t* v) {
    if (*v < 0) {
      *v = *v < -len ? (step < 0 ? -1 : 0) : *v + len;
    } else if (*v >= len) {
      *v = step < 0 ? len - 1 : len;
    }
  };
  clamp(start);
  clamp(stop);
  if (step < 0) return *stop < *start ? (*start - *stop - 1) / (-step) + 1 : 0;
  return *start < *stop ? (*stop - *start - 1) / step + 1 : 0;
}

// x[i], x[i, j], x[1:3]: keys of integers and slices only, which never need the general plan.
// basic_view fills `v` with the view's layout (byte offset, shape, strides), or returns false
// for any other key; IndexError for an integer out of range. getitem's
// first step, and the bindings' too, which build such views in place (py_indexing.cpp).
struct BasicView {
  int64_t offset;
  int ndim;
  int64_t shape[kMaxRank], strides[kMaxRank];
};
bool basic_view(const Array& x, const IndexItem* key, int n, BasicView* v);

// x[key]: a view when the key is basic, a new array when it holds index arrays. Raises
// IndexError for out-of-range integers, too many indices, a second Ellipsis, non-integer
// index arrays and masks whose shape does not match.
Array getitem(const Array& x, const IndexItem* key, int n);

// x[key] = value, with value broadcast to the selection and converted to x's dtype
// (a complex value into a real array is a TypeError). ValueError when x is read-only.
void setitem(const Array& x, const IndexItem* key, int n, const Array& value);
// x[key] = a Python number, under the operators' rule for Python scalars (promotion.h) with
// the result dtype x's own: bool into bool arrays, int into numeric arrays (OverflowError
// outside an integer dtype's range), float into floating arrays, complex into complex
// arrays; TypeError otherwise.
void setitem(const Array& x, const IndexItem* key, int n, const Scalar& value);

// take(x, indices, axis): x[(:,)*axis + (indices,)]; axis already normalised.
Array take(const Array& x, const Array& indices, int axis);
// take_along_axis: x and indices broadcast against each other except along axis.
Array take_along_axis(const Array& x, const Array& indices, int axis);

// The integer held by a 0-d integer array (an index given as an array).
int64_t index_scalar(const Array& a);

}  // namespace dla
