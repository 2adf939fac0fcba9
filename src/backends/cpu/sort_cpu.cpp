// sort_cpu.cpp — the CPU kernels that sort: sort/argsort along an axis, unique, isin.
//
// A row along the sorted axis is gathered straight from x (any strides, no transposed copy)
// into a contiguous buffer of order keys (order_keys.h), radix-sorted (radix_sort.h) and
// scattered into the row-major output. Rows are independent: many rows run on the thread
// pool, one long row sorts with threads inside its passes.
#include <immintrin.h>

#include <algorithm>
#include <complex>
#include <cstring>
#include <memory>
#include <vector>

#include "core/cpu_features.h"
#include "backends/cpu/order_keys.h"
#include "backends/cpu/parallel.h"
#include "backends/cpu/radix_sort.h"
#include "backends/cpu/row_keys.h"
#include "backends/cpu/simd_sort.h"
#include "backends/cpu/search_sort_cpu.h"
#include "core/copy.h"
#include "core/dispatch.h"
#include "core/errors.h"

namespace dla::cpu {
namespace {

#define DLA_KEYS_AVX512_FN __attribute__((target("avx512f,avx512dq,avx512vl,popcnt,bmi2")))

// The positions of x[0..n) (stride xs) in stable ascending order of their 32-bit keys (XORed
// with flip) into pairs, as int64 values; false (pairs untouched) without the vector sort.
template <class T>
bool sort_by_positions(const T* x, int64_t xs, int64_t n, uint32_t flip, uint64_t* pairs, bool allow_threads) {
  using OK = OrderKey<T>;
  if (!simd_sort_keys_available()) return false;
  for (int64_t i = 0; i < n; ++i) pairs[i] = (uint64_t(uint32_t(OK::of(x[i * xs]) ^ flip)) << 32) | uint64_t(i);
  simd_sort_keys(pairs, n, allow_threads);
  for (int64_t i = 0; i < n; ++i) pairs[i] &= 0xffffffffu;
  return true;
}

// Sorts rows [rb, re) of x along axis into values and/or indices (row-major, x's shape).
// I: the index type carried through the passes (32 bits whenever the row allows: less to move).
template <class T, class I>
void sort_rows(const Array& values, const Array& indices, const Array& x, int axis, bool descending, int64_t rb,
               int64_t re, bool threads_inside) {
  using OK = OrderKey<T>;
  using K = typename OK::K;
  const int64_t len = x.shape(axis), xs = x.stride(axis);
  int64_t inner = 1;  // the output's stride along axis
  for (int d = axis + 1; d < x.ndim(); ++d) inner *= x.shape(d);
  const RowWalker walk(x, axis);
  const K flip = descending ? K(~K(0)) : K(0);  // descending order sorts ~key
  const T* xbase = reinterpret_cast<const T*>(x.data());
  T* vbase = values.storage() ? reinterpret_cast<T*>(values.data()) : nullptr;
  int64_t* ibase = indices.storage() ? reinterpret_cast<int64_t*>(indices.data()) : nullptr;
  // Sorted values of a row that is contiguous in the output are sorted there, as keys of
  // the values' own size: no buffer of their own (whose first touch costs page faults).
  constexpr bool kKeysFitValues = sizeof(K) == sizeof(T) && alignof(K) <= alignof(T);
  const bool in_output = kKeysFitValues && vbase && !ibase && inner == 1;
  std::unique_ptr<K[]> keys_buffer, ktmp;
  std::unique_ptr<I[]> idx, itmp;
  for (int64_t r = rb; r < re; ++r) {
    const T* xr = xbase + walk.offset(r);
    const int64_t out0 = (r / inner) * len * inner + r % inner;  // row r's first output element
    if (ibase && inner == 1 && len >= kRadixFrom && simd_sort_keys_available()) {
      // Indices of a row contiguous in the output, by the vector quicksort, the positions
      // right in the int64 output: 32-bit keys as (key << 32 | position), all distinct, so
      // equal keys keep their original order; 64-bit keys carrying their positions (equal
      // keys put back in position order). Stable either way.
      auto* pos = reinterpret_cast<uint64_t*>(ibase + out0);
      bool sorted = false;
      if constexpr (std::is_same_v<K, uint32_t>) {
        sorted = len <= int64_t(UINT32_MAX) && sort_by_positions(xr, xs, len, flip, pos, threads_inside);
      } else if constexpr (std::is_same_v<K, uint64_t>) {
        if (!keys_buffer) keys_buffer = buffer<K>(len);
        make_keys(xr, xs, len, flip, keys_buffer.get());
        for (int64_t i = 0; i < len; ++i) pos[i] = uint64_t(i);
        sorted = simd_argsort_keys(keys_buffer.get(), pos, len, threads_inside);
      }
      if (sorted) {
        if (vbase)
          for (int64_t i = 0; i < len; ++i) vbase[out0 + i] = xr[ibase[out0 + i] * xs];
        continue;
      }
    }
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8)) {
      // Integer values alone: copied into the output and sorted there as themselves (equal
      // integers are indistinguishable: no stability to keep); descending is the reverse.
      if (vbase && !ibase && inner == 1 && simd_sort_keys_available()) {
        T* out = vbase + out0;
        if (xs == 1) std::memcpy(out, xr, size_t(len) * sizeof(T));
        else for (int64_t i = 0; i < len; ++i) out[i] = xr[i * xs];
        simd_sort_keys(out, len, threads_inside);
        if (descending) std::reverse(out, out + len);
        continue;
      }
    }
    K* keys = in_output ? reinterpret_cast<K*>(vbase + out0) : nullptr;
    if (!keys) {
      if (!keys_buffer) keys_buffer = buffer<K>(len);
      keys = keys_buffer.get();
    }
    const bool exact = make_keys(xr, xs, len, flip, keys);
    if (!ktmp) ktmp = buffer<K>(len);
    // Values come back from the keys alone unless -0 or an unusual NaN must keep its bits;
    // then the row is sorted with its indices and the exact elements are moved.
    const bool with_idx = ibase || !exact;
    if (with_idx) {
      if (!idx) {
        idx = buffer<I>(len);
        itmp = buffer<I>(len);
      }
      for (int64_t i = 0; i < len; ++i) idx[size_t(i)] = I(i);
      radix_sort<K, I, true>(keys, idx.get(), ktmp.get(), itmp.get(), len, threads_inside);
    } else {
      radix_sort<K, I, false>(keys, nullptr, ktmp.get(), nullptr, len, threads_inside);
    }
    if (ibase)
      for (int64_t i = 0; i < len; ++i) ibase[out0 + i * inner] = int64_t(idx[size_t(i)]);
    if (vbase) {
      if (with_idx) {
        for (int64_t i = 0; i < len; ++i) vbase[out0 + i * inner] = xr[int64_t(idx[size_t(i)]) * xs];
      } else {
        values_from_keys(keys, len, flip, vbase + out0, inner);  // (in place when the keys are there)
      }
    }
  }
}

