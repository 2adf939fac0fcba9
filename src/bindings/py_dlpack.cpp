// py_dlpack.cpp — the Python protocol: Array.__dlpack__, Array.__dlpack_device__, from_dlpack.
//
// Producer and consumer follow the array API 2023.12+ rules and DLPack 1.3 (see
// ../shared/docs/dlpack.md): versioned capsules when the consumer allows, legacy otherwise;
// capsules renamed on consumption; deleters called exactly once on every path; a peer's C
// exchange table preferred over __dlpack__ when its type publishes one.
#include <Python.h>
#include <pybind11/pybind11.h>

#include <climits>
#include <cstring>
#include <string>

#include "bindings/bindings.h"
#include "bindings/fastcall.h"
#include "bindings/py_array.h"
#include "bindings/py_dtype_device.h"
#include "bindings/py_errors.h"
#include "bindings/py_interface_dict.h"
#include "core/copy.h"
#include "core/errors.h"
#include "core/hot_path.h"
#include "core/runtime.h"
#include "dlpack/copy_error.h"
#include "dlpack/counters.h"
#include "dlpack/dlpack_core.h"
#include "bindings/py_dlpack.h"
#include "bindings/py_dlpack_diag.h"
#include "bindings/py_exchange_api.h"

namespace dla::py {
namespace {

// The runtime family a memory kind belongs to (device, pinned and managed memory of one vendor).
int vendor_of(DeviceKind k) {
  switch (k) {
    case DeviceKind::CUDA: case DeviceKind::CUDAHost: case DeviceKind::CUDAManaged: return 1;
    case DeviceKind::ROCM: case DeviceKind::ROCMHost: return 2;
    case DeviceKind::ONEAPI: return 3;
    case DeviceKind::CPU: break;
  }
  return 0;
}


constexpr const char* kVersionedName = "dltensor_versioned";
constexpr const char* kLegacyName = "dltensor";
constexpr const char* kUsedVersionedName = "used_dltensor_versioned";
constexpr const char* kUsedLegacyName = "used_dltensor";

// A capsule's own destructor releases the tensor only while nobody has consumed it.
void versioned_capsule_destructor(PyObject* cap) {
  if (!PyCapsule_IsValid(cap, kVersionedName)) return;
  auto* mt = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(cap, kVersionedName));
  if (mt && mt->deleter) mt->deleter(mt);
}
void legacy_capsule_destructor(PyObject* cap) {
  if (!PyCapsule_IsValid(cap, kLegacyName)) return;
  auto* mt = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, kLegacyName));
  if (mt && mt->deleter) mt->deleter(mt);
}

// Optional[bool] keyword: -1 for None/absent, else 0/1. TypeError for anything else.
int parse_copy(PyObject* v, const char* fname) {
  if (!v || v == Py_None) return -1;
  if (v == Py_True) return 1;
  if (v == Py_False) return 0;
  throw TypeError(std::string(fname) + ": copy must be True, False or None");
}

bool int_pair(PyObject* v, long long* a, long long* b) {
  if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != 2) return false;
  PyObject* x = PyTuple_GET_ITEM(v, 0);
  PyObject* y = PyTuple_GET_ITEM(v, 1);
  if (!PyLong_Check(x) || !PyLong_Check(y)) return false;  // IntEnum members are ints
  *a = PyLong_AsLongLong(x);
  *b = PyLong_AsLongLong(y);
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  return true;
}

KwSpec<4> g_dlpack_kw{{"stream", "max_version", "dl_device", "copy"}};

