// py_gpu.h — what other bindings need from the GPU stream API (py_gpu.cpp).
#pragma once
#include <pybind11/pybind11.h>

#include <functional>

#include "core/device.h"

namespace dla::py {
namespace pyb = pybind11;

// Runs fn with `stream` as the current stream of `device` (a CUDA or ROCm device) and
// restores the previous one after. `stream` is a dlarray.cuda/rocm.Stream of that device,
// or an int with __dlpack__'s meaning for the device (-1: leave the current stream).
pyb::object run_on_stream(pyb::handle stream, Device device, const std::function<pyb::object()>& fn);

}  // namespace dla::py
