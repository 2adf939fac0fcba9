// storage.cpp — creation and destruction of Storage.
#include "core/storage.h"

#include <string>

#include "core/errors.h"

namespace dla {

StoragePtr Storage::allocate(size_t nbytes, Device device, StreamHandle stream) {
  Allocator* a = find_allocator(device.kind);
  if (!a)
    throw ValueError("device '" + device.str() + "' is not available: this build of dlarray has no " +
                     device_kind_name(device.kind) + " backend");
  DataPtr d = a->allocate(nbytes, device, stream);
  return StoragePtr(new Storage(d, nbytes, device));
}

StoragePtr Storage::adopt(DataPtr data, size_t nbytes, Device device) {
  return StoragePtr(new Storage(data, nbytes, device));
}

Storage::~Storage() {
  if (data_.deleter) data_.deleter(data_.ctx, data_.ptr);
}

}  // namespace dla
