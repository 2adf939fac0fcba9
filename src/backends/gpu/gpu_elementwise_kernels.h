// gpu_elementwise_kernels.h — the one source of the GPU elementwise and cast kernels.
//
// An element body computes one element of a DlaGpuElementwise job (gpu_ops.h) from the
// functors of elementwise_functors.h and the conversion of convert.h, the same code the CPU
// loops run. It is compiled three times: by nvcc (gpu_elementwise.cu as CUDA), by hipcc (the
// same file as HIP) and by the host compiler for the fake GPU backend (src/testing/
// fake_gpu.cpp), so that dispatch, operand offsets and every op's per-element code are
// tested on machines without a GPU against the CPU results.
//
// dispatch_elementwise(job, runner) selects the body of the job's (op, dtype) pair, or of
// its (to, from) pair for a cast, or of a sort's or search's helper job (order keys, row
// positions, the gather of sorted elements, argmax keys, binary searches, compaction and
// scatter) or of the integer matrix product, and calls runner.template run<Body>(job); the
// runner is a kernel launch on a GPU and a loop on the host. Complex elements are dcomplex
// (core/device_complex.h): the functors' complex branches run on it as the CPU's run on
// std::complex. A pair no body covers returns DLA_GPU_UNSUPPORTED and the core raises
// NotImplementedError naming the op and dtype.
#pragma once
#include <stdint.h>
#include <string.h>

#include <type_traits>

#include "backends/gpu/gpu_ops.h"
#include "core/convert.h"
#include "core/device_complex.h"
#include "core/dtype.h"
#include "core/elementwise_functors.h"
#include "core/elementwise_ops.h"
#include "core/half.h"
#include "core/host_device.h"
#include "core/order_key.h"
#include "core/philox.h"

