// py_dlpack.h — the Python side of DLPack: the consumer entry point shared by from_dlpack and
// asarray, and the reading of `stream=` (the rules themselves are src/dlpack/stream_sync.h).
#pragma once
#include <Python.h>

#include "core/array.h"
#include "dlpack/stream_sync.h"

namespace dla::py {

// Imports any DLPack producer (a peer's C table first, then __dlpack__), honouring
// device (may be null) and copy (-1 None, 0 False, 1 True). *copied tells whether the
// result owns fresh memory. Raises (C++ or Python error) on failure. use_peer_tables=false
// forces the __dlpack__ path (tests and benchmarks compare the two).
Array import_dlpack(PyObject* x, const Device* want, int copy, bool* copied, bool use_peer_tables = true);

// `stream=` (None or an int; TypeError otherwise) checked against target's rules.
StreamRequest parse_stream_request(Device target, PyObject* stream);

}  // namespace dla::py
