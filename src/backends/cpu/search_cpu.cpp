// search_cpu.cpp — the CPU kernels that scan: argmax/argmin, nonzero, searchsorted; and the
// registration of the CPU SearchSortKernels table (the sorting half is in sort_cpu.cpp).
#include <algorithm>
#include <complex>
#include <memory>
#include <type_traits>
#include <vector>

#include "backends/cpu/order_keys.h"
#include "backends/cpu/parallel.h"
#include "backends/cpu/search_sort_cpu.h"
#include "backends/cpu/simd_minmax.h"
#include "backends/cpu/cpu_kernels.h"
#include "core/copy.h"
#include "core/byte_scan.h"
#include "core/dispatch.h"
#include "core/errors.h"

namespace dla::cpu {
namespace {

template <class T>
constexpr bool kIsComplex = false;
template <class T>
constexpr bool kIsComplex<std::complex<T>> = true;

template <class T>
bool is_nan(T v) {
  if constexpr (kIsComplex<T>) return v.real() != v.real() || v.imag() != v.imag();
  else if constexpr (std::is_floating_point_v<T>) return v != v;
  else return false;
}

// Whether v replaces the current best b: strictly beyond it (so the first of equal elements
// stays), or NaN where b is not (so the first NaN wins, as in NumPy). Complex numbers compare
// by real part, then imaginary part.
template <class T, bool IsMax>
bool better(T v, T b) {
  if constexpr (kIsComplex<T>) {
    if (is_nan(b)) return false;
    if (is_nan(v)) return true;
    if (v.real() != b.real()) return IsMax ? v.real() > b.real() : v.real() < b.real();
    return IsMax ? v.imag() > b.imag() : v.imag() < b.imag();
  } else if constexpr (std::is_floating_point_v<T>) {
    return b == b && (v != v || (IsMax ? v > b : v < b));
  } else {
    return IsMax ? v > b : v < b;
  }
}

// The extreme of a block of a real dtype, NaN-propagating (some NaN when there is one: the
// caller searches the block for the first): vectorized (simd_minmax.h) for every real type
// but bool.
template <class T, bool IsMax>
T block_extreme(const T* p, int64_t n) {
  if constexpr (kSimdMinmaxType<T>) {
    if (n >= 8 * 32 / int64_t(sizeof(T))) return minmax_block<T, IsMax>(p, n);
    T m = p[0];
    for (int64_t i = 1; i < n; ++i) m = minmax_scalar_step<T, IsMax>(m, p[i]);
    return m;
  } else {
    T m = p[0];
    for (int64_t i = 1; i < n; ++i) m = (IsMax ? p[i] > m : p[i] < m) ? p[i] : m;
    return m;
  }
}

// Position of the first extreme (or first NaN) of a contiguous row. Real dtypes find the
// block holding it with vectorized block extremes, then search that block only. Blocks are
// 32768 elements: each costs a call and a reduction of the accumulators, which at 4096
// elements was 5-8% of the time out of cache; searching one longer block again is cheaper.
template <class T, bool IsMax>
int64_t extreme_row(const T* p, int64_t n) {
  if constexpr (!kIsComplex<T>) {
    constexpr int64_t B = 32768;
    T best = p[0];
    int64_t bb = 0;
    for (int64_t s = 0; s < n; s += B) {
      const int64_t m = std::min(B, n - s);
      const T e = block_extreme<T, IsMax>(p + s, m);
      if (is_nan(e)) {
        for (int64_t i = s; i < s + m; ++i)
          if (is_nan(p[i])) return i;
      }
      if (better<T, IsMax>(e, best)) {
        best = e;
        bb = s;
      }
    }
    for (int64_t i = bb; i < n; ++i)
      if (p[i] == best) return i;
    return bb;
  } else {
    T best = p[0];
    int64_t bi = 0;
    for (int64_t i = 1; i < n && !is_nan(best); ++i)
      if (better<T, IsMax>(p[i], best)) {
        best = p[i];
        bi = i;
      }
    return bi;
  }
}

template <class T, bool IsMax>
void arg_extreme_typed(const Array& out, const Array& x, int axis) {
  const Array c = x.is_c_contiguous() ? x : ascontiguous(x);
  const T* p = reinterpret_cast<const T*>(c.data());
  int64_t* o = reinterpret_cast<int64_t*>(out.data());
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= c.shape(d);
  for (int d = axis + 1; d < c.ndim(); ++d) inner *= c.shape(d);
  const int64_t len = c.shape(axis);
  if (inner == 1 && outer == 1) {
    // One long row: chunks on the threads, then the first best chunk in order.
    const int64_t chunks = std::min<int64_t>(num_threads(), len / (8 * kGrainSize));
    if (chunks < 2) {
      o[0] = extreme_row<T, IsMax>(p, len);
      return;
    }
    const int64_t chunk = ((len + chunks - 1) / chunks + 4095) & ~int64_t(4095);
    std::vector<int64_t> at(size_t(chunks), -1);
    parallel_for(chunks, 1, [&](int64_t b, int64_t e) {
      for (int64_t k = b; k < e; ++k) {
        const int64_t s = k * chunk, m = std::min(chunk, len - s);
        if (m > 0) at[size_t(k)] = s + extreme_row<T, IsMax>(p + s, m);
      }
    });
    int64_t best = at[0];
    for (int64_t k = 1; k < chunks; ++k)
      if (at[size_t(k)] >= 0 && better<T, IsMax>(p[at[size_t(k)]], p[best])) best = at[size_t(k)];
    o[0] = best;
    return;
  }
  if (inner == 1) {
    parallel_for(outer, std::max<int64_t>(1, kGrainSize / len), [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) o[r] = extreme_row<T, IsMax>(p + r * len, len);
    });
    return;
  }
  // The axis is not the innermost: sweep the rows of each outer block, keeping a running best
  // per column, so every read is contiguous.
  constexpr int64_t J = 256;
  const int64_t jblocks = (inner + J - 1) / J;
  parallel_for(outer * jblocks, std::max<int64_t>(1, kGrainSize / (len * J)), [&](int64_t b, int64_t e) {
    T best[J];
    for (int64_t t = b; t < e; ++t) {
      const int64_t ob = t / jblocks, j0 = (t % jblocks) * J, w = std::min(J, inner - j0);
      const T* blk = p + ob * len * inner + j0;
      int64_t* ob_out = o + ob * inner + j0;
      for (int64_t j = 0; j < w; ++j) {
        best[j] = blk[j];
        ob_out[j] = 0;
      }
      for (int64_t i = 1; i < len; ++i) {
        const T* row = blk + i * inner;
        for (int64_t j = 0; j < w; ++j)
          if (better<T, IsMax>(row[j], best[j])) {
            best[j] = row[j];
            ob_out[j] = i;
          }
      }
    }
  });
}

void cpu_arg_extreme(const Array& out, const Array& x, int axis, bool is_max) {
  visit_scalar(x.dtype().scalar, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (is_max) arg_extreme_typed<T, true>(out, x, axis);
    else arg_extreme_typed<T, false>(out, x, axis);
  });
}

