// indexing.cpp — turning a key into a view plus, for advanced keys, a list of byte offsets.
//
// Every key goes through one plan: basic items are applied to the layout as they come
// (integers drop an axis, slices rescale one, None inserts a length-1 axis), while each
// index array leaves its axes in the view and describes the byte offsets it selects (masks
// list them; integer arrays are read in chunks when the bytes move). getitem and setitem
// then differ only in the direction the gather/scatter kernel moves bytes. Keys of only
// integers and slices skip the plan altogether (basic_view), being the common case.
#include "core/indexing.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "core/broadcast.h"
#include "core/byte_scan.h"
#include "core/cast.h"
#include "core/copy.h"
#include "core/dispatch.h"
#include "core/errors.h"
#include "core/fill.h"
#include "core/gather.h"
#include "core/promotion.h"
#include "core/scalar.h"
#include "core/strided_loop.h"

namespace dla {
namespace {

bool is_bool_array(const Array& a) { return a.dtype().scalar == ScalarType::Bool && a.dtype().computes(); }
bool is_int_array(const Array& a) { return a.dtype().computes() && is_integer(a.dtype().scalar); }
Array on_host(const Array& a) { return a.device().host_accessible() ? a : copy_to(a, Device{}); }

[[noreturn]] void out_of_bounds(const std::string& index, int64_t len, int axis) {
  throw IndexError("index " + index + " is out of bounds for axis " + std::to_string(axis) + " with size " +
                   std::to_string(len));
}

inline int64_t checked_index(int64_t i, int64_t len, int axis) {
  if (i < -len || i >= len) out_of_bounds(std::to_string(i), len, axis);
  return i < 0 ? i + len : i;
}

// Byte offsets of idx[start : start + n] (a C-contiguous host integer array) along an axis
// of length len: negatives wrap, anything outside [-len, len) is an IndexError.
void integer_offsets(const Array& idx, int64_t start, const int64_t n, const int64_t len, const int64_t stride_bytes,
                     int axis, int64_t* const out) {
  visit_scalar(idx.dtype().scalar, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      // Locals: the lambda's captures (even by value) live behind its closure pointer, and every
      // store to out[] could alias them, so they were reloaded per element.
      const int64_t n_ = n, len_ = len, stride_ = stride_bytes;
      int64_t* const out_ = out;
      const T* src = reinterpret_cast<const T*>(idx.data()) + start;
      // Tight loop: wrap negatives, range-check every element, report after.
      int bad = 0;  // an int: GCC does not vectorize an or-reduction into a bool
      for (int64_t k = 0; k < n_; ++k) {
        int64_t v = static_cast<int64_t>(src[k]);
        if constexpr (std::is_signed_v<T>) v += v < 0 ? len_ : 0;
        bad |= uint64_t(v) >= uint64_t(len_);  // also catches v < -len and uint64 above INT64_MAX
        // Unsigned: an out-of-range index is reported below, but its product must not be
        // signed overflow on the way (an in-range one is exact: it lies within the extent).
        out_[k] = int64_t(uint64_t(v) * uint64_t(stride_));
      }
      if (!bad) return;
      for (int64_t k = 0; k < n; ++k) {
        if constexpr (std::is_signed_v<T>) {
          if (int64_t(src[k]) < -len || int64_t(src[k]) >= len) out_of_bounds(std::to_string(int64_t(src[k])), len, axis);
        } else if (uint64_t(src[k]) >= uint64_t(len)) {
          out_of_bounds(std::to_string(uint64_t(src[k])), len, axis);
        }
      }
    }
  });
}

// One index array (or mask) of the key: the view axes it replaces and what it selects there.
struct Advanced {
  int vdim = 0;   // first view axis it indexes
  int ndims = 0;  // view axes it consumes (1 for an integer array, k for a k-d mask, 0 for a 0-d mask)
  Dims shape;     // its shape in the broadcast of all index arrays
  // Masks list their byte offsets when the plan is made. Integer arrays are read lazily, in
  // chunks, so that x[idx] with a single index array never builds an offsets buffer.
  std::vector<int64_t> offsets;
  Array index;  // integer arrays: C-contiguous host copy
  int64_t len = 0, stride_bytes = 0;
  int axis = 0;

