// py_sycl_interface.cpp — __sycl_usm_array_interface__ (SUAI, version 1): import and export.
#include "bindings/py_interface_dict.h"

namespace dla::py {

bool import_sycl_interface(PyObject*, const Device*, const char*, Array*) { return false; }

}  // namespace dla::py
