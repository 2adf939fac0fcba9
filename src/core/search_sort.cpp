// search_sort.cpp — the device-independent half of searching, sorting and sets (see search_sort.h).
#include "core/search_sort.h"

#include <algorithm>
#include <string>

#include "core/backend.h"
#include "core/cast.h"
#include "core/copy.h"
#include "core/errors.h"
#include "core/logical_reduce.h"
#include "core/reduction.h"

namespace dla {
namespace {

// The table of x's device, or null.
const SearchSortKernels* table_for(const Array& x) {
  // Host-accessible memory (pinned, managed) is searched and sorted by the CPU kernels.
  return backend_of(x.device().host_accessible() ? DeviceKind::CPU : x.device().kind).search_sort;
}

[[noreturn]] void not_available(const Array& x, const char* fname) {
  throw NotImplementedError(std::string(fname) + " on device '" + x.device().str() + "' is not available yet");
}

// The table of x's device, which must fill in `entry`: a GPU backend registers its primitives
// as they come, leaving the others null.
template <class Entry>
const SearchSortKernels& kernels_for(const Array& x, const char* fname, Entry SearchSortKernels::*entry) {
  const SearchSortKernels* r = table_for(x);
  if (!r || !(r->*entry)) not_available(x, fname);
  return *r;
}

const DType kIndex = DType::of(ScalarType::Int64);

void check_dtype(const SearchSortOpInfo& info, const Array& x, const char* what) {
  if (!x.dtype().computes())
    throw TypeError(std::string(info.name) + ": dtype " + x.dtype().name() + " of " + what +
                    " is storage-only; convert it with astype first");
  if (!(kind_bit(x.dtype().scalar) & info.kinds))
    throw TypeError(std::string(info.name) + ": " + what + " must have " + kinds_description(info.kinds) +
                    " dtype, got " + x.dtype().name());
}

int normalize_axis(int64_t axis, int ndim, const char* fname) {
  if (axis < -ndim || axis >= ndim)
    throw IndexError(std::string(fname) + ": axis " + std::to_string(axis) + " is out of bounds for an array of " +
                     std::to_string(ndim) + " dimensions" + (ndim == 0 ? " (a 0-d array has no axis)" : ""));
  return int(axis < 0 ? axis + ndim : axis);
}

void check_same_device(const Array& a, const Array& b, const char* fname) {
  if (!(a.device() == b.device()))
    throw ValueError(std::string(fname) + ": the arrays are on different devices ('" + a.device().str() + "' and '" +
                     b.device().str() + "')");
}

// x1 and x2 converted to their promoted dtype (TypeError when the standard defines none).
void promote_pair(const Array& x1, const Array& x2, const char* fname, Array* a1, Array* a2) {
  const ScalarType t = promote_types_or_none(x1.dtype().scalar, x2.dtype().scalar);
  if (t == ScalarType::Other)
    throw TypeError(std::string(fname) + ": x1 (" + x1.dtype().name() + ") and x2 (" + x2.dtype().name() +
                    ") have no promoted dtype (mixed kinds, or int64 with uint64); convert one with astype");
  const DType d = DType::of(t);
  *a1 = x1.dtype() == d ? x1 : cast_to(x1, d);
  *a2 = x2.dtype() == d ? x2 : cast_to(x2, d);
}

// A flat (1-d) view of x in row-major order, copying only when x's layout needs it.
Array flat(const Array& x) {
  const Array c = x.is_c_contiguous() ? x : ascontiguous(x);
  return c.view(Dims{c.size()}, Dims{1}, c.byte_offset());
}

}  // namespace

Array scalar_as_array(const Scalar& s, PyScalarKind kind, const Array& partner, const char* fname, const char* what) {
  const ScalarType t = partner.dtype().computes() ? scalar_operand_type(partner.dtype().scalar, kind) : ScalarType::Other;
  if (t == ScalarType::Other)
    throw TypeError(std::string(fname) + ": a Python " + py_scalar_kind_name(kind) + " " + what +
                    " cannot be combined with an array of dtype " + partner.dtype().name());
  const DType d = DType::of(t);
  if ((s.kind == Scalar::Kind::Int || s.kind == Scalar::Kind::UInt) && is_integer(t) && !int_fits(d, s))
    throw OverflowError(std::string(fname) + ": the Python int " + what + " is out of range for " + d.name());
  Array a = Array::empty(Dims{}, d, Device{});
  store_scalar(d, s, a.data());
  return partner.device() == a.device() ? a : copy_to(a, partner.device());
}

Array sort_along(SearchSortOpId op, const Array& x, int64_t axis, bool descending, bool /*stable*/) {
  // Every sort here is stable: the unstable variant would buy nothing for radix sorts.
  const SearchSortOpInfo& info = search_sort_op_info(op);
  check_dtype(info, x, "x");
  const int a = normalize_axis(axis, x.ndim(), info.name);
  const bool values = info.flag == 1;
  const Array out = Array::empty(x.shape(), values ? x.dtype() : kIndex, x.device());
  if (out.size() == 0) return out;
  const SearchSortKernels& k = kernels_for(x, info.name, &SearchSortKernels::sort);
  k.sort(values ? out : Array(), values ? Array() : out, x, a, descending);
  return out;
}

Array partition_along(SearchSortOpId op, const Array& x, const std::vector<int64_t>& kth, bool has_axis,
                      int64_t axis) {
  const SearchSortOpInfo& info = search_sort_op_info(op);
  check_dtype(info, x, "x");
  const Array src = has_axis ? x : flat(x);
  const int a = normalize_axis(has_axis ? axis : 0, src.ndim(), info.name);
  const int64_t n = src.shape(a);
  // NumPy's rule and words: negative positions count from the end; an empty axis has none.
  std::vector<int64_t> ks;
  for (int64_t k : kth) {
    const int64_t nk = k < 0 ? k + n : k;
    if (nk < 0 || nk >= n)
      throw ValueError(std::string(info.name) + ": kth(=" + std::to_string(nk) + ") out of bounds (" +
                       std::to_string(n) + ")");
    ks.push_back(nk);
  }
  std::sort(ks.begin(), ks.end());
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  const bool values = info.flag == 1;
  const Array out = Array::empty(src.shape(), values ? src.dtype() : kIndex, src.device());
  if (out.size() == 0) return out;
  const Array v = values ? out : Array(), i = values ? Array() : out;
  const SearchSortKernels* k = table_for(src);
  if (k && k->partition) {
    k->partition(v, i, src, a, ks);
    return out;
  }
  // A device without a selection kernel sorts: a sorted row is a valid partition.
  kernels_for(src, info.name, &SearchSortKernels::sort).sort(v, i, src, a, false);
  return out;
}

Array arg_extreme(SearchSortOpId op, const Array& x, bool has_axis, int64_t axis, bool keepdims) {
  const SearchSortOpInfo& info = search_sort_op_info(op);
  check_dtype(info, x, "x");
  const int n = x.ndim();
  Dims kept = x.shape();  // the keepdims shape of the result
  Dims dropped;           // the shape without the reduced axes
  Array src = x;
  int a = 0;
  if (has_axis) {
    a = normalize_axis(axis, n, info.name);
    if (x.shape(a) == 0)
      throw ValueError(std::string(info.name) + ": axis " + std::to_string(a) + " has no elements to choose from");
    kept[a] = 1;
    for (int d = 0; d < n; ++d)
      if (d != a) dropped.push_back(x.shape(d));
  } else {
    if (x.size() == 0) throw ValueError(std::string(info.name) + ": x has no elements to choose from");
    for (int d = 0; d < n; ++d) kept[d] = 1;
    src = flat(x);
  }
  Array out = Array::empty(has_axis ? kept : Dims{1}, kIndex, x.device());
  if (out.size() > 0) kernels_for(x, info.name, &SearchSortKernels::arg_extreme).arg_extreme(out, src, a, info.flag == 1);
  const Dims& shape = keepdims ? kept : dropped;
  return out.view(shape, contiguous_strides(shape), out.byte_offset());
}

Array count_nonzero(const Array& x, const Dims& axes, bool keepdims) {
  check_dtype(search_sort_op_info(SearchSortOpId::count_nonzero), x, "x");
  if (!table_for(x)) not_available(x, "count_nonzero");  // a device without the table is refused by this name
  // A nonzero test (complex: either part; NaN is nonzero) is the cast to bool; the count is
  // the int64 sum of those, which the reduction kernels already do on every device.
  const DType b = DType::of(ScalarType::Bool);
  const Array nz = x.dtype() == b ? x : cast_to(x, b);
  if (nz.device().host_accessible()) return count_true_on_host(nz, axes, keepdims);
  return reduce(ReduceOpId::sum, nz, axes, keepdims, &kIndex);
}

std::vector<Array> nonzero(const Array& x) {
  const SearchSortOpInfo& info = search_sort_op_info(SearchSortOpId::nonzero);
  check_dtype(info, x, "x");
  if (x.ndim() == 0)
    throw ValueError("nonzero: x must have at least one dimension (the standard refuses 0-d arrays; use "
                     "nonzero(reshape(x, (1,))) for a flat answer)");
  std::vector<Array> out;
  if (x.size() == 0) {
    for (int d = 0; d < x.ndim(); ++d) out.push_back(Array::empty(Dims{0}, kIndex, x.device()));
    return out;
  }
  const Array coords = kernels_for(x, info.name, &SearchSortKernels::nonzero).nonzero(x);  // (ndim, count), row-major
  const int64_t count = coords.shape(1);
  for (int d = 0; d < x.ndim(); ++d)
    out.push_back(coords.view(Dims{count}, Dims{1}, coords.byte_offset() + d * count * coords.itemsize()));
  return out;
}

Array searchsorted(const Array& x1, const Array& x2, bool side_right, const Array* sorter) {
  const SearchSortOpInfo& info = search_sort_op_info(SearchSortOpId::searchsorted);
  check_dtype(info, x1, "x1");
  check_dtype(info, x2, "x2");
  if (x1.ndim() != 1)
    throw ValueError("searchsorted: x1 must be one-dimensional, got " + std::to_string(x1.ndim()) + " dimensions");
  check_same_device(x1, x2, info.name);
  Array s;
  if (sorter) {
    check_same_device(x1, *sorter, info.name);
    if (!is_integer(sorter->dtype().scalar))
      throw TypeError("searchsorted: sorter must have an integer dtype, got " + sorter->dtype().name());
    if (sorter->shape() != x1.shape())
      throw ValueError("searchsorted: sorter must have x1's shape " + shape_str(x1.shape()) + ", got " +
                       shape_str(sorter->shape()));
    s = sorter->dtype() == kIndex ? *sorter : cast_to(*sorter, kIndex);
  }
  Array a1, a2;
  promote_pair(x1, x2, info.name, &a1, &a2);
  Array out = Array::empty(x2.shape(), kIndex, x2.device());
  if (out.size() > 0) kernels_for(x1, info.name, &SearchSortKernels::searchsorted).searchsorted(out, a1, a2, s, side_right);
  return out;
}

Array isin(const Array& x1, const Array& x2, bool invert) {
  const SearchSortOpInfo& info = search_sort_op_info(SearchSortOpId::isin);
  check_dtype(info, x1, "x1");
  check_dtype(info, x2, "x2");
  check_same_device(x1, x2, info.name);
  Array a1, a2;
  promote_pair(x1, x2, info.name, &a1, &a2);
  Array out = Array::empty(x1.shape(), DType::of(ScalarType::Bool), x1.device());
  if (out.size() > 0) kernels_for(x1, info.name, &SearchSortKernels::isin).isin(out, a1, a2, invert);
  return out;
}

UniqueParts unique(SearchSortOpId op, const Array& x) {
  const SearchSortOpInfo& info = search_sort_op_info(op);
  check_dtype(info, x, "x");
  const int parts = info.flag;
  UniqueParts r;
  if (x.size() == 0) {
    r.values = Array::empty(Dims{0}, x.dtype(), x.device());
    if (parts & kUniqueIndices) r.indices = Array::empty(Dims{0}, kIndex, x.device());
    if (parts & kUniqueCounts) r.counts = Array::empty(Dims{0}, kIndex, x.device());
    if (parts & kUniqueInverse) r.inverse = Array::empty(x.shape(), kIndex, x.device());
    return r;
  }
  r = kernels_for(x, info.name, &SearchSortKernels::unique).unique(x, parts);
  if (parts & kUniqueInverse) r.inverse = r.inverse.view(x.shape(), contiguous_strides(x.shape()), r.inverse.byte_offset());
  return r;
}

}  // namespace dla
