// py_exchange_api.h — dlarray's own DLPackExchangeAPI (producer side) and peers' tables (consumer side).
#pragma once
#include <Python.h>

#include "dlpack/dlpack.h"

namespace dla::py {

// The process-lifetime table published on dlarray.Array.
const DLPackExchangeAPI* dlarray_exchange_api();

// A peer's table for `type`, or nullptr: looked up once per type (the 1.3 capsule attribute
// first, then the 1.2 int), validated (an int or a capsule of the right name, not NULL,
// aligned, readable, walking prev_api to a major-1 table with its required functions) and
// cached. Never raises: when the type publishes something that cannot be a table, nullptr
// is returned and *problem (if given) says why, so that the caller can fall back to
// __dlpack__ or name the problem when there is nothing to fall back to.
const DLPackExchangeAPI* peer_exchange_api(PyTypeObject* type, const char** problem = nullptr);

}  // namespace dla::py