void sort_kernel(const Array& values, const Array& indices, const Array& x, int axis, bool descending) {
  if (!x.dtype().computes()) throw TypeError("sort: storage-only dtype " + x.dtype().name());
  visit_scalar(x.dtype().scalar, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const int64_t len = x.shape(axis), rows = x.size() / len;
    auto run = [&](int64_t b, int64_t e, bool threads_inside) {
      if (len <= int64_t(UINT32_MAX)) sort_rows<T, uint32_t>(values, indices, x, axis, descending, b, e, threads_inside);
      else sort_rows<T, uint64_t>(values, indices, x, axis, descending, b, e, threads_inside);
    };
    if (rows == 1 || x.size() < 2 * kGrainSize) return run(0, rows, rows == 1);
    parallel_for(rows, std::max<int64_t>(1, kGrainSize / len), [&](int64_t b, int64_t e) { run(b, e, false); });
  });
}

// ---- unique ---------------------------------------------------------------------------------

// Moves the first key of each run of equal keys in sorted keys[0..n) to the front and returns
// their number (NaN keys each start a run: NaN equals nothing). AVX-512: compress by the mask
// of lanes that differ from their left neighbour, stored under a mask (in place is safe: the
// write position never passes the next neighbour to be read).
template <class OK, class K>
DLA_KEYS_AVX512_FN int64_t compact_run_starts_avx512(K* keys, int64_t n) {
  constexpr int W = 64 / int(sizeof(K));
  int64_t j = 1, i = 1;
  for (; i + W <= n; i += W) {
    __m512i cur, prev;
    __mmask16 m;
    cur = _mm512_loadu_si512(keys + i);
    prev = _mm512_loadu_si512(keys + i - 1);
    if constexpr (sizeof(K) == 8) {
      m = _mm512_cmpneq_epu64_mask(cur, prev);
      if constexpr (OK::kHasNan) m |= _mm512_cmpeq_epu64_mask(cur, _mm512_set1_epi64(-1));
      _mm512_mask_storeu_epi64(keys + j, __mmask8(_bzhi_u32(~0u, unsigned(__builtin_popcount(m)))),
                               _mm512_maskz_compress_epi64(__mmask8(m), cur));
    } else {
      m = _mm512_cmpneq_epu32_mask(cur, prev);
      if constexpr (OK::kHasNan) m |= _mm512_cmpeq_epu32_mask(cur, _mm512_set1_epi32(-1));
      _mm512_mask_storeu_epi32(keys + j, __mmask16(_bzhi_u32(~0u, unsigned(__builtin_popcount(m)))),
                               _mm512_maskz_compress_epi32(m, cur));
    }
    j += __builtin_popcount(m);
  }
  for (; i < n; ++i)
    if (keys[i] != keys[i - 1] || OK::is_nan(keys[i])) keys[j++] = keys[i];
  return n > 0 ? j : 0;
}

