// matmul_cpu.cpp — the CPU matrix product behind matmul, tensordot and vecdot.
//
// Floating and complex dtypes go to OpenBLAS (?gemm, ?gemv when one side is a vector, ?dot when
// both are), each operand passed as it lies in memory (row-major, or transposed when its
// columns are the unit-stride axis). A stack of small products is spread over our own threads with OpenBLAS
// held to one thread; a stack of large ones runs one product at a time on OpenBLAS's threads.
// Integers (which no BLAS has) use a cache-blocked kernel of our own with wrap-around
// arithmetic, as NumPy's.
#include <cstring>
#include <type_traits>
#include <vector>

#include "backends/cpu/openblas.h"
#include "backends/cpu/parallel.h"
#include "backends/cpu/cpu_kernels.h"
#include "core/blas_layout.h"
#include "core/dispatch.h"
#include "core/linalg.h"

namespace dla::cpu {

void lapack_cpu(const LapackJob& job);  // lapack_cpu.cpp (the LAPACK forms)

namespace {

using blas::lint;

// Below this many multiply-adds per product OpenBLAS runs single-threaded anyway (its
// GEMM_MULTITHREAD_THRESHOLD rule), so a stack of them is parallelised over the stack.
constexpr int64_t kSmallProduct = 64 * 64 * 64;

// How BLAS (row-major convention) sees a rows x cols matrix with element strides (rs, cs).
struct BlasView {
  blas::Trans trans;
  lint ld;
};
BlasView blas_view(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  const BlasLayout l = blas_layout(rows, cols, rs, cs);  // ok: core/matmul.cpp copied the operand otherwise
  return {l.transposed ? blas::DoTrans : blas::NoTrans, l.ld};
}

// Byte offsets of every matrix of the stack (the leading out.ndim() - 2 axes) in x.
std::vector<int64_t> stack_offsets(const Array& x, int nbatch_axes, int64_t count) {
  std::vector<int64_t> off(size_t(count), 0);
  Dims idx(nbatch_axes, 0);
  int64_t cur = 0;
  for (int64_t i = 0; i < count; ++i) {
    off[size_t(i)] = cur;
    for (int d = nbatch_axes - 1; d >= 0; --d) {
      cur += x.stride(d) * x.itemsize();
      if (++idx[d] < x.shape(d)) break;
      cur -= x.stride(d) * x.itemsize() * idx[d];
      idx[d] = 0;
    }
  }
  return off;
}

template <class T>
void blas_product(const T* A, const T* B, T* C, int64_t m, int64_t n, int64_t k, const BlasView& va,
                  const BlasView& vb, int64_t a_cs, int64_t b_rs) {
  if (m == 1 && n == 1) {  // a row times a column (vecdot, 1-d @ 1-d): ?dot, 1.7x faster than ?gemv here
    *C = blas::dot(k, A, k > 1 ? a_cs : 1, B, k > 1 ? b_rs : 1);
  } else if (n == 1) {  // C (m x 1) = op(A) x, x = B's only column
    if (va.trans == blas::NoTrans) blas::gemv(blas::NoTrans, m, k, A, va.ld, B, k > 1 ? b_rs : 1, C, 1);
    else blas::gemv(blas::DoTrans, k, m, A, va.ld, B, k > 1 ? b_rs : 1, C, 1);
  } else if (m == 1) {  // C (1 x n) = x^T B, x = A's only row: C^T = B^T x
    if (vb.trans == blas::NoTrans) blas::gemv(blas::DoTrans, k, n, B, vb.ld, A, k > 1 ? a_cs : 1, C, 1);
    else blas::gemv(blas::NoTrans, n, k, B, vb.ld, A, k > 1 ? a_cs : 1, C, 1);
  } else {
    blas::gemm(va.trans, vb.trans, m, n, k, A, va.ld, B, vb.ld, C, n);
  }
}

template <class T>
void float_matmul(const Array& out, const Array& a, const Array& b) {
  const int d = out.ndim(), nb_axes = d - 2;
  const int64_t m = out.shape(d - 2), n = out.shape(d - 1), k = a.shape(d - 1);
  const int64_t count = out.size() / (m * n);
  const BlasView va = blas_view(m, k, a.stride(d - 2), a.stride(d - 1));
  const BlasView vb = blas_view(k, n, b.stride(d - 2), b.stride(d - 1));
  const int64_t a_cs = a.stride(d - 1), b_rs = b.stride(d - 2);
  const char* a0 = a.data();
  const char* b0 = b.data();
  T* c0 = reinterpret_cast<T*>(out.data());
  if (count == 1) {
    blas_product(reinterpret_cast<const T*>(a0), reinterpret_cast<const T*>(b0), c0, m, n, k, va, vb, a_cs, b_rs);
    return;
  }
  const std::vector<int64_t> aoff = stack_offsets(a, nb_axes, count), boff = stack_offsets(b, nb_axes, count);
  auto run = [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i)
      blas_product(reinterpret_cast<const T*>(a0 + aoff[size_t(i)]), reinterpret_cast<const T*>(b0 + boff[size_t(i)]),
                   c0 + i * m * n, m, n, k, va, vb, a_cs, b_rs);
  };
  const int64_t work = m * n * k;
  if (work <= kSmallProduct && num_threads() > 1) {
    // Enough products per task to be worth a thread (about kGrainSize multiply-adds). OpenBLAS
    // keeps products this small on the calling thread, so its pool is left as it is.
    static_assert(kSmallProduct <= blas::kWorkOpenBlasKeepsOnOneThread, "else switch the pool off around this");
    parallel_for(count, work >= kGrainSize ? 1 : kGrainSize / work, run);
  } else {
    run(0, count);
  }
}

// Integers: out (row-major, zeroed here) += a @ b with a and b row-major per matrix. The
// products are formed in a 32- or 64-bit unsigned type and wrapped to T, which equals the
// exact result modulo 2^bits (no signed overflow, no undefined behaviour).
template <class T>
void integer_matmul(const Array& out, const Array& a, const Array& b) {
  using U = std::make_unsigned_t<T>;
  using Acc = std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>;
  const int d = out.ndim(), nb_axes = d - 2;
  const int64_t m = out.shape(d - 2), n = out.shape(d - 1), k = a.shape(d - 1);
  const int64_t count = out.size() / (m * n);
  const std::vector<int64_t> aoff = stack_offsets(a, nb_axes, count), boff = stack_offsets(b, nb_axes, count);
  const char* a0 = a.data();
  const char* b0 = b.data();
  U* c0 = reinterpret_cast<U*>(out.data());
  std::memset(c0, 0, size_t(out.size()) * sizeof(T));
  // Blocks of B (kBlockK rows x kBlockN columns) stay in L2 while every row of A passes.
  constexpr int64_t kBlockK = 128, kBlockN = 512;
  const int64_t rows = count * m;  // every output row of every matrix
  const int64_t per_row = n * k > 0 ? n * k : 1;
  parallel_for(rows, per_row >= kGrainSize ? 1 : kGrainSize / per_row, [&](int64_t lo, int64_t hi) {
    for (int64_t j0 = 0; j0 < n; j0 += kBlockN) {
      const int64_t j1 = j0 + kBlockN < n ? j0 + kBlockN : n;
      for (int64_t k0 = 0; k0 < k; k0 += kBlockK) {
        const int64_t k1 = k0 + kBlockK < k ? k0 + kBlockK : k;
        for (int64_t r = lo; r < hi; ++r) {
          const int64_t item = r / m, i = r % m;
          const U* arow = reinterpret_cast<const U*>(a0 + aoff[size_t(item)]) + i * k;
          const U* bmat = reinterpret_cast<const U*>(b0 + boff[size_t(item)]);
          U* crow = c0 + r * n;
          for (int64_t kk = k0; kk < k1; ++kk) {
            const Acc av = Acc(arow[kk]);
            const U* brow = bmat + kk * n;
            for (int64_t j = j0; j < j1; ++j) crow[j] = U(Acc(crow[j]) + av * Acc(brow[j]));
          }
        }
      }
    }
  });
}

void matmul_cpu(const Array& out, const Array& a, const Array& b) {
  visit_scalar(out.dtype().scalar, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      throw TypeError("matmul: bool is not a numeric dtype");
    } else if constexpr (std::is_integral_v<T>) {
      integer_matmul<T>(out, a, b);
    } else {
      float_matmul<T>(out, a, b);
    }
  });
}

}  // namespace

extern const LinalgKernels kLinalgKernels{&matmul_cpu, &lapack_cpu};
}  // namespace dla::cpu