  bool lazy() const { return static_cast<bool>(index.storage()); }
  int64_t count() const { return lazy() ? index.size() : static_cast<int64_t>(offsets.size()); }
  // Byte offsets of elements [start, start + n), C order over `shape`.
  void offsets_at(int64_t start, int64_t n, int64_t* out) const {
    if (lazy())
      integer_offsets(index, start, n, len, stride_bytes, axis, out);
    else
      std::copy(offsets.begin() + start, offsets.begin() + start + n, out);
  }
};

struct Plan {
  Array view;                // x after the basic items; advanced axes still present
  std::vector<Advanced> adv;
  bool adjacent = true;      // all advanced items next to each other in the key
  int insert_at = 0;         // view axis where the first advanced item sits
};

// Byte offsets (relative to x's first element) of the True elements of a mask over x's
// axes [axis, axis + mask.ndim), in row-major order.
std::vector<int64_t> mask_offsets(const Array& mask_in, const Array& x, int axis) {
  Array mask = on_host(mask_in);
  for (int j = 0; j < mask.ndim(); ++j) {
    const int64_t m = mask.shape(j), n = x.shape(axis + j);
    // The standard lets a mask axis be 0 whatever x's extent (it selects nothing).
    if (m != n && m != 0)
      throw IndexError("boolean index did not match indexed array along axis " + std::to_string(axis + j) +
                       "; size of axis is " + std::to_string(n) + " but size of boolean index is " +
                       std::to_string(m));
  }
  std::vector<int64_t> out;
  if (mask.size() == 0) return out;
  Dims ms(mask.ndim()), xs(mask.ndim());
  for (int j = 0; j < mask.ndim(); ++j) {
    ms[j] = mask.stride(j);  // bool: 1 byte per element
    xs[j] = x.stride(axis + j) * x.itemsize();
  }
  auto L = coalesce<2>(mask.shape(), {ms.data(), xs.data()});
  char* const x0 = x.data();
  // Counted first, then written without a branch per element (a random mask mispredicts half
  // of them): 10^6 elements, 5.6 -> 1.5 ms with the gather.
  int64_t count = 0;
  for_each_row(L, std::array<char*, 2>{mask.data(), x0},
               [&](char** p, const int64_t* s, int64_t n) { count += count_nonzero_bytes(p[0], s[0], n); });
  out.resize(size_t(count + kPositionsSpare));
  int64_t k = 0;
  for_each_row(L, std::array<char*, 2>{mask.data(), x0}, [&](char** p, const int64_t* s, int64_t n) {
    const int64_t rel = p[1] - x0, k0 = k;
    if (s[0] == 1) {
      k += nonzero_byte_positions(p[0], n, out.data() + k);
      for (int64_t i = k0; i < k; ++i) out[size_t(i)] = rel + out[size_t(i)] * s[1];
    } else {
      for (int64_t j = 0; j < n; ++j) {
        out[size_t(k)] = rel + j * s[1];
        k += p[0][j * s[0]] != 0;
      }
    }
  });
  out.resize(size_t(count));
  return out;
}

