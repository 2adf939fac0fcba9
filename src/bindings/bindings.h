// bindings.h — the pieces of the `dlarray._core` module, one bind_* function per file.
//
// module.cpp calls each in order; a new chapter of the namespace adds its file and one
// line here and there.
#pragma once
#include <pybind11/pybind11.h>

namespace dla::py {
namespace pyb = pybind11;

void bind_dtype_device(pyb::module_& m);  // py_dtype_device.cpp
void bind_array(pyb::module_& m);         // py_array.cpp
void bind_creation(pyb::module_& m);      // py_creation.cpp
void bind_dlpack(pyb::module_& m);        // ../dlpack/py_dlpack.cpp
void bind_introspection(pyb::module_& m); // py_introspection.cpp (allocator stats, build info)
void bind_elementwise(pyb::module_& m);   // py_elementwise.cpp (67 functions + where)
void bind_operators(pyb::module_& m);     // py_operators.cpp (Array number slots, comparisons)
void bind_data_types(pyb::module_& m);    // py_data_types.cpp (astype, can_cast, finfo, iinfo, isdtype, result_type)
void bind_utility(pyb::module_& m);       // py_utility.cpp (all, any)
void bind_statistical(pyb::module_& m);   // py_statistical.cpp (sum, prod, max, min, mean, std, var, cumulative_*)
void bind_indexing(pyb::module_& m);      // py_indexing.cpp (Array.__getitem__/__setitem__, take)
void bind_manipulation(pyb::module_& m);  // py_manipulation.cpp
void bind_creation_derived(pyb::module_& m);  // py_creation_derived.cpp (*_like, eye, linspace, ...)
void bind_gpu(pyb::module_& m);           // py_gpu.cpp (dlarray.cuda / dlarray.rocm streams)
void bind_pickle(pyb::module_& m);        // py_pickle.cpp (the bytes behind pickle and copy)
void bind_random(pyb::module_& m);        // py_random.cpp (dlarray.random's draws on any device)
void bind_searching(pyb::module_& m);     // py_searching.cpp (argmax, argmin, count_nonzero, nonzero, searchsorted)
void bind_sorting(pyb::module_& m);       // py_sorting.cpp (argsort, sort)
void bind_sets(pyb::module_& m);          // py_sets.cpp (isin, unique_*)
void bind_cuda_interface(pyb::module_& m);  // py_cuda_interface.cpp (__cuda_array_interface__)
void bind_sycl_interface(pyb::module_& m);  // py_sycl_interface.cpp (__sycl_usm_array_interface__, oneapi)
void bind_linalg(pyb::module_& m);        // py_linalg.cpp (matmul, the LAPACK entries of dlarray.linalg)

}  // namespace dla::py
