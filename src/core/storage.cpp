// storage.cpp — creation and destruction of Storage (both layouts, storage.h).
#include "core/storage.h"

#include <new>
#include <string>

#include "core/errors.h"

namespace dla {

StoragePtr Storage::allocate(size_t nbytes, Device device, StreamHandle stream) {
  Allocator* a = find_allocator(device.kind);
  if (!a)
    throw ValueError("device '" + device.str() + "' is not available: this build of dlarray has no " +
                     device_kind_name(device.kind) + " backend");
  if (nbytes <= kInlineBytes) {
    if (void* block = a->allocate_small(sizeof(Storage) + nbytes, device))
      return StoragePtr(new (block) Storage(device, true, nbytes));
  }
  DataPtr d = a->allocate(nbytes, device, stream);
  try {
    return StoragePtr(new ExternalStorage(d, nbytes, device));
  } catch (...) {
    if (d.deleter) d.deleter(d.ctx, d.ptr);
    throw;
  }
}

StoragePtr Storage::adopt(DataPtr data, size_t nbytes, Device device) {
  return StoragePtr(new ExternalStorage(data, nbytes, device));
}

ExternalStorage::~ExternalStorage() {
  if (data_.deleter) data_.deleter(data_.ctx, data_.ptr);
}

void Storage::destroy(Storage* s) {
  if (!s->inline_) {
    delete static_cast<ExternalStorage*>(s);
    return;
  }
  const size_t total = sizeof(Storage) + s->inline_nbytes_;
  const DeviceKind kind = static_cast<DeviceKind>(s->device_kind_);
  s->~Storage();
  // Only an allocator that gave the block out (allocate_small) makes inline storage.
  find_allocator(kind)->free_small(s, total);
}

}  // namespace dla
