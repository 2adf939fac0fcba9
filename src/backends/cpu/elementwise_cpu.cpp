// elementwise_cpu.cpp — the CPU executor of elementwise plans.
//
// The plan's operands become byte strides over the output shape (0 for broadcast axes and
// for Python scalars), strided_loop.h coalesces them (a contiguous problem of any rank is
// one row), and the op's loop from the kernel table runs over the rows, split across the
// thread pool when the output has more than two grains of elements. float16 / bfloat16
// plans run the float32 loop through HalfRows, which converts each row a block at a time.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "backends/cpu/bool_rows_avx512.h"
#include "backends/cpu/int_divide_rows_avx512.h"
#include "backends/cpu/elementwise_loops.h"
#include "backends/cpu/half_convert.h"
#include "backends/cpu/parallel.h"
#include "backends/cpu/vector_math.h"
#include "backends/cpu/cast_kernels.h"
#include "backends/cpu/cpu_kernels.h"
#include "core/elementwise.h"
#include "core/errors.h"
#include "core/half.h"
#include "core/strided_loop.h"

namespace dla::cpu {
namespace {

// Whether the AVX2 copies of the loops replace the baseline ones: where the build has them and
// the CPU runs them (AVX2 and FMA, as the part files are built), unless
// DLARRAY_CPU_LOOPS=baseline (tests compare the two copies' results; =avx2 keeps these and
// turns AVX-512 off, cpu_features.h).
bool use_avx2_loops() {
#ifdef DLA_HAVE_AVX2_LOOPS
  const char* env = std::getenv("DLARRAY_CPU_LOOPS");
  const bool baseline_only = env && std::strcmp(env, "baseline") == 0;
  return !baseline_only && vector_level() != VectorLevel::None;
#else
  return false;
#endif
}

// The baseline loops, their real-dtype entries replaced by the AVX2 ones where they are used
// (and the comparisons and float predicates by AVX-512 rows where the CPU has it), then
// libmvec's transcendental loops over both.
void fill_kernels(KernelTable& table) {
  baseline_loops::fill_kernels_0(table);
  baseline_loops::fill_kernels_1(table);
  baseline_loops::fill_kernels_2(table);
#ifdef DLA_HAVE_AVX2_LOOPS
  if (use_avx2_loops()) {
    avx2_loops::fill_kernels_0(table);
    avx2_loops::fill_kernels_1(table);
    avx2_loops::fill_kernels_2(table);
    install_avx512_bool_rows(table);
    install_avx512_int_divide_rows(table);
  }
#endif
  install_vector_math(table);
}

const KernelTable& kernels() {
  static KernelTable table = {};
  static const bool filled = (fill_kernels(table), true);
  (void)filled;
  return table;
}

}  // namespace

const CastRows& cast_rows() {
  static CastRows rows = {};
  static const bool filled = [] {
    baseline_loops::fill_cast_rows(rows);
#ifdef DLA_HAVE_AVX2_LOOPS
    if (use_avx2_loops()) {
      avx2_loops::fill_cast_rows(rows);
      install_avx512_cast_rows(rows);
    }
#endif
    return true;
  }();
  (void)filled;
  return rows;
}

std::complex<float> complex_product(std::complex<float> a, std::complex<float> b) { return a * b; }
std::complex<double> complex_product(std::complex<double> a, std::complex<double> b) { return a * b; }

LoopFn elementwise_cpu_loop(OpId op, ScalarType compute) {
  return kernels()[static_cast<int>(op)][static_cast<int>(compute)];
}

namespace {

// A 2-d problem where some input runs across the output's rows (a + b.T): walking whole
// rows would touch a new cache line per element of that input, so the rows are cut into
// square tiles that stay in cache.
template <int N>
bool wants_tiles(const LoopLayout<N>& L, int64_t tile) {
  if (L.ndim != 2 || L.shape[0] < 2 * tile || L.shape[1] < 2 * tile) return false;
  for (int k = 1; k < N; ++k) {
    const int64_t inner = L.strides[k][1] < 0 ? -L.strides[k][1] : L.strides[k][1];
    const int64_t outer = L.strides[k][0] < 0 ? -L.strides[k][0] : L.strides[k][0];
    if (inner > 64 && inner > outer) return true;
  }
  return false;
}

// Transposes a rows x cols block of 4- or 8-byte items: dst[r * pitch + c] = src[c * ld + r]
// (src column-contiguous, ld in items). Whole 8x8 (4-byte) or 4x4 (8-byte) squares go through
// AVX2 shuffles, which move bits only (any dtype of that size); the edges are copied singly.
constexpr int64_t kMaxTile = 64;

template <class T>
void transpose_scalar(T* dst, int64_t pitch, const T* src, int64_t ld, int64_t r0, int64_t r1, int64_t c0,
                      int64_t c1) {
  for (int64_t r = r0; r < r1; ++r)
    for (int64_t c = c0; c < c1; ++c) dst[r * pitch + c] = src[c * ld + r];
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) void transpose_block4(uint32_t* dst, int64_t pitch, const uint32_t* src, int64_t ld, int64_t rows,
                                                      int64_t cols) {
  const int64_t r8 = rows & ~int64_t(7), c8 = cols & ~int64_t(7);
  for (int64_t c = 0; c < c8; c += 8)
    for (int64_t r = 0; r < r8; r += 8) {
      __m256 v[8];
      for (int k = 0; k < 8; ++k) v[k] = _mm256_loadu_ps(reinterpret_cast<const float*>(src + (c + k) * ld + r));
      const __m256 t0 = _mm256_unpacklo_ps(v[0], v[1]), t1 = _mm256_unpackhi_ps(v[0], v[1]);
      const __m256 t2 = _mm256_unpacklo_ps(v[2], v[3]), t3 = _mm256_unpackhi_ps(v[2], v[3]);
      const __m256 t4 = _mm256_unpacklo_ps(v[4], v[5]), t5 = _mm256_unpackhi_ps(v[4], v[5]);
      const __m256 t6 = _mm256_unpacklo_ps(v[6], v[7]), t7 = _mm256_unpackhi_ps(v[6], v[7]);
      const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
      const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
      const __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
      const __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
      const __m256 w[8] = {_mm256_permute2f128_ps(u0, u4, 0x20), _mm256_permute2f128_ps(u1, u5, 0x20),
                           _mm256_permute2f128_ps(u2, u6, 0x20), _mm256_permute2f128_ps(u3, u7, 0x20),
                           _mm256_permute2f128_ps(u0, u4, 0x31), _mm256_permute2f128_ps(u1, u5, 0x31),
                           _mm256_permute2f128_ps(u2, u6, 0x31), _mm256_permute2f128_ps(u3, u7, 0x31)};
      for (int k = 0; k < 8; ++k) _mm256_storeu_ps(reinterpret_cast<float*>(dst + (r + k) * pitch + c), w[k]);
    }
  transpose_scalar(dst, pitch, src, ld, 0, r8, c8, cols);
  transpose_scalar(dst, pitch, src, ld, r8, rows, 0, cols);
}

__attribute__((target("avx2"))) void transpose_block8(uint64_t* dst, int64_t pitch, const uint64_t* src, int64_t ld, int64_t rows,
                                                      int64_t cols) {
  const int64_t r4 = rows & ~int64_t(3), c4 = cols & ~int64_t(3);
  for (int64_t c = 0; c < c4; c += 4)
    for (int64_t r = 0; r < r4; r += 4) {
      __m256d v[4];
      for (int k = 0; k < 4; ++k) v[k] = _mm256_loadu_pd(reinterpret_cast<const double*>(src + (c + k) * ld + r));
      const __m256d t0 = _mm256_unpacklo_pd(v[0], v[1]), t1 = _mm256_unpackhi_pd(v[0], v[1]);
      const __m256d t2 = _mm256_unpacklo_pd(v[2], v[3]), t3 = _mm256_unpackhi_pd(v[2], v[3]);
      const __m256d w[4] = {_mm256_permute2f128_pd(t0, t2, 0x20), _mm256_permute2f128_pd(t1, t3, 0x20),
                            _mm256_permute2f128_pd(t0, t2, 0x31), _mm256_permute2f128_pd(t1, t3, 0x31)};
      for (int k = 0; k < 4; ++k) _mm256_storeu_pd(reinterpret_cast<double*>(dst + (r + k) * pitch + c), w[k]);
    }
  transpose_scalar(dst, pitch, src, ld, 0, r4, c4, cols);
  transpose_scalar(dst, pitch, src, ld, r4, rows, 0, cols);
}
constexpr bool kHaveTransposeBlocks = true;
#else
void transpose_block4(uint32_t*, int64_t, const uint32_t*, int64_t, int64_t, int64_t) {}
void transpose_block8(uint64_t*, int64_t, const uint64_t*, int64_t, int64_t, int64_t) {}
constexpr bool kHaveTransposeBlocks = false;
#endif

// Which inputs a tile transposes into a buffer first: those of 4- or 8-byte items whose
// elements are adjacent down the output's columns (outer stride one item, inner stride
// large: b in a + b.T). The loop then sees unit strides and takes its vector path; walked
// in place, each element was a strided scalar load (float32 a + b.T took 1.5x NumPy's time,
// with the transposing tile 0.4x).
template <int N>
void transposed_inputs(const LoopLayout<N>& L, const int64_t* item, bool* packed) {
  const bool simd = kHaveTransposeBlocks && vector_level() != VectorLevel::None;
  for (int k = 0; k < N; ++k) {
    packed[k] = k > 0 && simd && (item[k] == 4 || item[k] == 8) && L.strides[k][0] == item[k] &&
                L.strides[k][1] > kMaxTile * item[k] && L.strides[k][1] % item[k] == 0;
  }
}

template <int N, class Fn>
void run_tiles(const Fn& fn, const LoopLayout<N>& L, const std::array<char*, N>& base, int64_t tile,
               const int64_t* item) {
  const int64_t rows = L.shape[0], cols = L.shape[1];
  const int64_t row_blocks = (rows + tile - 1) / tile;
  int64_t inner[N];
  for (int k = 0; k < N; ++k) inner[k] = L.strides[k][1];
  bool packed[N];
  transposed_inputs<N>(L, item, packed);
  auto blocks = [&](int64_t b0, int64_t b1) {
    // One tile of each transposed input (at most 32 KiB each), on the worker's stack; a
    // buffer's rows are `tile` items apart.
    alignas(64) uint64_t buf[N - 1][kMaxTile * kMaxTile];
    char* q[N];
    int64_t st[N];
    for (int k = 0; k < N; ++k) st[k] = packed[k] ? item[k] : inner[k];
    for (int64_t rb = b0; rb < b1; ++rb) {
      const int64_t r0 = rb * tile, r1 = std::min(rows, r0 + tile);
      for (int64_t c0 = 0; c0 < cols; c0 += tile) {
        const int64_t m = std::min(tile, cols - c0);
        for (int k = 0; k < N; ++k) {
          if (!packed[k]) continue;
          const char* src = base[k] + r0 * L.strides[k][0] + c0 * inner[k];
          if (item[k] == 4)
            transpose_block4(reinterpret_cast<uint32_t*>(buf[k - 1]), tile, reinterpret_cast<const uint32_t*>(src),
                             inner[k] / 4, r1 - r0, m);
          else
            transpose_block8(buf[k - 1], tile, reinterpret_cast<const uint64_t*>(src), inner[k] / 8, r1 - r0, m);
        }
        for (int64_t r = r0; r < r1; ++r) {
          for (int k = 0; k < N; ++k)
            q[k] = packed[k] ? reinterpret_cast<char*>(buf[k - 1]) + (r - r0) * tile * item[k]
                             : base[k] + r * L.strides[k][0] + c0 * inner[k];
          fn(q, st, m);
        }
      }
    }
  };
  const int64_t grain = std::max<int64_t>(1, kGrainSize / (tile * cols));
  if (rows * cols < 2 * kGrainSize) blocks(0, row_blocks);
  else parallel_for(row_blocks, grain, blocks);
}

template <int N, class Fn>
void run(const Fn& fn, ElementwisePlan& p) {
  ElementwiseOperands ops;
  elementwise_operands(p, &ops);
  const int64_t out_item = p.out.itemsize();
  std::array<char*, N> base;
  std::array<const int64_t*, N> sp;
  for (int k = 0; k < N; ++k) {
    base[k] = ops.base[k];
    sp[k] = ops.strides[k];
  }
  const LoopLayout<N> L = coalesce<N>(ops.shape, sp);
  const int64_t tile = out_item <= 4 ? 64 : 32;
  if (wants_tiles(L, tile)) {
    int64_t item[N] = {out_item};
    for (int k = 1; k < N; ++k) item[k] = p.in[k - 1].is_scalar ? 0 : p.in[k - 1].array().itemsize();
    return run_tiles<N, Fn>(fn, L, base, tile, item);
  }
  const int64_t total = p.size();
  if (total < 2 * kGrainSize || L.ndim == 0) {
    for_each_row(L, base, fn);
    return;
  }
  parallel_for(total, kGrainSize, [&](int64_t b, int64_t e) { for_each_row_range<N>(L, base, b, e, fn); });
}

// A row of a float16 / bfloat16 plan: the operands marked half are widened to float32 into
// stack blocks, the float32 loop runs on the blocks, and a half output is rounded back once.
// The other operands (where's condition, Python scalars already held as float32 values)
// are passed through with their own strides. Reading a whole block before writing it keeps
// in-place operation (x += y) correct.
template <int N>
struct HalfRows {
  static constexpr int64_t kBlock = 256;
  LoopFn f32;
  Half half;
  bool widen[N];  // widen[0]: the output is stored as half

