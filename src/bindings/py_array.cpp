// py_array.cpp — the `dlarray.Array` Python type: attributes, tolist, the buffer protocol.
//
// Operators, indexing and namespace functions are bound by their own files; this file owns
// the type object itself and how Arrays go in and out of Python objects.
#include "bindings/py_array.h"

#include <complex>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bindings/bindings.h"
#include "bindings/py_dtype_device.h"
#include "bindings/py_errors.h"
#include "bindings/py_gpu.h"
#include "bindings/scalars.h"
#include "core/copy.h"
#include "core/dispatch.h"
#include "core/errors.h"
#include "core/hot_path.h"
#include "core/runtime.h"
#include "dlpack/type_strings.h"

namespace dla::py {
namespace {
PyTypeObject* g_array_type = nullptr;

pyb::object tolist_rec(const Array& a, int dim, const char* p) {
  if (dim == a.ndim()) return scalar_to_python(a.dtype(), p);
  const int64_t n = a.shape(dim), step = a.stride(dim) * a.itemsize();
  // PyList_New sets MemoryError itself; pybind11's list(n) would raise RuntimeError over it.
  auto out = pyb::reinterpret_steal<pyb::object>(PyList_New(n));
  if (!out) throw pyb::error_already_set();
  if (dim + 1 == a.ndim() && a.dtype().scalar != ScalarType::Other) {
    // The last axis of a standard dtype: one typed loop making the Python objects directly
    // (element by element through Scalar and pybind11 it took 1.5x NumPy's time).
    visit_scalar(a.dtype().scalar, [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int64_t i = 0; i < n; ++i) {
        PyObject* e = element_to_python<T>(p + i * step);
        if (!e) throw pyb::error_already_set();
        PyList_SET_ITEM(out.ptr(), i, e);
      }
    });
    return out;
  }
  for (int64_t i = 0; i < n; ++i)
    PyList_SET_ITEM(out.ptr(), i, tolist_rec(a, dim + 1, p + i * step).release().ptr());
  return out;
}

Array host_view(const Array& a, const char* what) {
  if (a.device().host_accessible()) {
    sync_for_host(a.device());  // pinned/managed memory: queued device work may still write it
    return a;
  }
  throw BufferError(std::string(what) + ": the array is on device '" + a.device().str() +
                    "'; move it with x.to_device('cpu') first");
}

const char* const kApiVersions[] = {"2021.12", "2022.12", "2023.12", "2024.12", "2025.12"};

}  // namespace

PyTypeObject* array_type() { return g_array_type; }

// Returning and dropping arrays is on every operation's path, and pybind11's generic
// instance handling dominates it: cast() searches its registry of live instances and
// registers the new one (a hash-map insert, an erase at deallocation), and both creation
// and deallocation look the type's layout up in another map. A wrapped Array is always a
// fresh owner that nothing looks up by address, and dlarray.Array has pybind11's simple
// layout (one value pointer, one std::unique_ptr holder inline), so wrap() and
// array_dealloc() fill and clear that layout directly. Anything else (a Python subclass, a
// registered instance, keep-alive patients) goes through pybind11's own deallocation.
namespace {
bool g_simple_layout = false;
destructor g_pybind_dealloc = nullptr;
using Holder = std::unique_ptr<Array>;

Holder& simple_holder(pyb::detail::instance* inst) {
  return *reinterpret_cast<Holder*>(&inst->simple_value_holder[1]);
}

// Up to 32 freed blocks kept for reuse, touched only under the GIL (wrap and tp_dealloc);
// free-threaded builds keep none.
template <class P>
class BlockCache {
 public:
  P take() {  // a kept block, or nullptr
#ifndef Py_GIL_DISABLED
    if (count_) return blocks_[--count_];
#endif
    return nullptr;
  }
  bool keep(P p) {  // false when full (the caller frees p)
#ifndef Py_GIL_DISABLED
    if (count_ < kMax) {
      blocks_[count_++] = p;
      return true;
    }
#endif
    return false;
  }

