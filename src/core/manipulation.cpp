// manipulation.cpp — shape and stride arithmetic for the manipulation functions.
#include "core/manipulation.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>

#include "core/broadcast.h"
#include "core/cast.h"
#include "core/copy.h"
#include "core/errors.h"
#include "core/indexing.h"
#include "core/runtime.h"

namespace dla {
namespace {

std::string str(int64_t v) { return std::to_string(v); }

// dst = src, converting the dtype when they differ (on their device: GPUs convert too).
void assign(const Array& dst, const Array& src) {
  if (dst.dtype() == src.dtype())
    copy_into(dst, src);
  else
    cast_into(dst, src);
}

// The slice [start, start + len) of x along axis, as a view.
Array slab(const Array& x, int axis, int64_t start, int64_t len) {
  Dims shape = x.shape();
  shape[axis] = len;
  return x.view(shape, x.strides(), x.byte_offset() + (len > 0 ? start * x.stride(axis) * x.itemsize() : 0));
}

Array flattened(const Array& x) { return reshape(x, Dims{-1}, -1); }

void check_same_device(const std::vector<Array>& xs, const char* fname) {
  for (const Array& a : xs)
    if (a.device() != xs[0].device())
      throw ValueError(std::string(fname) + ": arrays are on different devices ('" + xs[0].device().str() +
                       "' and '" + a.device().str() + "')");
}

}  // namespace

int normalize_axis(int64_t axis, int ndim, const char* fname) {
  if (axis < -ndim || axis >= ndim)
    throw IndexError(std::string(fname) + ": axis " + str(axis) + " is out of bounds for an array of dimension " +
                     str(ndim));
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

std::vector<int> normalize_axes(const std::vector<int64_t>& axes, int ndim, const char* fname) {
  std::vector<int> out;
  std::vector<bool> seen(ndim, false);
  for (int64_t a : axes) {
    int n = normalize_axis(a, ndim, fname);
    if (seen[n]) throw ValueError(std::string(fname) + ": repeated axis " + str(a));
    seen[n] = true;
    out.push_back(n);
  }
  return out;
}

Array broadcast_to(const Array& x, const Dims& shape) {
  if (shape.size() > kMaxRank) throw ValueError("broadcast_to: more than 64 dimensions");
  for (int64_t d : shape)
    if (d < 0) throw ValueError("broadcast_to: negative dimension in shape " + shape_str(shape));
  bool ok = x.ndim() <= shape.size();
  bool expanded = false;
  for (int i = 0; ok && i < x.ndim(); ++i) {
    const int64_t t = shape[shape.size() - x.ndim() + i];
    ok = x.shape(i) == t || x.shape(i) == 1;
    expanded |= x.shape(i) != t;
  }
  if (!ok)
    throw ValueError("broadcast_to: cannot broadcast an array of shape " + shape_str(x.shape()) + " to shape " +
                     shape_str(shape));
  for (int i = 0; i < shape.size() - x.ndim(); ++i) expanded |= shape[i] != 1;
  // A view, but its size and nbytes must still be numbers (NumPy refuses such views too).
  checked_nbytes(shape, x.dtype());
  Array out = x.view(shape, broadcast_strides(x.shape(), x.strides(), shape), x.byte_offset());
  // Writing through a broadcast view would write one element many times (NumPy refuses too).
  if (expanded) out.set_readonly(true);
  return out;
}

bool reshape_view(const Array& x, const Dims& shape, Array* out) {
  if (x.size() == 0) {
    *out = x.view(shape, contiguous_strides(shape), x.byte_offset());
    return true;
  }
  // Axes of length 1 carry no layout; match the others group by group: each group of old
  // axes with the same element count as a group of new axes must be contiguous in itself.
  Dims os, ost;
  for (int i = 0; i < x.ndim(); ++i)
    if (x.shape(i) != 1) {
      os.push_back(x.shape(i));
      ost.push_back(x.stride(i));
    }
  Dims ns(shape.size(), 0);
  int oi = 0, ni = 0;
  const int on = os.size(), nn = shape.size();
  while (ni < nn) {
    if (shape[ni] == 1) {
      // Any stride serves a length-1 axis; this one keeps the group contiguous, unless a
      // peer's extreme strides make it overflow.
      if (oi >= on) ns[ni] = 1;
      else if (!mul_fits(ost[oi], os[oi], &ns[ni])) ns[ni] = ost[oi];
      ++ni;
      continue;
    }
    int64_t np = shape[ni], op = os[oi];
    int nj = ni + 1, oj = oi + 1;
    while (np != op) {
      if (np < op)
        np *= shape[nj++];
      else
        op *= os[oj++];
    }
    for (int k = oi; k + 1 < oj; ++k)
      if (ost[k] != ost[k + 1] * os[k + 1]) return false;
    ns[nj - 1] = ost[oj - 1];
    for (int k = nj - 2; k >= ni; --k)
      if (!mul_fits(ns[k + 1], shape[k + 1], &ns[k])) ns[k] = ns[k + 1];  // only for a length-1 axis k
    oi = oj;
    ni = nj;
  }
  *out = x.view(shape, ns, x.byte_offset());
  return true;
}

Array reshape(const Array& x, const Dims& shape_in, int copy) {
  Dims shape = shape_in;
  int infer = -1;
  for (int i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (infer >= 0) throw ValueError("reshape: can only specify one unknown dimension (-1)");
      infer = i;
    } else if (shape[i] < 0) {
      throw ValueError("reshape: negative dimension " + str(shape[i]) + " in shape " + shape_str(shape));
    }
  }
  const int64_t size = x.size();
  if (infer >= 0) {
    Dims known_dims = shape;
    known_dims.erase(infer);
    int64_t known;
    if (!numel_fits(known_dims.data(), known_dims.size(), &known) || known == 0 || size % known != 0)
      throw ValueError("reshape: cannot reshape an array of size " + str(size) + " into shape " + shape_str(shape));
    shape[infer] = size / known;
  }
  int64_t n;
  if (shape.size() > kMaxRank || !numel_fits(shape.data(), shape.size(), &n) || n != size)
    throw ValueError("reshape: cannot reshape an array of size " + str(size) + " into shape " + shape_str(shape));
  Array out;
  if (copy != 1 && reshape_view(x, shape, &out)) return out;
  if (copy == 0)
    throw ValueError("reshape: copy=False, but an array of shape " + shape_str(x.shape()) + " and strides " +
                     shape_str(x.strides()) + " cannot be viewed as shape " + shape_str(shape));
  Array c = copy_to(x, x.device());
  return c.view(shape, contiguous_strides(shape), c.byte_offset());
}

Array permute_dims(const Array& x, const std::vector<int64_t>& axes) {
  if (static_cast<int>(axes.size()) != x.ndim())
    throw ValueError("permute_dims: axes must have one entry per dimension (" + str(x.ndim()) + "), got " +
                     str(static_cast<int64_t>(axes.size())));
  std::vector<int> perm = normalize_axes(axes, x.ndim(), "permute_dims");
  return x.permuted(perm.data());
}

Array moveaxis(const Array& x, const std::vector<int64_t>& source, const std::vector<int64_t>& destination) {
  if (source.size() != destination.size())
    throw ValueError("moveaxis: source and destination must have the same number of axes");
  std::vector<int> src = normalize_axes(source, x.ndim(), "moveaxis");
  std::vector<int> dst = normalize_axes(destination, x.ndim(), "moveaxis");
  std::vector<int> order;
  for (int i = 0; i < x.ndim(); ++i)
    if (std::find(src.begin(), src.end(), i) == src.end()) order.push_back(i);
  std::vector<std::pair<int, int>> moves;
  for (size_t k = 0; k < src.size(); ++k) moves.emplace_back(dst[k], src[k]);
  std::sort(moves.begin(), moves.end());
  for (auto& [d, s] : moves) order.insert(order.begin() + d, s);
  return x.permuted(order.data());
}

Array expand_dims(const Array& x, const std::vector<int64_t>& axes) {
  const int m = x.ndim() + static_cast<int>(axes.size());
  if (m > kMaxRank) throw ValueError("expand_dims: the result would have more than 64 dimensions");
  std::vector<int> at = normalize_axes(axes, m, "expand_dims");
  std::vector<bool> is_new(m, false);
  for (int a : at) is_new[a] = true;
  Dims shape, strides;
  int d = 0;
  for (int i = 0; i < m; ++i) {
    if (is_new[i]) {
      shape.push_back(1);
      strides.push_back(0);
    } else {
      shape.push_back(x.shape(d));
      strides.push_back(x.stride(d++));
    }
  }
  return x.view(shape, strides, x.byte_offset());
}

Array squeeze(const Array& x, const std::vector<int64_t>& axes) {
  std::vector<int> at = normalize_axes(axes, x.ndim(), "squeeze");
  std::vector<bool> drop(x.ndim(), false);
  for (int a : at) {
    if (x.shape(a) != 1)
      throw ValueError("squeeze: cannot remove axis " + str(a) + " of length " + str(x.shape(a)) +
                       " (only length-1 axes can be squeezed)");
    drop[a] = true;
  }
  Dims shape, strides;
  for (int i = 0; i < x.ndim(); ++i)
    if (!drop[i]) {
      shape.push_back(x.shape(i));
      strides.push_back(x.stride(i));
    }
  return x.view(shape, strides, x.byte_offset());
}

Array flip(const Array& x, const std::vector<int64_t>& axes, bool all_axes) {
  std::vector<int> at;
  if (all_axes)
    for (int i = 0; i < x.ndim(); ++i) at.push_back(i);
  else
    at = normalize_axes(axes, x.ndim(), "flip");
  Dims strides = x.strides();
  int64_t offset = x.byte_offset();
  for (int a : at) {
    if (x.shape(a) > 0) offset += (x.shape(a) - 1) * x.stride(a) * x.itemsize();
    strides[a] = -strides[a];
  }
  return x.view(x.shape(), strides, offset);
}

std::vector<Array> unstack(const Array& x, int64_t axis_in) {
  if (x.ndim() == 0) throw ValueError("unstack: a 0-d array cannot be unstacked");
  const int axis = normalize_axis(axis_in, x.ndim(), "unstack");
  Dims shape, strides;
  for (int i = 0; i < x.ndim(); ++i)
    if (i != axis) {
      shape.push_back(x.shape(i));
      strides.push_back(x.stride(i));
    }
  std::vector<Array> out;
  // One view per index: a length past what memory can list (a broadcast axis of 2**62) is a
  // MemoryError at once (bad_alloc or length_error), not after filling the machine.
  out.reserve(static_cast<size_t>(x.shape(axis)));
  for (int64_t i = 0; i < x.shape(axis); ++i)
    out.push_back(x.view(shape, strides, x.byte_offset() + i * x.stride(axis) * x.itemsize()));
  return out;
}

Array concat(const std::vector<Array>& xs_in, int64_t axis_in, bool flatten, DType dtype) {
  if (xs_in.empty()) throw ValueError("concat: need at least one array");
  check_same_device(xs_in, "concat");
  std::vector<Array> xs;
  for (const Array& a : xs_in) xs.push_back(flatten ? flattened(a) : a);
  const Array& first = xs[0];
  if (first.ndim() == 0) throw ValueError("concat: 0-d arrays cannot be concatenated (use axis=None or stack)");
  const int axis = flatten ? 0 : normalize_axis(axis_in, first.ndim(), "concat");
  Dims shape = first.shape();
  shape[axis] = 0;
  for (const Array& a : xs) {
    bool ok = a.ndim() == first.ndim();
    for (int i = 0; ok && i < a.ndim(); ++i) ok = i == axis || a.shape(i) == first.shape(i);
    if (!ok)
      throw ValueError("concat: shapes " + shape_str(first.shape()) + " and " + shape_str(a.shape()) +
                       " differ outside the concatenation axis " + str(axis));
    shape[axis] = checked_dim_add(shape[axis], a.shape(axis), "concat: the joined axis length");
  }
  Array out = Array::empty(shape, dtype, first.device());
  int64_t at = 0;
  for (const Array& a : xs) {
    assign(slab(out, axis, at, a.shape(axis)), a);
    at += a.shape(axis);
  }
  return out;
}

Array stack(const std::vector<Array>& xs, int64_t axis_in, DType dtype) {
  if (xs.empty()) throw ValueError("stack: need at least one array");
  check_same_device(xs, "stack");
  const Array& first = xs[0];
  for (const Array& a : xs)
    if (a.shape() != first.shape())
      throw ValueError("stack: all arrays must have the same shape, got " + shape_str(first.shape()) + " and " +
                       shape_str(a.shape()));
  const int axis = normalize_axis(axis_in, first.ndim() + 1, "stack");
  Dims shape = first.shape();
  shape.insert(axis, static_cast<int64_t>(xs.size()));
  Array out = Array::empty(shape, dtype, first.device());
  // Element i of the new axis is a view of `out` with that axis removed.
  Dims sub_shape = first.shape(), sub_strides = out.strides();
  sub_strides.erase(axis);
  for (size_t i = 0; i < xs.size(); ++i) {
    Array dst = out.view(sub_shape, sub_strides, out.byte_offset() + int64_t(i) * out.stride(axis) * out.itemsize());
    assign(dst, xs[i]);
  }
  return out;
}

Array tile(const Array& x, const std::vector<int64_t>& reps_in) {
  for (int64_t r : reps_in)
    if (r < 0) throw ValueError("tile: repetitions must be non-negative, got " + str(r));
  const int n = x.ndim(), m = static_cast<int>(reps_in.size());
  const int d = std::max(n, m);
  if (d > kMaxRank) throw ValueError("tile: the result would have more than 64 dimensions");
  // The result's shape is checked before anything is copied (or a list of r copies made).
  Dims out_shape;
  for (int i = 0; i < d; ++i) {
    const int xi = i - (d - n), ri = i - (d - m);
    out_shape.push_back(checked_dim_mul(xi >= 0 ? x.shape(xi) : 1, ri >= 0 ? reps_in[ri] : 1, "tile: the axis length"));
  }
  checked_nbytes(out_shape, x.dtype());
  if (checked_numel(out_shape) == 0) return Array::empty(out_shape, x.dtype(), x.device());
  if (2 * d > kMaxRank) {
    // The interleaved view below needs 2*d axes; past 32 axes, tile one axis at a time.
    Dims sh(d, 1);
    for (int i = 0; i < n; ++i) sh[d - n + i] = x.shape(i);
    Array cur = reshape(x, sh, -1);
    bool copied = false;
    for (int i = 0; i < d; ++i) {
      const int ri = i - (d - m);
      const int64_t r = ri >= 0 ? reps_in[ri] : 1;
      if (r == 1) continue;
      if (r == 0) {
        Dims s = cur.shape();
        s[i] = 0;
        cur = Array::empty(s, x.dtype(), x.device());
      } else {
        cur = concat(std::vector<Array>(static_cast<size_t>(r), cur), i, false, x.dtype());
      }
      copied = true;
    }
    return copied ? cur : copy_to(cur, cur.device());
  }
  // View x as (1, s0, 1, s1, ...) broadcast to (r0, s0, r1, s1, ...), copy, then merge pairs.
  Dims big_shape, big_strides;
  for (int i = 0; i < d; ++i) {
    const int xi = i - (d - n), ri = i - (d - m);
    const int64_t s = xi >= 0 ? x.shape(xi) : 1, st = xi >= 0 ? x.stride(xi) : 0;
    const int64_t r = ri >= 0 ? reps_in[ri] : 1;
    big_shape.push_back(r);
    big_strides.push_back(0);
    big_shape.push_back(s);
    big_strides.push_back(st);
  }
  Array src = x.view(big_shape, big_strides, x.byte_offset());
  Array out = Array::empty(big_shape, x.dtype(), x.device());
  copy_into(out, src);
  return out.view(out_shape, contiguous_strides(out_shape), out.byte_offset());
}

Array roll(const Array& x, const std::vector<int64_t>& shifts, const std::vector<int64_t>& axes, bool flatten) {
  if (flatten) {
    if (shifts.size() != 1) throw ValueError("roll: with axis=None, shift must be a single integer");
    Array flat = roll(flattened(x), shifts, {0}, false);
    return flat.view(x.shape(), contiguous_strides(x.shape()), flat.byte_offset());
  }
  if (shifts.size() != axes.size() && shifts.size() != 1)
    throw ValueError("roll: shift and axis must have the same number of entries");
  // Shifts of a repeated axis add up (modulo the axis length, so that no sum overflows);
  // each axis is then one two-piece copy.
  std::vector<int64_t> total(x.ndim(), 0);
  for (size_t k = 0; k < axes.size(); ++k) {
    const int a = normalize_axis(axes[k], x.ndim(), "roll");
    const int64_t n = x.shape(a);
    if (n == 0) continue;
    int64_t s = (shifts.size() == 1 ? shifts[0] : shifts[k]) % n;
    if (s < 0) s += n;
    total[a] = total[a] >= n - s ? total[a] - (n - s) : total[a] + s;
  }
  Array cur = x;
  bool copied = false;
  for (int a = 0; a < x.ndim(); ++a) {
    const int64_t n = x.shape(a);
    if (n == 0) continue;
    const int64_t s = total[a];
    if (s == 0) continue;
    Array next = Array::empty(x.shape(), x.dtype(), x.device());
    copy_into(slab(next, a, s, n - s), slab(cur, a, 0, n - s));
    copy_into(slab(next, a, 0, s), slab(cur, a, n - s, s));
    cur = next;
    copied = true;
  }
  return copied ? cur : copy_to(x, x.device());
}

namespace {

// r copies of each of the n elements at s into d (one repeat count for all).
template <class T>
void repeat_elements(const char* s, char* d, int64_t n, int64_t r) {
  const T* src = reinterpret_cast<const T*>(s);
  T* dst = reinterpret_cast<T*>(d);
  if (r == 2) {  // the common case, as a loop the compiler vectorizes
    for (int64_t i = 0; i < n; ++i) dst[2 * i] = dst[2 * i + 1] = src[i];
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < r; ++k) *dst++ = src[i];
}

// Host memory: each block after the axis (of `inner` bytes) copied straight into place, where
// the general path builds a list of gather indices first (3.7x NumPy's time for 10^6 float32).
Array repeat_on_host(const Array& src_in, const std::vector<int64_t>& repeats, int axis, const Dims& out_shape) {
  sync_for_host(src_in.device());
  const Array src = ascontiguous(src_in);
  Array out = Array::empty(out_shape, src.dtype(), src.device());
  const int64_t n = src.shape(axis), item = src.itemsize();
  int64_t outer = 1, inner = item;
  for (int d = 0; d < axis; ++d) outer *= src.shape(d);
  for (int d = axis + 1; d < src.ndim(); ++d) inner *= src.shape(d);
  const char* s = src.data();
  char* d = out.data();
  const bool one_count = repeats.size() == 1;
  if (one_count && inner == item && (item == 1 || item == 2 || item == 4 || item == 8)) {
    const int64_t r = repeats[0], count = outer * n;
    switch (item) {
      case 1: repeat_elements<uint8_t>(s, d, count, r); break;
      case 2: repeat_elements<uint16_t>(s, d, count, r); break;
      case 4: repeat_elements<uint32_t>(s, d, count, r); break;
      default: repeat_elements<uint64_t>(s, d, count, r); break;
    }
    return out;
  }
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < n; ++i, s += inner)
      for (int64_t r = one_count ? repeats[0] : repeats[size_t(i)]; r > 0; --r, d += inner)
        std::memcpy(d, s, size_t(inner));
  return out;
}

}  // namespace