Plan make_plan(const Array& x, const IndexItem* key, int n) {
  if (x.dtype().is_subbyte())
    throw TypeError("indexing arrays of sub-byte dtype " + x.dtype().name() + " is not supported");
  using K = IndexItem::Kind;
  const int ndim = x.ndim();
  int consumed = 0, ellipses = 0;
  bool has_array = false;
  for (int i = 0; i < n; ++i) {
    const IndexItem& it = key[i];
    switch (it.kind) {
      case K::Integer:
      case K::Slice: ++consumed; break;
      case K::Ellipsis:
        if (++ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
        break;
      case K::NewAxis: break;
      case K::Array: {
        const Array& a = *it.array;
        if (is_bool_array(a)) {
          consumed += a.ndim();
          has_array = true;
        } else if (is_int_array(a)) {
          ++consumed;
          has_array |= a.ndim() > 0;  // a 0-d integer array is an integer
        } else {
          throw IndexError("arrays used as indices must be of integer or boolean type, got " + a.dtype().name());
        }
        break;
      }
    }
  }
  if (consumed > ndim)
    throw IndexError("too many indices for array: array is " + std::to_string(ndim) + "-dimensional, but " +
                     std::to_string(consumed) + " were indexed");

  Plan p;
  Dims shape, strides;
  const int64_t item = x.itemsize();
  int64_t offset = x.byte_offset();
  int d = 0;            // next axis of x
  int last_adv = -2;    // key position of the previous advanced item
  bool any_adv = false;
  // With an index array present, integers count as (0-d) index arrays for placing the result axes.
  auto note_adv = [&](int pos) {
    if (!any_adv) p.insert_at = shape.size();
    else if (pos != last_adv + 1) p.adjacent = false;
    any_adv = true;
    last_adv = pos;
  };
  auto keep_axis = [&]() {
    shape.push_back(x.shape(d));
    strides.push_back(x.stride(d));
    ++d;
  };
  auto take_integer = [&](int64_t i, int pos) {
    offset += checked_index(i, x.shape(d), d) * x.stride(d) * item;
    ++d;
    if (has_array) note_adv(pos);
  };
  for (int i = 0; i < n; ++i) {
    const IndexItem& it = key[i];
    switch (it.kind) {
      case K::Integer: take_integer(it.start, i); break;
      case K::Slice: {
        int64_t start = it.start, stop = it.stop;
        const int64_t len = adjust_slice(x.shape(d), &start, &stop, it.step);
        if (len > 0) offset += start * x.stride(d) * item;
        shape.push_back(len);
        strides.push_back(len > 1 ? x.stride(d) * it.step : x.stride(d));  // a huge step selects <= 1 item
        ++d;
        break;
      }
      case K::Ellipsis:
        for (int k = ndim - consumed; k > 0; --k) keep_axis();
        break;
      case K::NewAxis:
        shape.push_back(1);
        strides.push_back(0);
        break;
      case K::Array: {
        const Array& a = *it.array;
        if (!is_bool_array(a) && a.ndim() == 0) {
          take_integer(index_scalar(a), i);
          break;
        }
        note_adv(i);
        Advanced adv;
        adv.vdim = shape.size();
        if (is_bool_array(a) && a.ndim() == 0) {
          // A 0-d mask adds an axis of length 1 (True) or 0 (False) and consumes none.
          const bool v = load_scalar(a.dtype(), on_host(a).data()).b;
          adv.ndims = 0;
          adv.shape = Dims{v ? 1 : 0};
          if (v) adv.offsets.push_back(0);
        } else if (is_bool_array(a)) {
          adv.ndims = a.ndim();
          adv.offsets = mask_offsets(a, x, d);
          adv.shape = Dims{static_cast<int64_t>(adv.offsets.size())};
          for (int k = 0; k < a.ndim(); ++k) keep_axis();
        } else {
          adv.ndims = 1;
          adv.shape = a.shape();
          adv.index = ascontiguous(on_host(a));
          adv.len = x.shape(d);
          adv.stride_bytes = x.stride(d) * item;
          adv.axis = d;
          keep_axis();
        }
        p.adv.push_back(std::move(adv));
        break;
      }
    }
  }
  while (d < ndim) keep_axis();
  if (shape.size() > kMaxRank)
    throw IndexError("indexing result would have " + std::to_string(shape.size()) + " dimensions; at most " +
                     std::to_string(kMaxRank) + " are supported");
  p.view = x.view(std::move(shape), std::move(strides), offset);
  return p;
}

// Where the advanced result axes go and which view axes remain, for an advanced plan.
struct Layout {
  Dims bshape;                  // broadcast shape of the index arrays
  Dims out_shape;               // shape of x[key]
  int bpos = 0;                 // first axis of bshape inside out_shape
  int nrest = 0;                // view axes kept:
  int rest[kMaxRank];           //   which, in order
  int rest_pos[kMaxRank];       //   and their positions in out_shape
};

Layout make_layout(const Plan& p) {
  Layout L;
  for (const Advanced& a : p.adv) L.bshape = broadcast_shapes(L.bshape, a.shape);
  checked_numel(L.bshape);
  const int vn = p.view.ndim();
  bool used[kMaxRank] = {};
  for (const Advanced& a : p.adv)
    for (int j = 0; j < a.ndims; ++j) used[a.vdim + j] = true;
  L.bpos = p.adjacent ? p.insert_at : 0;
  for (int v = 0; v < vn; ++v)
    if (!used[v]) L.rest[L.nrest++] = v;
  if (L.nrest + L.bshape.size() > kMaxRank)
    throw IndexError("indexing result would have more than " + std::to_string(kMaxRank) + " dimensions");
  // Kept axes before insert_at stay in front of the index axes (adjacent case only).
  int o = p.adjacent ? 0 : L.bshape.size();
  bool placed = !p.adjacent;
  for (int j = 0; j < L.nrest; ++j) {
    if (!placed && L.rest[j] >= p.insert_at) {
      o += L.bshape.size();
      placed = true;
    }
    L.rest_pos[j] = o++;
  }
  L.out_shape = Dims(L.nrest + L.bshape.size());
  for (int j = 0; j < L.bshape.size(); ++j) L.out_shape[L.bpos + j] = L.bshape[j];
  for (int j = 0; j < L.nrest; ++j) L.out_shape[L.rest_pos[j]] = p.view.shape(L.rest[j]);
  return L;
}

// The summed byte offsets of several index arrays, broadcast over bshape (odometer walk).
std::vector<int64_t> combined_offsets(const Plan& p, const Layout& L) {
  const int64_t nb = checked_numel(L.bshape);
  const int bn = L.bshape.size();
  const int na = static_cast<int>(p.adv.size());
  std::vector<std::vector<int64_t>> own(na);
  std::vector<Dims> st(na);
  for (int k = 0; k < na; ++k) {
    const Advanced& a = p.adv[k];
    own[k].resize(static_cast<size_t>(a.count()));
    a.offsets_at(0, a.count(), own[k].data());
    const Dims cs = contiguous_strides(a.shape);
    st[k] = Dims(bn, 0);
    for (int j = 0; j < a.shape.size(); ++j)
      if (a.shape[j] != 1) st[k][bn - a.shape.size() + j] = cs[j];
  }
  std::vector<int64_t> out(static_cast<size_t>(nb));
  std::vector<int64_t> pos(na, 0);
  Dims idx(bn, 0);
  for (int64_t i = 0; i < nb; ++i) {
    int64_t sum = 0;
    for (int k = 0; k < na; ++k) sum += own[k][pos[k]];
    out[i] = sum;
    for (int j = bn - 1; j >= 0; --j) {
      for (int k = 0; k < na; ++k) pos[k] += st[k][j];
      if (++idx[j] < L.bshape[j]) break;
      for (int k = 0; k < na; ++k) pos[k] -= st[k][j] * L.bshape[j];
      idx[j] = 0;
    }
  }
  return out;
}

// Calls f(offsets, first, n) over consecutive runs of the selected offsets, in bshape's C
// order. A single integer array is read in cache-sized chunks instead of being expanded.
template <class F>
void for_offset_runs(const Plan& p, const Layout& L, F&& f) {
  const int64_t nb = checked_numel(L.bshape);
  if (p.adv.size() > 1) {
    std::vector<int64_t> all = combined_offsets(p, L);
    f(all.data(), int64_t(0), nb);
    return;
  }
  const Advanced& a = p.adv[0];
  if (!a.lazy()) {
    f(a.offsets.data(), int64_t(0), nb);
    return;
  }
  constexpr int64_t kChunk = 2048;
  int64_t buf[kChunk];
  for (int64_t first = 0; first < nb; first += kChunk) {
    const int64_t n = std::min(kChunk, nb - first);
    a.offsets_at(first, n, buf);
    f(static_cast<const int64_t*>(buf), first, n);
  }
}

// The kernel arguments moving between the view (sparse side) and an array of out_shape (dense side).
BlockMove block_move(const Plan& p, const Layout& L, const Array& dense) {
  BlockMove m;
  const int64_t item = p.view.itemsize();
  m.sparse = p.view.data();
  m.dense = dense.data();
  m.dense_step = L.bshape.size() ? dense.stride(L.bpos + L.bshape.size() - 1) * item : 0;
  m.itemsize = item;
  for (int j = 0; j < L.nrest; ++j) {
    m.block_shape.push_back(p.view.shape(L.rest[j]));
    m.sparse_strides.push_back(p.view.stride(L.rest[j]) * item);
    m.dense_strides.push_back(dense.stride(L.rest_pos[j]) * item);
  }
  return m;
}

// Whether the bshape axes of `a` (an array of out_shape) step through memory as one flat axis.
bool flat_index_axes(const Array& a, const Layout& L) {
  for (int j = L.bpos; j + 1 < L.bpos + L.bshape.size(); ++j)
    if (a.shape(j + 1) != 1 && a.stride(j) != a.stride(j + 1) * a.shape(j + 1)) return false;
  return true;
}

// value as an array of `shape` for assignment: leading length-1 axes may be dropped, the
// rest broadcasts.
Array broadcast_value(const Array& v, const Dims& shape) {
  int lead = 0;
  while (v.ndim() - lead > shape.size() && v.shape(lead) == 1) ++lead;
  Dims vs(v.shape().data() + lead, v.ndim() - lead), vst(v.strides().data() + lead, v.ndim() - lead);
  bool ok = vs.size() <= shape.size();
  for (int j = 0; ok && j < vs.size(); ++j) {
    const int64_t t = shape[shape.size() - vs.size() + j];
    ok = vs[j] == t || vs[j] == 1;
  }
  if (!ok)
    throw ValueError("could not broadcast value of shape " + shape_str(v.shape()) + " into a selection of shape " +
                     shape_str(shape));
  return v.view(shape, broadcast_strides(vs, vst, shape), v.byte_offset());
}

// Moves every selected block between the view and `dense` (an array of out_shape).
template <bool Scatter>
void move_selected(const Plan& p, const Layout& L, const Array& dense) {
  BlockMove m = block_move(p, L, dense);
  char* const dense0 = m.dense;
  for_offset_runs(p, L, [&](const int64_t* offsets, int64_t first, int64_t n) {
    m.offsets = offsets;
    m.count = n;
    m.dense = dense0 + first * m.dense_step;
    if (Scatter)
      scatter_blocks(m);
    else
      gather_blocks(m);
  });
}

Array gather(const Array& x, const Plan& p) {
  Layout L = make_layout(p);
  Array out = Array::empty(L.out_shape, x.dtype(), Device{});
  // One integer array picking whole elements (x[idx] on a 1-d x, take): one fused pass; a
  // false return (an index out of range) falls through to the general path, which reports it.
  if (p.adv.size() == 1 && p.adv[0].lazy() && L.nrest == 0) {
    const Advanced& a = p.adv[0];
    if (gather_indexed_elements(a.index.data(), a.index.dtype().scalar, a.count(), a.len, a.stride_bytes,
                                p.view.data(), out.data(), x.itemsize()))
      return out;
  }
  move_selected<false>(p, L, out);
  return out;
}

void scatter(const Plan& p, const Array& value) {
  Layout L = make_layout(p);
  // Every index is checked before the first write, so a bad key leaves x unchanged.
  for (const Advanced& a : p.adv)
    if (a.lazy()) {
      int64_t buf[256];
      for (int64_t first = 0; first < a.count(); first += 256)
        a.offsets_at(first, std::min<int64_t>(256, a.count() - first), buf);
    }
  Array v = broadcast_value(value, L.out_shape);
  if (!flat_index_axes(v, L)) v = ascontiguous(v);
  move_selected<true>(p, L, v);
}

}  // namespace

