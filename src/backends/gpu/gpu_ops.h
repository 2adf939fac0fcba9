/* gpu_ops.h — the C table a GPU backend hands to dlarray's core.
 *
 * gpu_ops.cu is compiled twice, as CUDA (into dlarray._core, static cudart) and as HIP (into
 * the optional module dlarray._rocm, which needs libamdhip64 at import). Both builds export
 * one DlaGpuOps: plain C functions over the vendor runtime, returning 0 or the vendor's
 * error code. Everything stateful that is not the vendor's business (current streams,
 * event pools, allocator statistics, copy routing) lives once in the core
 * (src/backends/gpu/gpu_backend.cpp), so no C++ object or exception ever crosses the
 * boundary between the two compilers' modules.
 */
#pragma once
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever DlaGpuOps, DlaGpuStrided, DlaGpuElementwise, DlaGpuSegmentedSort, DlaGpuGemm, DlaGpuFold,
 * DlaGpuSolver or DlaGpuScan changes layout or meaning (4: segmented_sort_async, sort_max_items and the sort
 * helper jobs; 5: the search helper jobs ARG_KEY, SEARCH, COMPACT and SCATTER, so an older backend is
 * refused at install instead of answering them DLA_GPU_UNSUPPORTED; 6: gemm_async, fft_async, the
 * MATMUL element job and dlarray's own negative error codes; 7: fold_async; 8: solver_async; 9: scan_async;
 * 10: the RANDOM element job; 11: peer_access). */
#define DLA_GPU_OPS_ABI 11
/* Dimensions of a strided job: dlarray's max rank plus the words-in-an-element axis. */
#define DLA_GPU_MAX_DIMS 65

/* One strided copy (src != NULL) or fill (src == NULL), coalesced by the core.
 * Copy: the index space counts `word`-byte words; word i of the N-d space is read at
 *   src + sum(idx[d] * src_strides[d]) and written at dst + sum(idx[d] * dst_strides[d]).
 * Fill: the index space counts elements of `words` words each; element i's words are
 *   written from `value` at dst + sum(idx[d] * dst_strides[d]) + w * word.
 * Every address and stride is a multiple of `word` (1, 2, 4, 8 or 16). */
typedef struct DlaGpuStrided {
  void* dst;
  const void* src;
  int64_t count; /* words (copy) or elements (fill); > 0 */
  int32_t ndim;  /* 1..DLA_GPU_MAX_DIMS, innermost last */
  int32_t word;
  int32_t words; /* fill only: words per element */
  int32_t reserved;
  unsigned char value[16];
  int64_t shape[DLA_GPU_MAX_DIMS];
  int64_t dst_strides[DLA_GPU_MAX_DIMS]; /* bytes */
  int64_t src_strides[DLA_GPU_MAX_DIMS]; /* bytes */
} DlaGpuStrided;

/* Operands of an elementwise job, the output included. */
#define DLA_GPU_MAX_OPERANDS 4
/* The job's `op` of a dtype conversion (elementwise ops use their dla::OpId, 0..). */
#define DLA_GPU_OP_CAST (-1)
/* Dtype codes of a cast job beyond dla::ScalarType: the 16-bit floating-point storage types. */
#define DLA_GPU_FLOAT16 100
#define DLA_GPU_BFLOAT16 101
/* Returned by elementwise_async for an (op, dtype) pair its kernels do not cover (and by
 * gemm_async where the backend has no BLAS). */
#define DLA_GPU_UNSUPPORTED (-1)
/* dlarray's own error codes beside the vendor runtime's (which are positive); the table's
 * error_string and is_out_of_memory answer them too.
 * LIBRARY_MISSING: a vendor library loaded at run time (cuBLAS, cuFFT, cuSOLVER) could not be found
 *   or lacks a function; error_string says which, where it was looked for and what to install (the
 *   text of the calling thread's last such failure).
 * BLAS_STATUS - s / FFT_STATUS - s / SOLVER_STATUS - s: the vendor BLAS / FFT / dense solver
 *   library returned status s != 0 (0 < s < 1000). */
