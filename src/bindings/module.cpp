// module.cpp — `dlarray._core`: one extension module, assembled from the bind_* pieces.
#include <pybind11/pybind11.h>

#include "bindings/bindings.h"
#include "bindings/py_errors.h"

namespace pyb = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "dlarray's C++ core: arrays, dtypes, devices, DLPack exchange.";
  // Docstrings carry the exact array API signature as "name(params)\n--\n\n", which
  // CPython turns into __text_signature__ so inspect.signature() sees positional-only and
  // keyword-only parameters; pybind11's own generated signature line would hide it.
  pyb::options options;
  options.disable_function_signatures();
  // Every dla:: exception becomes the Python exception the array API names.
  pyb::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (...) {
      dla::py::set_python_error_from_current();
    }
  });
  dla::py::bind_dtype_device(m);
  dla::py::bind_array(m);
  dla::py::bind_creation(m);
  dla::py::bind_dlpack(m);
  dla::py::bind_introspection(m);
  dla::py::bind_elementwise(m);
  dla::py::bind_operators(m);
  dla::py::bind_data_types(m);
  dla::py::bind_utility(m);
  dla::py::bind_statistical(m);
  dla::py::bind_indexing(m);
  dla::py::bind_manipulation(m);
  dla::py::bind_creation_derived(m);
  dla::py::bind_gpu(m);
  dla::py::bind_pickle(m);
  dla::py::bind_random(m);
  dla::py::bind_searching(m);
  dla::py::bind_sorting(m);
  dla::py::bind_sets(m);
  dla::py::bind_linalg(m);
  dla::py::bind_cuda_interface(m);
  dla::py::bind_sycl_interface(m);
}