PyObject* array_dlpack(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  try {
    if (nargs != 0) throw TypeError("__dlpack__() takes only keyword arguments");
    PyObject* kw[4];
    parse_keywords("__dlpack__", g_dlpack_kw, args, nargs, kwnames, kw);
    PyObject *stream = kw[0], *max_version = kw[1], *dl_device = kw[2];
    const int copy = parse_copy(kw[3], "__dlpack__");
    const Array& a = unwrap(self, "self");

    bool versioned = false;
    if (max_version && max_version != Py_None) {
      long long major, minor;
      if (!int_pair(max_version, &major, &minor))
        throw TypeError("__dlpack__: max_version must be None or a (major, minor) tuple of ints");
      versioned = major >= 1;  // older consumers get the legacy struct, which dlarray keeps
    }

    Device target = a.device();
    if (dl_device && dl_device != Py_None) {
      long long type, id;
      if (!int_pair(dl_device, &type, &id))
        throw TypeError("__dlpack__: dl_device must be None or a (device_type, device_id) tuple");
      if (type < INT32_MIN || type > INT32_MAX || id < 0 || id > INT32_MAX || (type == kDLCPU && id != 0))
        throw BufferError("__dlpack__: dl_device=(" + std::to_string(type) + ", " + std::to_string(id) +
                          ") names no device dlarray can serve");
      target = device_from_dl(DLDevice{static_cast<DLDeviceType>(type), static_cast<int32_t>(id)});
      if (target != a.device() && !(target.kind == DeviceKind::CPU || find_runtime(target.kind)))
        throw BufferError("__dlpack__: dlarray cannot export to device '" + target.str() + "'");
      // Between two GPU vendors' memory (rocm -> cuda) there is no copy path worth the name,
      // whatever happens to be installed: refused, as without the other vendor's device.
      if (vendor_of(target.kind) != vendor_of(a.device().kind) && target.kind != DeviceKind::CPU &&
          a.device().kind != DeviceKind::CPU)
        throw BufferError("__dlpack__: cannot export an array on '" + a.device().str() + "' to device '" +
                          target.str() + "' (another vendor's memory); export to the CPU instead");
    }

    // Stream rules are the device's business; CPU accepts only None.
    StreamRequest req = parse_stream_request(target, stream);

    const char* why_copy = nullptr;
    if (target != a.device()) why_copy = "dl_device names another device";
    else if (copy == 1) why_copy = "copy=True";
    else if (!versioned && a.readonly())
      why_copy = "the array is read-only and a legacy (max_version=None) capsule cannot say so";
    if (why_copy && copy == 0)
      throw CopyForbidden(std::string("__dlpack__: copy=False but a copy is needed (") + why_copy + ")");

    Array out = a;
    if (why_copy) {
      try {
        out = copy_for_consumer(a, target, req);
      } catch (const ValueError& e) {
        throw BufferError(std::string("__dlpack__: cannot copy to the requested device: ") + e.what());
      }
    } else {
      make_consumer_wait(a, req);
    }

    bump(dlpack_counters().dlpack_exports);
    if (versioned) {
      DLManagedTensorVersioned* mt = export_versioned(out, why_copy ? DLPACK_FLAG_BITMASK_IS_COPIED : 0);
      PyObject* cap = PyCapsule_New(mt, kVersionedName, versioned_capsule_destructor);
      if (!cap) mt->deleter(mt);
      return cap;
    }
    DLManagedTensor* mt = export_legacy(out);
    PyObject* cap = PyCapsule_New(mt, kLegacyName, legacy_capsule_destructor);
    if (!cap) mt->deleter(mt);
    return cap;
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

PyObject* array_dlpack_device(PyObject* self, PyObject*) {
  try {
    const Array& a = unwrap(self, "self");
    Device d = a.device();
    if (d.kind == DeviceKind::CPU) {
      // Consumers ask before every import: answer CPU with one shared tuple.
      static PyObject* cpu = Py_BuildValue("(ii)", static_cast<int>(kDLCPU), 0);
      if (!cpu) throw pybind11::error_already_set();
      Py_INCREF(cpu);
      return cpu;
    }
    return Py_BuildValue("(ii)", static_cast<int>(d.kind), d.index);
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

// Takes the tensor out of a capsule, renaming it first so its destructor leaves it alone.
DLA_HOT Array consume_capsule(PyObject* cap, bool* copied) {
  if (!PyCapsule_CheckExact(cap))
    throw TypeError("__dlpack__ returned a " + std::string(Py_TYPE(cap)->tp_name) + ", not a PyCapsule");
  // One name lookup, compared here, instead of a PyCapsule_IsValid per candidate name.
  const char* name = PyCapsule_GetName(cap);
  if (name && std::strcmp(name, kVersionedName) == 0) {
    auto* mt = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(cap, name));
    if (!mt || PyCapsule_SetName(cap, kUsedVersionedName) != 0) throw pybind11::error_already_set();
    // Read the flag before import: after a version mismatch the struct is gone.
    *copied = mt->version.major == DLPACK_MAJOR_VERSION && (mt->flags & DLPACK_FLAG_BITMASK_IS_COPIED);
    return import_versioned(mt);
  }
  if (name && std::strcmp(name, kLegacyName) == 0) {
    auto* mt = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, name));
    if (!mt || PyCapsule_SetName(cap, kUsedLegacyName) != 0) throw pybind11::error_already_set();
    *copied = false;
    return import_legacy(mt);
  }
  if (!name && PyErr_Occurred()) throw pybind11::error_already_set();
  if (name && (std::strcmp(name, kUsedVersionedName) == 0 || std::strcmp(name, kUsedLegacyName) == 0))
    throw BufferError("this DLPack capsule was already consumed (a capsule can be imported only once)");
  throw BufferError(std::string("not a DLPack capsule (its name is ") + (name ? "'" + std::string(name) + "'" : "NULL") +
                    "; expected 'dltensor_versioned' or 'dltensor')");
}

// After a TypeError from __dlpack__(max_version=..., ...): is it the producer rejecting
// the 2023.12 keywords (retry without them), or a real TypeError (raise it)? CPython,
// Cython and pybind11 word a rejected keyword differently, but each either names it or
// says "keyword argument" / "incompatible function arguments"; a bare "copy" in a
// message ("cannot copy ...") is not a rejected keyword.
bool rejects_new_keywords(PyObject* exc_value) {
  PyObject* s = exc_value ? PyObject_Str(exc_value) : nullptr;
  if (!s) {
    PyErr_Clear();
    return false;
  }
  const char* msg = PyUnicode_AsUTF8(s);
  if (!msg) PyErr_Clear();
  static const char* const kHints[] = {"'max_version'", "'dl_device'", "'copy'", "keyword argument",
                                       "incompatible function arguments"};
  bool hit = false;
  for (const char* h : kHints) hit = hit || (msg && std::strstr(msg, h));
  Py_DECREF(s);
  return hit;
}

// Interned names and argument tuples of the consumer's __dlpack__ calls. Keyword names
// must be interned: producers (NumPy's argument parser, CPython's) match them by pointer
// first and fall back to string comparison, which costs more than the rest of the call.
struct Interned {
  PyObject* dlpack = nullptr;
  PyObject* dlpack_device = nullptr;
  PyObject* version = nullptr;              // (1, 3)
  PyObject* kw_versioned = nullptr;         // ("max_version",)
  PyObject* kw_versioned_copy = nullptr;    // ("max_version", "copy")
  PyObject* kw_versioned_device = nullptr;  // ("max_version", "dl_device", "copy")
  PyObject* kw_stream = nullptr;            // ("stream",)
  PyObject* kw_versioned_stream = nullptr;  // ("max_version", "stream")
  void init() {
    if (dlpack) return;
    dlpack = PyUnicode_InternFromString("__dlpack__");
    dlpack_device = PyUnicode_InternFromString("__dlpack_device__");
    version = Py_BuildValue("(ii)", DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
    PyObject* max_version = PyUnicode_InternFromString("max_version");
    PyObject* dl_device = PyUnicode_InternFromString("dl_device");
    PyObject* copy = PyUnicode_InternFromString("copy");
    PyObject* stream = PyUnicode_InternFromString("stream");
    kw_versioned = PyTuple_Pack(1, max_version);
    kw_versioned_copy = PyTuple_Pack(2, max_version, copy);
    kw_versioned_device = PyTuple_Pack(3, max_version, dl_device, copy);
    kw_stream = PyTuple_Pack(1, stream);
    kw_versioned_stream = PyTuple_Pack(2, max_version, stream);
    if (!dlpack || !dlpack_device || !version || !kw_versioned || !kw_versioned_copy || !kw_versioned_device ||
        !kw_stream || !kw_versioned_stream)
      throw pybind11::error_already_set();
  }
} g;

// __dlpack__ resolved once per type. A C producer's method (NumPy's, PyTorch's) is a method
// descriptor: called directly with the object as its first argument, it skips the generic
// method lookup of every call (type MRO walk through the method cache, instance-dict probe,
// bound-call setup), a tenth of importing a NumPy array. Only types without an instance
// dict qualify (an instance attribute could shadow the method); the type's version tag
// invalidates an entry when the class is modified. Anything else takes the generic path.
struct MethodCacheEntry {
  PyTypeObject* type = nullptr;
  unsigned int tag = 0;
  PyObject* descr = nullptr;
};
constexpr int kMethodCacheSize = 4;
MethodCacheEntry g_method_cache[kMethodCacheSize];
int g_method_cache_next = 0;

// argv[0] is a free slot (PY_VECTORCALL_ARGUMENTS_OFFSET), argv[1] the producer, then the
// `nargs - 1` other positional arguments and the keyword values.
DLA_HOT PyObject* call_dlpack(PyObject* const* argv, size_t nargs, PyObject* kwnames) {
  PyTypeObject* t = Py_TYPE(argv[1]);
  const unsigned int tag = type_version_tag(t);
  PyObject* descr = nullptr;
  for (auto& e : g_method_cache)
    if (e.type == t && tag != 0 && e.tag == tag) descr = e.descr;
  if (!descr && t->tp_dictoffset == 0) {
    PyObject* found = _PyType_Lookup(t, g.dlpack);  // borrowed; gives the type a valid tag
    if (found && Py_IS_TYPE(found, &PyMethodDescr_Type) && type_version_tag(t) != 0) {
      MethodCacheEntry& slot = g_method_cache[g_method_cache_next];
      g_method_cache_next = (g_method_cache_next + 1) % kMethodCacheSize;
      PyObject* old_type = reinterpret_cast<PyObject*>(slot.type);
      PyObject* old_descr = slot.descr;
      Py_INCREF(t);
      Py_INCREF(found);
      slot = MethodCacheEntry{t, type_version_tag(t), found};
      Py_XDECREF(old_descr);  // last: releasing objects may run arbitrary code
      Py_XDECREF(old_type);
      descr = found;
    }
  }
  if (descr) return PyObject_Vectorcall(descr, argv + 1, nargs | PY_VECTORCALL_ARGUMENTS_OFFSET, kwnames);
  return PyObject_VectorcallMethod(g.dlpack, const_cast<PyObject**>(argv + 1), nargs | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                   kwnames);
}

// Only a producer on a GPU needs a stream argument, and only a process with a visible GPU
// can hold GPU memory; without one the __dlpack_device__ call (a third of the cost of
// importing a NumPy array) is skipped, and another device is asked for with dl_device.
// (Backends count their devices once; tests swap backends, so this is not cached here.)
bool have_stream_devices() {
  DeviceRuntime* cuda = find_runtime(DeviceKind::CUDA);
  if (cuda && cuda->device_count() > 0) return true;
  DeviceRuntime* rocm = find_runtime(DeviceKind::ROCM);
  return rocm && rocm->device_count() > 0;
}

Device producer_device(PyObject* x) {
  PyObject* argv[1] = {x};
  PyObject* r = PyObject_VectorcallMethod(g.dlpack_device, argv, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr);
  if (!r) {
    // No __dlpack_device__ (a minimal or old producer): __dlpack__ alone decides.
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw pybind11::error_already_set();
    PyErr_Clear();
    return Device{};
  }
  long long type, id;
  bool ok = int_pair(r, &type, &id);
  Py_DECREF(r);
  if (!ok) throw TypeError("__dlpack_device__() must return a (device_type, device_id) tuple of ints");
  return device_from_dl(DLDevice{static_cast<DLDeviceType>(type), static_cast<int32_t>(id)});
}

// After __dlpack__ failed: an object without the method may still describe its memory by
// __cuda_array_interface__ or __sycl_usm_array_interface__ (Numba, dpctl memory); else
// "has no attribute '__dlpack__'" is a TypeError for from_dlpack. An AttributeError raised
// inside a real __dlpack__ is the producer's own error and propagates.
Array import_without_dlpack(PyObject* x, const Device* want) {
  if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    const int has = PyObject_HasAttr(x, g.dlpack);
    if (!has) {
      Py_XDECREF(et);
      Py_XDECREF(ev);
      Py_XDECREF(tb);
      Array a;
      if (import_device_interface(x, want, "from_dlpack", &a)) return a;
      throw TypeError(std::string("from_dlpack: objects of type ") + Py_TYPE(x)->tp_name +
                      " do not support DLPack (no __dlpack__ method)");
    }
    PyErr_Restore(et, ev, tb);
  }
  throw pybind11::error_already_set();
}

// After the first __dlpack__ call failed with the error set: older producers, on a
// TypeError that rejects the 2023.12 keywords, are asked again, first with max_version
// alone (producers that predate dl_device and copy still export versioned capsules, the
// only ones that can say "read-only"), then with none of them; passed_extras says whether
// the first call had dl_device or copy. Any other TypeError is the producer's real answer
// and stays set. Returns the capsule or nullptr with the error set; clears *honoured_copy
// when the call that succeeded could not carry copy.
PyObject* retry_for_older_producer(PyObject* x, PyObject* stream, bool passed_extras, bool* honoured_copy) {
  PyObject* cap = nullptr;
  for (int attempt = passed_extras ? 0 : 1; !cap && attempt < 2 && PyErr_ExceptionMatches(PyExc_TypeError); ++attempt) {
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    PyErr_NormalizeException(&et, &ev, &tb);
    if (!rejects_new_keywords(ev)) {
      PyErr_Restore(et, ev, tb);
      break;
    }
    Py_XDECREF(et);
    Py_XDECREF(ev);
    Py_XDECREF(tb);
    *honoured_copy = false;
    PyObject* argv2[4] = {nullptr, x};
    Py_ssize_t n2 = 2;
    PyObject* kwn2 = nullptr;
    if (attempt == 0) {
      argv2[n2++] = g.version;
      kwn2 = stream ? g.kw_versioned_stream : g.kw_versioned;
    } else if (stream) {
      kwn2 = g.kw_stream;
    }
    if (stream) argv2[n2++] = stream;
    cap = PyObject_VectorcallMethod(g.dlpack, argv2 + 1, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, kwn2);
  }
  return cap;
}

// PyTorch (2.13) exports a conjugate view's memory without conjugating it (its __dlpack__
// refuses such tensors, its exchange table does not), and a negative view's memory without
// negating it through both (`z.conj().imag` is one: NumPy's from_dlpack reads the wrong sign).
// The object is asked by the method PyTorch tensors have, only where the flag can be set by
// public means: conjugate views are complex; negative views are the imaginary parts of
// conjugate views and views of those, whose data lies an odd number of elements past the
// complex storage, so only floating data at an address that is an odd multiple of its item
// size is asked (the question costs about 100 ns; float tensors at such addresses are rare).
bool peer_flag(PyObject* x, PyObject* name) {
  // Types without the method (NumPy's, tvm-ffi's) cost one lookup in the type's cache, no
  // AttributeError.
  if (!name || !_PyType_Lookup(Py_TYPE(x), name)) return false;
  PyObject* argv[2] = {nullptr, x};
  PyObject* r = PyObject_VectorcallMethod(name, argv + 1, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr);
  if (!r) {
    PyErr_Clear();
    return false;
  }
  const bool set = r == Py_True;
  Py_DECREF(r);
  return set;
}

// What makes x (imported as a) a view whose values DLPack cannot describe, or nullptr.
const char* unresolved_view(PyObject* x, const Array& a) {
  static PyObject* const is_conj = PyUnicode_InternFromString("is_conj");
  static PyObject* const is_neg = PyUnicode_InternFromString("is_neg");
  const DLDataType t = a.dtype().dl;
  if (t.code == kDLComplex) return peer_flag(x, is_conj) ? "a conjugate view (its conjugate bit is set)" : nullptr;
  const int64_t item = a.itemsize();
  const bool imaginary_part_like = (t.code == kDLFloat || t.code == kDLBfloat) && item > 0 &&
                                   reinterpret_cast<uintptr_t>(a.data()) % uintptr_t(2 * item) == uintptr_t(item);
  return imaginary_part_like && peer_flag(x, is_neg) ? "a negative view (its negative bit is set)" : nullptr;
}

[[noreturn]] void refuse_view(PyObject* x, const char* what) {
  throw BufferError(std::string("from_dlpack: the ") + Py_TYPE(x)->tp_name + " is " + what +
                    ", which DLPack cannot describe; resolve it first (x.resolve_conj().resolve_neg() in PyTorch) "
                    "or ask for copy=True");
}

// The Array in __dlpack__'s capsule; the capsule reference is released on every path.
DLA_HOT Array consume_returned_capsule(PyObject* cap, bool* copied) {
  try {
    Array a = consume_capsule(cap, copied);
    Py_DECREF(cap);
    return a;
  } catch (...) {
    Py_DECREF(cap);
    throw;
  }
}

// BufferError where x.__dlpack__()'s array a is a view DLPack cannot describe (a producer's
// copy has resolved those).
DLA_HOT void check_described(PyObject* x, const Array& a, bool copied) {
  if (copied) return;
  if (const char* what = unresolved_view(x, a)) refuse_view(x, what);
}

// Imports through the __dlpack__ protocol. Sets *copied when the producer made a copy.
DLA_HOT Array import_via_protocol(PyObject* x, const Device* want, int copy, bool* copied) {
  const bool streams = have_stream_devices();
  if (!want && copy < 0 && !streams) {
    // The plain request (from_dlpack(x) of host memory, no device or copy asked for):
    // __dlpack__(max_version=...) and nothing to build, pass on or release around it.
    PyObject* argv[3] = {nullptr, x, g.version};
    PyObject* cap = call_dlpack(argv, 1, g.kw_versioned);
    if (!cap) {
      bool honoured_copy = true;  // no copy was asked for
      cap = retry_for_older_producer(x, nullptr, false, &honoured_copy);
      if (!cap) return import_without_dlpack(x, nullptr);
    }
    Array a = consume_returned_capsule(cap, copied);
    check_described(x, a, *copied);
    return a;
  }
  PyObject* stream = nullptr;  // new reference: the stream the producer orders its work before
  PyObject* dl_device = nullptr;
  if (streams) {
    // The stream the producer must order its work before: ours on the device the data will
    // be on (the requested one when dl_device asks for a move; none for host memory).
    Device src_dev = producer_device(x);
    const bool moving = want && *want != src_dev;
    if (const std::optional<intptr_t> value = consumer_stream_value(moving ? *want : src_dev))
      stream = PyLong_FromSsize_t(*value);
  }
  // An explicit device is always passed on, so the producer sees the consumer's full request.
  if (want && !PyErr_Occurred()) dl_device = Py_BuildValue("(ii)", static_cast<int>(want->kind), want->index);
  if (PyErr_Occurred()) {  // Py_BuildValue or the stream lookup failed
    Py_XDECREF(stream);
    Py_XDECREF(dl_device);
    throw pybind11::error_already_set();
  }
  PyObject* copy_obj = copy < 0 ? Py_None : (copy ? Py_True : Py_False);

  // Versioned call: self, max_version[, dl_device, copy][, stream].
  PyObject* argv[6] = {nullptr, x, g.version};
  Py_ssize_t n = 3;
  PyObject* kwn;
  if (dl_device) {
    argv[n++] = dl_device;
    argv[n++] = copy_obj;
    kwn = g.kw_versioned_device;
  } else if (copy >= 0) {
    argv[n++] = copy_obj;
    kwn = g.kw_versioned_copy;
  } else {
    kwn = g.kw_versioned;
  }
  PyObject* kwn_full = kwn;
  if (stream) {
    argv[n++] = stream;
    kwn_full = PySequence_Concat(kwn, g.kw_stream);
  }
  PyObject* cap = kwn_full ? call_dlpack(argv, 1, kwn_full) : nullptr;
  if (kwn_full && kwn_full != kwn) Py_DECREF(kwn_full);
  bool honoured_copy = true;
  if (!cap) cap = retry_for_older_producer(x, stream, dl_device || copy >= 0, &honoured_copy);
  Py_XDECREF(stream);
  if (!cap && dl_device && PyErr_ExceptionMatches(PyExc_BufferError)) {
    // The producer cannot move its data to the device we asked for (NumPy only serves the
    // CPU): import it where it is; import_dlpack then copies it across itself.
    Py_DECREF(dl_device);
    PyErr_Clear();
    return import_via_protocol(x, nullptr, copy == 1 ? -1 : copy, copied);
  }
  Py_XDECREF(dl_device);
  if (!cap) return import_without_dlpack(x, want);
  Array a = consume_returned_capsule(cap, copied);
  // A producer that accepted copy=True promised a copy even if it does not set IS_COPIED.
  if (honoured_copy && copy == 1) *copied = true;
  check_described(x, a, *copied);
  return a;
}

// Imports through a peer's C exchange table into *out. The table is a fast path only:
// when it refuses the object (PyTorch raises RuntimeError for sparse, quantized or meta
// tensors), or hands over a view it cannot describe while a copy is asked for (the
// producer's own copy resolves it), returns false so that __dlpack__ gives the producer's
// standard answer.
bool import_via_table(PyObject* x, const DLPackExchangeAPI* api, int copy, Array* out) {
  DLManagedTensorVersioned* mt = nullptr;
  if (api->managed_tensor_from_py_object_no_sync(x, &mt) != 0) {
    PyErr_Clear();
    return false;
  }
  *out = import_versioned(mt);  // owns mt from here, on failure too
  if (const char* what = unresolved_view(x, *out)) {
    *out = Array();  // releases the peer's tensor
    if (copy == 1) return false;
    refuse_view(x, what);
  }
  if (!order_after_peer(*out, api)) throw pyb::error_already_set();
  return true;
}

Array import_dlpack_impl(PyObject* x, const Device* want, int copy, bool* copied, bool use_peer_tables,
                         bool known_foreign);

KwSpec<2> g_from_kw{{"device", "copy"}};

DLA_HOT PyObject* from_dlpack_impl(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, bool use_peer_tables) {
  try {
    if (nargs != 1)
      throw TypeError("from_dlpack() takes exactly one positional argument (" + std::to_string(nargs) + " given)");
    PyObject* kw[2];
    parse_keywords("from_dlpack", g_from_kw, args, nargs, kwnames, kw);
    PyObject* x = args[0];
    Device want{};
    const bool has_device = kw[0] && kw[0] != Py_None;
    if (has_device) want = parse_device_arg(kw[0]);
    const int copy = parse_copy(kw[1], "from_dlpack");
    if (has_device && want.kind != DeviceKind::CPU) runtime_for(want);  // ValueError before asking the producer

    if (Array* own = try_unwrap(x)) {
      // Our own array: no capsule round trip, and no copy unless asked for.
      const bool other_device = has_device && want != own->device();
      if (!other_device && copy != 1) {
        Py_INCREF(x);
        return x;
      }
      if (copy == 0)
        throw CopyForbidden("from_dlpack: copy=False but device='" + want.str() + "' needs a copy");
      return wrap(copy_to(*own, other_device ? want : own->device())).release().ptr();
    }
    bool copied = false;
    Array a = import_dlpack_impl(x, has_device ? &want : nullptr, copy, &copied, use_peer_tables, true);
    return wrap(std::move(a)).release().ptr();
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

PyObject* from_dlpack(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return from_dlpack_impl(args, nargs, kwnames, true);
}
// The same import, skipping peers' C exchange tables: for tests and benchmarks comparing paths.
PyObject* from_dlpack_protocol(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return from_dlpack_impl(args, nargs, kwnames, false);
}

PyMethodDef g_dlpack_def = {"__dlpack__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(array_dlpack)),
                            METH_FASTCALL | METH_KEYWORDS,
                            "__dlpack__(self, /, *, stream=None, max_version=None, dl_device=None, copy=None)\n--\n\n"
                            "Export the array as a DLPack capsule (array API 2023.12+)."};
PyMethodDef g_dlpack_device_def = {"__dlpack_device__", array_dlpack_device, METH_NOARGS,
                                   "__dlpack_device__(self, /)\n--\n\nReturn (DLDeviceType, device_id)."};
PyMethodDef g_from_dlpack_def = {
    "from_dlpack", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(from_dlpack)),
    METH_FASTCALL | METH_KEYWORDS,
    "from_dlpack(x, /, *, device=None, copy=None)\n--\n\n"
    "Import any DLPack producer as a dlarray.Array (zero-copy when possible)."};
PyMethodDef g_from_dlpack_protocol_def = {
    "_from_dlpack_protocol", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(from_dlpack_protocol)),
    METH_FASTCALL | METH_KEYWORDS,
    "_from_dlpack_protocol(x, /, *, device=None, copy=None)\n--\n\n"
    "from_dlpack through __dlpack__ only, never a peer's C exchange table (tests, benchmarks)."};

void add_method(PyTypeObject* type, PyMethodDef* def) {
  PyObject* descr = PyDescr_NewMethod(type, def);
  if (!descr || PyObject_SetAttrString(reinterpret_cast<PyObject*>(type), def->ml_name, descr) != 0)
    throw pybind11::error_already_set();
  Py_DECREF(descr);
}

}  // namespace

