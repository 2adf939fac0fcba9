// py_data_types.cpp — the data type functions: astype, can_cast, finfo, iinfo, isdtype,
// result_type. Promotion itself is the constexpr table in core/promotion.h.
#include <pybind11/pybind11.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "bindings/bindings.h"
#include "bindings/py_array.h"
#include "bindings/py_dtype_device.h"
#include "bindings/py_errors.h"
#include "bindings/scalars.h"
#include "core/cast.h"
#include "core/copy.h"
#include "core/errors.h"
#include "core/promotion.h"

namespace dla::py {
namespace {

struct FInfo {
  int bits;
  double eps, max, min, smallest_normal;
  pyb::object dtype;
};
struct IInfo {
  int bits;
  pyb::object max, min, dtype;
};

// A dtype argument that may also be given as an array (finfo, iinfo, can_cast).
DType dtype_or_array(pyb::handle h) {
  if (Array* a = try_unwrap(h.ptr())) return a->dtype();
  return parse_dtype(h);
}

FInfo finfo(pyb::handle type) {
  const DType d = dtype_or_array(type);
  auto make = [](int bits, double eps, double max, double tiny, DType dt) {
    return FInfo{bits, eps, max, -max, tiny, dtype_object(dt)};
  };
  switch (d.scalar) {
    case ScalarType::Float32:
    case ScalarType::Complex64:
      return make(32, FLT_EPSILON, FLT_MAX, FLT_MIN, DType::of(ScalarType::Float32));
    case ScalarType::Float64:
    case ScalarType::Complex128:
      return make(64, DBL_EPSILON, DBL_MAX, DBL_MIN, DType::of(ScalarType::Float64));
    default: break;
  }
  if (d.dl.lanes == 1 && d.dl.bits == 16 && d.dl.code == kDLFloat)  // float16 (storage)
    return make(16, std::ldexp(1.0, -10), 65504.0, std::ldexp(1.0, -14), d);
  if (d.dl.lanes == 1 && d.dl.bits == 16 && d.dl.code == kDLBfloat)  // bfloat16 (storage)
    return make(16, std::ldexp(1.0, -7), 3.3895313892515355e38, std::ldexp(1.0, -126), d);
  throw TypeError("finfo: expected a floating-point dtype, got " + d.name());
}

IInfo iinfo(pyb::handle type) {
  const DType d = dtype_or_array(type);
  if (!is_integer(d.scalar)) throw TypeError("iinfo: expected an integer dtype, got " + d.name());
  const int bits = int(d.dl.bits);
  auto py = [](PyObject* o) { return pyb::reinterpret_steal<pyb::object>(o); };
  if (is_signed_integer(d.scalar)) {
    const long long hi = bits == 64 ? std::numeric_limits<long long>::max() : (1LL << (bits - 1)) - 1;
    return IInfo{bits, py(PyLong_FromLongLong(hi)), py(PyLong_FromLongLong(-hi - 1)), dtype_object(d)};
  }
  const unsigned long long hi = bits == 64 ? std::numeric_limits<unsigned long long>::max() : (1ULL << bits) - 1;
  return IInfo{bits, py(PyLong_FromUnsignedLongLong(hi)), py(PyLong_FromLong(0)), dtype_object(d)};
}

// float16 and bfloat16 (beyond the standard) count as 'real floating' and 'numeric', as
// NumPy counts float16 and PyTorch's is_floating_point counts both.
bool kind_matches(const DType& d, const std::string& kind) {
  const ScalarType s = d.scalar;
  if (half_of(d) != Half::None) {
    if (kind == "real floating" || kind == "numeric") return true;
    if (kind == "bool" || kind == "signed integer" || kind == "unsigned integer" || kind == "integral" ||
        kind == "complex floating")
      return false;
  }
  if (kind == "bool") return s == ScalarType::Bool;
  if (kind == "signed integer") return is_signed_integer(s);
  if (kind == "unsigned integer") return is_unsigned_integer(s);
  if (kind == "integral") return is_integer(s);
  if (kind == "real floating") return is_real_floating(s);
  if (kind == "complex floating") return is_complex(s);
  if (kind == "numeric") return is_integer(s) || is_floating(s);
  throw ValueError("isdtype: unknown kind '" + kind +
                   "' (expected 'bool', 'signed integer', 'unsigned integer', 'integral', "
                   "'real floating', 'complex floating' or 'numeric')");
}

bool isdtype_one(const DType& d, pyb::handle kind) {
  if (PyUnicode_Check(kind.ptr())) return kind_matches(d, kind.cast<std::string>());
  return parse_dtype(kind) == d;
}

bool isdtype(pyb::handle dtype, pyb::handle kind) {
  if (PyUnicode_Check(dtype.ptr()) || try_unwrap(dtype.ptr()))
    throw TypeError("isdtype: dtype must be a dtype object, got " + std::string(pyb::repr(dtype)));
  const DType d = parse_dtype(dtype);
  if (PyTuple_Check(kind.ptr())) {
    for (pyb::handle k : kind)
      if (isdtype_one(d, k)) return true;
    return false;
  }
  return isdtype_one(d, kind);
}

pyb::object astype(pyb::handle x, pyb::handle dtype_h, pyb::handle copy_h, pyb::handle device_h) {
  const Array& a = unwrap(x, "astype: x");
  const DType to = parse_dtype(dtype_h);
  if (copy_h.ptr() != Py_True && copy_h.ptr() != Py_False) throw TypeError("astype: copy must be True or False");
  const bool copy = copy_h.ptr() == Py_True;
  Device dev = a.device();
  parse_optional_device(device_h, &dev);
  const DType from = a.dtype();
  if (is_complex(from.scalar) && to.scalar != ScalarType::Bool && !is_complex(to.scalar))
    throw TypeError("astype: casting complex " + from.name() + " to " + to.name() +
                    " would drop the imaginary part; take real(x) or imag(x) first");
  if (from == to && dev == a.device())
    return copy ? wrap(copy_to(a, dev)) : pyb::reinterpret_borrow<pyb::object>(x);
  Array out;
  if (from == to) {
    out = a;
  } else {
    try {
      out = cast_in_order(a, to);  // on the array's device, in its axis order
    } catch (const NotImplementedError&) {
      // A pair the device's kernels do not cover yet (complex, float16, bfloat16 on GPUs):
      // converted on the host, then moved back below.
      out = cast_in_order(copy_to(a, Device{}), to);
    }
  }
  if (out.device() != dev) out = copy_to(out, dev);
  return wrap(std::move(out));
}

PyObject* result_type(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  try {
    DType t;
    bool any = false;
    // NumPy scalars are typed (they count as their dtype); Python numbers are weak.
    auto weak = [](PyObject* o) {
      DType ignored;
      return is_python_scalar(o) && !numpy_scalar_dtype(o, &ignored);
    };
    for (Py_ssize_t i = 0; i < nargs; ++i) {
      PyObject* o = args[i];
      if (weak(o)) continue;
      DType d;
      if (!numpy_scalar_dtype(o, &d)) d = dtype_or_array(o);
      if (!dtype_computes(d)) throw TypeError("result_type: " + d.name() + " is a storage-only dtype");
      t = any ? promote_dtypes(t, d) : d;
      any = true;
    }
    if (!any) throw TypeError("result_type: at least one argument must be an array or a dtype");
    for (Py_ssize_t i = 0; i < nargs; ++i) {
      PyObject* o = args[i];
      if (!weak(o)) continue;
      const PyScalarKind k = PyBool_Check(o)    ? PyScalarKind::Bool
                             : PyLong_Check(o)  ? PyScalarKind::Int
                             : PyFloat_Check(o) ? PyScalarKind::Float
                                                : PyScalarKind::Complex;
      DType s;
      if (!scalar_operand_dtype(t, k, &s))
        throw TypeError(std::string("result_type: a Python ") + py_scalar_kind_name(k) +
                        " cannot be combined with dtype " + t.name());
      t = s;
    }
    return dtype_object(t).release().ptr();
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

PyMethodDef g_result_type_def = {
    "result_type", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&result_type)), METH_FASTCALL,
    "result_type(*arrays_and_dtypes)\n--\n\n"
    "The dtype that type promotion gives for arrays, dtypes and Python scalars."};

}  // namespace

void bind_data_types(pyb::module_& m) {
  using pyb::arg;
  pyb::class_<FInfo>(m, "finfo_object", "Machine limits of a floating-point dtype (from dlarray.finfo).")
      .def_readonly("bits", &FInfo::bits)
      .def_readonly("eps", &FInfo::eps)
      .def_readonly("max", &FInfo::max)
      .def_readonly("min", &FInfo::min)
      .def_readonly("smallest_normal", &FInfo::smallest_normal)
      .def_readonly("dtype", &FInfo::dtype)
      .def("__repr__", [](const FInfo& f) {
        return "finfo(bits=" + std::to_string(f.bits) + ", eps=" + std::string(pyb::repr(pyb::float_(f.eps))) +
               ", max=" + std::string(pyb::repr(pyb::float_(f.max))) + ", min=" +
               std::string(pyb::repr(pyb::float_(f.min))) + ", smallest_normal=" +
               std::string(pyb::repr(pyb::float_(f.smallest_normal))) + ", dtype=" + std::string(pyb::str(f.dtype)) +
               ")";
      });
  pyb::class_<IInfo>(m, "iinfo_object", "Machine limits of an integer dtype (from dlarray.iinfo).")
      .def_readonly("bits", &IInfo::bits)
      .def_readonly("max", &IInfo::max)
      .def_readonly("min", &IInfo::min)
      .def_readonly("dtype", &IInfo::dtype)
      .def("__repr__", [](const IInfo& i) {
        return "iinfo(bits=" + std::to_string(i.bits) + ", min=" + std::string(pyb::str(i.min)) +
               ", max=" + std::string(pyb::str(i.max)) + ", dtype=" + std::string(pyb::str(i.dtype)) + ")";
      });

  m.def("finfo", &finfo, arg("type"), pyb::pos_only(),
        "finfo(type, /)\n--\n\nMachine limits of a floating-point dtype (the component dtype for complex).");
  m.def("iinfo", &iinfo, arg("type"), pyb::pos_only(), "iinfo(type, /)\n--\n\nMachine limits of an integer dtype.");
  m.def("isdtype", &isdtype, arg("dtype"), arg("kind"),
        "isdtype(dtype, kind)\n--\n\n"
        "Whether dtype is of a kind: a dtype, one of 'bool', 'signed integer', 'unsigned integer', "
        "'integral', 'real floating', 'complex floating', 'numeric', or a tuple of those.");
  m.def(
      "can_cast",
      [](pyb::handle from, pyb::handle to) {
        const DType f = dtype_or_array(from), t = parse_dtype(to);
        if (!dtype_computes(f) || !dtype_computes(t)) return f == t;
        DType joined;
        return promote_dtypes(f, t, &joined) && joined == t;
      },
      arg("from_"), arg("to"), pyb::pos_only(),
      "can_cast(from_, to, /)\n--\n\nWhether type promotion can turn ``from_`` (a dtype or an array) into ``to``.");
  m.def("astype", &astype, arg("x"), arg("dtype"), pyb::pos_only(), pyb::kw_only(), arg("copy") = true,
        arg("device") = pyb::none(),
        "astype(x, dtype, /, *, copy=True, device=None)\n--\n\n"
        "x converted to dtype (always a new array unless copy=False and nothing changes). "
        "Complex to real-valued casts raise TypeError: take real() or imag() first.");
  PyObject* rt = PyCFunction_NewEx(&g_result_type_def, nullptr, m.attr("__name__").ptr());
  if (!rt) throw pyb::error_already_set();
  m.attr("result_type") = pyb::reinterpret_steal<pyb::object>(rt);
}

}  // namespace dla::py