int64_t index_scalar(const Array& a) {
  Scalar s = load_scalar(a.dtype(), on_host(a).data());
  // uint64 values above INT64_MAX lie beyond every axis; the rest are ordinary indices.
  if (s.kind == Scalar::Kind::UInt) {
    if (s.u > uint64_t(INT64_MAX)) throw IndexError("index " + std::to_string(s.u) + " is out of bounds");
    return int64_t(s.u);
  }
  return s.i;
}

bool basic_view(const Array& x, const IndexItem* key, int n, BasicView* v) {
  const int ndim = x.ndim();
  if (n > ndim || x.dtype().is_subbyte()) return false;
  int64_t offset = x.byte_offset();
  const int64_t item = x.itemsize();
  int m = 0;
  for (int d = 0; d < n; ++d) {
    const IndexItem& it = key[d];
    if (it.kind == IndexItem::Kind::Integer) {
      offset += checked_index(it.start, x.shape(d), d) * x.stride(d) * item;
    } else if (it.kind == IndexItem::Kind::Slice) {
      int64_t start = it.start, stop = it.stop;
      const int64_t len = adjust_slice(x.shape(d), &start, &stop, it.step);
      if (len > 0) offset += start * x.stride(d) * item;
      v->shape[m] = len;
      v->strides[m++] = len > 1 ? x.stride(d) * it.step : x.stride(d);  // a huge step selects <= 1 item
    } else {
      return false;
    }
  }
  for (int d = n; d < ndim; ++d) {
    v->shape[m] = x.shape(d);
    v->strides[m++] = x.stride(d);
  }
  v->offset = offset;
  v->ndim = m;
  return true;
}