namespace {
// The array x's memory makes, through whichever door x offers (returned by value, so that
// the hot protocol path builds it in the caller's object).
DLA_HOT Array import_where_it_is(PyObject* x, const Device* want, int copy, bool* copied, bool use_peer_tables,
                         bool known_foreign) {
  if (!known_foreign)
    if (Array* own = try_unwrap(x)) return *own;
  const DLPackExchangeAPI* api = nullptr;
  const char* bad_table = nullptr;  // why the type's exchange table attribute is unusable
  if (use_peer_tables && (api = peer_exchange_api(Py_TYPE(x), &bad_table))) {
    Array a;
    if (import_via_table(x, api, copy, &a)) {
      bump(dlpack_counters().imports_via_peer_table);
      return a;
    }
  }
  // A bare capsule (from a legacy to_dlpack() function): consumed like __dlpack__'s result.
  if (PyCapsule_CheckExact(x)) return consume_capsule(x, copied);
  g.init();
  // An unusable table is only a lost fast path while __dlpack__ exists; without it, the
  // table was the object's one claim to DLPack, and the error says what is wrong with it.
  if (bad_table && !PyObject_HasAttr(reinterpret_cast<PyObject*>(Py_TYPE(x)), g.dlpack))
    throw TypeError(std::string("from_dlpack: ") + Py_TYPE(x)->tp_name +
                    " publishes a DLPack exchange table that cannot be used (" + bad_table +
                    ") and has no __dlpack__ method to fall back to");
  bump(dlpack_counters().imports_via_protocol);
  return import_via_protocol(x, want, copy, copied);
}

// import_dlpack; known_foreign: the caller has already seen that x is no dlarray.Array (the
// subclass check walks x's type's MRO, a few ns on the path of every import).
DLA_HOT Array import_dlpack_impl(PyObject* x, const Device* want, int copy, bool* copied, bool use_peer_tables,
                         bool known_foreign) {
  *copied = false;
  Array a = import_where_it_is(x, want, copy, copied, use_peer_tables, known_foreign);
  const bool other_device = want && *want != a.device();
  if ((other_device || copy == 1) && !*copied) {
    if (copy == 0)
      throw CopyForbidden("from_dlpack: copy=False but the array lives on '" + a.device().str() +
                          "' and device='" + want->str() + "' was requested");
    a = copy_to(a, other_device ? *want : a.device());
    *copied = true;
  }
  return a;
}
}  // namespace