  void operator()(char** q, const int64_t* s, int64_t n) const {
    alignas(64) float buf[N][kBlock];
    char* ptr[N];
    int64_t st[N];
    for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
      const int64_t m = n - i0 < kBlock ? n - i0 : kBlock;
      for (int k = 0; k < N; ++k) {
        char* at = q[k] + i0 * s[k];
        if (!widen[k]) {
          ptr[k] = at;
          st[k] = s[k];
          continue;
        }
        ptr[k] = reinterpret_cast<char*>(buf[k]);
        st[k] = sizeof(float);
        if (k == 0) continue;
        if (s[k] == 0) {  // a broadcast operand: one conversion
          const float v = half_to_float(half, *reinterpret_cast<const uint16_t*>(at));
          for (int64_t j = 0; j < m; ++j) buf[k][j] = v;
        } else {
          widen_half_row(half, at, s[k], buf[k], m);
        }
      }
      f32(ptr, st, m);
      if (widen[0]) narrow_half_row(half, buf[0], q[0] + i0 * s[0], s[0], m);
    }
  }
};

// nextafter on half values held as float32 (see half_nextafter).
template <Half H>
void half_nextafter_loop(char** p, const int64_t* s, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    at<float>(p[0], i, s[0]) = half_nextafter(H, at<float>(p[1], i, s[1]), at<float>(p[2], i, s[2]));
}

template <int N>
void run_plan(LoopFn fn, ElementwisePlan& p) {
  if (p.half == Half::None) return run<N>(fn, p);
  if (LoopFn vector = float32_loop_for_half(p.op)) fn = vector;
  if (p.op == OpId::nextafter)
    fn = p.half == Half::BFloat16 ? &half_nextafter_loop<Half::BFloat16> : &half_nextafter_loop<Half::Float16>;
  HalfRows<N> rows{fn, p.half, {}};
  rows.widen[0] = p.half_output();
  for (int k = 1; k < N; ++k) rows.widen[k] = !p.in[k - 1].is_scalar && p.in[k - 1].half;
  run<N>(rows, p);
}

void execute(ElementwisePlan& p) {
  LoopFn fn = kernels()[static_cast<int>(p.op)][static_cast<int>(p.compute)];
  if (!fn)
    throw TypeError(std::string(op_info(p.op).name) + ": no CPU kernel for dtype " + DType::of(p.compute).name());
  switch (p.nin) {
    case 1: return run_plan<2>(fn, p);
    case 2: return run_plan<3>(fn, p);
    case 3: return run_plan<4>(fn, p);
  }
  throw ValueError("elementwise: unsupported operand count");
}

}  // namespace

void execute_elementwise_plan(ElementwisePlan& p) { execute(p); }
void prepare_elementwise_kernels() { kernels(); }
}  // namespace dla::cpu
