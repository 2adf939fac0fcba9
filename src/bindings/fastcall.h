// fastcall.h — keyword parsing for the raw METH_FASTCALL entry points on hot paths, and the
// type version tag their per-type caches key on.
//
// from_dlpack and __dlpack__ are called for every exchange; pybind11's generic argument
// conversion costs more than the exchange itself, so these two parse their few keywords
// here, comparing interned names by pointer first.
#pragma once
#include <Python.h>

#include <cstring>
#include <string>

#include "core/errors.h"

namespace dla::py {

// A type's version tag, or 0 when CPython has invalidated it (the type was modified): the key
// of the per-type caches of the exchange path (a peer's __dlpack__ method, its C table).
inline unsigned int type_version_tag(PyTypeObject* t) {
#if PY_VERSION_HEX < 0x030C0000
  if (!PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG)) return 0;
#endif
  return t->tp_version_tag;
}

template <int N>
struct KwSpec {
  const char* names[N];
  PyObject* interned[N] = {};
  void intern() {
    for (int i = 0; i < N; ++i)
      if (!interned[i]) interned[i] = PyUnicode_InternFromString(names[i]);
  }
};

// Fills values[i] (borrowed, nullptr when absent) from keyword arguments. Throws TypeError
// on an unknown or repeated keyword, naming the function.
template <int N>
void parse_keywords(const char* fname, KwSpec<N>& spec, PyObject* const* args, Py_ssize_t nargs,
                    PyObject* kwnames, PyObject* values[N]) {
  for (int i = 0; i < N; ++i) values[i] = nullptr;
  if (!kwnames) return;
  spec.intern();
  const Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    int match = -1;
    for (int i = 0; i < N && match < 0; ++i)
      if (key == spec.interned[i]) match = i;
    for (int i = 0; i < N && match < 0; ++i)
      if (PyUnicode_Compare(key, spec.interned[i]) == 0) match = i;
    if (match < 0)
      throw TypeError(std::string(fname) + "() got an unexpected keyword argument '" +
                      PyUnicode_AsUTF8(key) + "'");
    if (values[match])
      throw TypeError(std::string(fname) + "() got multiple values for argument '" + spec.names[match] + "'");
    values[match] = args[nargs + k];
  }
}

}  // namespace dla::py