// ---- nonzero ----------------------------------------------------------------------------------

template <class T>
bool is_nonzero(T v) {
  if constexpr (kIsComplex<T>) return v.real() != 0 || v.imag() != 0;
  else return v != T(0);  // NaN is nonzero
}

// Visits x in row-major order: f(multi-index of the outer axes, pointer to the innermost row,
// its element stride, its length).
template <class T, class F>
void for_rows(const Array& x, F&& f) {
  const int n = x.ndim();
  const int64_t len = x.shape(n - 1), s = x.stride(n - 1);
  int64_t idx[kMaxRank] = {};
  const T* p = reinterpret_cast<const T*>(x.data());
  const int64_t rows = x.size() / len;
  for (int64_t r = 0; r < rows; ++r) {
    f(idx, p, s, len);
    for (int d = n - 2; d >= 0; --d) {
      p += x.stride(d);
      if (++idx[d] < x.shape(d)) break;
      p -= x.stride(d) * x.shape(d);
      idx[d] = 0;
    }
  }
}

// Two passes: the count (to size the output), then the coordinates, written without a branch
// per element (each candidate written, the position advanced by "is it nonzero"): on random
// data a branch mispredicts half the time (10^6 float32: 3.8 ms, NumPy 0.45 ms). The
// unconditional writes can land up to 8 elements past the last coordinate, so the buffer has
// that many spare. Bools are read as bytes (a peer's true may be any nonzero byte).
template <class T>
Array nonzero_typed(const Array& x) {
  using E = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
  const int n = x.ndim();
  int64_t count = 0;
  for_rows<E>(x, [&](const int64_t*, const E* p, int64_t s, int64_t len) {
    int64_t c = 0;
    if constexpr (sizeof(E) == 1) {
      c = count_nonzero_bytes(reinterpret_cast<const char*>(p), s, len);
    } else if (s == 1) {
      for (int64_t j = 0; j < len; ++j) c += is_nonzero(p[j]) ? 1 : 0;
    } else {
      for (int64_t j = 0; j < len; ++j) c += is_nonzero(p[j * s]) ? 1 : 0;
    }
    count += c;
  });
  const DType index = DType::of(ScalarType::Int64);
  Array buffer = Array::empty(Dims{int64_t(n) * count + kPositionsSpare}, index, x.device());
  int64_t* o = reinterpret_cast<int64_t*>(buffer.data());
  int64_t* last = o + (n - 1) * count;  // the innermost axis's coordinates
  int64_t k = 0;
  for_rows<E>(x, [&](const int64_t* idx, const E* p, int64_t s, int64_t len) {
    const int64_t k0 = k;
    if (sizeof(E) == 1 && s == 1) {
      k += nonzero_byte_positions(reinterpret_cast<const char*>(p), len, last + k);
    } else if (s == 1) {
      for (int64_t j = 0; j < len; ++j) {
        last[k] = j;
        k += is_nonzero(p[j]) ? 1 : 0;
      }
    } else {
      for (int64_t j = 0; j < len; ++j) {
        last[k] = j;
        k += is_nonzero(p[j * s]) ? 1 : 0;
      }
    }
    for (int d = 0; d < n - 1; ++d) std::fill(o + d * count + k0, o + d * count + k, idx[d]);
  });
  return buffer.view(Dims{int64_t(n), count}, Dims{count, 1}, buffer.byte_offset());
}

