// errors.h — the exception vocabulary of the C++ core.
//
// Each class maps to the Python exception the array API standard names; the bindings
// register one translator for all of them (src/bindings/module.cpp), so core code throws
// these and never touches the Python error state itself.
#pragma once
#include <stdexcept>
#include <string>

namespace dla {

struct ValueError : std::runtime_error { using std::runtime_error::runtime_error; };
struct TypeError : std::runtime_error { using std::runtime_error::runtime_error; };
struct IndexError : std::runtime_error { using std::runtime_error::runtime_error; };
struct BufferError : std::runtime_error { using std::runtime_error::runtime_error; };
struct OverflowError : std::runtime_error { using std::runtime_error::runtime_error; };
struct MemoryError : std::runtime_error { using std::runtime_error::runtime_error; };
struct NotImplementedError : std::runtime_error { using std::runtime_error::runtime_error; };
// A device or runtime failure (driver error, device missing at run time).
struct RuntimeError : std::runtime_error { using std::runtime_error::runtime_error; };

}  // namespace dla