 private:
  static constexpr int kMax = 32;
  P blocks_[kMax];
  int count_ = 0;
};

// Recently freed Array blocks, reused by wrap(): malloc + free of the Array is a fifth of
// the cost of a short-lived result. Blocks come from ::operator new(sizeof(Array)), so an
// Array pybind11 itself deletes (the slow path) is freed correctly too.
BlockCache<void*> g_free_arrays;

Array* new_array(Array&& a) {
  void* mem = g_free_arrays.take();
  if (!mem) mem = ::operator new(sizeof(Array));
  return new (mem) Array(std::move(a));
}

void free_array(Array* p) {
  p->~Array();
  if (!g_free_arrays.keep(p)) ::operator delete(p, sizeof(Array));
}

// Likewise the Python objects themselves (CPython keeps such free lists for floats and
// tuples): a freed dlarray.Array of the exact type is kept, unreleased, for the next wrap(),
// which skips PyObject_Malloc/PyObject_Free and the type's generic allocator (x[i, j]
// costs about 40 ns in all, of which these are a few). Only when the type allocates and
// frees with CPython's defaults, so a kept block goes back to the allocator it came from.
bool g_reuse_objects = false;
BlockCache<PyObject*> g_free_objects;

PyObject* alloc_array_object() {
  if (PyObject* self = g_free_objects.take()) {
    std::memset(static_cast<void*>(self), 0, size_t(g_array_type->tp_basicsize));
    return PyObject_Init(self, g_array_type);  // the type reference and a fresh refcount
  }
  return g_array_type->tp_alloc(g_array_type, 0);
}

void free_array_object(PyObject* self, PyTypeObject* type) {
  if (!(g_reuse_objects && g_free_objects.keep(self))) type->tp_free(self);
  Py_DECREF(type);  // instances of heap types own a reference to their type
}

DLA_HOT void array_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  auto* inst = reinterpret_cast<pyb::detail::instance*>(self);
  if (type != g_array_type || !inst->simple_layout || !inst->simple_holder_constructed ||
      inst->simple_instance_registered || inst->has_patients) {
    g_pybind_dealloc(self);
    return;
  }
  if (inst->weakrefs) PyObject_ClearWeakRefs(self);
  {
    // The last view of imported memory runs a peer's deleter, which may call into Python:
    // keep a pending exception (we may be cleaning up after one) out of its way.
    PyObject *et = nullptr, *ev = nullptr, *tb = nullptr;
    const bool pending = PyErr_Occurred() != nullptr;
    if (pending) PyErr_Fetch(&et, &ev, &tb);
    Holder& holder = simple_holder(inst);
    Array* value = holder.release();
    holder.~Holder();
    free_array(value);
    if (pending) PyErr_Restore(et, ev, tb);
  }
  inst->simple_holder_constructed = false;
  inst->simple_value_holder[0] = nullptr;
  free_array_object(self, type);
}
}  // namespace

pyb::object wrap(const Array& a) { return wrap(Array(a)); }

DLA_HOT pyb::object wrap(Array&& a) {
  if (!g_simple_layout) return pyb::cast(std::move(a));
  PyObject* self = alloc_array_object();
  if (!self) throw pyb::error_already_set();
  auto* inst = reinterpret_cast<pyb::detail::instance*>(self);
  Array* value = new_array(std::move(a));
  inst->simple_layout = true;
  inst->simple_value_holder[0] = value;
  new (&simple_holder(inst)) Holder(value);
  inst->simple_holder_constructed = true;
  inst->simple_instance_registered = false;
  inst->owned = true;
  return pyb::reinterpret_steal<pyb::object>(self);
}

