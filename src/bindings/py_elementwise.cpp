// py_elementwise.cpp — the 67 elementwise namespace functions and `where`, generated from
// DLA_ELEMENTWISE_OPS as raw METH_FASTCALL functions whose docstrings carry the stub
// signatures, plus _elementwise_ops() (the declaration table, for the tests).
#include "bindings/py_elementwise.h"

#include <pybind11/pybind11.h>

#include <string>

#include "bindings/bindings.h"
#include "bindings/py_array.h"
#include "bindings/py_errors.h"
#include "backends/cpu/parallel.h"
#include "backends/cpu/vector_math.h"
#include "bindings/scalars.h"
#include "core/errors.h"

namespace dla::py {

const char* py_type_name(PyObject* o) { return Py_TYPE(o)->tp_name; }

bool elem_arg_from(PyObject* o, ElemArg* out) {
  if (Array* a = try_unwrap(o)) {
    out->tag = ElemArg::Tag::Array;
    out->array = a;
    return true;
  }
  PyScalarKind k;
  if (PyFloat_CheckExact(o)) k = PyScalarKind::Float;  // the common cases first, without the NumPy check
  else if (PyLong_CheckExact(o)) k = PyScalarKind::Int;
  else if (PyBool_Check(o)) k = PyScalarKind::Bool;
  else if (numpy_scalar_from(o, &out->dtype, &out->scalar)) {  // np.float64 is a float subclass: before the rest
    out->tag = ElemArg::Tag::Scalar;
    out->typed = true;
    const DTypeKind dk = out->dtype.kind();
    out->kind = dk == DTypeKind::Bool          ? PyScalarKind::Bool
                : dk == DTypeKind::SignedInt || dk == DTypeKind::UnsignedInt ? PyScalarKind::Int
                : dk == DTypeKind::ComplexFloat ? PyScalarKind::Complex
                                                : PyScalarKind::Float;
    return true;
  } else if (PyLong_Check(o)) k = PyScalarKind::Int;
  else if (PyFloat_Check(o)) k = PyScalarKind::Float;
  else if (PyComplex_Check(o)) k = PyScalarKind::Complex;
  else return false;
  out->tag = ElemArg::Tag::Scalar;
  out->kind = k;
  out->scalar = scalar_from_python(o);
  return true;
}

// real(z) and imag(z) of a complex array are views of its parts, as NumPy's: a float array over
// the same memory with twice the strides (imag one part further). Nothing is copied (a copy of
// 10^6 complex128 parts took 0.4 ms); writing into the view writes into z.
Array complex_part_view(const Array& z, bool imag) {
  const DType part = DType::of(z.dtype().scalar == ScalarType::Complex64 ? ScalarType::Float32 : ScalarType::Float64);
  Dims strides(z.ndim());
  for (int d = 0; d < z.ndim(); ++d) strides[d] = 2 * z.stride(d);
  return z.view(z.shape(), strides, z.byte_offset() + (imag ? part.itemsize() : 0), part);
}

PyObject* run_elementwise(OpId op, const ElemArg* args, int nargs, PyObject* inplace_obj, const Array* inplace) {
  if ((op == OpId::real || op == OpId::imag) && nargs == 1 && !inplace && args[0].tag == ElemArg::Tag::Array &&
      args[0].array->dtype().computes()) {
    const Array& x = *args[0].array;
    if (is_complex(x.dtype().scalar)) return wrap(complex_part_view(x, op == OpId::imag)).release().ptr();
    // real(x) of a real array: a view of x itself, as NumPy's (imag is zeros, computed below)
    if (op == OpId::real && (is_integer(x.dtype().scalar) || is_real_floating(x.dtype().scalar))) return wrap(x.view(x.shape(), x.strides(), x.byte_offset())).release().ptr();
  }
  ElementwisePlan plan = plan_elementwise(op, args, nargs, inplace);
  if (plan.size() >= kReleaseGilFrom) {
    pybind11::gil_scoped_release nogil;
    execute_elementwise(plan);
  } else {
    execute_elementwise(plan);
  }
  if (inplace_obj) {
    Py_INCREF(inplace_obj);
    return inplace_obj;
  }
  return wrap(std::move(plan.out)).release().ptr();
}

namespace {

void arg_error(const char* fname, int i, PyObject* o) {
  throw TypeError(std::string(fname) + ": argument " + std::to_string(i + 1) +
                  " must be an array, a Python bool, int, float or complex, or a NumPy scalar, got " + py_type_name(o));
}

PyObject* g_min_name = nullptr;
PyObject* g_max_name = nullptr;

// clip(x, /, min=None, max=None)
PyObject* call_clip(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  if (nargs < 1 || nargs > 3)
    throw TypeError("clip() takes from 1 to 3 positional arguments but " + std::to_string(nargs) + " were given");
  PyObject* bounds[2] = {nargs > 1 ? args[1] : nullptr, nargs > 2 ? args[2] : nullptr};
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    int slot = -1;
    if (PyUnicode_Compare(key, g_min_name) == 0) slot = 0;
    else if (PyUnicode_Compare(key, g_max_name) == 0) slot = 1;
    if (slot < 0) throw TypeError(std::string("clip() got an unexpected keyword argument '") + PyUnicode_AsUTF8(key) + "'");
    if (bounds[slot]) throw TypeError(std::string("clip() got multiple values for argument '") + (slot ? "max" : "min") + "'");
    bounds[slot] = args[nargs + k];
  }
  ElemArg ea[3];
  if (!try_unwrap(args[0])) throw TypeError(std::string("clip: x must be an array, got ") + py_type_name(args[0]));
  elem_arg_from(args[0], &ea[0]);
  for (int i = 0; i < 2; ++i)
    if (bounds[i] && bounds[i] != Py_None && !elem_arg_from(bounds[i], &ea[i + 1])) arg_error("clip", i + 1, bounds[i]);
  return run_elementwise(OpId::clip, ea, 3);
}

template <OpId op>
PyObject* op_function(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  try {
    constexpr OpInfo info = kOps[static_cast<int>(op)];
    if constexpr (op == OpId::clip) {
      return call_clip(args, nargs, kwnames);
    } else {
      if (kwnames && PyTuple_GET_SIZE(kwnames))
        throw TypeError(std::string(info.name) + "() takes no keyword arguments");
      if (nargs != info.arity)
        throw TypeError(std::string(info.name) + "() takes exactly " + std::to_string(info.arity) +
                        " positional argument" + (info.arity > 1 ? "s" : "") + " (" + std::to_string(nargs) +
                        " given)");
      ElemArg ea[3];
      for (int i = 0; i < info.arity; ++i) {
        if (info.arity == 1 || (op == OpId::where && i == 0)) {
          if (!try_unwrap(args[i]))
            throw TypeError(std::string(info.name) + ": " + (op == OpId::where ? "condition" : "x") +
                            " must be an array, got " + py_type_name(args[i]));
        }
        if (!elem_arg_from(args[i], &ea[i])) arg_error(info.name, i, args[i]);
      }
      return run_elementwise(op, ea, info.arity);
    }
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

PyMethodDef g_defs[] = {
#define DLA_OP_DEF(name, arity, sig, kinds, res, functor, params, summary)                               \
  {#name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&op_function<OpId::name>)), \
   METH_FASTCALL | METH_KEYWORDS, #name "(" params ")\n--\n\n" summary},
    DLA_ELEMENTWISE_OPS(DLA_OP_DEF)
#undef DLA_OP_DEF
};

const char* sig_name(Sig s) {
  switch (s) {
    case Sig::Uniform: return "uniform";
    case Sig::Where: return "where";
    case Sig::Clip: return "clip";
  }
  return "?";
}
const char* res_name(Res r) {
  switch (r) {
    case Res::Same: return "same";
    case Res::Bool: return "bool";
    case Res::Real: return "real";
  }
  return "?";
}

}  // namespace

void bind_elementwise(pyb::module_& m) {
  g_min_name = PyUnicode_InternFromString("min");
  g_max_name = PyUnicode_InternFromString("max");
  for (PyMethodDef& def : g_defs) {
    PyObject* fn = PyCFunction_NewEx(&def, nullptr, m.attr("__name__").ptr());
    if (!fn) throw pyb::error_already_set();
    m.attr(def.ml_name) = pyb::reinterpret_steal<pyb::object>(fn);
  }
  m.def(
      "_elementwise_ops",
      []() {
        pyb::list out;
        for (const OpInfo& op : kOps) {
          pyb::list kinds;
          const std::pair<uint8_t, const char*> names[] = {{kKindBool, "bool"},
                                                           {kKindSigned, "signed integer"},
                                                           {kKindUnsigned, "unsigned integer"},
                                                           {kKindRealFloat, "real floating"},
                                                           {kKindComplex, "complex floating"}};
          for (auto& [bit, name] : names)
            if (op.kinds & bit) kinds.append(name);
          pyb::dict d;
          d["name"] = op.name;
          d["arity"] = op.arity;
          d["sig"] = sig_name(op.sig);
          d["kinds"] = pyb::tuple(kinds);
          d["result"] = res_name(op.result);
          d["params"] = op.params;
          out.append(d);
        }
        return out;
      },
      "The elementwise declaration table (name, arity, sig, kinds, result, params), for tests.");
  m.def("_num_threads", &cpu::num_threads, "Threads the CPU kernels use (DLARRAY_NUM_THREADS or the CPUs available).");
  m.def("_set_num_threads", &cpu::set_num_threads, pyb::arg("n"), "Set the CPU kernels' thread count (benchmarks).");
  m.def(
      "_parallel_chunks",
      [](int64_t n, int64_t grain, int threads) {
        const cpu::ChunkPlan plan = cpu::plan_chunks(n, grain, threads);
        pyb::list out;
        for (int i = 0; i < plan.ntasks; ++i) out.append(pyb::make_tuple(plan.begin(i), plan.end(i)));
        return out;
      },
      pyb::arg("n"), pyb::arg("grain"), pyb::arg("threads"),
      "The (begin, end) tasks parallel_for would run for n elements at this grain and thread count (tests).");
  m.def("_last_parallel_tasks", &cpu::last_parallel_tasks,
        "Tasks of the latest parallel_for in the process; 1 when it ran inline (tests).");
  m.def("_worker_moves", &cpu::worker_moves,
        "Times a pool worker found itself on its caller's CPU and moved off it (tests).");
  m.def(
      "_vector_math_source",
      [](const std::string& name, const std::string& dtype) {
        for (int i = 0; i < kNumOps; ++i)
          if (name == kOps[i].name) return std::string(cpu::vector_math_source(static_cast<OpId>(i), dtype == "float64"));
        throw ValueError("no elementwise function named '" + name + "'");
      },
      pyb::arg("name"), pyb::arg("dtype"),
      "What computes name on dtype ('float32'/'float64') here: 'vector', 'widened', 'own' or 'scalar' (tests).");
  m.def("_vector_math_isa", &cpu::vector_math_isa,
        "The vector ISA of the libmvec loops ('avx512', 'avx2', or 'none' when libmvec or the CPU lacks it).");
}

}  // namespace dla::py