Array cpu_nonzero(const Array& x) {
  return visit_scalar(x.dtype().scalar, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return nonzero_typed<T>(x);
  });
}

// ---- searchsorted -----------------------------------------------------------------------------

template <class T>
void searchsorted_typed(const Array& out, const Array& x1, const Array& x2, const Array& sorter, bool right) {
  using OK = OrderKey<T>;
  using K = typename OK::K;
  const int64_t n = x1.shape(0), s = x1.stride(0);
  const T* a = reinterpret_cast<const T*>(x1.data());
  std::unique_ptr<K[]> keys(new K[size_t(std::max<int64_t>(n, 1))]);
  if (sorter.storage()) {
    const int64_t* sp = reinterpret_cast<const int64_t*>(sorter.data());
    const int64_t ss = sorter.stride(0);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t j = sp[i * ss];
      if (j < 0 || j >= n)
        throw IndexError("searchsorted: sorter[" + std::to_string(i) + "] = " + std::to_string(j) +
                         " is out of bounds for x1 of size " + std::to_string(n));
      keys[size_t(i)] = OK::of(a[j * s]);
    }
  } else {
    for (int64_t i = 0; i < n; ++i) keys[size_t(i)] = OK::of(a[i * s]);
  }
  const Array q = x2.is_c_contiguous() ? x2 : ascontiguous(x2);
  const T* qv = reinterpret_cast<const T*>(q.data());
  int64_t* o = reinterpret_cast<int64_t*>(out.data());
  parallel_for(q.size(), kGrainSize, [&](int64_t b, int64_t e) {
    constexpr int64_t B = 1024;
    K qk[B];
    for (int64_t i0 = b; i0 < e; i0 += B) {
      const int64_t m = std::min(B, e - i0);
      for (int64_t j = 0; j < m; ++j) qk[j] = OK::of(qv[i0 + j]);
      if (right) lower_bounds<K, true>(keys.get(), n, qk, m, o + i0);
      else lower_bounds<K, false>(keys.get(), n, qk, m, o + i0);
    }
  });
}

void cpu_searchsorted(const Array& out, const Array& x1, const Array& x2, const Array& sorter, bool right) {
  visit_scalar(x1.dtype().scalar, [&](auto tag) {
    using T = typename decltype(tag)::type;
    searchsorted_typed<T>(out, x1, x2, sorter, right);
  });
}

}  // namespace

extern const SearchSortKernels kSearchSortKernels{&cpu_sort,         &cpu_arg_extreme, &cpu_nonzero,
                                                  &cpu_searchsorted, &cpu_isin,        &cpu_unique,
                                                  &cpu_partition};
}  // namespace dla::cpu
