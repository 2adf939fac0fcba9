// dlpack_core.cpp — building and consuming DLPack managed tensors.
#include "dlpack/dlpack_core.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <new>
#include <string>

#include "core/errors.h"
#include "core/hot_path.h"
#include "core/runtime.h"

namespace dla {
namespace {

// One allocation holds the managed tensor and everything it points to.
template <class Managed>
struct ExportHolder {
  Managed managed{};
  Array array;  // keeps the storage alive; its Dims hold shape and strides
};

template <class Managed>
void delete_holder(Managed* self) {
  delete static_cast<ExportHolder<Managed>*>(self->manager_ctx);
}

template <class Managed>
ExportHolder<Managed>* make_holder(const Array& a) {
  check_exportable(a);
  auto* h = new ExportHolder<Managed>();
  h->array = a;
  h->managed.manager_ctx = h;
  h->managed.deleter = &delete_holder<Managed>;
  fill_borrowed(h->array, &h->managed.dl_tensor);
  return h;
}

// Packed sub-byte elements are addressed by bytes: only compact row-major layouts make sense.
bool compact_row_major(const Dims& shape, const Dims& strides) {
  int64_t expected = 1;
  for (int i = shape.size() - 1; i >= 0; --i) {
    if (shape[i] == 0) return true;
    if (shape[i] != 1 && strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}


// Builds the Array for a DLTensor whose memory `release` frees. Throws BufferError on a
// tensor dlarray cannot describe; the caller then releases the tensor. Accepts what older
// producers send: NULL strides (compact row-major), NULL shape when ndim == 0, NULL data
// when there are no elements, a nonzero byte_offset, negative and zero strides.
DLA_HOT Array array_from_dltensor(const DLTensor& t, DataPtr release, uint64_t flags) {
  const int ndim = t.ndim;
  if (ndim < 0 || ndim > kMaxRank)
    throw BufferError("DLPack tensor has ndim " + std::to_string(ndim) + "; dlarray supports 0.." +
                      std::to_string(kMaxRank));
  check_dl_dtype(t.dtype);
  if (flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED)
    throw BufferError("DLPack tensors with padded sub-byte elements are not supported; send them packed");
  Device device = device_from_dl(t.device);
  if (!device.host_accessible()) {
    DeviceRuntime* rt = find_runtime(device.kind);
    if (rt == nullptr)
      throw BufferError("cannot import a DLPack tensor on '" + device.str() + "': this build of dlarray has no " +
                        device_kind_name(device.kind) + " backend");
    if (device.index >= rt->device_count())
      throw BufferError("cannot import a DLPack tensor on '" + device.str() + "': dlarray sees " +
                        std::to_string(rt->device_count()) + " " + device_kind_name(device.kind) + " device(s)");
  }
  if (ndim > 0 && t.shape == nullptr) throw BufferError("DLPack tensor has ndim > 0 and a NULL shape");
  // Checked on the producer's arrays in place; the Dims are built once, after the checks.
  const int64_t* shape = t.shape;
  for (int i = 0; i < ndim; ++i)
    if (shape[i] < 0) throw BufferError("DLPack tensor has a negative dimension (" + std::to_string(shape[i]) + ")");
  DType dtype(t.dtype);
  // The sizes every Array keeps addressable (checked_size.h): element count, byte count, the
  // bytes the strides span and the offset.
  int64_t n, nbytes, lo, hi, last;
  if (!numel_fits(shape, ndim, &n) || !packed_nbytes_fits(n, dtype.bits(), &nbytes))
    throw BufferError("array is too big; DLPack tensor of shape " + shape_str(Dims(shape, ndim)) + " and dtype " +
                      dtype.name() + " has more than 2**63 - 1 elements or bytes");
  if (t.data == nullptr && n > 0) throw BufferError("DLPack tensor has NULL data but " + std::to_string(n) + " elements");
  if (t.byte_offset > static_cast<uint64_t>(INT64_MAX)) throw BufferError("DLPack tensor's byte_offset is out of range");
  Dims own_strides;  // NULL strides: compact row-major, checked like the producer's own
  const int64_t* strides = t.strides;
  if (strides == nullptr) {
    own_strides = contiguous_strides(Dims(shape, ndim));
    strides = own_strides.data();
  }
  if (dtype.is_subbyte()) {
    if (!compact_row_major(Dims(shape, ndim), Dims(strides, ndim)))
      throw BufferError("strided sub-byte DLPack tensors are not supported (packed sub-byte data must be compact)");
  } else if (!strided_extent_fits(shape, strides, ndim, dtype.itemsize(), &lo, &hi) ||
             !add_fits(static_cast<int64_t>(t.byte_offset), hi, &last)) {
    throw BufferError("DLPack tensor's strides " + shape_str(Dims(strides, ndim)) + " (shape " +
                      shape_str(Dims(shape, ndim)) + ", byte_offset " + std::to_string(t.byte_offset) +
                      ") address more than 2**63 - 1 bytes");
  }
  // Everything that can throw (a rank beyond the inline Dims allocates) happens before the
  // Storage adopts the tensor: from then on its destructor, not our caller, releases it.
  Dims shape_dims(shape, ndim);
  if (t.strides) own_strides.assign(strides, ndim);
  // Storage size is informational for adopted memory.
  return Array(Storage::adopt(release, static_cast<size_t>(nbytes), device), static_cast<int64_t>(t.byte_offset),
               std::move(shape_dims), std::move(own_strides), dtype,
               (flags & DLPACK_FLAG_BITMASK_READ_ONLY) ? kReadOnly : 0);
}

void call_versioned_deleter(void* ctx, void*) {
  auto* mt = static_cast<DLManagedTensorVersioned*>(ctx);
  if (mt->deleter) mt->deleter(mt);
}
void call_legacy_deleter(void* ctx, void*) {
  auto* mt = static_cast<DLManagedTensor*>(ctx);
  if (mt->deleter) mt->deleter(mt);
}

}  // namespace

void check_dl_dtype(const DLDataType& t) {
  if (t.code > kDLFloat4_e2m1fn)
    throw BufferError("DLPack dtype code " + std::to_string(t.code) + " is unknown to dlarray (DLPack 1.3)");
  if (t.bits == 0 || t.lanes == 0)
    throw BufferError("DLPack dtype has zero bits or lanes");
  if (t.code == kDLBool && t.bits != 8) throw BufferError("DLPack bool must have 8 bits");
  if (t.code == kDLFloat6_e2m3fn || t.code == kDLFloat6_e3m2fn) {
    if (t.bits != 6) throw BufferError("DLPack fp6 types must have bits == 6");
  }
  if (t.code == kDLFloat4_e2m1fn && t.bits != 4) throw BufferError("DLPack fp4 must have bits == 4");
}

void check_exportable(const Array& a) {
  if (a.dtype().is_subbyte() && !compact_row_major(a.shape(), a.strides()))
    throw BufferError("DLPack cannot describe a strided view of packed " + a.dtype().name() +
                      " data; copy it to a compact array first");
}

void fill_borrowed(const Array& a, DLTensor* out) {
  out->data = a.storage() ? static_cast<void*>(a.data()) : nullptr;
  out->device = a.device().to_dl();
  out->ndim = a.ndim();
  out->dtype = a.dtype().dl;
  out->shape = const_cast<int64_t*>(a.shape().data());
  out->strides = const_cast<int64_t*>(a.strides().data());
  out->byte_offset = 0;
}

DLManagedTensorVersioned* export_versioned(const Array& a, uint64_t extra_flags) {
  auto* h = make_holder<DLManagedTensorVersioned>(a);
  h->managed.version = kDLPackVersion;
  h->managed.flags = extra_flags | (a.readonly() ? DLPACK_FLAG_BITMASK_READ_ONLY : 0);
  return &h->managed;
}

DLManagedTensor* export_legacy(const Array& a) { return &make_holder<DLManagedTensor>(a)->managed; }

DLA_HOT Array import_versioned(DLManagedTensorVersioned* mt) {
  if (!mt) throw BufferError("DLPack producer returned a NULL DLManagedTensorVersioned");
  if (mt->version.major != DLPACK_MAJOR_VERSION) {
    // Only the fields up to `flags` are stable across majors: release and touch nothing else.
    uint32_t major = mt->version.major;
    if (mt->deleter) mt->deleter(mt);
    throw BufferError("DLPack tensor has major version " + std::to_string(major) +
                      "; dlarray understands major version " + std::to_string(DLPACK_MAJOR_VERSION));
  }
  try {
    return array_from_dltensor(mt->dl_tensor, DataPtr{mt->dl_tensor.data, mt, &call_versioned_deleter},
                               mt->flags);
  } catch (...) {
    if (mt->deleter) mt->deleter(mt);
    throw;
  }
}

Array import_legacy(DLManagedTensor* mt) {
  if (!mt) throw BufferError("DLPack producer returned a NULL DLManagedTensor");
  try {
    return array_from_dltensor(mt->dl_tensor, DataPtr{mt->dl_tensor.data, mt, &call_legacy_deleter}, 0);
  } catch (...) {
    if (mt->deleter) mt->deleter(mt);
    throw;
  }
}

}  // namespace dla