Array* try_unwrap(PyObject* h) {
  PyTypeObject* t = Py_TYPE(h);
  if (t != g_array_type && !PyType_IsSubtype(t, g_array_type)) return nullptr;
  auto* inst = reinterpret_cast<pyb::detail::instance*>(h);
  if (inst->simple_layout) return static_cast<Array*>(inst->simple_value_holder[0]);
  return static_cast<Array*>(inst->get_value_and_holder().value_ptr());
}

Array& unwrap(pyb::handle h, const char* what) {
  if (Array* a = try_unwrap(h.ptr())) return *a;
  throw TypeError(std::string(what) + " must be a dlarray.Array, got " +
                  std::string(pyb::str(pyb::type::handle_of(h).attr("__name__"))));
}

namespace {
// The attributes read on every array API call (shape, dtype, ndim, ...) as raw getset
// descriptors: a pybind11 property goes through its generic dispatcher, which costs more
// than the read itself (x.ndim: ~100 ns of ~300).
template <class F>
PyObject* guarded(F&& f) {
  try {
    return f();
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}
const Array& self_array(PyObject* self) { return *try_unwrap(self); }

PyObject* get_shape(PyObject* self, void*) {
  return guarded([&] {
    const Array& a = self_array(self);
    PyObject* t = PyTuple_New(a.ndim());
    if (!t) return t;
    for (int i = 0; i < a.ndim(); ++i) PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(a.shape(i)));
    return t;
  });
}
PyObject* get_dtype(PyObject* self, void*) {
  return guarded([&] { return dtype_object(self_array(self).dtype()).release().ptr(); });
}
PyObject* get_device(PyObject* self, void*) {
  return guarded([&] { return device_object(self_array(self).device()).release().ptr(); });
}
PyObject* get_ndim(PyObject* self, void*) { return PyLong_FromLong(self_array(self).ndim()); }
PyObject* get_size(PyObject* self, void*) { return PyLong_FromLongLong(self_array(self).size()); }
PyObject* get_nbytes(PyObject* self, void*) { return PyLong_FromLongLong(self_array(self).nbytes()); }
PyObject* get_itemsize(PyObject* self, void*) {
  const Array& a = self_array(self);
  if (a.dtype().is_subbyte()) Py_RETURN_NONE;
  return PyLong_FromLongLong(a.itemsize());
}
PyObject* get_T(PyObject* self, void*) {
  return guarded([&] {
    const Array& a = self_array(self);
    if (a.ndim() != 2)
      throw ValueError("x.T requires a 2-D array (got " + std::to_string(a.ndim()) +
                       "-D); use permute_dims or matrix_transpose");
    int axes[2] = {1, 0};
    return wrap(a.permuted(axes)).release().ptr();
  });
}
PyObject* get_mT(PyObject* self, void*) {
  return guarded([&] {
    const Array& a = self_array(self);
    if (a.ndim() < 2)
      throw ValueError("x.mT requires at least 2 dimensions (got " + std::to_string(a.ndim()) + ")");
    int axes[kMaxRank];
    for (int i = 0; i < a.ndim(); ++i) axes[i] = i;
    std::swap(axes[a.ndim() - 1], axes[a.ndim() - 2]);
    return wrap(a.permuted(axes)).release().ptr();
  });
}

PyGetSetDef g_array_getset[] = {
    {"shape", get_shape, nullptr, "The extent of each dimension, a tuple of ints.", nullptr},
    {"dtype", get_dtype, nullptr, "The data type of the elements.", nullptr},
    {"device", get_device, nullptr, "The device whose memory holds the elements.", nullptr},
    {"ndim", get_ndim, nullptr, "The number of dimensions.", nullptr},
    {"size", get_size, nullptr, "The number of elements.", nullptr},
    {"nbytes", get_nbytes, nullptr, "The number of bytes the elements occupy.", nullptr},
    {"itemsize", get_itemsize, nullptr, "Bytes per element (None for sub-byte dtypes).", nullptr},
    {"T", get_T, nullptr, "The transpose of a 2-D array (a view).", nullptr},
    {"mT", get_mT, nullptr, "The transpose of the last two axes (a view).", nullptr},
};

void install_array_properties() {
  for (PyGetSetDef& def : g_array_getset) {
    pyb::object descr = pyb::reinterpret_steal<pyb::object>(PyDescr_NewGetSet(g_array_type, &def));
    if (!descr || PyObject_SetAttrString(reinterpret_cast<PyObject*>(g_array_type), def.name, descr.ptr()) < 0)
      throw pyb::error_already_set();
  }
}
}  // namespace

