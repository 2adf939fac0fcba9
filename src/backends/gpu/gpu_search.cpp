// gpu_search.cpp — argmax/argmin, searchsorted, isin, nonzero and unique of GPU arrays, composed from
// the GPU element jobs (gpu_elementwise_kernels.h), tree_reduce.h's folds, the vendor scan of
// gpu_reduce.cpp (scan_in_place) and the sort of gpu_sort.cpp.
//
// The SearchSortKernels entries for a backend's device memory (core/search_sort.h plans every
// function for every device: argument, axis, dtype and output rules are not repeated here).
// No vendor library call is added: every step is an element job or a composition of them, so
// the fake backend runs all of it on the host and the tests compare it with the CPU bit for
// bit. The exact semantics come from the CPU's order keys (core/order_key.h): -0 equals +0 and
// NaN sorts after everything.
//
// Synchronisation: argmax/argmin and searchsorted without a sorter queue everything on the
// current stream and return at once. searchsorted with a sorter waits for one number (how
// many sorter entries are out of bounds: the CPU raises IndexError for them), and nonzero and
// unique wait for their result's length, a data-dependent size the host must know to allocate
// the outputs.
#include <cstdint>
#include <string>

#include "backends/gpu/gpu_backend.h"
#include "backends/gpu/gpu_elementwise.h"
#include "core/cast.h"
#include "core/copy.h"
#include "core/elementwise.h"
#include "core/errors.h"
#include "core/fill.h"
#include "core/reduction.h"
#include "core/tree_reduce.h"