Array getitem(const Array& x, const IndexItem* key, int n) {
  BasicView v;
  if (basic_view(x, key, n, &v))  // x[i, j] is a hot path: no plan
    return Array(x.storage(), v.offset, DimsView(v.shape, v.ndim), DimsView(v.strides, v.ndim), x.dtype(), x.flags());
  // x[idx] of a 1-d CPU array by one C-contiguous CPU integer array: the fused pass of gather()
  // without the general plan and layout, which were most of x[idx]'s time on small arrays
  // (0.24 us against NumPy's 0.13 for 10 elements). Out of range: the general path reports it.
  if (n == 1 && key[0].kind == IndexItem::Kind::Array && x.ndim() == 1 && x.device().kind == DeviceKind::CPU) {
    const Array& idx = *key[0].array;
    if (is_int_array(idx) && idx.device().kind == DeviceKind::CPU && idx.is_c_contiguous() && !x.dtype().is_subbyte()) {
      Array out = Array::empty(idx.shape(), x.dtype(), Device{});
      if (gather_indexed_elements(idx.data(), idx.dtype().scalar, idx.size(), x.shape(0), x.stride(0) * x.itemsize(),
                                  x.data(), out.data(), x.itemsize()))
        return out;
    }
  }
  Plan p = make_plan(x, key, n);
  if (p.adv.empty()) return std::move(p.view);
  if (!x.device().host_accessible()) {
    // Device memory: gather on a host copy until device gather kernels exist.
    return copy_to(getitem(copy_to(x, Device{}), key, n), x.device());
  }
  return gather(x, p);
}

