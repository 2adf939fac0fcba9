// py_args.h — parsing the integer, axis, shape and array-list arguments of namespace functions.
//
// Shared by the indexing, manipulation and creation bindings so that every function
// accepts the same things (Python ints and objects with __index__, never bools) and
// reports the same errors, naming the function and the argument.
#pragma once
#include <Python.h>

#include <cstdint>
#include <vector>

#include "core/array.h"

namespace dla::py {

// An int or an object with __index__ (bools refused); TypeError otherwise.
int64_t int_arg(PyObject* o, const char* fname, const char* what);
// As int_arg, saturating at the int64 range instead of raising (for offsets such as a
// diagonal index, where every value past the edge means the same).
int64_t saturating_int_arg(PyObject* o, const char* fname, const char* what);
// An int, or a tuple (or list) of them when allow_sequence; a single int gives one entry.
std::vector<int64_t> ints_arg(PyObject* o, const char* fname, const char* what, bool allow_sequence = true);
// A dimension or count (a shape entry, n_rows, num, repetitions): as int_arg, except that an
// int outside int64 is a ValueError as NumPy reports it ("array is too big" above,
// "negative dimensions are not allowed" below), never an OverflowError. Negative values
// that fit are returned: the caller knows whether -1 means something.
int64_t dim_arg(PyObject* o, const char* fname, const char* what);
// dim_arg for an int or a tuple (or list) of them.
std::vector<int64_t> dims_arg(PyObject* o, const char* fname, const char* what);
// The `axis` of a reduction: None -> every axis; an int or a tuple of ints -> those axes,
// normalized to [0, ndim). IndexError when out of range, ValueError when repeated.
Dims reduction_axes_arg(PyObject* o, int ndim, const char* fname);
// A tuple (or list) of Arrays; TypeError naming the first entry that is not one.
std::vector<Array> arrays_arg(PyObject* o, const char* fname, const char* what);
// True or False (not merely truthy); TypeError otherwise, naming the function and argument.
bool bool_arg(PyObject* o, const char* fname, const char* what);
// None -> -1, True -> 1, False -> 0; TypeError otherwise.
int copy_arg(PyObject* o, const char* fname);

}  // namespace dla::py
