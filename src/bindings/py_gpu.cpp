// py_gpu.cpp — `dlarray._core.cuda` and `dlarray._core.rocm`: streams and device queries,
// and the capsule through which the optional dlarray._rocm module installs its backend.
//
// Both submodules are bound from one template over the device kind, whether or not the
// backend is present: without it (or without a device) device_count() is 0 and everything
// that needs a device raises ValueError naming it. dlarray/cuda.py and rocm.py re-export them.
// It also hands sys.path to the vendor library loader (backends/gpu/vendor_library.h) and binds
// the GPU half of dlarray.fft (_gpu_fft).
#include "bindings/py_gpu.h"

#include <pybind11/stl.h>

#include <Python.h>
#include <dlfcn.h>
#include <link.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "backends/gpu/gpu_backend.h"
#include "backends/gpu/gpu_fft.h"
#include "backends/gpu/vendor_library.h"
#include "bindings/bindings.h"
#include "bindings/py_array.h"
#include "bindings/py_dtype_device.h"
#include "core/errors.h"
#include "core/runtime.h"
#include "bindings/py_dlpack.h"

namespace dla::py {
namespace {

// A stream on one device; a null ref is the device's default stream.
template <DeviceKind K>
struct PyStream {
  gpu::StreamRef ref;
  int device = 0;
  uintptr_t handle() const { return reinterpret_cast<uintptr_t>(ref.handle()); }
};

const char* kind_name(DeviceKind k) { return k == DeviceKind::CUDA ? "cuda" : "rocm"; }

// The device index an argument names: None (device 0), an int, "cuda:1", a dlarray.Device.
int device_index(DeviceKind kind, pyb::handle h) {
  if (h.is_none()) return 0;
  if (PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr())) {
    long long i = h.cast<long long>();
    if (i < 0 || i >= gpu::kMaxDevices) throw ValueError("device index " + std::to_string(i) + " is out of range");
    return static_cast<int>(i);
  }
  Device d = parse_device_arg(h);
  if (d.kind != kind)
    throw ValueError("expected a " + std::string(kind_name(kind)) + " device, got '" + d.str() + "'");
  return d.index;
}

// The backend of `kind` with device `index` present; ValueError naming the device otherwise.
gpu::Backend& backend_at(DeviceKind kind, int index) {
  runtime_for(Device{kind, index});
  return *gpu::backend_for(kind);
}

int visible_count(DeviceKind kind) {
  DeviceRuntime* rt = find_runtime(kind);
  return rt ? rt->device_count() : 0;
}

int register_from_module(const DlaGpuOps* ops, char* err, size_t err_len) {
  try {
    std::string why;
    if (gpu::install_backend(ops, &why)) return 0;
    if (err && err_len) std::snprintf(err, err_len, "%s", why.c_str());
  } catch (const std::exception& e) {
    if (err && err_len) std::snprintf(err, err_len, "%s", e.what());
  }
  return -1;
}

template <DeviceKind K>
void bind_kind(pyb::module_& parent) {
  using S = PyStream<K>;
  const std::string name = kind_name(K);
  auto m = parent.def_submodule(name.c_str(), ("Streams and devices of the " + name + " backend.").c_str());

  pyb::class_<S> cls(m, "Stream",
                     ("A " + name + " stream. Stream() creates one on device 0 (or `device`); "
                      "Stream(handle=int) wraps a stream someone else owns (keep it alive while dlarray uses it).")
                         .c_str());
  cls.def(pyb::init([](pyb::handle device, pyb::handle handle, bool non_blocking) {
            const int index = device_index(K, device);
            gpu::Backend& b = backend_at(K, index);
            S s;
            s.device = index;
            if (handle.is_none()) {
              s.ref = b.create_stream(index, non_blocking);
            } else {
              if (!PyLong_Check(handle.ptr()) || PyBool_Check(handle.ptr()))
                throw TypeError("Stream: handle must be an int");
              if (handle.cast<pyb::int_>() < pyb::int_(0))
                throw ValueError("Stream: handle must be >= 0 (a native stream handle)");
              s.ref = b.wrap_stream(index, PyLong_AsVoidPtr(handle.ptr()));
              if (PyErr_Occurred()) throw pyb::error_already_set();
            }
            return s;
          }),
          pyb::arg("device") = pyb::none(), pyb::kw_only(), pyb::arg("handle") = pyb::none(),
          pyb::arg("non_blocking") = false,
          "__init__(self, device=None, *, handle=None, non_blocking=False)\n--\n\n"
          "Create a stream (non_blocking: no implicit ordering with the legacy default stream), "
          "or wrap an existing native handle.");
  cls.def_property_readonly("device", [](const S& s) { return device_object(Device{K, s.device}); })
      .def_property_readonly("handle", &S::handle, "The native stream handle as an int (0: the default stream).")
      .def_property_readonly("ptr", &S::handle, "Alias of handle (CuPy's name).")
      .def(
          "synchronize",
          [](const S& s) {
            gpu::Backend& b = backend_at(K, s.device);
            pyb::gil_scoped_release nogil;
            b.check(b.ops().stream_synchronize(s.device, s.ref.handle()), "synchronizing a stream");
          },
          "synchronize(self)\n--\n\nBlock until the work queued on this stream is done.")
      .def(
          "query", [](const S& s) { return backend_at(K, s.device).query(s.device, s.ref.handle()); },
          "query(self)\n--\n\nTrue when all work queued on this stream is done.")
      .def(
          "wait_stream",
          [](const S& s, const S& other) {
            backend_at(K, s.device).wait(other.device, other.ref.handle(), s.device, s.ref.handle());
          },
          pyb::arg("other"),
          "wait_stream(self, other)\n--\n\nMake this stream wait for the work queued so far on `other` "
          "(an event, not a host synchronisation).")
      .def("__eq__",
           [](const S& a, pyb::handle b) {
             if (!pyb::isinstance<S>(b)) return false;
             const S& o = b.cast<const S&>();
             return a.device == o.device && a.handle() == o.handle();
           })
      .def("__hash__", [](const S& s) { return pyb::hash(pyb::make_tuple(s.device, s.handle())); })
      .def("__repr__", [name](const S& s) {
        return "<dlarray." + name + ".Stream device=" + name + ":" + std::to_string(s.device) +
               " handle=" + std::to_string(s.handle()) + ">";
      });
  if constexpr (K == DeviceKind::CUDA) {
    // The CUDA stream protocol (cuda.core, CuPy, PyTorch): (version, handle).
    cls.def("__cuda_stream__", [](const S& s) { return pyb::make_tuple(0, s.handle()); },
            "__cuda_stream__(self)\n--\n\n(0, native handle): the CUDA stream protocol.");
  }

  m.def("device_count", []() { return visible_count(K); },
        "device_count()\n--\n\nNumber of visible devices (0 without a driver or device).");
  m.def("is_available", []() { return visible_count(K) > 0; },
        "is_available()\n--\n\nTrue when at least one device is visible.");
  m.def(
      "current_stream",
      [](pyb::handle device) {
        const int index = device_index(K, device);
        S s;
        s.device = index;
        s.ref = backend_at(K, index).current(index);
        return s;
      },
      pyb::arg("device") = pyb::none(),
      "current_stream(device=None)\n--\n\nThe stream dlarray issues work on for `device` in this thread.");
  m.def(
      "set_stream",
      [](const S& s) { backend_at(K, s.device).set_current(s.device, s.ref); }, pyb::arg("stream"),
      "set_stream(stream)\n--\n\nMake `stream` the current stream of its device in this thread.");
  m.def(
      "synchronize",
      [](pyb::handle device) {
        const int index = device_index(K, device);
        gpu::Backend& b = backend_at(K, index);
        pyb::gil_scoped_release nogil;
        b.synchronize(Device{K, index}, nullptr);
      },
      pyb::arg("device") = pyb::none(),
      "synchronize(device=None)\n--\n\nBlock until the current stream of `device` is done "
      "(never a device-wide synchronisation).");
  m.def(
      "empty_cache",
      [](pyb::handle device) {
        const int index = device_index(K, device);
        backend_at(K, index).empty_cache(index);
      },
      pyb::arg("device") = pyb::none(),
      "empty_cache(device=None)\n--\n\nReturn the memory pool's unused cached memory to the driver, and the cached\n"
      "pinned host blocks whose last use has finished.");
  m.def(
      "memory_info",
      [](pyb::handle device) {
        const int index = device_index(K, device);
        uint64_t reserved = 0, used = 0;
        backend_at(K, index).pool_usage(index, &reserved, &used);
        pyb::dict out;
        out["reserved_bytes"] = reserved;
        out["used_bytes"] = used;
        return out;
      },
      pyb::arg("device") = pyb::none(),
      "memory_info(device=None)\n--\n\nBytes the device's memory pool holds and hands out.");
}

template <DeviceKind K>
bool try_stream_object(pyb::handle obj, gpu::StreamRef* ref, int* device) {
  if (!pyb::isinstance<PyStream<K>>(obj)) return false;
  const auto& s = obj.cast<const PyStream<K>&>();
  *ref = s.ref;
  *device = s.device;
  return true;
}

// sys.path, for the vendor library loader (backends/gpu/vendor_library.h): read under the GIL,
// which the caller (a matmul that released it, on any thread) may not hold.
std::vector<std::string> python_sys_path() {
  std::vector<std::string> out;
#if PY_VERSION_HEX >= 0x030D0000
  if (!Py_IsInitialized() || Py_IsFinalizing()) return out;
#else
  if (!Py_IsInitialized() || _Py_IsFinalizing()) return out;
#endif
  const PyGILState_STATE gil = PyGILState_Ensure();
  if (PyObject* path = PySys_GetObject("path"); path && PyList_Check(path)) {  // borrowed
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(path); ++i) {
      PyObject* item = PyList_GET_ITEM(path, i);
      if (!PyUnicode_Check(item)) continue;
      if (const char* s = PyUnicode_AsUTF8(item)) out.emplace_back(s);
    }
  }
  PyErr_Clear();  // an entry that does not encode is skipped, not an error
  PyGILState_Release(gil);
  return out;
}

}  // namespace