#define DLA_GPU_LIBRARY_MISSING (-2)
#define DLA_GPU_BLAS_STATUS (-1000)
#define DLA_GPU_FFT_STATUS (-2000)
#define DLA_GPU_SOLVER_STATUS (-3000)
/* The element jobs around a sort (src/backends/gpu/gpu_sort.cpp), run by elementwise_async
 * with the kernels of gpu_elementwise_kernels.h; `dtype` is the sorted array's.
 * SORT_KEY: operand 0 (the unsigned integer of the dtype's width) = the order key of operand 1
 *   (core/order_key.h), bitwise negated when flags & DLA_GPU_FLAG_DESCENDING.
 * ROW_INDEX: operand 0 (int64) = i modulo scalar[1][0], for flat index i of a 1-d job: the
 *   position of each element in its row. Operand 1 is that scalar (data[1] == NULL).
 * GATHER: operand 0 (dtype) = the element of operand 2's row at position p, where p is the
 *   int64 at operand 1: read at data[2] + offset_2 + p * scalar[2][0] (the row's byte
 *   stride; operand 2's strides locate the row, 0 along it). */
#define DLA_GPU_OP_SORT_KEY (-2)
#define DLA_GPU_OP_ROW_INDEX (-3)
#define DLA_GPU_OP_GATHER (-4)
#define DLA_GPU_FLAG_DESCENDING 1
/* The element jobs of the searching functions (src/backends/gpu/gpu_search.cpp), likewise.
 * ARG_KEY: operand 0 (the unsigned integer of the dtype's width) = a key whose largest value
 *   marks argmax's answer: the order key of operand 1, or with DLA_GPU_FLAG_ARGMIN its bitwise
 *   NOT, except that a float NaN keeps the all-ones key (the first NaN wins either way).
 * SEARCH: operand 0 (int64) = the insertion point of operand 1 (a query) into the n = scalar[2][1]
 *   elements of x1 at data[2], scalar[2][0] bytes apart, read in the order of the int64
 *   positions at data[3] (scalar[3][0] bytes apart) when data[3] is not NULL; after equal
 *   elements with DLA_GPU_FLAG_RIGHT. Operands 2 and 3 have zero strides.
 * COMPACT: a 1-d job over i < count. Operand 1 is the contiguous int64 inclusive scan of 0/1
 *   flags; where it steps (scan[i] != scan[i-1], scan[-1] = 0) the element at data[0] +
 *   (scan[i] - 1) * itemsize (operand 0 has zero strides) = operand 2 at i, or, when data[2]
 *   is NULL, the int64 (i / scalar[2][0]) % scalar[2][1]. With DLA_GPU_FLAG_CANONICAL the
 *   value goes through its order key and back (-0 -> +0, every NaN the quiet NaN).
 * SCATTER: the element at data[0] + p * scalar[0][0] = operand 2, p the int64 operand 1 (operand
 *   0 has zero strides); the positions must be distinct. `dtype` gives the element width. */
#define DLA_GPU_OP_ARG_KEY (-5)
#define DLA_GPU_OP_SEARCH (-6)
#define DLA_GPU_OP_COMPACT (-7)
#define DLA_GPU_OP_SCATTER (-8)
/* The integer matrix product (src/backends/gpu/gpu_linalg.cpp), one output element per index:
 * MATMUL: operand 0 (dtype) = sum over p < scalar[1][1] of operand 1 at data[1] + offset_1 +
 *   p * scalar[1][0] times operand 2 at data[2] + offset_2 + p * scalar[2][0], with wrap-around
 *   (modulo 2^bits) arithmetic as the CPU's integer kernel. The index space is the output's
 *   (..., M, N); operand 1's strides locate the row of x1 (0 along N), operand 2's the column of
 *   x2 (0 along M); scalar[k][0] is the byte stride along the contracted axis. Integer dtypes. */
#define DLA_GPU_OP_MATMUL (-9)
/* dlarray.random's numbers (core/philox.h, src/backends/gpu/gpu_random.cpp):
 * RANDOM: operand 0 (float32 or float64 for the real kinds, int64 or uint64 for the integer
 *   ones; a 1-d job over a contiguous array) = element i of the draw whose dla::philox::RandomJob
 *   (64 bytes) is stored in scalar[0][0] .. scalar[3][1]; `flags` holds its kind. */
