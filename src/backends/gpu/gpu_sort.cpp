// gpu_sort.cpp — sort and argsort of GPU arrays: the core half around the vendor's segmented sort.
//
// The SearchSortKernels entry `sort` for a backend's device memory (core/search_sort.h plans
// both functions for every device: axis, dtype and output rules are not repeated here). All
// of it is queued on the device's current stream, nothing waits for the device:
//   1. order keys (core/order_key.h: the CPU's transform, NOT-ed for descending) are written
//      from x through a view with the sort axis last, into contiguous rows (one element job
//      that also undoes any strides or transposition of x);
//   2. each element's position in its row is written next to its key (argsort's answer, and
//      what moves the values);
//   3. the vendor table's segmented_sort_async sorts the (key, position) pairs of every row,
//      stably, in batches of whole rows of at most sort_max_items pairs, with scratch memory
//      from the stream-ordered pool;
//   4. sort gathers x's elements at the sorted positions (raw bits, so -0 and NaN payloads
//      come out exactly as the CPU's do), argsort writes the positions (in place when the
//      axis is already last, else by a strided copy).
// Complex numbers sort by real part, then imaginary part (the CPU's order): steps 1 and 3
// run twice, least significant part first, keys of the real parts gathered into the order
// of the first sort (radix-sort fashion: each sort is stable).
// The element jobs run the kernels of gpu_elementwise_kernels.h, so the fake backend executes
// every step but the library call (which it replaces by std::stable_sort per row).
#include <algorithm>
#include <cstring>
#include <string>

#include "backends/gpu/gpu_backend.h"
#include "backends/gpu/gpu_elementwise.h"
#include "core/copy.h"
#include "core/errors.h"
#include "core/fill.h"
#include "core/search_sort.h"