namespace dla {
namespace gpu_kernels {

// The element type of a dtype in kernels; void where kernels do not cover it.
template <ScalarType S> struct ElemType { using type = void; };
template <> struct ElemType<ScalarType::Bool> { using type = bool; };
template <> struct ElemType<ScalarType::Int8> { using type = int8_t; };
template <> struct ElemType<ScalarType::Int16> { using type = int16_t; };
template <> struct ElemType<ScalarType::Int32> { using type = int32_t; };
template <> struct ElemType<ScalarType::Int64> { using type = int64_t; };
template <> struct ElemType<ScalarType::UInt8> { using type = uint8_t; };
template <> struct ElemType<ScalarType::UInt16> { using type = uint16_t; };
template <> struct ElemType<ScalarType::UInt32> { using type = uint32_t; };
template <> struct ElemType<ScalarType::UInt64> { using type = uint64_t; };
template <> struct ElemType<ScalarType::Float32> { using type = float; };
template <> struct ElemType<ScalarType::Float64> { using type = double; };
template <> struct ElemType<ScalarType::Complex64> { using type = dcomplex<float>; };
template <> struct ElemType<ScalarType::Complex128> { using type = dcomplex<double>; };

// Byte offsets of flat index i for the job's N operands. I is the index type: 32-bit when
// the index space fits (64-bit division is slow on GPUs). The outermost dimension needs no
// division: what is left of i after the inner ones is its index. The loop over the inner
// dimensions is not unrolled on GPUs: each step is a division, which costs far more than the
// loop's branch, and nvcc's 4-fold unrolling (taken only from 5 dimensions on) was a third of
// every strided kernel's code.
template <int N, class I>
DLA_HOST_DEVICE inline void operand_offsets(const DlaGpuElementwise& j, I i, int64_t (&off)[N]) {
  for (int k = 0; k < N; ++k) off[k] = 0;
#if defined(__CUDACC__) || defined(__HIPCC__)
#pragma unroll 1
#endif
  for (int d = j.ndim - 1; d > 0; --d) {
    const I extent = static_cast<I>(j.shape[d]);
    const I idx = i % extent;
    i /= extent;
    for (int k = 0; k < N; ++k) off[k] += static_cast<int64_t>(idx) * j.strides[k][d];
  }
  for (int k = 0; k < N; ++k) off[k] += static_cast<int64_t>(i) * j.strides[k][0];
}

// Operand k's element: from memory, or the Python scalar carried in the job.
template <class T>
DLA_HOST_DEVICE inline T load(const DlaGpuElementwise& j, int k, int64_t off) {
  T v;
  if (j.data[k] == nullptr) __builtin_memcpy(&v, j.scalar[k], sizeof(T));  // device-callable in nvcc and hipcc
  else v = *reinterpret_cast<const T*>(static_cast<const char*>(j.data[k]) + off);
  return v;
}

template <class R>
DLA_HOST_DEVICE inline R* out_at(const DlaGpuElementwise& j, int64_t off) {
  return reinterpret_cast<R*>(static_cast<char*>(j.data[0]) + off);
}

// One element of an operation: F over operands of type T (where's condition: A = bool).
template <class F, int kOperands, class A, class T>
struct OpBody {
  static constexpr int N = kOperands;
  template <class I>
  DLA_HOST_DEVICE static void run(const DlaGpuElementwise& j, I i) {
    int64_t off[N];
    operand_offsets<N>(j, i, off);
    run_at(j, off);
  }
  // The element whose operands lie at byte offsets off.
  DLA_HOST_DEVICE static void run_at(const DlaGpuElementwise& j, const int64_t (&off)[N]) {
    F f;
    if constexpr (N == 2) {
      using R = decltype(f(T()));
      *out_at<R>(j, off[0]) = f(load<T>(j, 1, off[1]));
    } else if constexpr (N == 3) {
      using R = decltype(f(T(), T()));
      *out_at<R>(j, off[0]) = f(load<T>(j, 1, off[1]), load<T>(j, 2, off[2]));
    } else {
      using R = decltype(f(A(), T(), T()));
      *out_at<R>(j, off[0]) = f(load<A>(j, 1, off[1]), load<T>(j, 2, off[2]), load<T>(j, 3, off[3]));
    }
  }
};

// The 16-bit floating-point storage types in cast jobs: their bits, converted through float32
// as the CPU converts them (from float64 in one rounding).
template <Half H>
struct HalfBits {
  uint16_t bits;
};

template <class To, class From>
DLA_HOST_DEVICE inline To cast_value(From v) {
  if constexpr (std::is_same_v<From, HalfBits<Half::Float16>> || std::is_same_v<From, HalfBits<Half::BFloat16>>) {
    constexpr Half h = std::is_same_v<From, HalfBits<Half::Float16>> ? Half::Float16 : Half::BFloat16;
    const float f = half_to_float(h, v.bits);
    if constexpr (std::is_same_v<To, HalfBits<Half::Float16>> || std::is_same_v<To, HalfBits<Half::BFloat16>>)
      return To{float_to_half(std::is_same_v<To, HalfBits<Half::Float16>> ? Half::Float16 : Half::BFloat16, f)};
    else
      return convert<To>(f);
  } else if constexpr (std::is_same_v<To, HalfBits<Half::Float16>> || std::is_same_v<To, HalfBits<Half::BFloat16>>) {
    constexpr Half h = std::is_same_v<To, HalfBits<Half::Float16>> ? Half::Float16 : Half::BFloat16;
    if constexpr (std::is_same_v<From, double>) return To{double_to_half(h, v)};
    else return To{float_to_half(h, convert<float>(v))};
  } else {
    return convert<To>(v);
  }
}

template <class To, class From>
struct CastBody {
  static constexpr int N = 2;
  template <class I>
  DLA_HOST_DEVICE static void run(const DlaGpuElementwise& j, I i) {
    int64_t off[N];
    operand_offsets<N>(j, i, off);
    *out_at<To>(j, off[0]) = cast_value<To>(load<From>(j, 1, off[1]));
  }
};

// ---- the element jobs around a sort (gpu_sort.cpp; gpu_ops.h: DLA_GPU_OP_SORT_KEY...) ---

// The order key of one element (the transform the CPU sorts use), NOT-ed for descending.
template <class T>
struct SortKeyBody {
  static constexpr int N = 2;
  template <class I>
  DLA_HOST_DEVICE static void run(const DlaGpuElementwise& j, I i) {
    using K = order_key_t<T>;
    int64_t off[N];
    operand_offsets<N>(j, i, off);
    const K k = order_key(load<T>(j, 1, off[1]));
    *out_at<K>(j, off[0]) = (j.flags & DLA_GPU_FLAG_DESCENDING) ? K(~k) : k;
  }
};

// Each element's position in its row: the values a sort carries along with the keys.
struct RowIndexBody {
  static constexpr int N = 1;
  template <class I>
  DLA_HOST_DEVICE static void run(const DlaGpuElementwise& j, I i) {
    int64_t off[N];
    operand_offsets<N>(j, i, off);
    // In I: the row length fits wherever the index does, and 32-bit division is the fast one.
    *out_at<int64_t>(j, off[0]) = static_cast<int64_t>(i % static_cast<I>(j.scalar[1][0]));
  }
};

// The element at a sorted position of its row, moved as raw bits (W: an unsigned integer of
// the element's width, or the complex element itself): -0 and NaN payloads arrive exactly as
// they were, as on the CPU.
template <class W>
struct GatherBody {
  static constexpr int N = 3;
  template <class I>
  DLA_HOST_DEVICE static void run(const DlaGpuElementwise& j, I i) {
    int64_t off[N];
    operand_offsets<N>(j, i, off);
    const int64_t p = *reinterpret_cast<const int64_t*>(static_cast<const char*>(j.data[1]) + off[1]);
    *out_at<W>(j, off[0]) =
        *reinterpret_cast<const W*>(static_cast<const char*>(j.data[2]) + off[2] + p * j.scalar[2][0]);
  }
};

// ---- the element jobs of the searching functions (gpu_search.cpp; gpu_ops.h: ARG_KEY...) ---

// A key whose first largest value in a row is argmax's (or, with ARGMIN, argmin's) answer, so
// both are one "first maximum" search over unsigned keys: the order key already puts NaN
// above everything; for argmin the other keys are reversed while NaN stays on top, because the
// first NaN wins argmin too (as on the CPU). A float's number never has the all-ones key (that
// is NaN's), so its NOT never collides with a NaN.
template <class T>
struct ArgKeyBody {
  static constexpr int N = 2;
  template <class I>
  DLA_HOST_DEVICE static void run(const DlaGpuElementwise& j, I i) {
    using K = order_key_t<T>;
    int64_t off[N];
    operand_offsets<N>(j, i, off);
    const T v = load<T>(j, 1, off[1]);
    const K k = order_key(v);
    bool keep = !(j.flags & DLA_GPU_FLAG_ARGMIN);
    if constexpr (std::is_floating_point_v<T>) keep = keep || v != v;  // an integer's all-ones key is a number
    *out_at<K>(j, off[0]) = keep ? k : K(~k);
  }
};

// One query's insertion point: the CPU's branch-free halving (backends/cpu/order_keys.h,
// lower_bounds) step for step on order keys, so even an x1 that is not sorted gives the CPU's
// answer. Each thread reads x1 (through sorter) at log n places; x1 stays in the cache.
template <class T>
struct SearchBody {
  static constexpr int N = 2;
  template <class I>
  DLA_HOST_DEVICE static void run(const DlaGpuElementwise& j, I i) {
    using K = order_key_t<T>;
    int64_t off[N];
    operand_offsets<N>(j, i, off);
    const K q = order_key(load<T>(j, 1, off[1]));
    const bool right = j.flags & DLA_GPU_FLAG_RIGHT;
    const char* x1 = static_cast<const char*>(j.data[2]);
    const char* sorter = static_cast<const char*>(j.data[3]);
    const int64_t n = j.scalar[2][1];
    auto key_at = [&](int64_t p) {
      if (sorter) p = *reinterpret_cast<const int64_t*>(sorter + p * j.scalar[3][0]);
      return order_key(*reinterpret_cast<const T*>(x1 + p * j.scalar[2][0]));
    };
    auto below = [&](K a) { return right ? !(q < a) : a < q; };  // a goes before the query
    int64_t base = 0, len = n;
    while (len > 1) {
      const int64_t half = len / 2;
      if (below(key_at(base + half - 1))) base += half;
      len -= half;
    }
    *out_at<int64_t>(j, off[0]) = base + (n > 0 && below(key_at(base)) ? 1 : 0);
  }
};

// A value through its order key and back: -0 -> +0, every NaN the quiet NaN; complex
// numbers part by part (as the CPU's complex keys hold one key per part).
template <class T>
DLA_HOST_DEVICE inline T canonical(T v) {
  if constexpr (elem::is_complex_v<T>) return T(canonical(v.real()), canonical(v.imag()));
  else return order_key_value<T>(order_key(v));
}

// Stream compaction's write: where the inclusive scan of 0/1 flags steps, the flagged
// element goes to slot scan - 1 (slots are distinct, so threads never collide). Reading the
// scan's previous entry instead of a separate flag array saves a buffer per compaction.
template <class T>
struct CompactBody {
  static constexpr int N = 3;
  template <class I>
  DLA_HOST_DEVICE static void run(const DlaGpuElementwise& j, I i) {
    int64_t off[N];
    operand_offsets<N>(j, i, off);
    const int64_t* scan = reinterpret_cast<const int64_t*>(static_cast<const char*>(j.data[1]) + off[1]);
    const int64_t s = *scan, prev = i > 0 ? scan[-1] : 0;
    if (s == prev) return;
    T* out = reinterpret_cast<T*>(j.data[0]) + (s - 1);
    if (j.data[2] == nullptr) {  // a coordinate of flat index i (nonzero; run starts of unique)
      if constexpr (std::is_same_v<T, int64_t>)
        *out = static_cast<T>((static_cast<int64_t>(i) / j.scalar[2][0]) % j.scalar[2][1]);
      return;
    }
    const T v = load<T>(j, 2, off[2]);
    if (j.flags & DLA_GPU_FLAG_CANONICAL) *out = canonical(v);
    else __builtin_memcpy(out, &v, sizeof(T));  // the exact bits (-0, NaN payloads)
  }
};

// out[p] = v for distinct positions p (unique's inverse: the group of each sorted element,
// written back at that element's original position). W: the element width's unsigned type.
template <class W>
struct ScatterBody {
  static constexpr int N = 3;
  template <class I>
  DLA_HOST_DEVICE static void run(const DlaGpuElementwise& j, I i) {
    int64_t off[N];
    operand_offsets<N>(j, i, off);
    const int64_t p = *reinterpret_cast<const int64_t*>(static_cast<const char*>(j.data[1]) + off[1]);
    *reinterpret_cast<W*>(static_cast<char*>(j.data[0]) + p * j.scalar[0][0]) = load<W>(j, 2, off[2]);
  }
};

// ---- the integer matrix product (gpu_linalg.cpp; gpu_ops.h: DLA_GPU_OP_MATMUL) --------------

// One output element: the dot product of a row of x1 and a column of x2, formed in a 32- or
// 64-bit unsigned type and wrapped to T, as the CPU's integer kernel (backends/cpu/
// matmul_cpu.cpp) does: the exact result modulo 2^bits, with no signed overflow.
template <class T>
struct MatmulBody {
  static constexpr int N = 3;
  template <class I>
  DLA_HOST_DEVICE static void run(const DlaGpuElementwise& j, I i) {
    using U = std::make_unsigned_t<T>;
    using Acc = std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>;
    int64_t off[N];
    operand_offsets<N>(j, i, off);
    const char* a = static_cast<const char*>(j.data[1]) + off[1];
    const char* b = static_cast<const char*>(j.data[2]) + off[2];
    const int64_t a_step = j.scalar[1][0], b_step = j.scalar[2][0], k = j.scalar[1][1];
    Acc acc = 0;
    for (int64_t p = 0; p < k; ++p)
      acc += Acc(*reinterpret_cast<const U*>(a + p * a_step)) * Acc(*reinterpret_cast<const U*>(b + p * b_step));
    *out_at<U>(j, off[0]) = U(acc);
  }
};

// ---- pieces of a job ---------------------------------------------------------------------

// Whether a body's element depends on its operands' offsets only, not on its flat index (the
// helper jobs above use the index itself: row positions, the scan's previous entry, the
// coordinate of a nonzero): a job of such a body may run as several smaller jobs.
template <class Body>
struct Splittable : std::false_type {};
template <class F, int N, class A, class T>
struct Splittable<OpBody<F, N, A, T>> : std::true_type {};
template <class To, class From>
struct Splittable<CastBody<To, From>> : std::true_type {};

// Runs `job` as jobs of fewer than `limit` elements each (the job itself when it is that
// small), calling run(piece) for each in turn and stopping at the first nonzero result. A
// piece is a run of indices along one axis, the outermost whose inner block (the elements of
// the axes after it) is under the limit, with every index of the axes before it fixed: its
// operands' data pointers move to the piece's first element, their strides stay. Runs are a
// multiple of 16 indices long where more fit, so a contiguous operand aligned for 16-byte
// vectors stays aligned in every piece. Not a template over the runner: one copy of this
// host code per file rather than one per element body.
inline int for_each_piece(const DlaGpuElementwise& job, int64_t limit,
                          int (*run)(const DlaGpuElementwise& piece, void* context), void* context) {
  if (job.count < limit) return run(job, context);
  int axis = job.ndim - 1;
  int64_t block = 1;  // elements per index of `axis`
  while (axis > 0 && block * job.shape[axis] < limit) block *= job.shape[axis--];
  int64_t rows = (limit - 1) / block;  // >= 1: block < limit
  if (rows > 16) rows -= rows % 16;
  int64_t outer = 1;
  for (int d = 0; d < axis; ++d) outer *= job.shape[d];
  DlaGpuElementwise piece = job;
  piece.ndim = job.ndim - axis;
  for (int d = 1; d < piece.ndim; ++d) piece.shape[d] = job.shape[axis + d];
  for (int k = 0; k < job.noperands; ++k)
    for (int d = 0; d < piece.ndim; ++d) piece.strides[k][d] = job.strides[k][axis + d];
  for (int64_t o = 0; o < outer; ++o) {
    int64_t base[DLA_GPU_MAX_OPERANDS] = {};  // bytes to index o of the axes before `axis`
    for (int64_t d = axis - 1, rest = o; d >= 0; --d) {
      const int64_t idx = rest % job.shape[d];
      rest /= job.shape[d];
      for (int k = 0; k < job.noperands; ++k) base[k] += idx * job.strides[k][d];
    }
    for (int64_t first = 0; first < job.shape[axis]; first += rows) {
      piece.shape[0] = job.shape[axis] - first < rows ? job.shape[axis] - first : rows;
      piece.count = piece.shape[0] * block;
      for (int k = 0; k < job.noperands; ++k)
        piece.data[k] = job.data[k] == nullptr ? nullptr  // a scalar, carried in the job
                                               : static_cast<char*>(job.data[k]) + base[k] + first * job.strides[k][axis];
      if (const int err = run(piece, context)) return err;
    }
  }
  return 0;
}

// ---- dispatch --------------------------------------------------------------------------

template <class F, int arity, Sig sig, uint8_t kinds, ScalarType S, class Runner>
int run_op(const DlaGpuElementwise& j, Runner& runner) {
  using T = typename ElemType<S>::type;
  if constexpr (std::is_void_v<T> || (kinds & kind_bit(S)) == 0) {
    return DLA_GPU_UNSUPPORTED;
  } else {
    using A = std::conditional_t<sig == Sig::Where, bool, T>;
    return runner.template run<OpBody<F, arity + 1, A, T>>(j);
  }
}

// Calls f(std::integral_constant<ScalarType, S>) for the job's dtype code.
template <class F>
int visit_dtype(int code, F&& f) {
  switch (static_cast<ScalarType>(code)) {
#define DLA_GPU_DTYPE_CASE(S) \
  case ScalarType::S: return f(std::integral_constant<ScalarType, ScalarType::S>{});
    DLA_GPU_DTYPE_CASE(Bool) DLA_GPU_DTYPE_CASE(Int8) DLA_GPU_DTYPE_CASE(Int16) DLA_GPU_DTYPE_CASE(Int32)
    DLA_GPU_DTYPE_CASE(Int64) DLA_GPU_DTYPE_CASE(UInt8) DLA_GPU_DTYPE_CASE(UInt16) DLA_GPU_DTYPE_CASE(UInt32)
    DLA_GPU_DTYPE_CASE(UInt64) DLA_GPU_DTYPE_CASE(Float32) DLA_GPU_DTYPE_CASE(Float64)
    DLA_GPU_DTYPE_CASE(Complex64) DLA_GPU_DTYPE_CASE(Complex128)
#undef DLA_GPU_DTYPE_CASE
    default: return DLA_GPU_UNSUPPORTED;
  }
}

// The ops whose index is Part modulo Parts (the kernels are spread over several translation
// units to keep compile time and memory down); DLA_GPU_UNSUPPORTED for the others.
template <int Part, int Parts, class Runner>
int dispatch_op_part(const DlaGpuElementwise& j, Runner& runner) {
  switch (j.op) {
#define DLA_GPU_OP_CASE(name, arity, sig, kinds, res, functor, params, summary)                         \
  case static_cast<int>(OpId::name):                                                                 \
    if constexpr (static_cast<int>(OpId::name) % Parts == Part) {                                    \
      return visit_dtype(j.dtype, [&](auto s) {                                                      \
        return run_op<elem::functor, arity, Sig::sig, kinds, decltype(s)::value>(j, runner);         \
      });                                                                                            \
    }                                                                                                \
    return DLA_GPU_UNSUPPORTED;
    DLA_ELEMENTWISE_OPS(DLA_GPU_OP_CASE)
#undef DLA_GPU_OP_CASE
  }
  return DLA_GPU_UNSUPPORTED;
}

// As visit_dtype, for the element types of a cast (the storage halves included).
template <class F>
int visit_cast_type(int code, F&& f) {
  if (code == DLA_GPU_FLOAT16) return f(HalfBits<Half::Float16>{});
  if (code == DLA_GPU_BFLOAT16) return f(HalfBits<Half::BFloat16>{});
  return visit_dtype(code, [&](auto s) { return f(typename ElemType<decltype(s)::value>::type{}); });
}

// A conversion between integers (bool included) keeps the source's value modulo 2^bits of the
// target, and one to bool tests the source's bits for zero: their results' bits depend on the
// target's width and the source, or on the source's width, and never on the other side's
// signedness. Such pairs share the kernel of the unsigned type of that width: 41 kernels for
// the 81 pairs of integer types (the bits written are the same; the signed and unsigned types
// of a width may alias).
template <class T, bool = std::is_integral_v<T> && !std::is_same_v<T, bool>>
struct CastWordOf {
  using type = T;
};
template <class T>
struct CastWordOf<T, true> {
  using type = std::make_unsigned_t<T>;
};
template <class T>
using CastWord = typename CastWordOf<T>::type;

template <class Runner>
int dispatch_cast(const DlaGpuElementwise& j, Runner& runner) {
  return visit_cast_type(j.out_dtype, [&](auto to) {
    return visit_cast_type(j.dtype, [&](auto from) {
      using To = std::decay_t<decltype(to)>;  // (GCC: `to` captured by reference)
      using From = decltype(from);
      if constexpr (std::is_integral_v<To> && std::is_integral_v<From>) {
        if constexpr (std::is_same_v<To, bool>) return runner.template run<CastBody<bool, CastWord<From>>>(j);
        else return runner.template run<CastBody<CastWord<To>, From>>(j);
      } else {
        return runner.template run<CastBody<To, From>>(j);
      }
    });
  });
}

// ---- dlarray.random's numbers (gpu_random.cpp; gpu_ops.h: DLA_GPU_OP_RANDOM) ---

// Element i of a draw: lane i % L of counter block job.block + i / L, as the CPU computes it.
template <class T>
struct RandomBody {
  static constexpr int N = 1;
  template <class I>
  DLA_HOST_DEVICE static void run(const DlaGpuElementwise& j, I i) {
    int64_t off[N];
    operand_offsets<N>(j, i, off);
    philox::RandomJob rj;
    __builtin_memcpy(&rj, &j.scalar[0][0], sizeof rj);
    const int L = philox::lanes(rj);
    const uint64_t b = rj.block + static_cast<uint64_t>(i) / L;
    const int lane = static_cast<int>(static_cast<uint64_t>(i) % L);
    const philox::Block r = philox::block_at(rj, b);
    if constexpr (std::is_integral_v<T>) {
      *out_at<T>(j, off[0]) =
          static_cast<T>(rj.kind == philox::kBits ? philox::word64(r, lane) : philox::integer_lane(rj, r, b, lane));
    } else {
      *out_at<T>(j, off[0]) = static_cast<T>(philox::real_lane(rj, r, lane));
    }
  }
};

// The helper jobs of sort, the searching functions, matmul and random (DLA_GPU_OP_SORT_KEY ... RANDOM).
inline bool is_helper_job(int op) { return op <= DLA_GPU_OP_SORT_KEY && op >= DLA_GPU_OP_RANDOM; }

template <class Runner>
int dispatch_helper_job(const DlaGpuElementwise& j, Runner& runner) {
  if (j.op == DLA_GPU_OP_ROW_INDEX) return runner.template run<RowIndexBody>(j);
  if (j.op == DLA_GPU_OP_RANDOM) {
    switch (static_cast<ScalarType>(j.dtype)) {
      case ScalarType::Float32: return runner.template run<RandomBody<float>>(j);
      case ScalarType::Float64: return runner.template run<RandomBody<double>>(j);
      case ScalarType::Int64: case ScalarType::UInt64: return runner.template run<RandomBody<uint64_t>>(j);
      default: return DLA_GPU_UNSUPPORTED;
    }
  }
  return visit_dtype(j.dtype, [&](auto s) -> int {
    using T = typename ElemType<decltype(s)::value>::type;
    if constexpr (std::is_void_v<T>) {
      return DLA_GPU_UNSUPPORTED;
    } else if constexpr (elem::is_complex_v<T>) {
      // Complex sorts order keys of each part (jobs on the parts' float dtype, gpu_sort.cpp);
      // what moves whole elements: the gather of sorted elements and unique's compaction.
      if (j.op == DLA_GPU_OP_GATHER) return runner.template run<GatherBody<T>>(j);
      if (j.op == DLA_GPU_OP_COMPACT) return runner.template run<CompactBody<T>>(j);
      return DLA_GPU_UNSUPPORTED;
    } else {
      if (j.op == DLA_GPU_OP_SORT_KEY) return runner.template run<SortKeyBody<T>>(j);
      // One gather per element width: int32, uint32 and float32 share a kernel.
      if (j.op == DLA_GPU_OP_GATHER) return runner.template run<GatherBody<order_key_t<T>>>(j);
      if (j.op == DLA_GPU_OP_ARG_KEY) return runner.template run<ArgKeyBody<T>>(j);
      if (j.op == DLA_GPU_OP_SEARCH) return runner.template run<SearchBody<T>>(j);
      if (j.op == DLA_GPU_OP_COMPACT) return runner.template run<CompactBody<T>>(j);
      if (j.op == DLA_GPU_OP_SCATTER) return runner.template run<ScatterBody<order_key_t<T>>>(j);
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
        if (j.op == DLA_GPU_OP_MATMUL) return runner.template run<MatmulBody<T>>(j);
      return DLA_GPU_UNSUPPORTED;
    }
  });
}

// The whole table in one translation unit (the host build of the fake backend).
template <class Runner>
int dispatch_elementwise(const DlaGpuElementwise& j, Runner& runner) {
  if (j.op == DLA_GPU_OP_CAST) return dispatch_cast(j, runner);
  if (is_helper_job(j.op)) return dispatch_helper_job(j, runner);
  return dispatch_op_part<0, 1>(j, runner);
}

}  // namespace gpu_kernels
}  // namespace dla