#define DLA_GPU_OP_RANDOM (-10)
#define DLA_GPU_FLAG_ARGMIN 2
#define DLA_GPU_FLAG_RIGHT 4
#define DLA_GPU_FLAG_CANONICAL 8

/* One elementwise operation or dtype conversion over a strided index space, built by the
 * core (src/backends/gpu/gpu_elementwise.cpp) after broadcasting and coalescing. Operand 0
 * is the output. Element i of the index space (innermost dimension last) of operand k is at
 * data[k] + sum(idx[d] * strides[k][d]); an operand with data[k] == NULL is a Python scalar
 * whose value, already in the kernel's dtype, is held in scalar[k] (so no host round trip).
 * Kernels: src/backends/gpu/gpu_elementwise_kernels.h. */
typedef struct DlaGpuElementwise {
  int32_t op;        /* dla::OpId, or DLA_GPU_OP_CAST */
  int32_t dtype;     /* dla::ScalarType the operation computes in (cast: the source's, or DLA_GPU_FLOAT16 / _BFLOAT16) */
  int32_t out_dtype; /* cast: the destination's, likewise; otherwise unused */
  int32_t noperands; /* 2..DLA_GPU_MAX_OPERANDS */
  int32_t ndim;      /* 1..DLA_GPU_MAX_DIMS - 1 */
  int32_t flags;     /* DLA_GPU_FLAG_* of the sort helper jobs; 0 otherwise */
  int64_t count;     /* elements; > 0 */
  void* data[DLA_GPU_MAX_OPERANDS];
  int64_t scalar[DLA_GPU_MAX_OPERANDS][2]; /* 16 bytes each, 8-byte aligned */
  int64_t shape[DLA_GPU_MAX_DIMS - 1];
  int64_t strides[DLA_GPU_MAX_OPERANDS][DLA_GPU_MAX_DIMS - 1]; /* bytes */
} DlaGpuElementwise;

/* A stable sort of (key, value) pairs within each of `segments` contiguous rows of `length`
 * pairs: row r is keys_in[r * length, (r + 1) * length), sorted by unsigned key (ties keep
 * their input order) into the same range of keys_out, its values moved with the keys. The
 * core turns every order into unsigned key order beforehand (DLA_GPU_OP_SORT_KEY), so the
 * vendor library's radix sort needs no comparator. Inputs and outputs are device memory and
 * must not overlap; segments * length <= the table's sort_max_items. */
typedef struct DlaGpuSegmentedSort {
  const void* keys_in;
  void* keys_out;
  const int64_t* values_in;
  int64_t* values_out;
  int64_t segments; /* >= 1 */
  int64_t length;   /* >= 1 */
  int32_t key_bytes; /* 1, 2, 4 or 8 */
  int32_t reserved;
} DlaGpuSegmentedSort;

/* One strided batch of matrix products in BLAS's column-major convention (cuBLAS's
 * ?gemmStridedBatched): for i < batch, C_i = op(A_i) op(B_i), where X_i starts `stride_x`
 * elements after X_(i-1); op(A_i) is m x k, op(B_i) is k x n and C_i m x n. op is the stored
 * matrix itself (trans 0) or its transpose (1); each is stored column-major with its leading
 * dimension (ld >= max(1, its rows as stored)). A stride of 0 uses one matrix for the whole
 * batch (broadcasting); C's matrices overlap neither each other nor A's or B's. Computed in the
 * dtype's own precision (never TF32 or another reduced-precision mode). The core
 * (src/backends/gpu/gpu_linalg.cpp) hands row-major operands over by swapping A and B. */
typedef struct DlaGpuGemm {
  int32_t dtype; /* dla::ScalarType: float32, float64, complex64 or complex128 */
  int32_t trans_a, trans_b;
  int32_t reserved;
  int64_t m, n, k; /* >= 1 */
  int64_t batch;   /* >= 1 */
  const void* a;
  int64_t lda, stride_a;
  const void* b;
  int64_t ldb, stride_b;
  void* c;
  int64_t ldc, stride_c;
} DlaGpuGemm;

