// scalars.cpp — conversions between Python numbers and single array elements.
#include "bindings/scalars.h"

#include <string>
#include <utility>
#include <vector>

#include "bindings/py_array.h"
#include "core/copy.h"
#include "core/dispatch.h"
#include "core/errors.h"

namespace dla::py {

pyb::object scalar_to_python(const DType& d, const void* p) {
  if (d.scalar != ScalarType::Other) {  // a standard dtype: its C++ type directly
    PyObject* o = visit_scalar(d.scalar, [&](auto tag) {
      return element_to_python<typename decltype(tag)::type>(static_cast<const char*>(p));
    });
    if (!o) throw pyb::error_already_set();
    return pyb::reinterpret_steal<pyb::object>(o);
  }
  Scalar s = load_scalar(d, p);  // the storage dtypes that hold numbers (float16, bfloat16)
  switch (s.kind) {
    case Scalar::Kind::Bool: return pyb::bool_(s.b);
    case Scalar::Kind::Int: return pyb::reinterpret_steal<pyb::object>(PyLong_FromLongLong(s.i));
    case Scalar::Kind::UInt: return pyb::reinterpret_steal<pyb::object>(PyLong_FromUnsignedLongLong(s.u));
    case Scalar::Kind::Float: return pyb::float_(s.f);
    case Scalar::Kind::Complex:
      return pyb::reinterpret_steal<pyb::object>(PyComplex_FromDoubles(s.c.real(), s.c.imag()));
  }
  return pyb::none();
}

bool is_python_scalar(PyObject* h) {
  return PyBool_Check(h) || PyLong_Check(h) || PyFloat_Check(h) || PyComplex_Check(h);
}

Scalar scalar_from_python(PyObject* h) {
  if (PyBool_Check(h)) return Scalar::of_bool(h == Py_True);
  if (PyLong_Check(h)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(h, &overflow);
    if (!overflow) return Scalar::of_int(v);
    if (overflow > 0) {
      unsigned long long u = PyLong_AsUnsignedLongLong(h);
      if (!PyErr_Occurred()) return Scalar::of_uint(u);
      PyErr_Clear();
    }
    throw OverflowError("Python int too large for any dlarray integer dtype (int64 or uint64)");
  }
  if (PyFloat_Check(h)) return Scalar::of_float(PyFloat_AS_DOUBLE(h));
  if (PyComplex_Check(h)) {
    Py_complex c = PyComplex_AsCComplex(h);
    return Scalar::of_complex({c.real, c.imag});
  }
  throw TypeError("expected a Python bool, int, float or complex, got " +
                  std::string(Py_TYPE(h)->tp_name));
}

namespace {

// The dlarray dtype of a NumPy scalar type, looked up once per type by its dtype's name
// (false for the types dlarray has no dtype for). Types are kept referenced, so a pointer
// never names a different type later.
bool dtype_of_numpy_type(PyObject* h, DType* out) {
  static std::vector<std::pair<PyTypeObject*, std::pair<bool, DType>>> cache;
  PyTypeObject* t = Py_TYPE(h);
  for (const auto& [type, entry] : cache)
    if (type == t) {
      if (entry.first) *out = entry.second;
      return entry.first;
    }
  std::pair<bool, DType> entry{false, DType{}};
  PyObject* dtype = PyObject_GetAttrString(h, "dtype");
  PyObject* name = dtype ? PyObject_GetAttrString(dtype, "name") : nullptr;
  const char* text = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : nullptr;
  if (text) {
    try {
      const DType d = dtype_from_name(text);
      // Numbers only: storage-only formats other than float16/bfloat16 have no scalar value here.
      if (d.computes() || d.name() == "float16" || d.name() == "bfloat16") entry = {true, d};
    } catch (const std::exception&) {
    }
  }
  Py_XDECREF(name);
  Py_XDECREF(dtype);
  PyErr_Clear();
  Py_INCREF(t);
  cache.emplace_back(t, entry);
  if (entry.first) *out = entry.second;
  return entry.first;
}

}  // namespace

PyTypeObject* numpy_generic_type() {
  static PyTypeObject* generic = nullptr;
  if (generic) return generic;
  PyObject* numpy = PyDict_GetItemString(PyImport_GetModuleDict(), "numpy");  // borrowed
  if (!numpy) return nullptr;
  PyObject* g = PyObject_GetAttrString(numpy, "generic");
  if (!g || !PyType_Check(g)) {
    Py_XDECREF(g);
    PyErr_Clear();
    return nullptr;
  }
  generic = reinterpret_cast<PyTypeObject*>(g);
  return generic;
}

bool numpy_scalar_dtype(PyObject* h, DType* dtype) {
  PyTypeObject* generic = numpy_generic_type();
  return generic && PyObject_TypeCheck(h, generic) && dtype_of_numpy_type(h, dtype);
}

bool numpy_scalar_from(PyObject* h, DType* dtype, Scalar* value) {
  if (!numpy_scalar_dtype(h, dtype)) return false;
  switch (dtype->kind()) {
    case DTypeKind::Bool: {
      const int truth = PyObject_IsTrue(h);
      if (truth < 0) throw pyb::error_already_set();
      *value = Scalar::of_bool(truth != 0);
      return true;
    }
    case DTypeKind::SignedInt:
    case DTypeKind::UnsignedInt: {
      PyObject* index = PyNumber_Index(h);
      if (!index) throw pyb::error_already_set();
      const pyb::object hold = pyb::reinterpret_steal<pyb::object>(index);
      *value = scalar_from_python(index);
      return true;
    }
    case DTypeKind::ComplexFloat: {
      const Py_complex c = PyComplex_AsCComplex(h);
      if (PyErr_Occurred()) throw pyb::error_already_set();
      *value = Scalar::of_complex({c.real, c.imag});
      return true;
    }
    default: {  // real floating, float16 and bfloat16
      const double f = PyFloat_AsDouble(h);
      if (f == -1.0 && PyErr_Occurred()) throw pyb::error_already_set();
      *value = Scalar::of_float(f);
      return true;
    }
  }
}

Scalar number_arg(PyObject* h, const char* fname, const char* what, DType* dtype) {
  DType d;
  Scalar value;
  if (Array* a = try_unwrap(h)) {
    if (a->ndim() != 0)
      throw ValueError(std::string(fname) + ": " + what + " must be a number or a 0-d array, got an array of shape " +
                       shape_str(a->shape()));
    if (!a->dtype().computes() && a->dtype().name() != "float16" && a->dtype().name() != "bfloat16")
      throw TypeError(std::string(fname) + ": " + what + " has the storage-only dtype " + a->dtype().name());
    const Array host = a->device().host_accessible() ? *a : copy_to(*a, Device{});
    d = a->dtype();
    value = load_scalar(host.dtype(), host.data());
  } else if (numpy_scalar_from(h, &d, &value)) {
  } else if (is_python_scalar(h)) {
    value = scalar_from_python(h);
    d = DType::of(PyBool_Check(h)    ? ScalarType::Bool
                  : PyLong_Check(h)  ? ScalarType::Int64
                  : PyFloat_Check(h) ? ScalarType::Float64
                                     : ScalarType::Complex128);
  } else {
    throw TypeError(std::string(fname) + ": " + what + " must be a number (bool, int, float, complex, a NumPy "
                    "scalar or a 0-d array), got " + Py_TYPE(h)->tp_name);
  }
  if (dtype) *dtype = d;
  return value;
}

}  // namespace dla::py