StreamRequest parse_stream_request(Device target, PyObject* stream) {
  if (!stream || stream == Py_None) return stream_request(target, std::nullopt);
  if (!PyLong_Check(stream)) {
    // Where streams do not exist any value but None is refused for that reason first: the
    // ValueError stream_request raises for every value there.
    if (!takes_stream_values(target)) return stream_request(target, int64_t{0});
    throw TypeError("__dlpack__: stream must be an int or None");
  }
  const long long v = PyLong_AsLongLong(stream);
  if (v == -1 && PyErr_Occurred()) throw pyb::error_already_set();
  return stream_request(target, int64_t{v});
}

Array import_dlpack(PyObject* x, const Device* want, int copy, bool* copied, bool use_peer_tables) {
  return import_dlpack_impl(x, want, copy, copied, use_peer_tables, false);
}

void bind_dlpack(pyb::module_& m) {
  init_copy_error(m.ptr());
  PyTypeObject* t = array_type();
  add_method(t, &g_dlpack_def);
  add_method(t, &g_dlpack_device_def);
  PyObject* fn = PyCFunction_NewEx(&g_from_dlpack_def, nullptr, m.attr("__name__").ptr());
  if (!fn) throw pybind11::error_already_set();
  m.attr("from_dlpack") = pyb::reinterpret_steal<pyb::object>(fn);
  fn = PyCFunction_NewEx(&g_from_dlpack_protocol_def, nullptr, m.attr("__name__").ptr());
  if (!fn) throw pybind11::error_already_set();
  m.attr("_from_dlpack_protocol") = pyb::reinterpret_steal<pyb::object>(fn);
  bind_dlpack_abi(m);
  bind_dlpack_diag(m);

  // The C exchange table, under both names consumers look for.
  auto* api = const_cast<DLPackExchangeAPI*>(dlarray_exchange_api());
  pyb::handle type_h(reinterpret_cast<PyObject*>(t));
  type_h.attr("__c_dlpack_exchange_api__") = pyb::reinterpret_steal<pyb::object>(PyLong_FromVoidPtr(api));
  type_h.attr("__dlpack_c_exchange_api__") =
      pyb::reinterpret_steal<pyb::object>(PyCapsule_New(api, "dlpack_exchange_api", nullptr));
  m.attr("DLPACK_VERSION") = pyb::make_tuple(DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
}

}  // namespace dla::py