/* The kinds of DlaGpuFft. */
#define DLA_GPU_FFT_C2C 0
#define DLA_GPU_FFT_R2C 1
#define DLA_GPU_FFT_C2R 2
/* `batch` discrete Fourier transforms over the `rank` innermost axes, of lengths n[0..rank)
 * (innermost last), of C-contiguous arrays (cuFFT's cufftMakePlanMany64 with packed layouts):
 *   C2C: complex in, complex out of the same shape (in == out allowed); exponent sign
 *        `direction` (-1 forward, +1 inverse), unnormalized;
 *   R2C: real in, complex out with n[rank-1] / 2 + 1 entries along the innermost axis (sign -1);
 *   C2R: the reverse (sign +1), the input's imaginary parts that a Hermitian signal cannot have
 *        ignored; the input is overwritten (as cuFFT's C2R may do).
 * On ROCm the input of every kind may be overwritten (rocFFT, under hipFFT, may overwrite the
 * input of out-of-place C2C and R2C transforms too), so the core hands the library a copy there.
 * `dtype` is the complex dtype: complex64 (single precision) or complex128 (double). Every real
 * number of the output is then multiplied by `scale` (1: left alone; the norm= modes). Scratch
 * memory as segmented_sort_async: with temp == NULL only *temp_bytes is written. */
typedef struct DlaGpuFft {
  int32_t kind;
  int32_t dtype;
  int32_t rank;      /* 1..3 */
  int32_t direction; /* C2C only */
  int64_t n[3];
  int64_t batch;     /* >= 1 */
  void* in;
  void* out;
  double scale;
} DlaGpuFft;
/* A fold of one reduced axis into the outputs (the core collapses an array's reduced axes into
 * one, and its kept axes into at most two first): out[o] = op(out[o], in[o, 0] op in[o, 1] op ...
 * op in[o, inner - 1]) for o < outer. Output o is (h, l) = (o / outer_low, o % outer_low); in[o, k]
 * is at in + h * in_high_stride + l * in_outer_stride + k * in_inner_stride and out[o] at out +
 * h * out_high_stride + l * out_stride (bytes, any sign; outer_low == outer when one kept axis
 * is enough). `op` is a dla::OpId among add, multiply, maximum and minimum, computed in `dtype`
 * by the elementwise table's functor; the inner elements are combined as a balanced binary
 * tree (pairwise sums), never with an identity element. out holds each output's first
 * contribution already, and does not overlap in. */
typedef struct DlaGpuFold {
  int32_t op;
  int32_t dtype;
  int64_t outer;     /* >= 1 */
  int64_t outer_low; /* >= 1, divides outer */
  int64_t inner;     /* >= 1 */
  void* out;
  int64_t out_stride;
  int64_t out_high_stride;
  const void* in;
  int64_t in_outer_stride;
  int64_t in_high_stride;
  int64_t in_inner_stride;
} DlaGpuFold;

/* An inclusive scan in place along one axis of a C-contiguous block of outer x length x inner
 * elements of `dtype` at `data` (the core's scan output, or its running counts): for every
 * o < outer and j < inner, the elements x[k] at data + ((o * length + k) * inner + j) * itemsize
 * become x[0] op x[1] op ... op x[k], k < length. `op` is a dla::OpId, add or multiply, computed
 * by the elementwise table's functor (integers wrap around; any dtype of the GPU's elementwise
 * kernels but bool, which the core scans as int64). Scratch memory as segmented_sort_async. */
typedef struct DlaGpuScan {
  int32_t op;
  int32_t dtype;
  int64_t outer;  /* >= 1 */
  int64_t length; /* >= 1 */
  int64_t inner;  /* >= 1 */
  void* data;
} DlaGpuScan;

