// py_operators.cpp — the operators of dlarray.Array, as C slots on the type.
//
// `a + b` reaches nb_add directly: no pybind11 dispatch, no method lookup. The dunder
// methods (__add__, __radd__, __iadd__, ...) are also in the type's dict, with stub text
// signatures, for code that calls them by name; after they are added the slots are set to
// the C functions again (adding a dunder to a heap type makes CPython install its generic
// slot_* trampolines). Which elementwise op each operator runs is the table below.
#include <Python.h>
#include <pybind11/pybind11.h>

#include <complex>
#include <cstring>
#include <string>

#include "bindings/bindings.h"
#include "bindings/py_array.h"
#include "bindings/py_elementwise.h"
#include "bindings/py_errors.h"
#include "bindings/py_linalg.h"
#include "bindings/scalars.h"
#include "core/cast.h"
#include "core/copy.h"
#include "core/promotion.h"
#include "core/errors.h"
#include "core/hot_path.h"

namespace dla::py {
namespace {

// Binary operators: an Array on either side, the other an Array or a Python scalar;
// anything else is NotImplemented so that Python tries the other operand.
PyObject* binary(OpId op, PyObject* a, PyObject* b) {
  try {
    ElemArg args[2];
    if (!elem_arg_from(a, &args[0]) || !elem_arg_from(b, &args[1])) Py_RETURN_NOTIMPLEMENTED;
    return run_elementwise(op, args, 2);
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

PyObject* inplace(OpId op, PyObject* a, PyObject* b) {
  try {
    Array* x = try_unwrap(a);
    ElemArg args[2];
    if (!x || !elem_arg_from(b, &args[1])) Py_RETURN_NOTIMPLEMENTED;
    args[0] = ElemArg::of(*x);
    return run_elementwise(op, args, 2, a, x);
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

PyObject* unary(OpId op, PyObject* a) {
  try {
    ElemArg args[1];
    if (!elem_arg_from(a, &args[0])) Py_RETURN_NOTIMPLEMENTED;
    return run_elementwise(op, args, 1);
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

template <OpId op>
PyObject* nb_binary(PyObject* a, PyObject* b) {
  return binary(op, a, b);
}
template <OpId op>
PyObject* nb_inplace(PyObject* a, PyObject* b) {
  return inplace(op, a, b);
}
template <OpId op>
PyObject* nb_unary(PyObject* a) {
  return unary(op, a);
}
PyObject* nb_power(PyObject* a, PyObject* b, PyObject* mod) {
  if (mod != Py_None) {
    PyErr_SetString(PyExc_TypeError, "pow() with a modulus is not supported for arrays");
    return nullptr;
  }
  return binary(OpId::pow, a, b);
}
PyObject* nb_inplace_power(PyObject* a, PyObject* b, PyObject* mod) {
  if (mod != Py_None) {
    PyErr_SetString(PyExc_TypeError, "pow() with a modulus is not supported for arrays");
    return nullptr;
  }
  return inplace(OpId::pow, a, b);
}

// `@` takes arrays only (Python scalars are 0-d, which matmul refuses): anything else is
// NotImplemented so that Python tries the other operand.
PyObject* nb_matmul(PyObject* a, PyObject* b) {
  try {
    Array* x1 = try_unwrap(a);
    Array* x2 = try_unwrap(b);
    if (!x1 || !x2) Py_RETURN_NOTIMPLEMENTED;
    return wrap(run_matmul(*x1, *x2)).release().ptr();
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

// `a @= b`: the product is written back into a, which keeps its dtype and shape (so b must be
// a square matrix, or a stack that broadcasts to a's).
PyObject* nb_inplace_matmul(PyObject* a, PyObject* b) {
  try {
    Array* x1 = try_unwrap(a);
    Array* x2 = try_unwrap(b);
    if (!x1 || !x2) Py_RETURN_NOTIMPLEMENTED;
    if (x1->readonly()) throw ValueError("@=: the left operand is read-only");
    const Array r = run_matmul(*x1, *x2);
    if (r.shape() != x1->shape())
      throw ValueError("@=: the product of shapes " + shape_str(x1->shape()) + " and " + shape_str(x2->shape()) +
                       " has shape " + shape_str(r.shape()) + "; an in-place operator cannot change x1's shape");
    if (r.dtype() != x1->dtype() && !same_kind_cast(r.dtype(), x1->dtype()))
      throw TypeError("@=: the product of " + x1->dtype().name() + " and " + x2->dtype().name() + " is " +
                      r.dtype().name() + ", which cannot be stored in x1's dtype (in-place operators keep the "
                      "array's dtype, and convert only within a kind or to a higher kind, as NumPy's same_kind casting)");
    if (r.dtype() != x1->dtype())
      cast_into(*x1, r);
    else
      copy_into(*x1, r);
    Py_INCREF(a);
    return a;
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

PyObject* richcompare(PyObject* a, PyObject* b, int cmp) {
  OpId op;
  switch (cmp) {
    case Py_LT: op = OpId::less; break;
    case Py_LE: op = OpId::less_equal; break;
    case Py_EQ: op = OpId::equal; break;
    case Py_NE: op = OpId::not_equal; break;
    case Py_GT: op = OpId::greater; break;
    default: op = OpId::greater_equal; break;
  }
  return binary(op, a, b);
}

// ---- conversions of 0-d arrays to Python scalars ------------------------------------------

// The single element of a 0-d array, read on the host.
Scalar element_of(PyObject* self, const char* what) {
  const Array& a = unwrap(self, "self");
  if (a.ndim() != 0)
    throw TypeError(std::string(what) + "() needs a 0-d array, got " + std::to_string(a.ndim()) +
                    "-d (shape " + shape_str(a.shape()) + "); index a single element first");
  if (!a.dtype().computes()) throw TypeError(std::string(what) + "(): dtype " + a.dtype().name() + " is storage-only");
  // Host memory is read where it is: a copy of the Array (two atomic refcount updates) was a
  // tenth of float(x[0]).
  if (a.device().host_accessible()) return load_scalar(a.dtype(), a.data());
  const Array h = copy_to(a, Device{});
  return load_scalar(h.dtype(), h.data());
}

// The 0-d host array inside self, whose element float() and int() of x[i] read in place for
// the common dtypes (NumPy's x[i] is a float subclass whose float() costs next to nothing;
// through element_of's Scalar float(x[0]) took a fifth more than NumPy's), or nullptr. Other
// dtypes, devices and every error take element_of.
const Array* host_0d(PyObject* self) {
  const Array* a = try_unwrap(self);
  return a && a->ndim() == 0 && a->device().host_accessible() ? a : nullptr;
}
template <class T>
T element_as(const Array& a) {
  T v;
  std::memcpy(&v, a.data(), sizeof v);
  return v;
}

int nb_bool(PyObject* self) {
  try {
    const Array& a = unwrap(self, "self");
    if (a.ndim() != 0)
      throw ValueError("the truth value of a " + std::to_string(a.ndim()) +
                       "-d array is ambiguous; use any() or all(), or index a single element");
    const Scalar s = element_of(self, "bool");
    switch (s.kind) {
      case Scalar::Kind::Bool: return s.b;
      case Scalar::Kind::Int: return s.i != 0;
      case Scalar::Kind::UInt: return s.u != 0;
      case Scalar::Kind::Float: return s.f != 0;  // NaN is true
      case Scalar::Kind::Complex: return s.c.real() != 0 || s.c.imag() != 0;
    }
    return 0;
  } catch (...) {
    set_python_error_from_current();
    return -1;
  }
}

DLA_HOT PyObject* nb_int(PyObject* self) {
  if (const Array* a = host_0d(self)) {
    if (a->dtype().scalar == ScalarType::Int64) return PyLong_FromLongLong(element_as<int64_t>(*a));
    if (a->dtype().scalar == ScalarType::Float64) return PyLong_FromDouble(element_as<double>(*a));  // errors as below
  }
  try {
    const Scalar s = element_of(self, "int");
    switch (s.kind) {
      case Scalar::Kind::Bool: return PyLong_FromLong(s.b);
      case Scalar::Kind::Int: return PyLong_FromLongLong(s.i);
      case Scalar::Kind::UInt: return PyLong_FromUnsignedLongLong(s.u);
      case Scalar::Kind::Float: return PyLong_FromDouble(s.f);  // ValueError for NaN, OverflowError for inf
      case Scalar::Kind::Complex: throw TypeError("int() of a complex array; take real() or imag() first");
    }
    return nullptr;
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

PyObject* nb_index(PyObject* self) {
  try {
    const Array& a = unwrap(self, "self");
    if (!is_integer(a.dtype().scalar))
      throw TypeError("only integer arrays can be used as an index (__index__), got dtype " + a.dtype().name());
    const Scalar s = element_of(self, "__index__");
    return s.kind == Scalar::Kind::UInt ? PyLong_FromUnsignedLongLong(s.u) : PyLong_FromLongLong(s.i);
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

DLA_HOT PyObject* nb_float(PyObject* self) {
  if (const Array* a = host_0d(self)) {
    if (a->dtype().scalar == ScalarType::Float64) return PyFloat_FromDouble(element_as<double>(*a));
  }
  try {
    const Scalar s = element_of(self, "float");
    if (s.kind == Scalar::Kind::Complex) throw TypeError("float() of a complex array; take real() or imag() first");
    return PyFloat_FromDouble(s.as_double());
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

PyObject* method_complex(PyObject* self, PyObject*) {
  try {
    const std::complex<double> c = element_of(self, "complex").as_complex();
    return PyComplex_FromDoubles(c.real(), c.imag());
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

// ---- dunder methods in the type dict ----------------------------------------------------

template <OpId op>
PyObject* m_forward(PyObject* self, PyObject* other) {
  return binary(op, self, other);
}
template <OpId op>
PyObject* m_reflected(PyObject* self, PyObject* other) {
  return binary(op, other, self);
}
template <OpId op>
PyObject* m_inplace(PyObject* self, PyObject* other) {
  return inplace(op, self, other);
}
template <OpId op>
PyObject* m_unary(PyObject* self, PyObject*) {
  return unary(op, self);
}
PyObject* m_matmul(PyObject* self, PyObject* other) { return nb_matmul(self, other); }
PyObject* m_rmatmul(PyObject* self, PyObject* other) { return nb_matmul(other, self); }
PyObject* m_imatmul(PyObject* self, PyObject* other) { return nb_inplace_matmul(self, other); }
PyObject* m_bool(PyObject* self, PyObject*) {
  int r = nb_bool(self);
  if (r < 0) return nullptr;
  return PyBool_FromLong(r);
}
PyObject* m_int(PyObject* self, PyObject*) { return nb_int(self); }
PyObject* m_float(PyObject* self, PyObject*) { return nb_float(self); }
PyObject* m_index(PyObject* self, PyObject*) { return nb_index(self); }

#define DLA_FN(f) reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f))
#define DLA_BIN(py, op, sym)                                                                       \
  {"__" py "__", DLA_FN(&m_forward<OpId::op>), METH_O, "__" py "__($self, other, /)\n--\n\nself " sym " other."}, \
  {"__r" py "__", DLA_FN(&m_reflected<OpId::op>), METH_O, "__r" py "__($self, other, /)\n--\n\nother " sym " self."}, \
  {"__i" py "__", DLA_FN(&m_inplace<OpId::op>), METH_O,                                             \
   "__i" py "__($self, other, /)\n--\n\nself " sym "= other, in place (dtype and shape never change)."},
#define DLA_CMP(py, op, sym) \
  {"__" py "__", DLA_FN(&m_forward<OpId::op>), METH_O, "__" py "__($self, other, /)\n--\n\nself " sym " other, elementwise."},
#define DLA_UN(py, op, sym) {"__" py "__", DLA_FN(&m_unary<OpId::op>), METH_NOARGS, "__" py "__($self, /)\n--\n\n" sym "self."},

PyMethodDef g_methods[] = {
    DLA_BIN("add", add, "+") DLA_BIN("sub", subtract, "-") DLA_BIN("mul", multiply, "*")
    DLA_BIN("truediv", divide, "/") DLA_BIN("floordiv", floor_divide, "//") DLA_BIN("mod", remainder, "%")
    DLA_BIN("pow", pow, "**") DLA_BIN("and", bitwise_and, "&") DLA_BIN("or", bitwise_or, "|")
    DLA_BIN("xor", bitwise_xor, "^") DLA_BIN("lshift", bitwise_left_shift, "<<")
    DLA_BIN("rshift", bitwise_right_shift, ">>")
    DLA_CMP("lt", less, "<") DLA_CMP("le", less_equal, "<=") DLA_CMP("eq", equal, "==")
    DLA_CMP("ne", not_equal, "!=") DLA_CMP("gt", greater, ">") DLA_CMP("ge", greater_equal, ">=")
    DLA_UN("neg", negative, "-") DLA_UN("pos", positive, "+") DLA_UN("abs", abs, "abs ")
    DLA_UN("invert", bitwise_invert, "~")
    {"__matmul__", DLA_FN(&m_matmul), METH_O, "__matmul__($self, other, /)\n--\n\nself @ other."},
    {"__rmatmul__", DLA_FN(&m_rmatmul), METH_O, "__rmatmul__($self, other, /)\n--\n\nother @ self."},
    {"__imatmul__", DLA_FN(&m_imatmul), METH_O,
     "__imatmul__($self, other, /)\n--\n\nself @= other, in place (dtype and shape never change)."},
    {"__bool__", DLA_FN(&m_bool), METH_NOARGS, "__bool__($self, /)\n--\n\nThe element of a 0-d array as a bool."},
    {"__int__", DLA_FN(&m_int), METH_NOARGS, "__int__($self, /)\n--\n\nThe element of a 0-d array as an int."},
    {"__float__", DLA_FN(&m_float), METH_NOARGS, "__float__($self, /)\n--\n\nThe element of a 0-d array as a float."},
    {"__complex__", DLA_FN(&method_complex), METH_NOARGS,
     "__complex__($self, /)\n--\n\nThe element of a 0-d array as a complex."},
    {"__index__", DLA_FN(&m_index), METH_NOARGS,
     "__index__($self, /)\n--\n\nThe element of a 0-d integer array as an int."},
};
#undef DLA_BIN
#undef DLA_CMP
#undef DLA_UN

void set_slots(PyTypeObject* t) {
  PyNumberMethods* nb = t->tp_as_number;
  nb->nb_add = &nb_binary<OpId::add>;
  nb->nb_subtract = &nb_binary<OpId::subtract>;
  nb->nb_multiply = &nb_binary<OpId::multiply>;
  nb->nb_true_divide = &nb_binary<OpId::divide>;
  nb->nb_floor_divide = &nb_binary<OpId::floor_divide>;
  nb->nb_remainder = &nb_binary<OpId::remainder>;
  nb->nb_power = &nb_power;
  nb->nb_and = &nb_binary<OpId::bitwise_and>;
  nb->nb_or = &nb_binary<OpId::bitwise_or>;
  nb->nb_xor = &nb_binary<OpId::bitwise_xor>;
  nb->nb_lshift = &nb_binary<OpId::bitwise_left_shift>;
  nb->nb_rshift = &nb_binary<OpId::bitwise_right_shift>;
  nb->nb_inplace_add = &nb_inplace<OpId::add>;
  nb->nb_inplace_subtract = &nb_inplace<OpId::subtract>;
  nb->nb_inplace_multiply = &nb_inplace<OpId::multiply>;
  nb->nb_inplace_true_divide = &nb_inplace<OpId::divide>;
  nb->nb_inplace_floor_divide = &nb_inplace<OpId::floor_divide>;
  nb->nb_inplace_remainder = &nb_inplace<OpId::remainder>;
  nb->nb_inplace_power = &nb_inplace_power;
  nb->nb_inplace_and = &nb_inplace<OpId::bitwise_and>;
  nb->nb_inplace_or = &nb_inplace<OpId::bitwise_or>;
  nb->nb_inplace_xor = &nb_inplace<OpId::bitwise_xor>;
  nb->nb_inplace_lshift = &nb_inplace<OpId::bitwise_left_shift>;
  nb->nb_inplace_rshift = &nb_inplace<OpId::bitwise_right_shift>;
  nb->nb_negative = &nb_unary<OpId::negative>;
  nb->nb_positive = &nb_unary<OpId::positive>;
  nb->nb_absolute = &nb_unary<OpId::abs>;
  nb->nb_invert = &nb_unary<OpId::bitwise_invert>;
  nb->nb_matrix_multiply = &nb_matmul;
  nb->nb_inplace_matrix_multiply = &nb_inplace_matmul;
  nb->nb_bool = &nb_bool;
  nb->nb_int = &nb_int;
  nb->nb_float = &nb_float;
  nb->nb_index = &nb_index;
  t->tp_richcompare = &richcompare;
  // __eq__ returns arrays, so arrays are unhashable (as NumPy's).
  t->tp_hash = PyObject_HashNotImplemented;
}

}  // namespace

void bind_operators(pyb::module_&) {
  PyTypeObject* t = array_type();
  for (PyMethodDef& def : g_methods) {
    PyObject* descr = PyDescr_NewMethod(t, &def);
    if (!descr || PyObject_SetAttrString(reinterpret_cast<PyObject*>(t), def.ml_name, descr) != 0) {
      Py_XDECREF(descr);
      throw pyb::error_already_set();
    }
    Py_DECREF(descr);
  }
  if (PyObject_SetAttrString(reinterpret_cast<PyObject*>(t), "__hash__", Py_None) != 0) throw pyb::error_already_set();
  set_slots(t);
  PyType_Modified(t);
}

}  // namespace dla::py
