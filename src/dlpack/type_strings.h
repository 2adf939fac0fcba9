// type_strings.h — the one map between the protocols' type strings and dlarray dtypes.
//
// Besides DLPack's own (code, bits, lanes), element types travel between Python libraries in
// two spellings: the buffer protocol's struct-module format ("l", "Zd", ...) and the array
// interface's typestr ("<i8", "|b1", "<c16": byte order, kind, item size), which
// __array_interface__, __cuda_array_interface__ and __sycl_usm_array_interface__ share.
// What we export is NumPy's spelling character for character (scipy.ndimage and others compare
// formats); imports accept every spelling of the same type. Plain C++: no Python here.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/dtype.h"

namespace dla {

// The buffer-protocol format NumPy gives the dtype on this platform (int64 is "l" where C long
// has 64 bits, "q" where it has 32); nullptr for dtypes NumPy has no format for (bfloat16, fp8...).
const char* buffer_format(const DType& d);

// The dtype of a buffer-protocol format with the given item size; an optional byte-order prefix
// ('@', '=', '<') is accepted. Throws BufferError for big-endian and unknown formats.
DType dtype_from_buffer_format(std::string_view format, int64_t itemsize);

// The array-interface typestr NumPy gives the dtype ("<f8", "|u1", "|b1"); empty for dtypes
// NumPy cannot describe.
std::string typestr_of(const DType& d);

// The dtype of an array-interface typestr ('<', '|' or '=' byte order, kind b/i/u/f/c, size).
// Throws BufferError for big-endian and unknown typestrs.
DType dtype_from_typestr(std::string_view typestr);

}  // namespace dla