namespace dla::gpu {
namespace {

const DType kIndex = DType::of(ScalarType::Int64);

// Searches over complex keys (two parts) have no GPU kernel yet (sort and unique have).
void refuse_complex(const Array& x, const char* fname) {
  const ScalarType st = x.dtype().scalar;
  if (st == ScalarType::Complex64 || st == ScalarType::Complex128)
    throw NotImplementedError(std::string(fname) + " on device '" + x.device().str() +
                              "' is not available yet for dtype " + x.dtype().name());
}

// Byte strides of a row-major array of `shape` with elements of `itemsize` bytes.
Dims contiguous_bytes(const Dims& shape, int64_t itemsize) {
  Dims s = contiguous_strides(shape);
  for (int d = 0; d < s.size(); ++d) s[d] *= itemsize;
  return s;
}

// where(cond, a, scalar): one launch of the elementwise where.
Array where_scalar(const Array& cond, const Array& a, int64_t otherwise) {
  ElemArg args[3] = {ElemArg::of(cond), ElemArg::of(a), ElemArg::of(Scalar::of_int(otherwise), PyScalarKind::Int)};
  ElementwisePlan p = plan_elementwise(OpId::where, args, 3);
  execute_elementwise(p);
  return std::move(p.out);
}

// Row positions 0..len-1 of `rows` contiguous rows (int64, {rows, len}).
Array row_positions(const Device& dev, int64_t rows, int64_t len, const char* fname) {
  const Array pos = Array::empty(Dims{rows, len}, kIndex, dev);
  DlaGpuElementwise job = blank_job(DLA_GPU_OP_ROW_INDEX, ScalarType::Int64);
  job.data[0] = pos.data();
  job.scalar[1][0] = len;
  const int64_t out_stride = 8, none = 0;
  const int64_t* strides[2] = {&out_stride, &none};
  submit_gpu_job(dev, job, Dims{rows * len}, strides, 2, std::string(fname) + " (row positions)");
  return pos;
}

// op(a, scalar) for an int64 scalar: one launch.
Array with_scalar(OpId op, const Array& a, int64_t v) {
  ElemArg args[2] = {ElemArg::of(a), ElemArg::of(Scalar::of_int(v), PyScalarKind::Int)};
  ElementwisePlan p = plan_elementwise(op, args, 2);
  execute_elementwise(p);
  return std::move(p.out);
}

// Element i of an int64 device array, on the host: waits for the work queued before it.
int64_t read_back(const Array& a, int64_t i) {
  const Array h = copy_to(a.view(Dims{}, Dims{}, a.byte_offset() + i * a.stride(0) * 8), Device{});
  return *reinterpret_cast<const int64_t*>(h.data());
}

// IndexError (the CPU's message) when some sorter entry is outside [0, n). The count of such
// entries is the only number read back; the sorter itself only on the error path.
void check_sorter(const Array& sorter, int64_t n) {
  const Array bad = elementwise(OpId::logical_or, with_scalar(OpId::less, sorter, 0),
                                with_scalar(OpId::greater_equal, sorter, n));
  const Array count = reduce(ReduceOpId::sum, bad, Dims{0}, false, &kIndex);
  if (read_back(count.view(Dims{1}, Dims{1}, count.byte_offset()), 0) == 0) return;
  const Array h = copy_to(sorter, Device{});
  const int64_t* s = reinterpret_cast<const int64_t*>(h.data());
  for (int64_t i = 0; i < n; ++i)
    if (s[i] < 0 || s[i] >= n)
      throw IndexError("searchsorted: sorter[" + std::to_string(i) + "] = " + std::to_string(s[i]) +
                       " is out of bounds for x1 of size " + std::to_string(n));
}

// A COMPACT job's strides over {n}: the output slot comes from the scan, the scan and an
// int64 source are contiguous (operand 2's stride is set per job when its width differs).
const int64_t kZero = 0, kEight = 8;
const int64_t* const kCompactStrides[3] = {&kZero, &kEight, &kEight};

// The inclusive running count (int64, {n}) of x's nonzero elements in row-major order.
Array flags_scan(const Array& x) {
  const DType b = DType::of(ScalarType::Bool);
  const Array nz = x.dtype() == b ? x : cast_to(x, b);
  const Array f = cast_to(nz, kIndex);  // a new row-major array: scanned in place
  const Array scan = f.view(Dims{x.size()}, Dims{1}, f.byte_offset());
  scan_in_place(OpId::add, scan, 0);
  return scan;
}

}  // namespace

// argmax / argmin: the first position of the largest ARG_KEY of each row (the key puts the
// first NaN first for both, and reverses argmin's order), as two tree folds over rows laid
// out contiguously with the axis last: the rows' largest keys (maximum), then the smallest
// position holding it (minimum over where(key == largest, position, INT64_MAX)). 2 log2(len)
// + 4 launches, no wait for the device.
void gpu_arg_extreme(const Array& out, const Array& x, int axis, bool is_max) {
  const char* fname = is_max ? "argmax" : "argmin";
  refuse_complex(x, fname);
  const Device dev = x.device();
  const int64_t len = x.shape(axis), n = x.size(), rows = n / len;
  if (len == 1) {  // one candidate per row
    fill(out, Scalar::of_int(0));
    return;
  }
  const Array xt = axis_last(x, axis);
  const DType kd = key_dtype(x.itemsize());
  const Array keys = Array::empty(Dims{rows, len}, kd, dev);
  {
    DlaGpuElementwise job = blank_job(DLA_GPU_OP_ARG_KEY, x.dtype().scalar);
    job.flags = is_max ? 0 : DLA_GPU_FLAG_ARGMIN;
    job.data[0] = keys.data();
    job.data[1] = xt.data();
    const Dims kb = contiguous_bytes(xt.shape(), kd.itemsize()), xs = byte_strides(xt);
    const int64_t* strides[2] = {kb.data(), xs.data()};
    submit_gpu_job(dev, job, xt.shape(), strides, 2, std::string(fname) + " (keys)");
  }
  const bool reduced[2] = {false, true};
  const Array top = tree_fold(OpId::maximum, keys, reduced);  // {rows, 1}
  const Array hit = elementwise(OpId::equal, keys, top);
  const Array cand = where_scalar(hit, row_positions(dev, rows, len, fname), INT64_MAX);
  const Array first = ascontiguous(tree_fold(OpId::minimum, cand, reduced));  // {rows, 1}
  const Array ot = axis_last(out, axis);
  copy_into(ot, first.view(ot.shape(), contiguous_strides(ot.shape()), first.byte_offset()));
}

// searchsorted: one SEARCH job over the queries, each a binary search of x1 (through sorter)
// on order keys, no copy of x1. A sorter is first checked for out-of-bounds entries, which
// the CPU refuses with IndexError: counting them is the one wait for the device.
void gpu_searchsorted(const Array& out, const Array& x1, const Array& x2, const Array& sorter, bool right) {
  refuse_complex(x1, "searchsorted");
  const Device dev = x1.device();
  const int64_t n = x1.shape(0);
  if (n == 0) {  // every query goes first (and x1 has no memory to point the job at)
    fill(out, Scalar::of_int(0));
    return;
  }
  if (sorter.storage()) check_sorter(sorter, n);
  DlaGpuElementwise job = blank_job(DLA_GPU_OP_SEARCH, x1.dtype().scalar);
  job.flags = right ? DLA_GPU_FLAG_RIGHT : 0;
  job.data[0] = out.data();
  job.data[1] = x2.data();
  job.data[2] = x1.data();
  job.scalar[2][0] = x1.stride(0) * x1.itemsize();
  job.scalar[2][1] = n;
  if (sorter.storage()) {
    job.data[3] = sorter.data();
    job.scalar[3][0] = sorter.stride(0) * sorter.itemsize();
  }
  const Dims ob = byte_strides(out), qb = byte_strides(x2), zeros(x2.ndim());
  const int64_t* strides[4] = {ob.data(), qb.data(), zeros.data(), zeros.data()};
  submit_gpu_job(dev, job, x2.shape(), strides, 4, "searchsorted");
}

// nonzero: the flags (x != 0 as a cast to bool: NaN is nonzero, as on the CPU) as int64, their
// inclusive scan (scan_in_place: the vendor library's scan), the count read back (the one wait: the host must
// know it to allocate the (ndim, count) result), then one COMPACT job per axis writing each
// flagged element's coordinate on that axis, (i / inner) % extent of its row-major index i,
// into slot scan[i] - 1.
Array gpu_nonzero(const Array& x) {
  const Device dev = x.device();
  const int64_t n = x.size();
  const Array scan = flags_scan(x);
  const int64_t count = read_back(scan, n - 1);
  const Array out = Array::empty(Dims{int64_t(x.ndim()), count}, kIndex, dev);
  if (count == 0) return out;
  int64_t inner = 1;
  for (int d = x.ndim() - 1; d >= 0; --d) {
    DlaGpuElementwise job = blank_job(DLA_GPU_OP_COMPACT, ScalarType::Int64);
    job.data[0] = out.data() + d * count * 8;
    job.data[1] = scan.data();
    job.scalar[2][0] = inner;
    job.scalar[2][1] = x.shape(d);
    submit_gpu_job(dev, job, Dims{n}, kCompactStrides, 3, "nonzero (coordinates)");
    inner *= x.shape(d);
  }
  return out;
}

// isin: x2 flattened and sorted (gpu_sort, values only), and each element of x1 searched in it
// twice (two SEARCH jobs: the first position whose key is not below the element's, and the
// first above it): the element is in x2 when some key lies between, i.e. equals its own. -0
// finds +0 (they share a key); NaN finds nothing (NaN equals nothing, though all NaNs share a
// key). All queued on the current stream: no wait (a take of the candidates would have to
// check its indices on the host).
void gpu_isin(const Array& out, const Array& x1, const Array& x2, bool invert) {
  refuse_complex(x1, "isin");
  const Device dev = x1.device();
  const int64_t n1 = x1.size(), n2 = x2.size();
  if (n2 == 0) {  // nothing to find
    fill(out, Scalar::of_bool(invert));
    return;
  }
  const Array c2 = ascontiguous(x2);
  const Array sorted = Array::empty(Dims{n2}, x2.dtype(), dev);
  gpu_sort(sorted, Array(), c2.view(Dims{n2}, Dims{1}, c2.byte_offset()), 0, false);
  const Array c1 = ascontiguous(x1);
  const Array queries = c1.view(Dims{n1}, Dims{1}, c1.byte_offset());
  const Array below = Array::empty(Dims{n1}, kIndex, dev), up_to = Array::empty(Dims{n1}, kIndex, dev);
  gpu_searchsorted(below, sorted, queries, Array(), false);
  gpu_searchsorted(up_to, sorted, queries, Array(), true);
  Array found = elementwise(OpId::greater, up_to, below);
  if (is_floating(x1.dtype().scalar))
    found = elementwise(OpId::logical_and, found, elementwise(OpId::logical_not, elementwise(OpId::isnan, queries)));
  if (invert) found = elementwise(OpId::logical_not, found);
  copy_into(out, found.view(x1.shape(), contiguous_strides(x1.shape()), found.byte_offset()));
}

// unique_*: x flattened and sorted with its positions (gpu_sort: stable, so each run of equal
// values starts with x's first occurrence), run-start flags from adjacent order keys
// (not_equal of neighbours; a NaN always starts a run, as NaN equals nothing; -0 and +0 have
// one key), their inclusive scan, the number of runs read back (the one wait: the outputs'
// length), then COMPACT jobs for the values (exact elements when indices or inverse are
// asked for, else through their keys, -0 -> +0 and NaN the quiet NaN, like the CPU), the
// first positions and the run starts (counts are differences of those), and a SCATTER of
// each sorted element's run number back to its position for the inverse. Complex values
// (sorted by real, then imaginary part) start a run where they differ from their
// predecessor: not_equal of the values, which is true for a NaN part and false for -0 and +0,
// so the same runs as the CPU's per-part keys; their canonical values are canonical parts.
UniqueParts gpu_unique(const Array& x, int parts) {
  const Device dev = x.device();
  const DType dt = x.dtype();
  const int64_t n = x.size();
  const Array c = ascontiguous(x);
  const Array xf = c.view(Dims{n}, Dims{1}, c.byte_offset());
  const Array sv = Array::empty(Dims{n}, dt, dev), perm = Array::empty(Dims{n}, kIndex, dev);
  gpu_sort(sv, perm, xf, 0, false);

  const Array scan = Array::empty(Dims{n}, kIndex, dev);
  fill(scan.view(Dims{1}, Dims{1}, scan.byte_offset()), Scalar::of_int(1));
  if (n > 1) {
    const int64_t vb = dt.itemsize();
    const Array next_value = sv.view(Dims{n - 1}, Dims{1}, sv.byte_offset() + vb);
    Array starts;
    if (is_complex(dt.scalar)) {
      starts = elementwise(OpId::not_equal, next_value, sv.view(Dims{n - 1}, Dims{1}, sv.byte_offset()));
    } else {
      const DType kd = key_dtype(dt.itemsize());
      const Array keys = Array::empty(Dims{n}, kd, dev);
      DlaGpuElementwise job = blank_job(DLA_GPU_OP_SORT_KEY, dt.scalar);
      job.data[0] = keys.data();
      job.data[1] = sv.data();
      const int64_t kb = kd.itemsize();
      const int64_t* strides[2] = {&kb, &vb};
      submit_gpu_job(dev, job, Dims{n}, strides, 2, "unique (order keys)");
      const Array next = keys.view(Dims{n - 1}, Dims{1}, keys.byte_offset() + kb);
      starts = elementwise(OpId::not_equal, next, keys.view(Dims{n - 1}, Dims{1}, keys.byte_offset()));
      if (is_floating(dt.scalar))
        starts = elementwise(OpId::logical_or, starts, elementwise(OpId::isnan, next_value));
    }
    cast_into(scan.view(Dims{n - 1}, Dims{1}, scan.byte_offset() + 8), starts);
    scan_in_place(OpId::add, scan, 0);
  }
  const int64_t u = read_back(scan, n - 1);

  UniqueParts r;
  const bool exact = parts & (kUniqueIndices | kUniqueInverse);
  auto compact = [&](const Array& out, const Array* src, int32_t flags, int64_t start_mod, const char* what) {
    DlaGpuElementwise job = blank_job(DLA_GPU_OP_COMPACT, src ? src->dtype().scalar : ScalarType::Int64);
    job.flags = flags;
    job.data[0] = out.data();
    job.data[1] = scan.data();
    if (src) job.data[2] = src->data();
    job.scalar[2][0] = 1;
    job.scalar[2][1] = start_mod;
    const int64_t sb = src ? src->itemsize() : 8;
    const int64_t* strides[3] = {&kZero, &kEight, &sb};
    submit_gpu_job(dev, job, Dims{n}, strides, 3, std::string("unique (") + what + ")");
  };
  r.values = Array::empty(Dims{u}, dt, dev);
  compact(r.values, &sv, exact ? 0 : DLA_GPU_FLAG_CANONICAL, 0, "values");
  if (parts & kUniqueIndices) {
    r.indices = Array::empty(Dims{u}, kIndex, dev);
    compact(r.indices, &perm, 0, 0, "indices");
  }
  if (parts & kUniqueCounts) {
    const Array starts = Array::empty(Dims{u + 1}, kIndex, dev);
    compact(starts, nullptr, 0, n, "run starts");  // i % n: the sorted position i itself
    fill(starts.view(Dims{1}, Dims{1}, starts.byte_offset() + u * 8), Scalar::of_int(n));
    r.counts = elementwise(OpId::subtract, starts.view(Dims{u}, Dims{1}, starts.byte_offset() + 8),
                           starts.view(Dims{u}, Dims{1}, starts.byte_offset()));
  }
  if (parts & kUniqueInverse) {
    const Array group = with_scalar(OpId::subtract, scan, 1);
    r.inverse = Array::empty(Dims{n}, kIndex, dev);
    DlaGpuElementwise job = blank_job(DLA_GPU_OP_SCATTER, ScalarType::Int64);
    job.data[0] = r.inverse.data();
    job.scalar[0][0] = 8;
    job.data[1] = perm.data();
    job.data[2] = group.data();
    const int64_t* strides[3] = {&kZero, &kEight, &kEight};
    submit_gpu_job(dev, job, Dims{n}, strides, 3, "unique (inverse)");
  }
  return r;
}

}  // namespace dla::gpu
