// py_array.cpp — the `dlarray.Array` Python type: attributes, tolist, the buffer protocol.
//
// Operators, indexing and namespace functions are bound by their own files; this file owns
// the type object itself and how Arrays go in and out of Python objects.
#include "bindings/py_array.h"

#include <structmember.h>

#include <complex>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
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
PyTypeObject* g_simple_array_type = nullptr;  // g_array_type when g_simple_layout, else nullptr

// Returning and dropping arrays is on every operation's path, and pybind11's generic
// instance handling dominates it: cast() searches its registry of live instances and
// registers the new one (a hash-map insert, an erase at deallocation), and both creation
// and deallocation look the type's layout up in another map. A wrapped Array is always a
// fresh owner that nothing looks up by address, so wrap() and array_dealloc() fill and clear
// dlarray.Array's layout directly.
//
// That layout is pybind11's simple one (a value pointer and an unused holder slot) followed
// by the Array itself: the type's basic size is grown to hold one (custom_type_setup below),
// and wrap() constructs the Array there and points the value pointer at it. One block per
// array object instead of two (the Python object, then a separate heap Array), which is most
// of what brings a small array's memory under NumPy's. pybind11 sees an instance whose value
// it does not own (no holder, not `owned`), so even its own deallocation would leave the
// Array alone; array_dealloc destroys it in place. Objects pybind11 made itself (a heap
// Array under its std::unique_ptr holder) are cleared directly too; Python subclasses and
// registered instances go through pybind11's own deallocation.
//
// The holder slot that embedded arrays leave unused holds two pointers of ours:
//  - the keeper: for a view built by wrap_view, the object holding the counted reference to
//    the storage the view borrows (a strong reference; null otherwise);
//  - the dtype object (borrowed: dtype objects are never freed), which `x.dtype` reads as a
//    member: CPython then specializes the attribute load to a load from the object, with no
//    call at all (a getter function took 1.1x NumPy's time). Instances pybind11 makes get it
//    from init_instance_with_dtype, below; its unique_ptr holder leaves that word free.
namespace {
bool g_simple_layout = false;
destructor g_pybind_dealloc = nullptr;
using Holder = std::unique_ptr<Array>;  // pybind11's, for the instances it makes itself

Holder& simple_holder(pyb::detail::instance* inst) {
  return *reinterpret_cast<Holder*>(&inst->simple_value_holder[1]);
}

PyObject*& keeper_slot(PyObject* self) {
  return *reinterpret_cast<PyObject**>(&reinterpret_cast<pyb::detail::instance*>(self)->simple_value_holder[1]);
}
PyObject*& dtype_slot(PyObject* self) {
  return *reinterpret_cast<PyObject**>(&reinterpret_cast<pyb::detail::instance*>(self)->simple_value_holder[2]);
}
static_assert(sizeof(Holder) <= sizeof(void*), "the dtype word must stay free under pybind11's holder");
constexpr Py_ssize_t kDtypeSlotOffset = offsetof(pyb::detail::instance, simple_value_holder) + 2 * sizeof(void*);

// Where the embedded Array starts: after pybind11's instance, at Array's alignment.
constexpr size_t kEmbeddedOffset =
    (sizeof(pyb::detail::instance) + alignof(Array) - 1) / alignof(Array) * alignof(Array);

void* embedded_slot(PyObject* self) { return reinterpret_cast<char*>(self) + kEmbeddedOffset; }

// Whether `self` holds an Array wrap() embedded (rather than one pybind11 allocated).
bool is_embedded(PyObject* self) {
  auto* inst = reinterpret_cast<pyb::detail::instance*>(self);
  return inst->simple_layout && inst->simple_value_holder[0] == embedded_slot(self);
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

// Freed dlarray.Array objects of the exact type (CPython keeps such free lists for floats
// and tuples): a freed object is kept, unreleased, for the next wrap(), which skips
// PyObject_Malloc/PyObject_Free and the type's generic allocator (x[i, j] costs about 40 ns
// in all, of which these are a few). Only when the type allocates and frees with CPython's
// defaults, so a kept block goes back to the allocator it came from.
bool g_reuse_objects = false;
BlockCache<PyObject*> g_free_objects;

PyObject* alloc_array_object() {
  if (PyObject* self = g_free_objects.take()) {
    // The pybind11 header (with our two words in its holder slot) only: the Array is
    // constructed over whatever is there.
    std::memset(static_cast<void*>(self), 0, sizeof(pyb::detail::instance));
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
  const bool embedded = is_embedded(self);
  if (type != g_array_type || !inst->simple_layout || inst->simple_instance_registered ||
      (!embedded && !inst->simple_holder_constructed)) {
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
    if (embedded) {
      static_cast<Array*>(embedded_slot(self))->~Array();
      // After the Array: the storage it borrowed goes with the keeper's last reference.
      Py_XDECREF(std::exchange(keeper_slot(self), nullptr));
    } else {  // an Array pybind11 allocated, under its std::unique_ptr holder
      simple_holder(inst).~Holder();
      inst->simple_holder_constructed = false;
    }
    if (pending) PyErr_Restore(et, ev, tb);
  }
  inst->simple_value_holder[0] = nullptr;
  dtype_slot(self) = nullptr;
  if (inst->has_patients) pyb::detail::clear_patients(self);  // keep_alive's, as pybind11 would
  free_array_object(self, type);
}
}  // namespace

pyb::object wrap(const Array& a) { return wrap(Array(a)); }

namespace {
// The instance fields every embedded array object has (the Array is already in place).
void finish_embedded(PyObject* self, PyObject* dtype) {
  auto* inst = reinterpret_cast<pyb::detail::instance*>(self);
  inst->simple_layout = true;
  inst->simple_value_holder[0] = embedded_slot(self);
  inst->simple_holder_constructed = false;  // no holder: the object's own memory holds the value
  inst->simple_instance_registered = false;
  inst->owned = false;
  dtype_slot(self) = dtype;
}
}  // namespace

DLA_HOT pyb::object wrap(Array&& a) {
  if (!g_simple_layout) return pyb::cast(std::move(a));
  PyObject* dtype = dtype_object_ptr(a.dtype());
  PyObject* self = alloc_array_object();
  if (!self) throw pyb::error_already_set();
  new (embedded_slot(self)) Array(std::move(a));  // cannot throw
  finish_embedded(self, dtype);
  return pyb::reinterpret_steal<pyb::object>(self);
}

DLA_HOT pyb::object wrap_view(PyObject* owner_obj, const Array& owner, int64_t byte_offset, DimsView shape,
                              DimsView strides) {
  if (!g_simple_layout || !owner.storage())
    return wrap(Array(owner.storage(), byte_offset, shape, strides, owner.dtype(), owner.flags()));
  // The object holding the counted reference: owner_obj, or, when owner_obj's own array is a
  // borrowing view, its keeper (so chains of views stay one link deep, as NumPy's bases do).
  PyObject* keeper = owner.storage().borrowed() ? keeper_slot(owner_obj) : owner_obj;
  PyObject* dtype = dtype_object_ptr(owner.dtype());
  PyObject* self = alloc_array_object();
  if (!self) throw pyb::error_already_set();
  try {
    new (embedded_slot(self)) Array(Array::BorrowStorage{}, owner, byte_offset, shape, strides, owner.dtype(),
                                    owner.flags());
  } catch (...) {  // the heap dims of a rank-2+ view
    free_array_object(self, g_array_type);
    throw;
  }
  finish_embedded(self, dtype);
  Py_INCREF(keeper);
  keeper_slot(self) = keeper;
  return pyb::reinterpret_steal<pyb::object>(self);
}

DLA_NOINLINE Array* try_unwrap_other(PyObject* h) {
  PyTypeObject* t = Py_TYPE(h);
  auto* inst = reinterpret_cast<pyb::detail::instance*>(h);
  if (t != g_array_type && !PyType_IsSubtype(t, g_array_type)) return nullptr;
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

PyObject* shape_tuple(const Array& a) {
  PyObject* t = PyTuple_New(a.ndim());
  if (!t) return nullptr;
  for (int i = 0; i < a.ndim(); ++i) {
    PyObject* d = PyLong_FromLongLong(a.shape(i));
    if (!d) {
      Py_DECREF(t);
      return nullptr;
    }
    PyTuple_SET_ITEM(t, i, d);
  }
  return t;
}

// x.shape of a 1-d array shorter than this is one shared tuple per length, made on first use
// and kept (tuples are immutable; CPython shares its empty tuple the same way): a fresh (n,)
// per read was a tuple and an int to make and free, as in NumPy, and took NumPy's time.
constexpr int64_t kSharedShapes = 256;
PyObject* g_shapes_1d[kSharedShapes] = {};

DLA_HOT PyObject* get_shape(PyObject* self, void*) {
  const Array& a = self_array(self);
#ifndef Py_GIL_DISABLED  // the table is filled under the GIL
  if (a.ndim() == 1 && static_cast<uint64_t>(a.shape(0)) < uint64_t(kSharedShapes)) {
    PyObject*& shared = g_shapes_1d[a.shape(0)];
    if (!shared && !(shared = shape_tuple(a))) return nullptr;
    Py_INCREF(shared);
    return shared;
  }
#endif
  return shape_tuple(a);
}
DLA_HOT PyObject* get_device(PyObject* self, void*) {
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
DLA_HOT PyObject* get_T(PyObject* self, void*) {
  return guarded([&] {
    const Array& a = self_array(self);
    if (a.ndim() != 2)
      throw ValueError("x.T requires a 2-D array (got " + std::to_string(a.ndim()) +
                       "-D); use permute_dims or matrix_transpose");
    const int64_t shape[2] = {a.shape(1), a.shape(0)}, strides[2] = {a.stride(1), a.stride(0)};
    return wrap_view(self, a, a.byte_offset(), DimsView(shape, 2), DimsView(strides, 2)).release().ptr();
  });
}
PyObject* get_mT(PyObject* self, void*) {
  return guarded([&] {
    const Array& a = self_array(self);
    if (a.ndim() < 2)
      throw ValueError("x.mT requires at least 2 dimensions (got " + std::to_string(a.ndim()) + ")");
    const int n = a.ndim();
    int64_t shape[kMaxRank], strides[kMaxRank];
    for (int i = 0; i < n; ++i) {
      shape[i] = a.shape(i);
      strides[i] = a.stride(i);
    }
    std::swap(shape[n - 1], shape[n - 2]);
    std::swap(strides[n - 1], strides[n - 2]);
    return wrap_view(self, a, a.byte_offset(), DimsView(shape, n), DimsView(strides, n)).release().ptr();
  });
}

PyGetSetDef g_array_getset[] = {
    {"shape", get_shape, nullptr, "The extent of each dimension, a tuple of ints.", nullptr},
    {"device", get_device, nullptr, "The device whose memory holds the elements.", nullptr},
    {"ndim", get_ndim, nullptr, "The number of dimensions.", nullptr},
    {"size", get_size, nullptr, "The number of elements.", nullptr},
    {"nbytes", get_nbytes, nullptr, "The number of bytes the elements occupy.", nullptr},
    {"itemsize", get_itemsize, nullptr, "Bytes per element (None for sub-byte dtypes).", nullptr},
    {"T", get_T, nullptr, "The transpose of a 2-D array (a view).", nullptr},
    {"mT", get_mT, nullptr, "The transpose of the last two axes (a view).", nullptr},
};

// len(x) through the type's length slots: defining __len__ made CPython route them through a
// generic lookup of the method and pybind11's dispatcher (len(x) took 3.7x NumPy's time).
// The exact type's 1-d arrays return without a call frame; the rest (other ranks, 0-d
// arrays' TypeError, subclasses) go to array_length_other.
DLA_NOINLINE Py_ssize_t array_length_other(PyObject* self) {
  const Array& a = self_array(self);
  if (a.ndim() == 0) {
    PyErr_SetString(PyExc_TypeError, "len() of a 0-d array");
    return -1;
  }
  return static_cast<Py_ssize_t>(a.shape(0));
}

DLA_HOT Py_ssize_t array_length(PyObject* self) {
  // An Array wrap() embedded: its value pointer points into the object itself (never so for
  // subclasses, pybind11's own instances or other layouts), so no type test is needed. The
  // reads then go through the address computed from self, not through the pointer just
  // compared (the empty asm hides their equality from the compiler): NumPy's len is two
  // dependent loads, this is one.
  char* slot = static_cast<char*>(embedded_slot(self));
  if (reinterpret_cast<pyb::detail::instance*>(self)->simple_value_holder[0] == slot) {
#if defined(__GNUC__) || defined(__clang__)
    asm("" : "+r"(slot));
#endif
    const Array* a = reinterpret_cast<const Array*>(slot);
    // 1-d: the length is read where rank 1 keeps it, with no test of where the dims live.
    if (a->ndim() == 1) return static_cast<Py_ssize_t>(a->shape(0));
  }
  return array_length_other(self);
}

void install_length() {
  g_array_type->tp_as_sequence->sq_length = array_length;
  g_array_type->tp_as_mapping->mp_length = array_length;
  PyType_Modified(g_array_type);
}

// x.dtype: the word the dtype slot holds (see the layout notes above wrap()).
PyMemberDef g_dtype_member = {"dtype", T_OBJECT_EX, kDtypeSlotOffset, READONLY, "The data type of the elements."};

void install_array_properties() {
  for (PyGetSetDef& def : g_array_getset) {
    pyb::object descr = pyb::reinterpret_steal<pyb::object>(PyDescr_NewGetSet(g_array_type, &def));
    if (!descr || PyObject_SetAttrString(reinterpret_cast<PyObject*>(g_array_type), def.name, descr.ptr()) < 0)
      throw pyb::error_already_set();
  }
  pyb::object dtype = pyb::reinterpret_steal<pyb::object>(PyDescr_NewMember(g_array_type, &g_dtype_member));
  if (!dtype || PyObject_SetAttrString(reinterpret_cast<PyObject*>(g_array_type), "dtype", dtype.ptr()) < 0)
    throw pyb::error_already_set();
}

// pybind11's instance initialisation for the objects it makes itself (pyb::cast of an
// Array), followed by filling the dtype slot that x.dtype reads.
void (*g_pybind_init_instance)(pyb::detail::instance*, const void*) = nullptr;
void init_instance_with_dtype(pyb::detail::instance* inst, const void* holder) {
  g_pybind_init_instance(inst, holder);
  auto* self = reinterpret_cast<PyObject*>(inst);
  if (inst->simple_layout && inst->simple_value_holder[0])
    dtype_slot(self) = dtype_object_ptr(static_cast<Array*>(inst->simple_value_holder[0])->dtype());
}
}  // namespace

void bind_array(pyb::module_& m) {
  // Room for the embedded Array after pybind11's instance (set before PyType_Ready, so that
  // Python subclasses lay their own fields out after it).
  auto grow = pyb::custom_type_setup([](PyHeapTypeObject* ht) {
    ht->ht_type.tp_basicsize = static_cast<Py_ssize_t>(kEmbeddedOffset + sizeof(Array));
  });
  auto cls = pyb::class_<Array>(m, "Array", pyb::buffer_protocol(), grow,
                                "An n-dimensional array on a device. Create one with dlarray.asarray "
                                "or another creation function.");
  g_array_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  {
    pyb::detail::type_info* info = pyb::detail::get_type_info(typeid(Array));
    g_pybind_init_instance = info->init_instance;
    info->init_instance = init_instance_with_dtype;
  }
  {
    static_assert(sizeof(Holder) <= sizeof(void*) * pyb::detail::instance_simple_holder_in_ptrs(),
                  "std::unique_ptr<Array> must fit pybind11's inline holder slot");
    // Use the direct wrap/dealloc only if pybind11 gave the type the simple layout they
    // assume, with nothing of its own (dict, weakref list) past the instance.
    pyb::object probe = pyb::cast(Array());
    auto* inst = reinterpret_cast<pyb::detail::instance*>(probe.ptr());
    g_simple_layout = inst->simple_layout && g_array_type->tp_dictoffset == 0 &&
                      g_array_type->tp_weaklistoffset < Py_ssize_t(kEmbeddedOffset) &&
                      g_array_type->tp_basicsize == Py_ssize_t(kEmbeddedOffset + sizeof(Array)) &&
                      g_array_type->tp_itemsize == 0 && !PyType_HasFeature(g_array_type, Py_TPFLAGS_HAVE_GC);
    if (g_simple_layout) {
      g_simple_array_type = g_array_type;
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
  install_length();  // after the __len__ entry above, which reset the slots
}

}  // namespace dla::py
