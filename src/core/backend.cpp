// backend.cpp — the table of registered device backends, one slot per DLPack device type.
#include "core/backend.h"

namespace dla {
namespace {

constexpr int kMaxKinds = 32;  // DLPack device type codes in use are below this
DeviceBackend g_backends[kMaxKinds];
const DeviceBackend kNone{};

bool in_range(DeviceKind kind) { return static_cast<int>(kind) >= 0 && static_cast<int>(kind) < kMaxKinds; }

}  // namespace

void register_backend(DeviceKind kind, const DeviceBackend& backend) {
  if (in_range(kind)) g_backends[static_cast<int>(kind)] = backend;
}

void unregister_backend(DeviceKind kind) {
  if (in_range(kind)) g_backends[static_cast<int>(kind)] = DeviceBackend{};
}

const DeviceBackend& backend_of(DeviceKind kind) {
  return in_range(kind) ? g_backends[static_cast<int>(kind)] : kNone;
}

}  // namespace dla