namespace {

// x[key] = value once the plan exists; value already has x's dtype.
void assign_planned(const Array& x, Plan& p, const IndexItem* key, int n, const Array& value) {
  if (p.adv.empty()) {
    if (value.ndim() == 0 && value.dtype().computes() && value.device().host_accessible())
      fill(p.view, load_scalar(value.dtype(), value.data()));
    else
      copy_into(p.view, broadcast_value(value, p.view.shape()));
    return;
  }
  if (!x.device().host_accessible()) {
    // Device memory: scatter into a host copy until device scatter kernels exist.
    Array h = copy_to(x, Device{});
    Plan hp = make_plan(h, key, n);
    assign_planned(h, hp, key, n, value);
    copy_into(x, h);
    return;
  }
  scatter(p, on_host(value));
}

}  // namespace

void setitem(const Array& x, const IndexItem* key, int n, const Array& value_in) {
  if (x.readonly()) throw ValueError("assignment destination is read-only");
  Plan p = make_plan(x, key, n);
  Array value = value_in;
  if (value.dtype() != x.dtype()) {
    if (value.dtype().computes() && is_complex(value.dtype().scalar) && !(x.dtype().computes() && is_complex(x.dtype().scalar)))
      throw TypeError("cannot assign a " + value.dtype().name() + " value to an array of dtype " + x.dtype().name());
    value = cast_to(on_host(value), x.dtype());
  } else if (value.storage().get() == x.storage().get() || may_overlap(value, x)) {
    value = copy_to(value, value.device());  // the source must not change while it is written
  }
  assign_planned(x, p, key, n, value);
}

