// storage.cpp — creation and destruction of Storage.
#include "core/storage.h"

namespace dla {

StoragePtr Storage::allocate(size_t nbytes, Device device, StreamHandle stream) {
  DataPtr d = allocator_for(device.kind).allocate(nbytes, device, stream);
  return StoragePtr(new Storage(d, nbytes, device));
}

StoragePtr Storage::adopt(DataPtr data, size_t nbytes, Device device) {
  return StoragePtr(new Storage(data, nbytes, device));
}

Storage::~Storage() {
  if (data_.deleter) data_.deleter(data_.ctx, data_.ptr);
}

}  // namespace dla
