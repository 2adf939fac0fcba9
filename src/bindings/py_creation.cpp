// py_creation.cpp — asarray and the filled constructors: empty, zeros, ones, full, arange.
//
// asarray's order of attempts: a dlarray.Array, a Python scalar, a DLPack producer, the
// buffer protocol, then nested sequences. Zero-copy wherever the source allows it;
// copy=False raises dlarray.CopyError (a ValueError) when a copy cannot be avoided.
#include <Python.h>

#include <cmath>
#include <string>
#include <vector>

#include "bindings/bindings.h"
#include "bindings/fastcall.h"
#include "bindings/py_args.h"
#include "bindings/py_array.h"
#include "bindings/py_dtype_device.h"
#include "bindings/py_errors.h"
#include "bindings/py_interface_dict.h"
#include "bindings/scalars.h"
#include "core/cast.h"
#include "core/copy.h"
#include "core/errors.h"
#include "core/fill.h"
#include "core/promotion.h"
#include "core/runtime.h"
#include "dlpack/copy_error.h"
#include "bindings/py_dlpack.h"
#include "dlpack/type_strings.h"

namespace dla::py {
namespace {

// ---- dtype inference for Python data -------------------------------------------------


enum class PyKind { Bool = 0, Int = 1, Float = 2, Complex = 3 };

DType default_for(PyKind k) {
  switch (k) {
    case PyKind::Bool: return DType::of(ScalarType::Bool);
    case PyKind::Int: return DType::of(ScalarType::Int64);
    case PyKind::Float: return DType::of(ScalarType::Float64);
    case PyKind::Complex: return DType::of(ScalarType::Complex128);
  }
  return DType::of(ScalarType::Float64);
}

PyKind kind_of_scalar(PyObject* o) {
  if (PyBool_Check(o)) return PyKind::Bool;
  if (PyLong_Check(o)) return PyKind::Int;
  if (PyFloat_Check(o)) return PyKind::Float;
  return PyKind::Complex;
}

PyKind kind_of_dtype(const DType& d) {
  switch (d.kind()) {
    case DTypeKind::Bool: return PyKind::Bool;
    case DTypeKind::SignedInt:
    case DTypeKind::UnsignedInt: return PyKind::Int;
    case DTypeKind::ComplexFloat: return PyKind::Complex;
    default: return PyKind::Float;
  }
}

// ---- nested sequences -----------------------------------------------------------------

bool is_sequence(PyObject* o) { return PyList_Check(o) || PyTuple_Check(o); }

struct SeqInfo {
  Dims shape;
  PyKind kind = PyKind::Bool;  // the widest kind of every leaf
  bool any_leaf = false;
  // Typed leaves (Arrays, NumPy scalars) promote among themselves and with the default dtype of
  // the Python scalars beside them, as NumPy's array coercion does: [np.int32(1)] is int32,
  // [np.int32(1), 2] int64. Kinds the promotion table does not join fall back to `kind`'s default.
  DType array_dtype;
  bool saw_array = false;
  bool mixed_array = false;  // typed leaves with no promoted dtype
  bool saw_python = false;
  PyKind python_kind = PyKind::Bool;
};

void note_typed_leaf(SeqInfo& info, const DType& d) {
  if (!info.saw_array) {
    info.array_dtype = d;
  } else if (d != info.array_dtype) {
    const ScalarType p = promote_types_or_none(info.array_dtype.scalar, d.scalar);
    if (p == ScalarType::Other) info.mixed_array = true;
    else info.array_dtype = DType::of(p);
  }
  info.saw_array = true;
  PyKind k = kind_of_dtype(d);
  if (k > info.kind) info.kind = k;
}

// The dtype the leaves of a nested sequence ask for (given no `dtype` argument).
DType sequence_dtype(const SeqInfo& info) {
  if (!info.any_leaf) return default_for(PyKind::Float);  // no elements at all: NumPy's float64
  if (!info.saw_array || info.mixed_array) return default_for(info.kind);
  if (!info.saw_python) return info.array_dtype;
  const ScalarType p = promote_types_or_none(info.array_dtype.scalar, default_for(info.python_kind).scalar);
  return p == ScalarType::Other ? default_for(info.kind) : DType::of(p);
}

// NumPy scalars (np.float32(1.5)) are immutable numbers that also export a read-only 0-d
// buffer; that buffer's format is their dtype. False for everything else.
bool typed_number_dtype(PyObject* o, DType* out) {
  if (!PyObject_CheckBuffer(o) || !PyNumber_Check(o)) return false;
  Py_buffer v;
  if (PyObject_GetBuffer(o, &v, PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear();
    return false;
  }
  bool ok = v.ndim == 0;
  if (ok) {
    try {
      *out = dtype_from_buffer_format(v.format ? v.format : "B", v.itemsize);
    } catch (const std::exception&) {
      ok = false;
    }
  }
  PyBuffer_Release(&v);
  return ok;
}

void scan(PyObject* o, int depth, SeqInfo& info) {
  if (depth > kMaxRank) throw ValueError("asarray: nested sequence is deeper than 64 levels");
  if (is_sequence(o)) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    if (info.shape.size() == depth) {
      if (info.any_leaf) throw ValueError("asarray: inhomogeneous nested sequence (ragged depth)");
      info.shape.push_back(n);
    } else if (info.shape.size() < depth || info.shape[depth] != n) {
      throw ValueError("asarray: inhomogeneous nested sequence (ragged lengths)");
    }
    PyObject** items = PySequence_Fast_ITEMS(o);
    for (Py_ssize_t i = 0; i < n; ++i) scan(items[i], depth + 1, info);
    return;
  }
  if (Array* a = try_unwrap(o)) {
    // Arrays inside a sequence contribute their own dimensions.
    for (int d = 0; d < a->ndim(); ++d) {
      if (info.shape.size() == depth + d) {
        if (info.any_leaf) throw ValueError("asarray: inhomogeneous nested sequence (ragged depth)");
        info.shape.push_back(a->shape(d));
      } else if (info.shape[depth + d] != a->shape(d)) {
        throw ValueError("asarray: inhomogeneous nested sequence (ragged lengths)");
      }
    }
    if (info.shape.size() != depth + a->ndim()) throw ValueError("asarray: inhomogeneous nested sequence");
    note_typed_leaf(info, a->dtype());
    info.any_leaf = true;
    return;
  }
  if (info.shape.size() != depth) throw ValueError("asarray: inhomogeneous nested sequence (ragged depth)");
  info.any_leaf = true;
  if (!is_python_scalar(o)) {
    // Objects that behave like numbers are taken by value; NumPy scalars also bring their dtype.
    DType typed;
    if (typed_number_dtype(o, &typed)) {
      note_typed_leaf(info, typed);
      return;
    }
    if (PyIndex_Check(o)) {
      if (info.kind < PyKind::Int) info.kind = PyKind::Int;
      return;
    }
    if (PyNumber_Check(o) && !PyUnicode_Check(o)) {
      PyKind k = PyComplex_Check(o) ? PyKind::Complex : PyKind::Float;
      if (k > info.kind) info.kind = k;
      return;
    }
    throw TypeError(std::string("asarray: cannot convert an object of type ") + Py_TYPE(o)->tp_name +
                    " to an array element");
  }
  PyKind k = kind_of_scalar(o);
  if (k > info.kind) info.kind = k;
  if (k > info.python_kind) info.python_kind = k;
  info.saw_python = true;
}

Scalar element_value(PyObject* o) {
  if (is_python_scalar(o)) return scalar_from_python(o);
  if (PyIndex_Check(o)) {
    pybind11::object i = pybind11::reinterpret_steal<pybind11::object>(PyNumber_Index(o));
    if (!i) throw pybind11::error_already_set();
    return scalar_from_python(i.ptr());
  }
  Py_complex c = PyComplex_AsCComplex(o);
  if (c.real == -1.0 && PyErr_Occurred()) throw pybind11::error_already_set();
  return c.imag == 0 && !PyComplex_Check(o) ? Scalar::of_float(c.real) : Scalar::of_complex({c.real, c.imag});
}

void check_int_range(const DType& d, const Scalar& s) {
  if ((s.kind == Scalar::Kind::Int || s.kind == Scalar::Kind::UInt) && is_integer(d.scalar) && !int_fits(d, s))
    throw OverflowError("asarray: Python int " +
                        (s.kind == Scalar::Kind::UInt ? std::to_string(s.u) : std::to_string(s.i)) +
                        " is out of range for " + d.name());
}

void fill_from(PyObject* o, const Array& out, int depth, char* p) {
  if (is_sequence(o)) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    PyObject** items = PySequence_Fast_ITEMS(o);
    const int64_t step = out.stride(depth) * out.itemsize();
    for (Py_ssize_t i = 0; i < n; ++i) fill_from(items[i], out, depth + 1, p + i * step);
    return;
  }
  if (Array* a = try_unwrap(o)) {
    Dims sh(a->shape().data(), a->ndim()), st(out.strides().data() + depth, a->ndim());
    Array dst = out.view(sh, st, (p - static_cast<char*>(out.storage()->data())));
    cast_into(dst, a->device().host_accessible() ? *a : copy_to(*a, Device{}));
    return;
  }
  Scalar s = element_value(o);
  check_int_range(out.dtype(), s);
  store_scalar(out.dtype(), s, p);
}

Array from_sequence(PyObject* obj, const DType* dtype) {
  // PySequence_Fast on every level would copy tuples; lists and tuples are walked directly.
  SeqInfo info;
  scan(obj, 0, info);
  DType dt = dtype ? *dtype : sequence_dtype(info);
  Array out = Array::empty(info.shape, dt, Device{});
  if (out.size() > 0) fill_from(obj, out, 0, out.data());
  return out;
}

// ---- buffer protocol ---------------------------------------------------------------------

struct BufferOwner {
  Py_buffer view;
};

void release_buffer(void* ctx, void*) {
  auto* owner = static_cast<BufferOwner*>(ctx);
  if (Py_IsInitialized()) {
    PyGILState_STATE st = PyGILState_Ensure();
    PyBuffer_Release(&owner->view);
    PyGILState_Release(st);
  }
  delete owner;
}

Array from_buffer(PyObject* obj) {
  auto* owner = new BufferOwner();
  if (PyObject_GetBuffer(obj, &owner->view, PyBUF_RECORDS_RO) != 0) {
    delete owner;
    throw pybind11::error_already_set();
  }
  Py_buffer& v = owner->view;
  try {
    DType dt;
    try {
      dt = dtype_from_buffer_format(v.format ? v.format : "B", v.itemsize);
    } catch (const BufferError& e) {
      throw BufferError(std::string("asarray: ") + e.what());
    }
    if (dt.itemsize() != v.itemsize) throw BufferError("asarray: buffer item size does not match its format");
    Dims shape(v.ndim), strides(v.ndim);
    for (int i = 0; i < v.ndim; ++i) {
      shape[i] = v.shape ? v.shape[i] : v.len / v.itemsize;
      int64_t sb = v.strides ? v.strides[i] : 0;
      if (sb % v.itemsize != 0) throw BufferError("asarray: buffer strides are not multiples of the item size");
      strides[i] = sb / v.itemsize;
    }
    if (!v.strides) strides = contiguous_strides(shape);
    int64_t n, nbytes, lo, hi;
    for (int64_t d : shape)
      if (d < 0) throw BufferError("asarray: buffer has a negative dimension");
    if (!numel_fits(shape.data(), shape.size(), &n) || !mul_fits(n, dt.itemsize(), &nbytes) ||
        !strided_extent_fits(shape.data(), strides.data(), shape.size(), dt.itemsize(), &lo, &hi))
      throw BufferError("array is too big; buffer of shape " + shape_str(shape) + " and strides " + shape_str(strides) +
                        " addresses more than 2**63 - 1 bytes");
    StoragePtr st = Storage::adopt(DataPtr{v.buf, owner, &release_buffer}, static_cast<size_t>(v.len), Device{});
    owner = nullptr;  // the storage owns the buffer now
    Array a(std::move(st), 0, std::move(shape), std::move(strides), dt);
    if (v.readonly) a.set_readonly(true);
    return a;
  } catch (...) {
    if (owner) {
      PyBuffer_Release(&owner->view);
      delete owner;
    }
    throw;
  }
}

// ---- __array_interface__ (NumPy's protocol, version 3) ----------------------------------------

Array from_array_interface(PyObject* obj) {
  static const InterfaceSpec spec{"__array_interface__", 3, 3, false, false, true};
  auto iface = pybind11::reinterpret_steal<pybind11::object>(PyObject_GetAttrString(obj, "__array_interface__"));
  if (!iface) throw pybind11::error_already_set();
  return adopt_interface(parse_interface_dict(iface.ptr(), spec, "asarray"), Device{}, obj);
}

// ---- NumPy arrays of ml_dtypes' types ------------------------------------------------------

// bfloat16 and the float8 formats are NumPy dtypes through ml_dtypes (JAX's dtypes), but NumPy
// exports neither DLPack nor a buffer for them. Their bytes come in zero-copy through NumPy's
// unsigned-integer view of the same width, relabelled with our dtype of the same name. False
// (nothing set) when `o` is not such an array.
bool import_numpy_extension_dtype(PyObject* o, int copy, Array* out, bool* copied) {
  pybind11::handle h(o);
  if (!pybind11::hasattr(h, "view") || !pybind11::hasattr(h, "dtype")) return false;
  pybind11::object their = h.attr("dtype");
  if (!pybind11::hasattr(their, "name") || !pybind11::hasattr(their, "itemsize")) return false;
  DType ours;
  try {
    ours = dtype_from_name(pybind11::str(their.attr("name")));
  } catch (const TypeError&) {
    return false;
  }
  const int64_t width = pybind11::cast<int64_t>(their.attr("itemsize"));
  if (ours.is_subbyte() || ours.itemsize() != width || (width != 1 && width != 2)) return false;
  pybind11::object bits = h.attr("view")(width == 1 ? "uint8" : "uint16");
  Array a = import_dlpack(bits.ptr(), nullptr, copy, copied);
  *out = a.view(a.shape(), a.strides(), a.byte_offset(), ours);
  return true;
}

// ---- asarray ------------------------------------------------------------------------------

// Applies dtype/device/copy to an array we already have.
pybind11::object finish(pybind11::object src_obj, Array a, const DType* dtype, const Device* device, int copy,
                        bool fresh) {
  bool changed = false;
  if (dtype && *dtype != a.dtype()) {
    if (copy == 0) throw CopyForbidden("asarray: copy=False but converting to " + dtype->name() + " needs a copy");
    const Device home = a.device();
    if (home.host_accessible()) sync_for_host(home);  // pinned/managed: queued work may still write it
    a = cast_to(home.host_accessible() ? a : copy_to(a, Device{}), *dtype);
    // Casts run on the host for now: the result goes back where it came from unless asked elsewhere.
    if (!device && a.device() != home) a = copy_to(a, home);
    changed = true;
  }
  if (device && *device != a.device()) {
    if (copy == 0 && !changed)
      throw CopyForbidden("asarray: copy=False but moving to '" + device->str() + "' needs a copy");
    a = copy_to(a, *device);
    changed = true;
  }
  if (copy == 1 && !changed && !fresh) {
    a = copy_to(a, a.device());
    changed = true;
  }
  if (!changed && src_obj && try_unwrap(src_obj.ptr())) return src_obj;
  return wrap(std::move(a));
}

pybind11::object asarray(pybind11::handle obj, pybind11::handle dtype_h, pybind11::handle device_h,
                         pybind11::handle copy_h) {
  DType dt;
  Device dev;
  const DType* dtype = parse_optional_dtype(dtype_h, &dt) ? &dt : nullptr;
  const Device* device = parse_optional_device(device_h, &dev) ? &dev : nullptr;
  // Values that live nowhere yet (Python scalars and sequences, NumPy scalars) go to the
  // default device; arrays and other libraries' objects stay where they are.
  Device fallback;
  const Device* device_for_values = device;
  if (!device) {
    fallback = default_device();
    if (fallback.kind != DeviceKind::CPU) device_for_values = &fallback;
  }
  int copy = copy_h.is_none() ? -1 : (copy_h.ptr() == Py_True ? 1 : copy_h.ptr() == Py_False ? 0 : -2);
  if (copy == -2) throw TypeError("asarray: copy must be True, False or None");
  PyObject* o = obj.ptr();

  if (Array* a = try_unwrap(o)) return finish(pybind11::reinterpret_borrow<pybind11::object>(obj), *a, dtype, device, copy, false);

  if (is_python_scalar(o)) {
    if (copy == 0) throw CopyForbidden("asarray: copy=False but a Python scalar must be copied into an array");
    Scalar s = scalar_from_python(o);
    DType d = dtype ? *dtype : default_for(kind_of_scalar(o));
    check_int_range(d, s);
    Array a = Array::empty(Dims{}, d, Device{});
    store_scalar(d, s, a.data());
    return finish({}, std::move(a), nullptr, device_for_values, -1, true);
  }

  // Strings are sequences and buffers only by accident; refuse them plainly.
  if (PyUnicode_Check(o)) throw TypeError("asarray: strings cannot be converted to arrays");

  auto read_sequence = [&] {
    if (copy == 0) throw CopyForbidden("asarray: copy=False but a Python sequence must be copied into an array");
    return finish({}, from_sequence(o, dtype), nullptr, device_for_values, -1, true);
  };
  // Lists and tuples themselves (a subclass may carry a protocol) hold values: straight to the
  // sequence reader, past the protocol lookups below, each of which, failing on the type,
  // formats an AttributeError message first (a third of asarray([1.0, 2.0, 3.0])'s time).
  if (PyList_CheckExact(o) || PyTuple_CheckExact(o)) return read_sequence();

  // Protocol methods live on the type; asking the type binds no method object.
  static PyObject* dlpack_name = PyUnicode_InternFromString("__dlpack__");
  if (PyObject_HasAttr(reinterpret_cast<PyObject*>(Py_TYPE(o)), dlpack_name)) {
    // dpnp/dpctl arrays asked onto the CPU: SUAI reads host-readable USM in place, where
    // DLPack would make the producer copy.
    static PyObject* suai_name = PyUnicode_InternFromString("__sycl_usm_array_interface__");
    if (device && device->kind == DeviceKind::CPU && PyObject_HasAttr(reinterpret_cast<PyObject*>(Py_TYPE(o)), suai_name)) {
      Array a;
      if (import_sycl_interface(o, device, "asarray", &a)) return finish({}, std::move(a), dtype, device, copy, false);
    }
    try {
      // copy=True: the producer copies, unless a dtype is given (the cast will copy anyway).
      // copy=False is passed on, so a producer that would have to copy refuses.
      bool copied = false;
      const int import_copy = copy == 1 && dtype ? -1 : copy;
      Array a = import_dlpack(o, nullptr, import_copy, &copied);
      return finish({}, std::move(a), dtype, device, copied ? -1 : copy, copied);
    } catch (pybind11::error_already_set& e) {
      // A producer that cannot describe its data (NumPy object or byte-swapped arrays, ml_dtypes'
      // types) may still be readable another way below; anything else propagates.
      if (!e.matches(PyExc_BufferError)) throw;
      bool copied = false;
      Array a;
      if (import_numpy_extension_dtype(o, copy == 1 && dtype ? -1 : copy, &a, &copied))
        return finish({}, std::move(a), dtype, device, copied ? -1 : copy, copied);
      if (!PyObject_CheckBuffer(o)) throw;
      try {
        return finish({}, from_buffer(o), dtype, device, copy, false);
      } catch (pybind11::error_already_set&) {
        // Neither protocol carries the dtype (NumPy's int4, float4 of ml_dtypes): say which.
        pybind11::handle h(o);
        if (!pybind11::hasattr(h, "dtype")) throw;
        throw TypeError("asarray: the dtype " + std::string(pybind11::str(h.attr("dtype"))) + " of this " +
                        Py_TYPE(o)->tp_name + " reaches dlarray through neither DLPack nor the buffer protocol");
      }
    }
  }

  DType typed;
  if (typed_number_dtype(o, &typed)) {
    // A NumPy scalar is a value, like a Python scalar: a fresh writable array, never a view
    // of the scalar's read-only bytes (as np.asarray(np.float32(1.5)) is writable).
    if (copy == 0) throw CopyForbidden("asarray: copy=False but a scalar must be copied into an array");
    return finish({}, copy_to(from_buffer(o), Device{}), dtype, device_for_values, -1, true);
  }

  if (PyObject_CheckBuffer(o) && !is_sequence(o)) {
    Array a = from_buffer(o);
    return finish({}, std::move(a), dtype, device, copy, false);
  }

  // The array-interface family, for producers that offer neither DLPack nor a buffer (Numba's
  // device arrays, dpctl's USM memory, NumPy-protocol objects). Looked up on the instance (the
  // protocols allow instance attributes), but never for lists and tuples, whose failed lookups
  // would cost every asarray([...]) exceptions.
  if (!PyList_Check(o) && !PyTuple_Check(o)) {
    Array a;
    if (import_device_interface(o, device, "asarray", &a)) return finish({}, std::move(a), dtype, device, copy, false);
    static PyObject* array_interface_name = PyUnicode_InternFromString("__array_interface__");
    if (PyObject_HasAttr(o, array_interface_name)) {
      a = from_array_interface(o);
      return finish({}, std::move(a), dtype, device, copy, false);
    }
  }

  if (is_sequence(o)) return read_sequence();
  throw TypeError(std::string("asarray: cannot convert an object of type ") + Py_TYPE(o)->tp_name +
                  " to an array (expected an array, a DLPack or buffer-protocol object, a Python scalar or "
                  "a nested sequence)");
}

// asarray is the everyday entry point for other libraries' arrays: parsed here rather
// than by pybind11's generic dispatcher, which costs as much as a whole DLPack import.
KwSpec<3> g_asarray_kw{{"dtype", "device", "copy"}};

PyObject* asarray_fastcall(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  try {
    if (nargs != 1)
      throw TypeError("asarray() takes exactly one positional argument (" + std::to_string(nargs) + " given)");
    PyObject* kw[3];
    parse_keywords("asarray", g_asarray_kw, args, nargs, kwnames, kw);
    auto arg = [](PyObject* p) { return pybind11::handle(p ? p : Py_None); };
    return asarray(arg(args[0]), arg(kw[0]), arg(kw[1]), arg(kw[2])).release().ptr();
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

PyMethodDef g_asarray_def = {"asarray", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(asarray_fastcall)),
                             METH_FASTCALL | METH_KEYWORDS,
                             "asarray(obj, /, *, dtype=None, device=None, copy=None)\n--\n\n"
                             "Convert the input to an array."};

// ---- shapes and filled constructors --------------------------------------------------------

// A shape argument: an int or a tuple (or list) of ints. Negative and too big are checked
// with the dtype by Array::empty.
Dims parse_shape(pybind11::handle h, const char* fname) {
  std::vector<int64_t> v = dims_arg(h.ptr(), fname, "shape");
  return Dims(v.data(), static_cast<int>(v.size()));
}

pybind11::object filled(const char* fname, pybind11::handle shape, pybind11::handle dtype_h, pybind11::handle device_h,
                        const Scalar* value) {
  DType dt = DType::of(ScalarType::Float64);
  parse_optional_dtype(dtype_h, &dt);
  Array a = Array::empty(parse_shape(shape, fname), dt, device_or_default(device_h));
  if (value) fill(a, *value);
  return wrap(std::move(a));
}

pybind11::object full(pybind11::handle shape, pybind11::handle fill_value, pybind11::handle dtype_h,
                      pybind11::handle device_h) {
  // The dtype, when none is given, is the value's: a 0-d array's or NumPy scalar's own, the
  // default dtype of a Python number's kind.
  DType inferred, ignored;
  const Scalar s = number_arg(fill_value.ptr(), "full", "fill_value", &inferred);
  if (is_python_scalar(fill_value.ptr()) && !numpy_scalar_dtype(fill_value.ptr(), &ignored))
    inferred = default_for(kind_of_scalar(fill_value.ptr()));
  DType dt = inferred;
  parse_optional_dtype(dtype_h, &dt);
  if (dt.computes() && is_integer(dt.scalar)) check_int_range(dt, s);
  Array a = Array::empty(parse_shape(shape, "full"), dt, device_or_default(device_h));
  fill(a, s);
  return wrap(std::move(a));
}

pybind11::object arange(pybind11::handle start_h, pybind11::handle stop_h, pybind11::handle step_h,
                        pybind11::handle dtype_h, pybind11::handle device_h) {
  // Real numbers: Python ints and floats, NumPy scalars, 0-d integer or real arrays, or
  // objects with __index__, as NumPy takes them.
  auto num = [](pybind11::handle h, const char* what) {
    if (!PyBool_Check(h.ptr()) && !try_unwrap(h.ptr()) && !is_python_scalar(h.ptr()) && PyIndex_Check(h.ptr())) {
      DType ignored;
      if (!numpy_scalar_dtype(h.ptr(), &ignored)) {
        auto i = pybind11::reinterpret_steal<pybind11::object>(PyNumber_Index(h.ptr()));
        if (!i) throw pybind11::error_already_set();
        return scalar_from_python(i.ptr());
      }
    }
    if (Array* a = try_unwrap(h.ptr()); a && a->ndim() != 0)
      throw TypeError(std::string("arange: ") + what + " must be a number or a 0-d array, got an array of shape " +
                      shape_str(a->shape()));
    const Scalar s = number_arg(h.ptr(), "arange", what);
    if (s.kind == Scalar::Kind::Bool || s.kind == Scalar::Kind::Complex)
      throw TypeError(std::string("arange: ") + what + " must be an int or a float (or a 0-d integer or real array)");
    return s;
  };
  Scalar start = num(start_h, "start"), stop, step = num(step_h, "step");
  if (stop_h.is_none()) {
    stop = start;
    start = Scalar::of_int(0);
  } else {
    stop = num(stop_h, "stop");
  }
  auto is_int = [](const Scalar& s) { return s.kind == Scalar::Kind::Int || s.kind == Scalar::Kind::UInt; };
  const bool all_int = is_int(start) && is_int(stop) && is_int(step);
  DType dt = DType::of(all_int ? ScalarType::Int64 : ScalarType::Float64);
  const bool has_dtype = parse_optional_dtype(dtype_h, &dt);
  if (!dt.computes() || dt.scalar == ScalarType::Bool)
    throw TypeError("arange: dtype must be a numeric dtype, got " + dt.name());
  // A complex dtype (as NumPy's arange(3, dtype=complex128)): the real values, converted.
  const DType complex_dtype = dt;
  if (is_complex(dt.scalar)) dt = DType::of(all_int ? ScalarType::Int64 : ScalarType::Float64);
  if (step.as_double() == 0) throw ValueError("arange: step must not be zero");
  int64_t n;
  if (all_int) {
    // Exact: ceil((stop - start) / step) in 128 bits, for any bounds in int64 or uint64.
    auto wide = [](const Scalar& s) { return s.kind == Scalar::Kind::UInt ? __int128(s.u) : __int128(s.i); };
    const __int128 first = wide(start), span = wide(stop) - first, st = wide(step);
    __int128 q = span / st;
    if (span % st != 0 && ((span < 0) == (st < 0))) q += 1;
    if (q > INT64_MAX)
      throw ValueError("array is too big; arange: the length " + std::to_string(uint64_t(q)) +
                       " is more than 2**63 - 1");
    n = q > 0 ? int64_t(q) : 0;
    // Values the dtype cannot hold: an error for the default int64 (an explicit integer
    // dtype wraps, as the fill does for every integer dtype).
    const __int128 last = n > 0 ? first + (n - 1) * st : first;
    if (!has_dtype && n > 0 && (std::min(first, last) < INT64_MIN || std::max(first, last) > INT64_MAX))
      throw OverflowError("arange: the values leave the range of int64 (the default integer dtype); "
                          "pass dtype=uint64 for larger values");
  } else {
    double len = std::ceil((stop.as_double() - start.as_double()) / step.as_double());
    if (std::isnan(len)) throw ValueError("arange: the length is not a number (start, stop or step is nan)");
    if (len >= 0x1p63)  // also infinity
      throw ValueError("array is too big; arange: the length " + pybind11::repr(pybind11::float_(len)).cast<std::string>() +
                       " is more than 2**63 - 1");
    n = len > 0 ? int64_t(len) : 0;
  }
  Array host = arange_host(start, step, n, dt);
  if (complex_dtype != dt) host = cast_to(host, complex_dtype);
  Device dev = device_or_default(device_h);
  return wrap(dev == host.device() ? host : copy_to(host, dev));
}

// empty, zeros and ones as raw METH_FASTCALL functions, like asarray: pybind11's argument
// conversion was half of zeros(10)'s 0.25 us (NumPy's zeros: 0.13 us).
KwSpec<3> g_filled_kw{{"shape", "dtype", "device"}};

template <int Fill>  // -1: empty (no fill), else the value
PyObject* filled_fastcall(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"empty", "zeros", "ones"};
  const char* fname = kNames[Fill + 1];
  try {
    if (nargs > 1)
      throw TypeError(std::string(fname) + "() takes 1 positional argument but " + std::to_string(nargs) + " were given");
    PyObject* kw[3];
    parse_keywords(fname, g_filled_kw, args, nargs, kwnames, kw);
    if (nargs == 1 && kw[0]) throw TypeError(std::string(fname) + "() got multiple values for argument 'shape'");
    PyObject* shape = nargs == 1 ? args[0] : kw[0];
    if (!shape) throw TypeError(std::string(fname) + "() missing 1 required argument: 'shape'");
    const Scalar value = Scalar::of_int(Fill);
    auto arg = [](PyObject* p) { return pybind11::handle(p ? p : Py_None); };
    return filled(fname, shape, arg(kw[1]), arg(kw[2]), Fill < 0 ? nullptr : &value).release().ptr();
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

#define DLA_FILLED_DEF(name, fill, summary)                                                                       \
  PyMethodDef g_##name##_def = {#name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(filled_fastcall<fill>)), \
                                METH_FASTCALL | METH_KEYWORDS,                                                  \
                                #name "(shape, *, dtype=None, device=None)\n--\n\n" summary};
DLA_FILLED_DEF(empty, -1, "An uninitialised array.")
DLA_FILLED_DEF(zeros, 0, "An array of zeros.")
DLA_FILLED_DEF(ones, 1, "An array of ones.")
#undef DLA_FILLED_DEF

}  // namespace

void bind_creation(pyb::module_& m) {
  using pyb::arg;
  for (PyMethodDef* def : {&g_asarray_def, &g_empty_def, &g_zeros_def, &g_ones_def}) {
    PyObject* f = PyCFunction_NewEx(def, nullptr, m.attr("__name__").ptr());
    if (!f) throw pyb::error_already_set();
    m.attr(def->ml_name) = pyb::reinterpret_steal<pyb::object>(f);
  }
  m.def("full", &full, arg("shape"), arg("fill_value"), pyb::kw_only(), arg("dtype") = pyb::none(),
        arg("device") = pyb::none(),
        "full(shape, fill_value, *, dtype=None, device=None)\n--\n\nAn array filled with fill_value.");
  m.def("arange", &arange, arg("start"), pyb::pos_only(), arg("stop") = pyb::none(), arg("step") = 1,
        pyb::kw_only(), arg("dtype") = pyb::none(), arg("device") = pyb::none(),
        "arange(start, /, stop=None, step=1, *, dtype=None, device=None)\n--\n\n"
        "Evenly spaced values in the half-open interval [start, stop).");
}

}  // namespace dla::py