template <class OK, class K>
int64_t compact_run_starts(K* keys, int64_t n) {
  if constexpr (sizeof(K) == 4 || sizeof(K) == 8)
    if (simd_sort_available()) return compact_run_starts_avx512<OK>(keys, n);
  int64_t j = n > 0;
  for (int64_t i = 1; i < n; ++i)
    if (keys[i] != keys[i - 1] || OK::is_nan(keys[i])) keys[j++] = keys[i];
  return j;
}

template <class T, class I>
UniqueParts unique_typed(const Array& x, int parts) {
  using OK = OrderKey<T>;
  using K = typename OK::K;
  const Array c = x.is_c_contiguous() ? x : ascontiguous(x);
  const T* xv = reinterpret_cast<const T*>(c.data());
  const int64_t n = c.size();
  const bool with_idx = parts & (kUniqueIndices | kUniqueInverse);
  auto keys = buffer<K>(n);
  make_keys(xv, 1, n, K(0), keys.get());
  std::unique_ptr<I[]> idx;
  if (with_idx) {
    idx = buffer<I>(n);
    auto ktmp = buffer<K>(n);
    auto itmp = buffer<I>(n);
    for (int64_t i = 0; i < n; ++i) idx[size_t(i)] = I(i);
    radix_sort<K, I, true>(keys.get(), idx.get(), ktmp.get(), itmp.get(), n);
  } else {
    // No scratch passed: radix_sort allocates one only if its digit passes run (an unused 8 MB
    // buffer beside the keys, freed with them, made glibc return the heap top to the system and
    // fault it in again on every call: 12.8 -> 9.1 ms for 10^6 float64 without it).
    radix_sort<K, I, false>(keys.get(), nullptr, nullptr, nullptr, n);
  }
  if constexpr (!std::is_class_v<T>) {  // (complex keys compare per half for NaN: the loop below)
    if (parts == 0) {
      // Values only: the runs' first keys compacted in place, then turned into values.
      const int64_t u = compact_run_starts<OK>(keys.get(), n);
      UniqueParts r;
      r.values = Array::empty(Dims{u}, x.dtype(), x.device());
      values_from_keys(keys.get(), u, K(0), reinterpret_cast<T*>(r.values.data()), 1);
      return r;
    }
  }
  // A run of equal keys is one value; NaN keys (and complex keys with a NaN part) never join
  // a run, as NaN equals nothing.
  auto starts_run = [&](int64_t i) {
    return i == 0 || keys[size_t(i)] != keys[size_t(i - 1)] || OK::is_nan(keys[size_t(i)]);
  };
  int64_t u = n > 0;  // (branch-free, so that the count vectorizes)
  for (int64_t i = 1; i < n; ++i) u += int64_t((keys[size_t(i)] != keys[size_t(i - 1)]) | OK::is_nan(keys[size_t(i)]));
  const DType index = DType::of(ScalarType::Int64);
  UniqueParts r;
  r.values = Array::empty(Dims{u}, x.dtype(), x.device());
  if (parts & kUniqueIndices) r.indices = Array::empty(Dims{u}, index, x.device());
  if (parts & kUniqueCounts) r.counts = Array::empty(Dims{u}, index, x.device());
  if (parts & kUniqueInverse) r.inverse = Array::empty(Dims{n}, index, x.device());
  T* values = reinterpret_cast<T*>(r.values.data());
  int64_t* first = r.indices.storage() ? reinterpret_cast<int64_t*>(r.indices.data()) : nullptr;
  int64_t* counts = r.counts.storage() ? reinterpret_cast<int64_t*>(r.counts.data()) : nullptr;
  int64_t* inverse = r.inverse.storage() ? reinterpret_cast<int64_t*>(r.inverse.data()) : nullptr;
  int64_t j = -1, run_begin = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (starts_run(i)) {
      if (j >= 0 && counts) counts[j] = i - run_begin;
      ++j;
      run_begin = i;
      // With indices, the run's first element is x's first occurrence (the sort is stable):
      // its exact value is kept (-0 when -0 came first).
      values[j] = with_idx ? xv[idx[size_t(i)]] : OK::value(keys[size_t(i)]);
      if (first) first[j] = int64_t(idx[size_t(i)]);
    }
    if (inverse) inverse[idx[size_t(i)]] = j;
  }
  if (counts) counts[j] = n - run_begin;
  return r;
}