Array repeat(const Array& x, const std::vector<int64_t>& repeats, bool has_axis, int64_t axis_in) {
  Array src = has_axis ? x : flattened(x);
  const int axis = has_axis ? normalize_axis(axis_in, x.ndim(), "repeat") : 0;
  const int64_t n = src.shape(axis);
  if (repeats.size() != 1 && static_cast<int64_t>(repeats.size()) != n)
    throw ValueError("repeat: repeats must have one entry or one per element along the axis (" + str(n) +
                     "), got " + str(static_cast<int64_t>(repeats.size())));
  for (int64_t r : repeats)
    if (r < 0) throw ValueError("repeat: repeats must be non-negative, got " + str(r));
  const int64_t total = repeats.size() == 1
                            ? checked_dim_mul(repeats[0], n, "repeat: the result length")
                            : std::accumulate(repeats.begin(), repeats.end(), int64_t(0), [](int64_t t, int64_t r) {
                                return checked_dim_add(t, r, "repeat: the result length");
                              });
  // The result is checked before the index list is built.
  Dims out_shape = src.shape();
  out_shape[axis] = total;
  checked_nbytes(out_shape, x.dtype());
  // Empty: no index list (which could be 2**31 entries long for a (0, 1) array).
  if (checked_numel(out_shape) == 0) return Array::empty(out_shape, x.dtype(), x.device());
  if (src.device().host_accessible()) return repeat_on_host(src, repeats, axis, out_shape);
  // The result is a gather along the axis with each index written out `repeats` times.
  Array idx = Array::empty(Dims{total}, DType::of(ScalarType::Int64), Device{});
  auto* p = reinterpret_cast<int64_t*>(idx.data());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t r = repeats.size() == 1 ? repeats[0] : repeats[i]; r > 0; --r) *p++ = i;
  return take(src, idx, axis);
}

}  // namespace dla