pyb::object run_on_stream(pyb::handle stream, Device device, const std::function<pyb::object()>& fn) {
  gpu::Backend* b = gpu::backend_for(device.kind);
  if (!b || device.host_accessible())
    throw ValueError("stream= needs a CUDA or ROCm device on one side, not '" + device.str() + "'");
  gpu::StreamRef ref;
  int index = device.index;
  const bool ours = b->device_kind() == DeviceKind::CUDA ? try_stream_object<DeviceKind::CUDA>(stream, &ref, &index)
                                                          : try_stream_object<DeviceKind::ROCM>(stream, &ref, &index);
  if (ours) {
    if (index != device.index)
      throw ValueError("stream is on device " + std::to_string(index) + ", the copy runs on '" + device.str() + "'");
  } else {
    // A DLPack-style int: the same values __dlpack__ accepts for that device.
    StreamRequest req = parse_stream_request(device, stream.ptr());
    if (!req.sync) return fn();  // -1: the current stream, no particular ordering asked for
    ref = req.consumer == kDefaultStream ? gpu::StreamRef() : b->wrap_stream(device.index, req.consumer);
  }
  gpu::StreamRef saved = b->current(device.index);
  b->set_current(device.index, ref);
  struct Restore {
    gpu::Backend* b;
    int index;
    gpu::StreamRef saved;
    ~Restore() { b->set_current(index, std::move(saved)); }
  } restore{b, device.index, std::move(saved)};
  return fn();
}