// ---- isin -------------------------------------------------------------------------------------

// Integer x2 spanning at most this many values relative to the inputs' sizes is looked up in a
// table of flags (NumPy's "table" method), otherwise in x2's sorted keys.
constexpr int64_t kTableSlack = 1 << 16;

template <class T>
void isin_typed(const Array& out, const Array& x1, const Array& x2, bool invert) {
  using OK = OrderKey<T>;
  using K = typename OK::K;
  const Array a = x1.is_c_contiguous() ? x1 : ascontiguous(x1);
  const Array b = x2.is_c_contiguous() ? x2 : ascontiguous(x2);
  const T* av = reinterpret_cast<const T*>(a.data());
  const T* bv = reinterpret_cast<const T*>(b.data());
  const int64_t n1 = a.size(), n2 = b.size();
  bool* o = reinterpret_cast<bool*>(out.data());
  if (n2 == 0) {
    std::fill(o, o + n1, invert);
    return;
  }
  if constexpr (std::is_integral_v<T>) {
    K lo = OK::of(bv[0]), hi = lo;
    for (int64_t i = 1; i < n2; ++i) {
      const K k = OK::of(bv[i]);
      lo = std::min(lo, k);
      hi = std::max(hi, k);
    }
    const uint64_t span = uint64_t(hi - lo);
    if (span < uint64_t(4 * (n1 + n2) + kTableSlack)) {
      std::vector<uint8_t> table(size_t(span) + 1, 0);
      for (int64_t i = 0; i < n2; ++i) table[size_t(OK::of(bv[i]) - lo)] = 1;
      parallel_for(n1, kGrainSize, [&](int64_t s, int64_t e) {
        for (int64_t i = s; i < e; ++i) {
          const K k = OK::of(av[i]);
          const bool hit = k >= lo && k <= hi && table[size_t(k - lo)];
          o[i] = hit != invert;
        }
      });
      return;
    }
  }
  auto keys = buffer<K>(n2);
  for (int64_t i = 0; i < n2; ++i) keys[size_t(i)] = OK::of(bv[i]);
  radix_sort<K, uint64_t, false>(keys.get(), nullptr, nullptr, nullptr, n2);
  parallel_for(n1, kGrainSize, [&](int64_t s, int64_t e) {
    constexpr int64_t B = 1024;
    K q[B];
    int64_t pos[B];
    for (int64_t i0 = s; i0 < e; i0 += B) {
      const int64_t m = std::min(B, e - i0);
      for (int64_t j = 0; j < m; ++j) q[j] = OK::of(av[i0 + j]);
      lower_bounds<K, false>(keys.get(), n2, q, m, pos);
      for (int64_t j = 0; j < m; ++j) {
        const bool hit = pos[j] < n2 && keys[size_t(pos[j])] == q[j] && !OK::is_nan(q[j]);
        o[i0 + j] = hit != invert;
      }
    }
  });
}

}  // namespace

void cpu_sort(const Array& values, const Array& indices, const Array& x, int axis, bool descending) {
  sort_kernel(values, indices, x, axis, descending);
}

UniqueParts cpu_unique(const Array& x, int parts) {
  return visit_scalar(x.dtype().scalar, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return x.size() <= int64_t(UINT32_MAX) ? unique_typed<T, uint32_t>(x, parts) : unique_typed<T, uint64_t>(x, parts);
  });
}

void cpu_isin(const Array& out, const Array& x1, const Array& x2, bool invert) {
  visit_scalar(x1.dtype().scalar, [&](auto tag) {
    using T = typename decltype(tag)::type;
    isin_typed<T>(out, x1, x2, invert);
  });
}

}  // namespace dla::cpu
