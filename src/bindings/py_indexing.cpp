// py_indexing.cpp — Array.__getitem__/__setitem__ and the indexing functions take, take_along_axis.
//
// x[1:3] and x[i, j] are on every user's hot path, so the key is parsed straight from the
// PyObject (exact type checks, no pybind11 dispatch) by functions installed in the type's
// mapping slots; `__getitem__`/`__setitem__` are also in the type dict, as thin methods over
// the same functions, for introspection and explicit calls.
#include <Python.h>

#include <string>
#include <vector>

#include "bindings/bindings.h"
#include "bindings/py_args.h"
#include "bindings/py_array.h"
#include "bindings/py_errors.h"
#include "bindings/scalars.h"
#include "core/errors.h"
#include "core/hot_path.h"
#include "core/indexing.h"
#include "core/manipulation.h"

namespace dla::py {
namespace {

// 0-d boolean arrays standing in for Python True/False inside keys (NumPy treats them alike);
// leaked so that no destructor runs after the allocators are gone at exit.
Array* g_true = nullptr;
Array* g_false = nullptr;

// Python objects made while parsing a key (arrays from lists); they own what the items point to.
using KeepAlive = std::vector<pyb::object>;

[[noreturn]] void bad_index(PyObject* o) {
  throw IndexError(std::string("only integers, slices (`:`), ellipsis (`...`), None and integer or boolean "
                               "arrays are valid indices, got ") +
                   Py_TYPE(o)->tp_name);
}

// An index given as a list or another library's array, converted by asarray.
const Array& array_from_sequence(PyObject* o, KeepAlive& keep) {
  static PyObject* asarray = nullptr;
  if (!asarray) asarray = pyb::object(pyb::module_::import("dlarray._core").attr("asarray")).release().ptr();
  pyb::object arr;
  if (PyList_Check(o) && PyList_GET_SIZE(o) == 0) {
    // [] selects nothing; as an index it is an empty integer array, not float64.
    arr = wrap(Array::empty(Dims{0}, DType::of(ScalarType::Int64), Device{}));
  } else {
    arr = pyb::reinterpret_steal<pyb::object>(PyObject_CallOneArg(asarray, o));
    if (!arr) throw pyb::error_already_set();
  }
  keep.push_back(arr);
  return *try_unwrap(arr.ptr());
}

// PySlice_Unpack for the usual slice of exact ints and Nones, without its __index__ round
// trips (x[1:3] is a hot path); false sends anything else (and step 0) to PySlice_Unpack.
bool unpack_plain_slice(PyObject* o, Py_ssize_t* start, Py_ssize_t* stop, Py_ssize_t* step) {
  auto* sl = reinterpret_cast<PySliceObject*>(o);
  auto get = [](PyObject* v, Py_ssize_t* out) {
    if (!PyLong_CheckExact(v)) return false;
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    *out = Py_ssize_t(x);
    return overflow == 0;
  };
  if (sl->step == Py_None) *step = 1;
  else if (!get(sl->step, step) || *step == 0 || *step < -PY_SSIZE_T_MAX) return false;
  if (sl->start == Py_None) *start = *step < 0 ? PY_SSIZE_T_MAX : 0;
  else if (!get(sl->start, start)) return false;
  if (sl->stop == Py_None) *stop = *step < 0 ? PY_SSIZE_T_MIN : PY_SSIZE_T_MAX;
  else if (!get(sl->stop, stop)) return false;
  return true;
}

void parse_item(PyObject* o, IndexItem& it, KeepAlive& keep) {
  if (PyLong_CheckExact(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) throw IndexError("index " + std::string(pyb::str(o)) + " is out of bounds");
    it = IndexItem::integer(v);
  } else if (PySlice_Check(o)) {
    Py_ssize_t start, stop, step;
    if (!unpack_plain_slice(o, &start, &stop, &step) && PySlice_Unpack(o, &start, &stop, &step) < 0)
      throw pyb::error_already_set();
    it = IndexItem::slice(start, stop, step);
  } else if (o == Py_Ellipsis) {
    it = IndexItem::marker(IndexItem::Kind::Ellipsis);
  } else if (o == Py_None) {
    it = IndexItem::marker(IndexItem::Kind::NewAxis);
  } else if (Array* a = try_unwrap(o)) {
    it = IndexItem::of(*a);
  } else if (PyBool_Check(o)) {
    it = IndexItem::of(o == Py_True ? *g_true : *g_false);
  } else if (PyIndex_Check(o) || PyList_Check(o) || PyObject_CheckBuffer(o) ||
             PyObject_HasAttrString(o, "__dlpack__")) {
    // Integers of other types (NumPy integers, 0-d integer arrays) index like ints; lists and
    // other libraries' arrays become index arrays through asarray.
    const bool array_like = PyList_Check(o) || PyObject_CheckBuffer(o) || PyObject_HasAttrString(o, "__dlpack__");
    if (PyIndex_Check(o)) {
      pyb::object i = pyb::reinterpret_steal<pyb::object>(PyNumber_Index(o));
      if (i) {
        it = IndexItem::integer(int_arg(i.ptr(), "__getitem__", "index"));
        return;
      }
      if (!array_like || !PyErr_ExceptionMatches(PyExc_TypeError)) throw pyb::error_already_set();
      PyErr_Clear();
    }
    it = IndexItem::of(array_from_sequence(o, keep));
  } else {
    bad_index(o);
  }
}

int parse_key(PyObject* key, IndexItem* items, KeepAlive& keep) {
  if (!PyTuple_Check(key)) {
    parse_item(key, items[0], keep);
    return 1;
  }
  const Py_ssize_t n = PyTuple_GET_SIZE(key);
  if (n > kMaxIndexItems) throw IndexError("too many indices for array (" + std::to_string(n) + " given)");
  for (Py_ssize_t i = 0; i < n; ++i) parse_item(PyTuple_GET_ITEM(key, i), items[i], keep);
  return static_cast<int>(n);
}

DLA_HOT PyObject* array_subscript(PyObject* self, PyObject* key) {
  try {
    IndexItem items[kMaxIndexItems];
    KeepAlive keep;
    const int n = parse_key(key, items, keep);
    const Array& x = *try_unwrap(self);
    BasicView v;  // x[i], x[1:3]: a view built in the new object, borrowing self's storage
    if (basic_view(x, items, n, &v))
      return wrap_view(self, x, v.offset, DimsView(v.shape, v.ndim), DimsView(v.strides, v.ndim)).release().ptr();
    return wrap(getitem(x, items, n)).release().ptr();
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

int array_ass_subscript(PyObject* self, PyObject* key, PyObject* value) {
  try {
    if (!value) throw TypeError("dlarray arrays do not support deleting elements");
    IndexItem items[kMaxIndexItems];
    KeepAlive keep;
    const int n = parse_key(key, items, keep);
    const Array& x = *try_unwrap(self);
    if (Array* v = try_unwrap(value)) {
      setitem(x, items, n, *v);
    } else if (is_python_scalar(value)) {
      setitem(x, items, n, scalar_from_python(value));
    } else {
      // Lists, NumPy arrays and other array-likes go through asarray.
      pyb::object arr = pyb::module_::import("dlarray._core").attr("asarray")(pyb::handle(value));
      setitem(x, items, n, *try_unwrap(arr.ptr()));
    }
    return 0;
  } catch (...) {
    set_python_error_from_current();
    return -1;
  }
}

PyObject* getitem_method(PyObject* self, PyObject* key) { return array_subscript(self, key); }

PyObject* setitem_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2) {
    PyErr_SetString(PyExc_TypeError, "__setitem__ expects 2 arguments (key, value)");
    return nullptr;
  }
  if (array_ass_subscript(self, args[0], args[1]) < 0) return nullptr;
  Py_RETURN_NONE;
}

PyMethodDef g_getitem_def = {"__getitem__", getitem_method, METH_O,
                             "__getitem__($self, key, /)\n--\n\nReturn self[key]: a view for integers, slices, "
                             "Ellipsis and None; a new array for integer arrays and boolean masks."};
PyMethodDef g_setitem_def = {"__setitem__",
                             reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(setitem_method)),
                             METH_FASTCALL,
                             "__setitem__($self, key, value, /)\n--\n\nSet self[key] = value, converting value to "
                             "self's dtype and broadcasting it to the selection."};

void install_subscript(PyTypeObject* t) {
  for (PyMethodDef* def : {&g_getitem_def, &g_setitem_def}) {
    PyObject* descr = PyDescr_NewMethod(t, def);
    if (!descr || PyObject_SetAttrString(reinterpret_cast<PyObject*>(t), def->ml_name, descr) != 0)
      throw pyb::error_already_set();
    Py_DECREF(descr);
  }
  // Setting the dict entries made CPython route the slots through a generic name lookup;
  // point them at the C functions directly (the sequence slot used by iteration stays generic).
  t->tp_as_mapping->mp_subscript = array_subscript;
  t->tp_as_mapping->mp_ass_subscript = array_ass_subscript;
  PyType_Modified(t);
}

pyb::object take_py(pyb::handle x_h, pyb::handle idx_h, pyb::handle axis_h) {
  const Array& x = unwrap(x_h, "take: x");
  const Array& idx = unwrap(idx_h, "take: indices");
  if (axis_h.is_none()) {
    // The standard requires axis for x.ndim > 1; like NumPy, take from the flattened array.
    if (x.ndim() == 1) return wrap(take(x, idx, 0));
    return wrap(take(reshape(x, Dims{-1}, -1), idx, 0));
  }
  const int axis = normalize_axis(int_arg(axis_h.ptr(), "take", "axis"), x.ndim(), "take");
  return wrap(take(x, idx, axis));
}

pyb::object take_along_axis_py(pyb::handle x_h, pyb::handle idx_h, pyb::handle axis_h) {
  const Array& x = unwrap(x_h, "take_along_axis: x");
  const Array& idx = unwrap(idx_h, "take_along_axis: indices");
  const int axis = normalize_axis(int_arg(axis_h.ptr(), "take_along_axis", "axis"), x.ndim(), "take_along_axis");
  return wrap(take_along_axis(x, idx, axis));
}

}  // namespace

void bind_indexing(pyb::module_& m) {
  for (Array** a : {&g_true, &g_false}) {
    *a = new Array(Array::empty(Dims{}, DType::of(ScalarType::Bool), Device{}));
    *reinterpret_cast<bool*>((*a)->data()) = a == &g_true;
    (*a)->set_readonly(true);
  }
  install_subscript(array_type());
  using pyb::arg;
  m.def("take", &take_py, arg("x"), arg("indices"), pyb::pos_only(), pyb::kw_only(), arg("axis") = pyb::none(),
        "take(x, indices, /, *, axis=None)\n--\n\nElements of x at the given indices along axis.");
  m.def("take_along_axis", &take_along_axis_py, arg("x"), arg("indices"), pyb::pos_only(), pyb::kw_only(),
        arg("axis") = -1,
        "take_along_axis(x, indices, /, *, axis=-1)\n--\n\n"
        "Elements of x at indices along axis, with x and indices broadcast on the other axes.");
}

}  // namespace dla::py
