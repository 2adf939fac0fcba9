// py_introspection.cpp — what this build and process can see: backends, devices, allocator counters.
#include <pybind11/pybind11.h>

#include "bindings/bindings.h"
#include "bindings/py_dtype_device.h"
#include "core/allocator.h"
#include "core/runtime.h"

namespace dla::py {

void bind_introspection(pyb::module_& m) {
  m.def(
      "_allocator_stats",
      [](pyb::handle device) {
        Device d = parse_device_arg(device);
        const AllocatorStats& s = allocator_for(d.kind).stats();
        pyb::dict out;
        out["allocations"] = s.allocations.load();
        out["frees"] = s.frees.load();
        out["bytes_in_use"] = s.bytes_in_use.load();
        out["peak_bytes"] = s.peak_bytes.load();
        return out;
      },
      pyb::arg("device") = "cpu", "Counters of the allocator behind a device (for tests and diagnostics).");
  m.def("_visible_devices", []() {
    pyb::list out;
    out.append(device_object(Device{}));
    for (DeviceKind k : {DeviceKind::CUDA, DeviceKind::ROCM}) {
      DeviceRuntime* rt = find_runtime(k);
      int n = rt ? rt->device_count() : 0;
      for (int i = 0; i < n; ++i) out.append(device_object(Device{k, i}));
    }
    return pyb::tuple(out);
  });
  m.def("_backends", []() {
    pyb::list out;
    for (DeviceKind k : {DeviceKind::CPU, DeviceKind::CUDA, DeviceKind::ROCM})
      if (find_runtime(k)) out.append(device_kind_name(k));
    return pyb::tuple(out);
  });
}

}  // namespace dla::py