/* DlaGpuSolver.flags: the options of the function (core/linalg.h, LapackJob). */
#define DLA_GPU_SOLVER_UPPER 1      /* cholesky: the upper factor */
#define DLA_GPU_SOLVER_FULL 2       /* svd: full_matrices; qr: mode 'complete' */
#define DLA_GPU_SOLVER_VECTORS 4    /* svd, eigh, eig: the vectors too */
#define DLA_GPU_SOLVER_TRANSPOSED 8 /* solve: a holds each matrix transposed (solve with A^T's LU, trans 'T') */
/* One LAPACK-form job over a stack of `batch` >= 1 matrices: the device-memory twin of the core's
 * LapackJob (core/linalg.h), whose comments, and the CPU's lapack_cpu.cpp, define every op's
 * inputs and results exactly (the GPU's must be the same: cholesky's other triangle zeroed, inv
 * in out[0], det / slogdet computed from the LU factors with a singular matrix a result, qr's
 * Q in out[0] and R in out[1], svd's U, S, Vh in out[0..2], eigh's values in out[0] and vectors
 * over a, eig's complex values and vectors in out[0], out[1]). Every buffer holds its matrices
 * column-major (leading dimension = rows), `*_step` elements apart; `info` has `batch` int32
 * entries the job writes (0: success, > 0: LAPACK's info for the matrix: singular, not positive
 * definite, no convergence; det and slogdet always write 0). The core reads info back to the host
 * after the call (the one device-to-host transfer and wait of a linalg function). Scratch memory
 * as segmented_sort_async: with temp == NULL only *temp_bytes is written. */
typedef struct DlaGpuSolver {
  int32_t op;    /* dla::LinalgOpId (core/linalg_ops.h) */
  int32_t dtype; /* dla::ScalarType: float32, float64, complex64 or complex128 */
  int32_t flags; /* DLA_GPU_SOLVER_* */
  int32_t reserved;
  int64_t batch, m, n; /* a is m x n (square ops: m == n) */
  int64_t nrhs;        /* solve: b is n x nrhs */
  void* a;
  int64_t a_step;
  void* b;
  int64_t b_step;
  void* out[3];
  int64_t out_step[3];
  int32_t* info;
} DlaGpuSolver;