namespace dla::gpu {

DType key_dtype(int64_t itemsize) {
  switch (itemsize) {
    case 1: return DType::of(ScalarType::UInt8);
    case 2: return DType::of(ScalarType::UInt16);
    case 4: return DType::of(ScalarType::UInt32);
    default: return DType::of(ScalarType::UInt64);
  }
}

// a with `axis` moved last: the shape and strides the rows are read or written through.
Array axis_last(const Array& a, int axis) {
  int perm[kMaxRank];
  int k = 0;
  for (int d = 0; d < a.ndim(); ++d)
    if (d != axis) perm[k++] = d;
  perm[k] = axis;
  return a.permuted(perm);
}

Dims byte_strides(const Array& a) {
  Dims s(a.ndim());
  for (int d = 0; d < a.ndim(); ++d) s[d] = a.stride(d) * a.itemsize();
  return s;
}

DlaGpuElementwise blank_job(int32_t op, ScalarType dtype) {
  DlaGpuElementwise job;
  std::memset(&job, 0, sizeof job);
  job.op = op;
  job.dtype = static_cast<int32_t>(dtype);
  return job;
}

namespace {

const DType kIndex = DType::of(ScalarType::Int64);

}  // namespace

void gpu_sort(const Array& values, const Array& indices, const Array& x, int axis, bool descending) {
  const char* fname = values.storage() ? "sort" : "argsort";
  const Device dev = x.device();
  Backend* b = backend_for(dev.kind);
  if (!b) throw ValueError("no GPU backend is installed for device '" + dev.str() + "'");
  const DlaGpuOps& ops = b->ops();
  const ScalarType st = x.dtype().scalar;
  if (!ops.segmented_sort_async)
    throw NotImplementedError(std::string(fname) + " on device '" + dev.str() + "' is not available yet for dtype " +
                              x.dtype().name());
  const int64_t len = x.shape(axis), n = x.size(), rows = n / len;
  if (len == 1) {  // nothing moves: the values, or position 0 everywhere
    if (values.storage()) copy_into(values, x);
    if (indices.storage()) fill(indices, Scalar::of_int(0));
    return;
  }
  if (len > ops.sort_max_items)
    throw NotImplementedError(std::string(fname) + " on device '" + dev.str() + "': rows of " + std::to_string(len) +
                              " elements are longer than the " + ops.name + " sort takes (" +
                              std::to_string(ops.sort_max_items) + ")");

  // 1. keys, contiguous in rows, from x read with the axis last. A complex number's key is
  // two keys, one per part (the CPU's key holds both, real part above): jobs on the part's
  // real dtype read the part at its byte offset within the elements.
  const Array xt = axis_last(x, axis);
  const bool cplx = is_complex(st);
  const ScalarType part = !cplx ? st : st == ScalarType::Complex64 ? ScalarType::Float32 : ScalarType::Float64;
  const DType kd = key_dtype(cplx ? x.itemsize() / 2 : x.itemsize());
  const Array keys = Array::empty(Dims{n}, kd, dev), keys_out = Array::empty(Dims{n}, kd, dev);
  const Dims ks = contiguous_strides(xt.shape()), xs = byte_strides(xt);
  Dims kb(ks.size());
  for (int d = 0; d < ks.size(); ++d) kb[d] = ks[d] * kd.itemsize();
  auto write_keys = [&](int64_t byte_offset) {
    DlaGpuElementwise job = blank_job(DLA_GPU_OP_SORT_KEY, part);
    job.flags = descending ? DLA_GPU_FLAG_DESCENDING : 0;
    job.noperands = 2;
    job.data[0] = keys.data();
    job.data[1] = xt.data() + byte_offset;
    const int64_t* strides[2] = {kb.data(), xs.data()};
    submit_gpu_job(dev, job, xt.shape(), strides, 2, std::string(fname) + " (order keys)");
  };
  // 2. positions within rows.
  const Array pos = Array::empty(Dims{n}, kIndex, dev);
  {
    DlaGpuElementwise job = blank_job(DLA_GPU_OP_ROW_INDEX, ScalarType::Int64);
    job.noperands = 2;
    job.data[0] = pos.data();
    job.scalar[1][0] = len;
    const int64_t out_stride = 8, none = 0;
    const int64_t* strides[2] = {&out_stride, &none};
    submit_gpu_job(dev, job, Dims{n}, strides, 2, std::string(fname) + " (row positions)");
  }
  // 3. the sorted positions land in argsort's output directly when its rows are contiguous.
  const bool direct = indices.storage() && axis == x.ndim() - 1;
  const Array sorted = direct ? indices : Array::empty(Dims{n}, kIndex, dev);
  const int64_t per_call = std::max<int64_t>(1, ops.sort_max_items / len);
  auto [stream, keep] = b->resolve(dev.index, nullptr);
  Array scratch;
  size_t scratch_bytes = 0;
  auto sort_pairs = [&](const Array& kin, const Array& kout, const Array& vin, const Array& vout) {
    for (int64_t r0 = 0; r0 < rows; r0 += per_call) {
      const int64_t nr = std::min(per_call, rows - r0), first = r0 * len;
      DlaGpuSegmentedSort job;
      std::memset(&job, 0, sizeof job);
      job.keys_in = kin.data() + first * kd.itemsize();
      job.keys_out = kout.data() + first * kd.itemsize();
      job.values_in = reinterpret_cast<const int64_t*>(vin.data()) + first;
      job.values_out = reinterpret_cast<int64_t*>(vout.data()) + first;
      job.segments = nr;
      job.length = len;
      job.key_bytes = static_cast<int32_t>(kd.itemsize());
      size_t need = 0;
      int err = ops.segmented_sort_async(dev.index, &job, nullptr, &need, stream);
      if (err == DLA_GPU_UNSUPPORTED)
        throw NotImplementedError(std::string(fname) + " on device '" + dev.str() +
                                  "' is not available yet for dtype " + x.dtype().name());
      b->check(err, (std::string("sizing the scratch memory of ") + fname).c_str());
      if (!scratch.storage() || need > scratch_bytes) {
        // Freed in stream order: the sorts queued before on this stream finish using it first.
        scratch = Array::empty(Dims{static_cast<int64_t>(need)}, DType::of(ScalarType::UInt8), dev);
        scratch_bytes = need;
      }
      err = ops.segmented_sort_async(dev.index, &job, scratch.data(), &scratch_bytes, stream);
      b->check(err, (std::string("launching ") + fname).c_str());
    }
  };
  if (!cplx) {
    write_keys(0);
    sort_pairs(keys, keys_out, pos, sorted);
  } else {
    // (real, imaginary) order as two stable sorts, least significant first: by the imaginary
    // parts' keys, then by the real parts' keys taken in that order (a GATHER of the keys).
    const Array by_imag = Array::empty(Dims{n}, kIndex, dev);
    write_keys(kd.itemsize());
    sort_pairs(keys, keys_out, pos, by_imag);
    write_keys(0);
    DlaGpuElementwise job = blank_job(DLA_GPU_OP_GATHER, part);
    job.noperands = 3;
    job.data[0] = keys_out.data();
    job.data[1] = by_imag.data();
    job.data[2] = keys.data();
    job.scalar[2][0] = kd.itemsize();
    const Dims rows_shape{rows, len};
    const int64_t out_b[2] = {len * kd.itemsize(), kd.itemsize()}, pos_b[2] = {len * 8, 8},
                  row_b[2] = {len * kd.itemsize(), 0};
    const int64_t* strides[3] = {out_b, pos_b, row_b};
    submit_gpu_job(dev, job, rows_shape, strides, 3, std::string(fname) + " (order keys)");
    sort_pairs(keys_out, keys, by_imag, sorted);
  }
  // 4. the outputs, in x's shape (rows read through the axis-last view of each output).
  if (indices.storage() && !direct)
    copy_into(axis_last(indices, axis), sorted.view(xt.shape(), contiguous_strides(xt.shape()), sorted.byte_offset()));
  if (values.storage()) {
    const Array vt = axis_last(values, axis);
    DlaGpuElementwise job = blank_job(DLA_GPU_OP_GATHER, st);
    job.noperands = 3;
    job.data[0] = vt.data();
    job.data[1] = sorted.data();
    job.data[2] = xt.data();
    job.scalar[2][0] = xt.stride(xt.ndim() - 1) * x.itemsize();
    const Dims vs = byte_strides(vt), ps = contiguous_strides(xt.shape());
    Dims pb(ps.size()), rs = byte_strides(xt);
    for (int d = 0; d < ps.size(); ++d) pb[d] = ps[d] * kIndex.itemsize();
    rs[rs.size() - 1] = 0;  // the row's start; the kernel adds position * row stride
    const int64_t* strides[3] = {vs.data(), pb.data(), rs.data()};
    submit_gpu_job(dev, job, xt.shape(), strides, 3, std::string(fname) + " (gather)");
  }
}

extern const SearchSortKernels kSearchSortKernels{&gpu_sort,         &gpu_arg_extreme, &gpu_nonzero,
                                                  &gpu_searchsorted, &gpu_isin,        &gpu_unique,
                                                  nullptr /* partition: sort serves it */};

}  // namespace dla::gpu