void setitem(const Array& x, const IndexItem* key, int n, const Scalar& value) {
  const DType dt = x.dtype();
  using SK = Scalar::Kind;
  const PyScalarKind kind = value.kind == SK::Bool ? PyScalarKind::Bool
                            : value.kind == SK::Float ? PyScalarKind::Float
                            : value.kind == SK::Complex ? PyScalarKind::Complex
                                                        : PyScalarKind::Int;
  // The value is converted to x's dtype as NumPy converts it (x_int[:] = 1.5 stores 1), except
  // where no number of x's dtype can stand for it: a complex value in a real array (TypeError,
  // as NumPy's), NaN or an infinity in an integer array (ValueError / OverflowError, as
  // NumPy's), and a Python int beyond the integer dtype's range (OverflowError, as NumPy 2's).
  if (kind == PyScalarKind::Complex && !(dt.computes() && is_complex(dt.scalar)) && dt.scalar != ScalarType::Bool)
    throw TypeError("cannot assign a Python complex to an array of dtype " + dt.name() +
                    "; take its real part first");
  if (!dt.computes() && kind != PyScalarKind::Int && kind != PyScalarKind::Float)
    throw TypeError(std::string("cannot assign a Python ") + py_scalar_kind_name(kind) + " to an array of dtype " +
                    dt.name());
  if (kind == PyScalarKind::Float && dt.computes() && is_integer(dt.scalar) && !std::isfinite(value.f)) {
    if (std::isnan(value.f)) throw ValueError("cannot convert float NaN to integer (dtype " + dt.name() + ")");
    throw OverflowError("cannot convert float infinity to integer (dtype " + dt.name() + ")");
  }
  if (kind == PyScalarKind::Int && dt.computes() && is_integer(dt.scalar) && !int_fits(dt, value))
    throw OverflowError("Python int " + (value.kind == SK::UInt ? std::to_string(value.u) : std::to_string(value.i)) +
                        " is out of range for " + dt.name());
  if (x.readonly()) throw ValueError("assignment destination is read-only");
  BasicView sv;
  if (basic_view(x, key, n, &sv)) {
    // x[i, j] = v: one element of host memory is a single store, with no view made.
    int64_t count = 1;
    for (int d = 0; d < sv.ndim; ++d) count *= sv.shape[d];
    if (count == 1 && x.device().kind == DeviceKind::CPU)
      return store_scalar(dt, value, static_cast<char*>(x.storage()->data()) + sv.offset);
    return fill(Array(x.storage(), sv.offset, DimsView(sv.shape, sv.ndim), DimsView(sv.strides, sv.ndim), x.dtype(),
                      x.flags()),
                value);
  }
  Plan p = make_plan(x, key, n);
  if (p.adv.empty()) return fill(p.view, value);
  Array v = Array::empty(Dims{}, dt, Device{});
  store_scalar(dt, value, v.data());
  assign_planned(x, p, key, n, v);
}

Array take(const Array& x, const Array& indices, int axis) {
  if (!is_int_array(indices))
    throw TypeError("take: indices must have an integer dtype, got " + indices.dtype().name());
  IndexItem key[kMaxRank + 1];
  for (int i = 0; i < axis; ++i) key[i] = IndexItem::full();
  key[axis] = IndexItem::of(indices);
  return getitem(x, key, axis + 1);
}

Array take_along_axis(const Array& x, const Array& indices, int axis) {
  if (!is_int_array(indices))
    throw TypeError("take_along_axis: indices must have an integer dtype, got " + indices.dtype().name());
  const int nd = x.ndim();
  if (indices.ndim() != nd)
    throw ValueError("take_along_axis: indices must have as many dimensions as x (" + std::to_string(nd) +
                     "), got " + std::to_string(indices.ndim()));
  // Every other axis is indexed by an arange shaped to broadcast along its own axis only, so
  // one advanced-indexing gather does the whole job.
  std::vector<Array> ranges;
  ranges.reserve(nd);
  IndexItem key[kMaxRank];
  for (int d = 0; d < nd; ++d) {
    if (d == axis) {
      key[d] = IndexItem::of(indices);
      continue;
    }
    const int64_t len = x.shape(d) == 1 ? 1 : x.shape(d);
    Dims sh(nd, 1);
    sh[d] = len;
    Array r = Array::empty(sh, DType::of(ScalarType::Int64), Device{});
    auto* q = reinterpret_cast<int64_t*>(r.data());
    for (int64_t i = 0; i < len; ++i) q[i] = i;
    ranges.push_back(std::move(r));
    key[d] = IndexItem::of(ranges.back());
  }
  return getitem(x, key, nd);
}

}  // namespace dla
