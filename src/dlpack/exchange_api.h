// exchange_api.h — dlarray's own DLPackExchangeAPI (producer side) and peers' tables (consumer side).
#pragma once
#include <Python.h>

#include "dlpack/dlpack.h"

namespace dla::py {

// The process-lifetime table published on dlarray.Array.
const DLPackExchangeAPI* dlarray_exchange_api();

// A peer's table for `type`, or nullptr: looked up once per type (the 1.3 capsule attribute
// first, then the 1.2 int), version-checked (walking prev_api to a major-1 table), cached.
// Never raises; a malformed attribute counts as "no table".
const DLPackExchangeAPI* peer_exchange_api(PyTypeObject* type);

}  // namespace dla::py
