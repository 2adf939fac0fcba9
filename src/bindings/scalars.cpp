// scalars.cpp — conversions between Python numbers and single array elements.
#include "bindings/scalars.h"

#include <string>

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

}  // namespace dla::py
