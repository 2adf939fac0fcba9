// py_dlpack_diag.h — private helpers of the DLPack code for tests and benchmarks.
#pragma once
#include <pybind11/pybind11.h>

namespace dla::py {
namespace pyb = pybind11;

void bind_dlpack_abi(pyb::module_& m);   // py_dlpack_abi.cpp: _dlpack_abi_layout()
void bind_dlpack_diag(pyb::module_& m);  // py_dlpack_diag.cpp: _dlpack_counters(), _exchange_loop()

}  // namespace dla::py
