// dense_solver.h — the LAPACK forms of the linalg extension (the DlaGpuSolver entry of
// gpu_ops.h) over a dense solver library with cuSOLVER's 64-bit generic ("X") interface:
// cuSOLVER itself (backends/cuda/cusolver.cpp) and hipSOLVER, whose compatibility API mirrors it
// (backends/rocm/hipsolver.cpp, which fills in the routines hipSOLVER lacks in that form from
// its typed ones). The loaders resolve the functions and name the library's enumerations;
// dense_solver.cpp owns what the ops do with them: one routine call per matrix of the stack on
// the job's stream, device workspace from the caller's scratch, and the kernels of
// solver_kernels.h for what LAPACK's conventions need beyond the routines.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/gpu/gpu_ops.h"
#include "backends/gpu/handle_pool.h"

namespace dla::gpu {

// The routines, with the generic interface's prototypes: handle and params first, sizes
// int64_t, element types as data-type ints, work-area sizes in bytes; statuses are ints.
// Enumerations are passed as ints, their values the library's own (below).
struct DenseSolverLibrary {
  int (*potrf_size)(void* h, void* p, int uplo, int64_t n, int type, const void* a, int64_t lda, int compute,
                    size_t* dev, size_t* host);
  int (*potrf)(void* h, void* p, int uplo, int64_t n, int type, void* a, int64_t lda, int compute, void* dev,
               size_t dev_bytes, void* host, size_t host_bytes, int* info);
  int (*getrf_size)(void* h, void* p, int64_t m, int64_t n, int type, const void* a, int64_t lda, int compute,
                    size_t* dev, size_t* host);
  int (*getrf)(void* h, void* p, int64_t m, int64_t n, int type, void* a, int64_t lda, int64_t* ipiv, int compute,
               void* dev, size_t dev_bytes, void* host, size_t host_bytes, int* info);
  int (*getrs)(void* h, void* p, int trans, int64_t n, int64_t nrhs, int type_a, const void* a, int64_t lda,
               const int64_t* ipiv, int type_b, void* b, int64_t ldb, int* info);
  int (*geqrf_size)(void* h, void* p, int64_t m, int64_t n, int type, const void* a, int64_t lda, int type_tau,
                    const void* tau, int compute, size_t* dev, size_t* host);
  int (*geqrf)(void* h, void* p, int64_t m, int64_t n, int type, void* a, int64_t lda, int type_tau, void* tau,
               int compute, void* dev, size_t dev_bytes, void* host, size_t host_bytes, int* info);
  // ?orgqr / ?ungqr, which has no generic form (32-bit sizes; lwork counts elements), one per
  // element type: float32, float64, complex64, complex128.
  int (*orgqr_size[4])(void* h, int m, int n, int k, const void* a, int lda, const void* tau, int* lwork);
  int (*orgqr[4])(void* h, int m, int n, int k, void* a, int lda, const void* tau, void* work, int lwork, int* info);
  int (*gesvd_size)(void* h, void* p, signed char jobu, signed char jobvt, int64_t m, int64_t n, int type_a,
                    const void* a, int64_t lda, int type_s, const void* s, int type_u, const void* u, int64_t ldu,
                    int type_vt, const void* vt, int64_t ldvt, int compute, size_t* dev, size_t* host);
  int (*gesvd)(void* h, void* p, signed char jobu, signed char jobvt, int64_t m, int64_t n, int type_a, void* a,
               int64_t lda, int type_s, void* s, int type_u, void* u, int64_t ldu, int type_vt, void* vt, int64_t ldvt,
               int compute, void* dev, size_t dev_bytes, void* host, size_t host_bytes, int* info);
  int (*syevd_size)(void* h, void* p, int jobz, int uplo, int64_t n, int type_a, const void* a, int64_t lda,
                    int type_w, const void* w, int compute, size_t* dev, size_t* host);
  int (*syevd)(void* h, void* p, int jobz, int uplo, int64_t n, int type_a, void* a, int64_t lda, int type_w, void* w,
               int compute, void* dev, size_t dev_bytes, void* host, size_t host_bytes, int* info);
  // Batched forms for stacks of small matrices (one call for the whole stack instead of one per
  // matrix, whose launch costs dominate at 16 x 16); nullptr where the library lacks them, and
  // the loop above is used. potrfBatched is typed (float32, float64, complex64, complex128;
  // 32-bit sizes) and takes a device array of matrix pointers; syevBatched is generic, over a
  // contiguous stack (matrix k at A + lda n k, its eigenvalues at W + n k).
  int (*potrf_batched[4])(void* h, int uplo, int n, void** a, int lda, int* info, int batch);
  int (*syev_batched_size)(void* h, void* p, int jobz, int uplo, int64_t n, int type_a, const void* a, int64_t lda,
                           int type_w, const void* w, int compute, size_t* dev, size_t* host, int64_t batch);
  int (*syev_batched)(void* h, void* p, int jobz, int uplo, int64_t n, int type_a, void* a, int64_t lda, int type_w,
                      void* w, int compute, void* dev, size_t dev_bytes, void* host, size_t host_bytes, int* info,
                      int64_t batch);
  // gesvdjBatched (typed; m, n <= 32; a contiguous stack; U m x m and V n x n whole, V not V^H;
  // singular values in descending order by default), with its parameter object, made per handle
  // (BoundHandle::svdj) by create_gesvdj_info. lwork counts elements.
  int (*create_gesvdj_info)(void** info);
  int (*gesvdj_batched_size[4])(void* h, int jobz, int m, int n, const void* a, int lda, const void* s, const void* u,
                                int ldu, const void* v, int ldv, int* lwork, void* params, int batch);
  int (*gesvdj_batched[4])(void* h, int jobz, int m, int n, void* a, int lda, void* s, void* u, int ldu, void* v,
                           int ldv, void* work, int lwork, int* info, void* params, int batch);
  // The LU of stacks, from the BLAS library beside the solver (cuBLAS's batched getrf/getrs;
  // typed, 32-bit sizes and pivots, pointer arrays; getrs's info is a host int that reports
  // argument errors only), on the handle BoundHandle::blas, which the loader binds to the stream.
  int (*getrf_batched[4])(void* blas, int n, void** a, int lda, int* ipiv, int* info, int batch);
  int (*getrs_batched[4])(void* blas, int trans, int n, int nrhs, void* const* a, int lda, const int* ipiv, void** b,
                          int ldb, int* host_info, int batch);
  // nullptr where the library has no generic geev: eig and eigvals are then DLA_GPU_UNSUPPORTED.
  int (*geev_size)(void* h, void* p, int jobvl, int jobvr, int64_t n, int type_a, const void* a, int64_t lda,
                   int type_w, const void* w, int type_vl, const void* vl, int64_t ldvl, int type_vr, const void* vr,
                   int64_t ldvr, int compute, size_t* dev, size_t* host);
  int (*geev)(void* h, void* p, int jobvl, int jobvr, int64_t n, int type_a, void* a, int64_t lda, int type_w,
              void* w, int type_vl, void* vl, int64_t ldvl, int type_vr, void* vr, int64_t ldvr, int compute,
              void* dev, size_t dev_bytes, void* host, size_t host_bytes, int* info);
};

// The batched forms both vendors name alike after their prefix ("cusolverDn", "hipsolverDn"):
// {S,D,C,Z}potrfBatched, CreateGesvdjInfo and {S,D,C,Z}gesvdjBatched with its size query, each
// looked up with find(name, &pointer), which reports nothing when one is absent; a type without
// both gesvdj functions keeps gesvdj_batched nullptr (its stacks take the per-matrix routine).
template <class Find>
void resolve_shared_batched(const std::string& prefix, DenseSolverLibrary* r, Find&& find) {
  const char types[] = "SDCZ";
  for (int k = 0; k < 4; ++k) find((prefix + types[k] + "potrfBatched").c_str(), &r->potrf_batched[k]);
  if (!find((prefix + "CreateGesvdjInfo").c_str(), &r->create_gesvdj_info)) return;
  for (int k = 0; k < 4; ++k) {
    const std::string name = prefix + types[k] + "gesvdjBatched";
    if (!find((name + "_bufferSize").c_str(), &r->gesvdj_batched_size[k]) || !find(name.c_str(), &r->gesvdj_batched[k]))
      r->gesvdj_batched[k] = nullptr;
  }
}

// The library's values of the enumerations and statuses the ops pass or return.
struct DenseSolverEnums {
  int r32f, r64f, c32f, c64f;           // data types: float, double, complex float, complex double
  int lower, upper;                     // fill modes
  int op_n, op_t;                       // operations: none, transpose
  int no_vector, vector;                // eigen modes
  int invalid_value, not_supported, alloc_failed, execution_failed;  // statuses
};

// The checks made before the library is loaded: 0, or the table's code for a malformed job
// (SOLVER_STATUS - invalid_value), a dtype no routine takes, or eig / eigvals where the library
// has no geev (has_geev false) (DLA_GPU_UNSUPPORTED).
int dense_solver_check(const DenseSolverEnums& e, const DlaGpuSolver& job, bool has_geev);

// The job (already checked) with the calling thread's handle `b` of the current device, whose
// stream the caller has set to `stream`. Scratch as segmented_sort_async (temp == nullptr:
// the size it needs in *temp_bytes); host workspace a routine asks for goes into *host_work,
// which the caller keeps until the stream has drained. Returns 0 or the table's code.
int dense_solver_run(const DenseSolverLibrary& lib, const DenseSolverEnums& e, BoundHandle b, const DlaGpuSolver& job,
                     void* temp, size_t* temp_bytes, void* stream, std::vector<unsigned char>* host_work);

// The whole entry of a vendor solver (cusolver_run, hipsolver_run): the job checked, the library
// loaded by load() (nullptr: its reason recorded, LIBRARY_MISSING), the calling thread's handle of
// `device` from the library's own pool (Tag) bound to `stream`, then dense_solver_run. `Library`
// holds create, set_stream, create_params, the routines `r`, and blas_create / blas_set_stream for
// a BLAS handle serving the batched LU (nullptr where the library has none).
template <class Tag, class Library>
int run_vendor_solver(const Library* (*load)(), const DenseSolverEnums& e, int device, const DlaGpuSolver& job,
                      void* temp, size_t* temp_bytes, void* stream, std::vector<unsigned char>* host_work) {
  if (device < 0 || device >= kMaxHandleDevices) return DLA_GPU_SOLVER_STATUS - e.invalid_value;
  // has_geev true here: whether the library has geev is known once it is loaded (the run checks).
  if (int err = dense_solver_check(e, job, /*has_geev*/ true)) return err;
  const Library* c = load();
  if (!c) return DLA_GPU_LIBRARY_MISSING;
  auto create = [c](BoundHandle* fresh) {  // binds the handle to the current device
    if (int s = c->create(&fresh->h)) return s;
    if (int s = c->create_params(&fresh->p)) return s;
    // gesvdjBatched's parameters (the defaults: tolerance at machine precision, 100 sweeps,
    // sorted); without them svd takes the per-matrix routine.
    if (c->r.create_gesvdj_info && c->r.create_gesvdj_info(&fresh->svdj) != 0) fresh->svdj = nullptr;
    // A BLAS handle for the batched LU; without one such stacks take the per-matrix routines.
    if (c->blas_set_stream && c->blas_create(&fresh->blas) != 0) fresh->blas = nullptr;
    return 0;
  };
  BoundHandle b;
  if (int s = HandlePool<Tag>::get(device, &b, create)) return DLA_GPU_SOLVER_STATUS - s;
  if (int s = c->set_stream(b.h, stream)) return DLA_GPU_SOLVER_STATUS - s;
  if (b.blas && c->blas_set_stream(b.blas, stream) != 0) b.blas = nullptr;  // this call loops instead
  return dense_solver_run(c->r, e, b, job, temp, temp_bytes, stream, host_work);
}

}  // namespace dla::gpu