void bind_gpu(pyb::module_& m) {
  gpu::set_search_path_provider(&python_sys_path);
  bind_kind<DeviceKind::CUDA>(m);
  bind_kind<DeviceKind::ROCM>(m);
  m.attr("_gpu_registrar") = pyb::reinterpret_steal<pyb::object>(
      PyCapsule_New(reinterpret_cast<void*>(&register_from_module), DLA_GPU_REGISTRAR_CAPSULE, nullptr));
  m.def(
      "_uninstall_gpu_backend",
      [](const std::string& kind) {
        if (kind != "cuda" && kind != "rocm") throw ValueError("kind must be 'cuda' or 'rocm'");
        gpu::uninstall_backend(kind == "cuda" ? kDLCUDA : kDLROCM);
      },
      pyb::arg("kind"), "Unregister a GPU backend (tests swap in a fake one).");
  m.def(
      "_gpu_fft",
      [](pyb::handle x, int kind, const std::vector<int>& axes, const std::vector<int64_t>& lengths, bool forward,
         double scale, bool reverse, const std::string& fname) {
        if (kind < 0 || kind > 2) throw ValueError("_gpu_fft: kind must be 0 (C2C), 1 (R2C) or 2 (C2R)");
        const Array& a = unwrap(x, "fft: x");
        Array out;
        {
          // Always without the GIL: the cuFFT loader holds its lock while it reads sys.path.
          pyb::gil_scoped_release nogil;
          out = gpu::gpu_fft(a, static_cast<gpu::FftKind>(kind), axes, lengths, forward, scale, reverse, fname);
        }
        return wrap(std::move(out));
      },
      pyb::arg("x"), pyb::arg("kind"), pyb::arg("axes"), pyb::arg("lengths"), pyb::arg("forward"), pyb::arg("scale"),
      pyb::arg("reverse"), pyb::arg("fname"),
      "The GPU half of dlarray.fft (src/backends/gpu/gpu_fft.h): arguments already resolved by fft.py.");
  m.def(
      "_open_vendor_library",
      [](const std::string& name, const std::vector<std::string>& sonames, const std::vector<std::string>& wheel_dirs,
         const std::string& package, std::optional<std::string> extra, const std::vector<std::string>& install_dirs) {
        std::vector<const char*> so, dirs, installed;
        for (const auto& s : sonames) so.push_back(s.c_str());
        for (const auto& d : wheel_dirs) dirs.push_back(d.c_str());
        for (const auto& d : install_dirs) installed.push_back(d.c_str());
        so.push_back(nullptr);
        dirs.push_back(nullptr);
        installed.push_back(nullptr);
        const gpu::VendorLibrarySpec spec{name.c_str(), so.data(),  dirs.data(), package.c_str(),
                                          extra ? extra->c_str() : nullptr, installed.data()};
        std::string why;
        void* h = nullptr;
        {
          pyb::gil_scoped_release nogil;  // as in a matmul: the loader takes the GIL for sys.path
          h = gpu::open_vendor_library(spec, &why);
        }
        if (!h) throw RuntimeError(why);
        link_map* lm = nullptr;
        return std::string(dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name ? lm->l_name : "");
      },
      pyb::arg("name"), pyb::arg("sonames"), pyb::arg("wheel_dirs"), pyb::arg("package"),
      pyb::arg("extra") = std::optional<std::string>("cuda"), pyb::arg("install_dirs") = std::vector<std::string>{},
      "Test hook: the vendor library loader on a library of one's choosing (extra=None: no pip extra, as for "
      "ROCm's libraries); returns the file it opened (never closed) or raises RuntimeError with the loader's "
      "message.");
}

}  // namespace dla::py