void bind_array(pyb::module_& m) {
  auto cls = pyb::class_<Array>(m, "Array", pyb::buffer_protocol(),
                                "An n-dimensional array on a device. Create one with dlarray.asarray "
                                "or another creation function.");
  g_array_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  {
    // Use the direct wrap/dealloc only if pybind11 gave the type the simple layout they assume.
    static_assert(sizeof(Holder) <= sizeof(void*) * pyb::detail::instance_simple_holder_in_ptrs(),
                  "std::unique_ptr<Array> must fit pybind11's inline holder slot");
    pyb::object probe = pyb::cast(Array());
    auto* inst = reinterpret_cast<pyb::detail::instance*>(probe.ptr());
    g_simple_layout = inst->simple_layout && g_array_type->tp_dictoffset == 0 &&
                      !PyType_HasFeature(g_array_type, Py_TPFLAGS_HAVE_GC);
    if (g_simple_layout) {
      g_pybind_dealloc = g_array_type->tp_dealloc;
      g_array_type->tp_dealloc = array_dealloc;
      g_reuse_objects = g_array_type->tp_alloc == PyType_GenericAlloc && g_array_type->tp_free == PyObject_Free;
    }
  }

  install_array_properties();
  cls.def("__len__",
           [](const Array& a) {
             if (a.ndim() == 0) throw TypeError("len() of a 0-d array");
             return a.shape(0);
           })
      .def(
          "__array_namespace__",
          [](const Array&, pyb::object api_version) {
            if (!api_version.is_none()) {
              if (!pyb::isinstance<pyb::str>(api_version))
                throw TypeError("api_version must be a string such as '2025.12' or None");
              std::string v = api_version.cast<std::string>();
              bool known = false;
              for (const char* k : kApiVersions) known |= v == k;
              if (!known) throw ValueError("dlarray does not implement array API version '" + v + "'");
            }
            return pyb::module_::import("dlarray");
          },
          pyb::kw_only(), pyb::arg("api_version") = pyb::none(),
          "__array_namespace__(self, /, *, api_version=None)\n--\n\nThe dlarray namespace.")
      .def(
          "to_device",
          [](pyb::object self, pyb::handle device, pyb::handle stream) -> pyb::object {
            const Array& a = unwrap(self);
            Device d = parse_device_arg(device);
            if (d == a.device()) return self;
            if (!stream.is_none()) {
              // The stream of the device side (the destination's when both are devices).
              Device side = d.host_accessible() ? a.device() : d;
              if (side.host_accessible())
                throw ValueError("to_device: stream= needs a CUDA or ROCm device on one side");
              return run_on_stream(stream, side, [&] { return wrap(copy_to(a, d)); });
            }
            return wrap(copy_to(a, d));
          },
          pyb::arg("device"), pyb::pos_only(), pyb::kw_only(), pyb::arg("stream") = pyb::none(),
          "to_device(self, device, /, *, stream=None)\n--\n\nThe array on `device` (self when already there).")
      .def("tolist",
           [](const Array& a) {
             // Values, not memory: a device array is copied to the host (waiting for the device).
             Array h = a.device().host_accessible() ? host_view(a, "tolist") : copy_to(a, Device{});
             if (!h.dtype().computes() && buffer_format(h.dtype()) == nullptr &&
                 !(h.dtype().dl.code == kDLBfloat && h.dtype().dl.bits == 16))
               throw TypeError("tolist: dtype " + h.dtype().name() +
                               " is storage-only; convert it with astype first");
             // One Python object per element: a (broadcast) view of more elements than a list
             // could ever index fails at once instead of after filling memory for hours.
             if (h.size() > PY_SSIZE_T_MAX / Py_ssize_t(sizeof(PyObject*)))
               throw MemoryError("tolist: " + std::to_string(h.size()) + " elements are more than Python lists can hold");
             return tolist_rec(h, 0, h.data());
           })
      // Layout details, for tests and debugging (not part of the standard).
      .def_property_readonly("_strides",
                             [](const Array& a) {
                               pyb::tuple t(a.ndim());
                               for (int i = 0; i < a.ndim(); ++i)
                                 PyTuple_SET_ITEM(t.ptr(), i, PyLong_FromLongLong(a.stride(i)));
                               return t;
                             })
      .def_property_readonly("_data_ptr",
                             [](const Array& a) { return reinterpret_cast<uintptr_t>(a.data()); })
      .def_property_readonly("_readonly", [](const Array& a) { return a.readonly(); })
      .def_property_readonly("_storage_refs", [](const Array& a) { return a.storage()->use_count(); })
      // NumPy's array interface (version 3) for memory the host can read, so np.asarray and every
      // library that speaks NumPy's protocol share it. Arrays it cannot describe (device memory,
      // dtypes NumPy lacks) raise AttributeError: hasattr() is then False, as for CuPy arrays,
      // and NumPy falls back to __array__, which explains the problem.
      .def_property_readonly(
          "__array_interface__",
          [](const Array& a) {
            if (!a.device().host_accessible())
              throw pyb::attribute_error("__array_interface__: the array is on device '" + a.device().str() +
                                         "'; only host memory has one (use DLPack, or x.to_device('cpu'))");
            const std::string typestr = typestr_of(a.dtype());
            if (typestr.empty())
              throw pyb::attribute_error("__array_interface__: dtype " + a.dtype().name() +
                                         " has no NumPy typestr; use DLPack");
            Array h = host_view(a, "__array_interface__");
            pyb::tuple shape(h.ndim());
            for (int i = 0; i < h.ndim(); ++i) PyTuple_SET_ITEM(shape.ptr(), i, PyLong_FromLongLong(h.shape(i)));
            pyb::object strides = pyb::none();
            if (!h.is_c_contiguous()) {  // None means C order, as the protocol defines it
              pyb::tuple t(h.ndim());
              for (int i = 0; i < h.ndim(); ++i)
                PyTuple_SET_ITEM(t.ptr(), i, PyLong_FromLongLong(h.stride(i) * h.itemsize()));
              strides = std::move(t);
            }
            pyb::dict d;
            d["shape"] = shape;
            d["typestr"] = typestr;
            pyb::list descr;
            descr.append(pyb::make_tuple("", typestr));
            d["descr"] = descr;
            d["data"] = pyb::make_tuple(reinterpret_cast<uintptr_t>(h.data()), h.readonly());
            d["strides"] = strides;
            d["version"] = 3;
            return d;
          })
      .def_buffer([](Array& a) -> pyb::buffer_info {
        Array h = host_view(a, "buffer protocol");
        const char* fmt = buffer_format(h.dtype());
        if (!fmt)
          throw BufferError("dtype " + h.dtype().name() + " has no buffer-protocol format; use DLPack");
        std::vector<pyb::ssize_t> shape(h.ndim()), strides(h.ndim());
        for (int i = 0; i < h.ndim(); ++i) {
          shape[i] = h.shape(i);
          strides[i] = h.stride(i) * h.itemsize();
        }
        return pyb::buffer_info(h.data(), h.itemsize(), fmt, h.ndim(), std::move(shape), std::move(strides),
                                h.readonly());
      });
}

}  // namespace dla::py