typedef struct DlaGpuOps {
  uint32_t abi;            /* DLA_GPU_OPS_ABI */
  int32_t device_type;     /* DLPack device types of the three memory kinds; */
  int32_t host_type;       /*   managed_type is 0 when the backend has none */
  int32_t managed_type;
  const char* name;        /* "cuda" or "rocm" */

  const char* (*error_string)(int err);
  int (*is_out_of_memory)(int err);

  int (*device_count)(int* out);
  /* Called once per device before its first allocation (memory pool set-up). */
  int (*init_device)(int device);

  /* Stream-ordered device memory; free is ordered on `stream` too. */
  int (*malloc_async)(int device, size_t n, void* stream, void** out);
  int (*free_async)(int device, void* p, void* stream);
  int (*malloc_host)(size_t n, void** out); /* page-locked, usable by every device */
  int (*free_host)(void* p);
  int (*malloc_managed)(int device, size_t n, void** out); /* NULL without managed memory */
  int (*free_managed)(void* p);

  /* Work ordered on `stream` of `device`. memcpy resolves the direction from the pointers. */
  int (*memcpy_async)(int device, void* dst, const void* src, size_t n, void* stream);
  int (*memset_async)(int device, void* dst, int byte, size_t n, void* stream);
  int (*strided_async)(int device, const DlaGpuStrided* job, void* stream);
  /* An elementwise operation or conversion; DLA_GPU_UNSUPPORTED when no kernel covers it. */
  int (*elementwise_async)(int device, const DlaGpuElementwise* job, void* stream);

  int (*stream_create)(int device, int non_blocking, void** out);
  int (*stream_destroy)(int device, void* stream);
  int (*stream_synchronize)(int device, void* stream);
  int (*stream_query)(int device, void* stream, int* done); /* done: 1 when all work finished */
  int (*event_create)(int device, void** out);
  int (*event_destroy)(int device, void* event);
  int (*event_record)(int device, void* event, void* stream);
  int (*stream_wait_event)(int device, void* stream, void* event);
  int (*event_query)(int device, void* event, int* done); /* done: 1 when the work before it finished */

  /* Bytes the device's pool holds from the driver, and bytes handed out from it. */
  int (*pool_usage)(int device, uint64_t* reserved, uint64_t* used);
  /* Returns the pool's cached, unused memory to the driver. */
  int (*pool_trim)(int device);

  /* Where a foreign pointer lives (importing __cuda_array_interface__, which names no device):
   * *device_type is the DLPack type of the memory kind (device, host or managed; 0 when the
   * runtime does not know the pointer), *device its device. May be NULL (then unknown). */
  int (*pointer_device)(const void* p, int* device_type, int* device);

  /* A segmented stable sort (DlaGpuSegmentedSort). With temp == NULL it only writes the
   * scratch bytes the job needs to *temp_bytes and queues nothing; then the core allocates
   * them from the device's stream-ordered pool on `stream` and calls again with temp and
   * that size. DLA_GPU_UNSUPPORTED for a key width it does not sort. */
  int (*segmented_sort_async)(int device, const DlaGpuSegmentedSort* job, void* temp, size_t* temp_bytes,
                              void* stream);
  /* The most pairs one segmented_sort_async call may sort (the vendor library's item count
   * type); the core splits larger jobs by rows, and refuses a single longer row. */
  int64_t sort_max_items;

  /* A DlaGpuGemm through the vendor BLAS, loaded on first use (DLA_GPU_LIBRARY_MISSING when it
   * cannot be), on `stream`; DLA_GPU_UNSUPPORTED where the backend has no BLAS. */
  int (*gemm_async)(int device, const DlaGpuGemm* job, void* stream);
  /* A DlaGpuFft through the vendor FFT library (likewise loaded on first use, likewise
   * DLA_GPU_UNSUPPORTED without one), its scratch memory `temp` from the core. */
  int (*fft_async)(int device, const DlaGpuFft* job, void* temp, size_t* temp_bytes, void* stream);
  /* A fold (DlaGpuFold), with scratch memory for partial results asked for and handed over as
   * for segmented_sort_async. DLA_GPU_UNSUPPORTED for an (op, dtype) pair it does not cover;
   * the core then folds with elementwise jobs. */
  int (*fold_async)(int device, const DlaGpuFold* job, void* temp, size_t* temp_bytes, void* stream);
  /* A DlaGpuSolver through the vendor dense solver library (cuSOLVER; loaded on first use,
   * DLA_GPU_LIBRARY_MISSING when it cannot be, DLA_GPU_UNSUPPORTED where the backend has none),
   * scratch memory `temp` from the core. */
  int (*solver_async)(int device, const DlaGpuSolver* job, void* temp, size_t* temp_bytes, void* stream);
  /* A DlaGpuScan through the vendor library's device-wide scans (CUB, rocPRIM), scratch memory
   * asked for and handed over as for segmented_sort_async. DLA_GPU_UNSUPPORTED for an (op, dtype)
   * pair or a layout it does not cover; the core then scans with elementwise jobs. */
  int (*scan_async)(int device, const DlaGpuScan* job, void* temp, size_t* temp_bytes, void* stream);
  /* Grants device `peer` read and write access to the memory of `device`'s pool (cudaMemPoolSetAccess),
   * where the hardware allows it (*granted = 1); *granted = 0 where it does not. Memory from a
   * stream-ordered pool is usable by its own device only until access is granted, so the core asks
   * before the first copy between two devices' memory, and stages the copies of a pair without
   * access through pinned host memory. */
  int (*peer_access)(int device, int peer, int* granted);
} DlaGpuOps;

/* The two builds of gpu_ops.cu. */
const DlaGpuOps* dla_cuda_gpu_ops(void);
const DlaGpuOps* dla_rocm_gpu_ops(void);

/* What dlarray._core exports (PyCapsule "dlarray._core._gpu_registrar") so that an optional
 * module can plug in a backend: returns 0, or -1 with a message in err. */
typedef int (*DlaGpuRegistrar)(const DlaGpuOps* ops, char* err, size_t err_len);
#define DLA_GPU_REGISTRAR_CAPSULE "dlarray._core._gpu_registrar"

#ifdef __cplusplus
}
#endif
