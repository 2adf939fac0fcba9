// dlpack_core.h — DLPack export and import between dla::Array and DLManagedTensor(Versioned).
//
// No Python here: these functions build and consume the C structs. Capsules, keyword
// handling and peers' exchange tables are in py_dlpack.cpp; the C table dlarray publishes
// is in py_exchange_api.cpp.
#pragma once
#include <cstdint>

#include "core/array.h"
#include "dlpack/dlpack.h"

namespace dla {

// The DLPack version dlarray produces (and the newest it understands).
constexpr DLPackVersion kDLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};

// A new versioned managed tensor viewing `a` (which it keeps alive). Strides are always
// filled, byte_offset is 0, shapes and strides are never rewritten. `extra_flags` is
// or-ed into flags (IS_COPIED); READ_ONLY comes from the array.
DLManagedTensorVersioned* export_versioned(const Array& a, uint64_t extra_flags);
// The legacy (pre-1.0) struct; it has no flags, so callers decide about read-only arrays.
DLManagedTensor* export_legacy(const Array& a);

// Takes ownership of a versioned tensor: on success the returned Array's storage calls the
// deleter when the last view goes; on any failure the deleter is called before throwing
// (BufferError), so the caller never has to.
Array import_versioned(DLManagedTensorVersioned* mt);
Array import_legacy(DLManagedTensor* mt);

// BufferError for a DLDataType dlarray cannot hold (unknown code, zero bits or lanes, bool
// not 8 bits, fp6/fp4 with the wrong bit count).
void check_dl_dtype(const DLDataType& t);
// BufferError when DLPack cannot describe `a` (a strided view of packed sub-byte data).
void check_exportable(const Array& a);
// Fills a borrowed DLTensor pointing into `a`'s own shape/strides (no allocation).
void fill_borrowed(const Array& a, DLTensor* out);

}  // namespace dla
