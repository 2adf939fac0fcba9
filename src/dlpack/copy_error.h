// copy_error.h — the C++ side of dlarray.CopyError (copy=False but a copy is needed).
#pragma once
#include "core/errors.h"

namespace dla {
struct CopyForbidden : BufferError {
  using BufferError::BufferError;
};
}  // namespace dla
