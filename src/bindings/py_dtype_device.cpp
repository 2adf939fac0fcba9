// py_dtype_device.cpp — `dlarray.DType` and `dlarray.Device`: hashable, comparable values.
//
// Dtype objects are singletons per DLPack type so `x.dtype == dlarray.float32` and
// `x.dtype is dlarray.float32` both hold; a Device compares equal to its string form.
#include "bindings/py_dtype_device.h"

#include <map>
#include <tuple>

#include "bindings/bindings.h"
#include "bindings/py_args.h"
#include "bindings/scalars.h"
#include "core/errors.h"

namespace dla::py {
namespace {

struct PyDType {
  DType d;
};
struct PyDevice {
  Device d;
};

uint32_t dtype_key(const DType& d) {
  return uint32_t(d.dl.code) | (uint32_t(d.dl.bits) << 8) | (uint32_t(d.dl.lanes) << 16);
}

// Objects live as long as the module; intentionally leaked so they outlive interpreter teardown order.
std::map<uint32_t, pyb::object>& dtype_cache() {
  static auto* cache = new std::map<uint32_t, pyb::object>();
  return *cache;
}
PyObject* g_fast_dtypes[kNumScalarTypes] = {};

}  // namespace

pyb::object dtype_object(const DType& d) {
  if (d.computes()) {
    PyObject* o = g_fast_dtypes[static_cast<int>(d.scalar)];
    if (o) return pyb::reinterpret_borrow<pyb::object>(o);
  }
  auto& cache = dtype_cache();
  auto key = dtype_key(d);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  pyb::object o = pyb::cast(PyDType{d});
  cache.emplace(key, o);
  if (d.computes()) g_fast_dtypes[static_cast<int>(d.scalar)] = o.inc_ref().ptr();
  return o;
}

PyObject* dtype_object_ptr(const DType& d) {
  if (d.computes()) {
    if (PyObject* o = g_fast_dtypes[static_cast<int>(d.scalar)]) return o;
  }
  // The other dtypes (float16, bfloat16, fp8, ...) by their key in a direct-mapped cache in
  // front of the map: every array made gets its dtype object, so a half-precision array must
  // not pay a map search for it. Touched under the GIL only.
  struct Entry {
    uint32_t key;
    PyObject* obj;
  };
  static Entry cache[64] = {};
  const uint32_t key = dtype_key(d);
  Entry& e = cache[(key * 2654435761u) >> 26];
  if (e.obj && e.key == key) return e.obj;
  PyObject* o = dtype_object(d).ptr();  // the map keeps the object alive
  e = Entry{key, o};
  return o;
}


namespace {

// The dlarray dtype NumPy's dtype `numpy_dtype` names (native byte order only: dlarray arrays
// are native-endian); TypeError naming `given` when dlarray has no such dtype.
DType dtype_from_numpy(pyb::handle numpy_dtype, pyb::handle given) {
  if (!numpy_dtype.attr("isnative").cast<bool>())
    throw TypeError("dtype " + std::string(pyb::repr(given)) + " is not in native byte order; dlarray arrays are");
  const std::string name = pyb::str(numpy_dtype.attr("name"));
  try {
    return dtype_from_name(name);
  } catch (const TypeError&) {
    throw TypeError("dlarray has no dtype for " + std::string(pyb::repr(given)) + " (NumPy's " + name + ")");
  }
}

}  // namespace

DType parse_dtype(pyb::handle h) {
  if (pyb::isinstance<PyDType>(h)) return h.cast<PyDType&>().d;
  PyObject* o = h.ptr();
  // Python's number types mean the default dtype of their kind, as in NumPy.
  if (o == reinterpret_cast<PyObject*>(&PyBool_Type)) return DType::of(ScalarType::Bool);
  if (o == reinterpret_cast<PyObject*>(&PyLong_Type)) return DType::of(ScalarType::Int64);
  if (o == reinterpret_cast<PyObject*>(&PyFloat_Type)) return DType::of(ScalarType::Float64);
  if (o == reinterpret_cast<PyObject*>(&PyComplex_Type)) return DType::of(ScalarType::Complex128);
  // NumPy's dtypes and scalar types (np.dtype('float32'), np.float32), and the names NumPy
  // parses ('f4', '<f8') when numpy is loaded; dlarray's own names without it.
  PyObject* numpy = PyDict_GetItemString(PyImport_GetModuleDict(), "numpy");  // borrowed
  if (PyUnicode_Check(o)) {
    const std::string name = h.cast<std::string>();
    try {
      return dtype_from_name(name);
    } catch (const TypeError&) {
      if (!numpy) throw;
    }
    pyb::object parsed;
    try {
      parsed = pyb::reinterpret_borrow<pyb::object>(numpy).attr("dtype")(h);
    } catch (const pyb::error_already_set&) {
      throw TypeError("unknown dtype name '" + name + "'");
    }
    return dtype_from_numpy(parsed, h);
  }
  if (numpy) {
    const pyb::handle np(numpy);
    const pyb::object np_dtype = np.attr("dtype");
    if (pyb::isinstance(h, np_dtype)) return dtype_from_numpy(h, h);
    PyTypeObject* generic = numpy_generic_type();
    if (generic && PyType_Check(o) && PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(o), generic))
      return dtype_from_numpy(np_dtype(h), h);
  }
  throw TypeError("expected a dtype (a dlarray dtype such as dlarray.float32, a NumPy dtype or scalar type, a "
                  "dtype name such as 'float32', or bool/int/float/complex), got " + std::string(pyb::repr(h)));
}

bool parse_optional_dtype(pyb::handle h, DType* out) {
  if (h.is_none()) return false;
  *out = parse_dtype(h);
  return true;
}

pyb::object device_object(const Device& d) {
  static auto* cache = new std::map<std::pair<int, int>, pyb::object>();
  auto key = std::make_pair(static_cast<int>(d.kind), d.index);
  auto it = cache->find(key);
  if (it != cache->end()) return it->second;
  pyb::object o = pyb::cast(PyDevice{d});
  cache->emplace(key, o);
  return o;
}

Device parse_device_arg(pyb::handle h) {
  if (pyb::isinstance<PyDevice>(h)) return h.cast<PyDevice&>().d;
  if (pyb::isinstance<pyb::str>(h)) return parse_device(h.cast<std::string>());
  if (pyb::isinstance<pyb::tuple>(h) && pyb::len(h) == 2) {
    auto t = h.cast<pyb::tuple>();
    const int64_t type = int_arg(t[0].ptr(), "device", "the DLPack device type");
    const int64_t index = int_arg(t[1].ptr(), "device", "the device index");
    if (type < 0 || type > INT32_MAX || index < 0 || index > INT32_MAX)
      throw ValueError("device " + std::string(pyb::repr(h)) + ": the DLPack device type and index must be in 0 .. 2**31-1");
    DLDevice dl{static_cast<DLDeviceType>(type), static_cast<int32_t>(index)};
    try {
      return device_from_dl(dl);
    } catch (const BufferError& e) {
      throw ValueError(e.what());
    }
  }
  throw TypeError("expected a device (dlarray.Device, a string such as 'cpu' or 'cuda:0', or a "
                  "(DLDeviceType, index) pair), got " + std::string(pyb::repr(h)));
}

bool parse_optional_device(pyb::handle h, Device* out) {
  if (h.is_none()) return false;
  *out = parse_device_arg(h);
  return true;
}

namespace {
// Read and written with the GIL held (every caller is a Python call).
Device g_default_device{};
thread_local bool t_has_override = false;
thread_local Device t_override{};
}  // namespace

Device default_device() { return t_has_override ? t_override : g_default_device; }

Device device_or_default(pyb::handle h) {
  Device d = default_device();
  parse_optional_device(h, &d);
  return d;
}

void bind_dtype_device(pyb::module_& m) {
  m.def("_as_dtype", [](pyb::handle h) { return dtype_object(parse_dtype(h)); }, pyb::arg("dtype"),
        "The dlarray dtype that a dtype= argument names (parse_dtype, for the Python-level functions).");
  m.def("_set_default_device", [](pyb::handle h) { g_default_device = h.is_none() ? Device{} : parse_device_arg(h); },
        "The process-wide default device (None: cpu).");
  m.def("_thread_default_device", []() -> pyb::object {
    return t_has_override ? device_object(t_override) : pyb::none().cast<pyb::object>();
  }, "The calling thread's override of the default device, or None.");
  m.def("_set_thread_default_device", [](pyb::handle h) {
    if (!h.is_none()) t_override = parse_device_arg(h);  // parsed first: a bad name changes nothing
    t_has_override = !h.is_none();
  }, "Sets (device) or clears (None) the calling thread's override of the default device.");
  m.def("_default_device", []() { return device_object(default_device()); });
  pyb::class_<PyDType>(m, "DType", "A dlarray data type. Compare with ==; dtypes are hashable.")
      .def_property_readonly("name", [](const PyDType& t) { return t.d.name(); })
      .def_property_readonly("itemsize",
                             [](const PyDType& t) -> pyb::object {
                               if (t.d.is_subbyte()) return pyb::none();
                               return pyb::int_(t.d.itemsize());
                             })
      .def_property_readonly("bits", [](const PyDType& t) { return t.d.bits(); })
      .def_property_readonly("dlpack",
                             [](const PyDType& t) {
                               return pyb::make_tuple(t.d.dl.code, t.d.dl.bits, t.d.dl.lanes);
                             },
                             "(type code, bits, lanes) as DLPack's DLDataType holds them")
      // Another type's dtype (a NumPy dtype, say) is not ours to judge: NotImplemented lets
      // Python ask it back, and np.dtype compares through DType.__numpy_dtype__ (Dask relies on
      // `meta.dtype != np.dtype(...)`); anything else still ends up unequal.
      .def("__eq__",
           [](const PyDType& a, pyb::handle b) -> pyb::object {
             if (pyb::isinstance<PyDType>(b)) return pyb::bool_(a.d == b.cast<PyDType&>().d);
             return pyb::reinterpret_borrow<pyb::object>(Py_NotImplemented);
           })
      .def("__ne__",
           [](const PyDType& a, pyb::handle b) -> pyb::object {
             if (pyb::isinstance<PyDType>(b)) return pyb::bool_(a.d != b.cast<PyDType&>().d);
             return pyb::reinterpret_borrow<pyb::object>(Py_NotImplemented);
           })
      .def("__hash__", [](const PyDType& a) { return dtype_key(a.d); })
      .def("__repr__", [](const PyDType& a) { return "dlarray." + a.d.name(); })
      .def("__str__", [](const PyDType& a) { return a.d.name(); })
      .def("__reduce__", [](const PyDType& a) {
        return pyb::make_tuple(pyb::module_::import("dlarray").attr("_dtype_from_name"),
                               pyb::make_tuple(a.d.name()));
      });

  // == and != between dtypes as a C slot: the Python functions pybind11 binds cost 0.13 us a
  // comparison, and the namespace's Python code compares dtypes on every call (`x.dtype in
  // _FLOATS`: two misses, 0.27 us). Every DType object comes from dtype_object, which interns
  // them, so two dtypes are equal exactly when they are the same object. Other types get
  // NotImplemented, as from the bound __eq__ (NumPy's dtype then answers).
  auto* dtype_type = reinterpret_cast<PyTypeObject*>(m.attr("DType").ptr());
  dtype_type->tp_richcompare = [](PyObject* a, PyObject* b, int op) -> PyObject* {
    if ((op == Py_EQ || op == Py_NE) && Py_TYPE(a) == Py_TYPE(b)) return PyBool_FromLong((a == b) == (op == Py_EQ));
    Py_RETURN_NOTIMPLEMENTED;
  };
  PyType_Modified(dtype_type);

  size_t n = 0;
  const DType* named = named_dtypes(&n);
  for (size_t i = 0; i < n; ++i) m.attr(named[i].name().c_str()) = dtype_object(named[i]);

  pyb::class_<PyDevice>(m, "Device",
                        "A device: Device('cpu'), Device('cuda', 0), Device('cuda:1'). Equal to its string form.")
      .def(pyb::init([](const std::string& kind, pyb::object index) {
             Device d = parse_device(kind);
             if (!index.is_none()) {
               if (kind.find(':') != std::string::npos)
                 throw ValueError("device '" + kind + "' already names an index");
               d.index = index.cast<int32_t>();
               if (d.index < 0) throw ValueError("device index must be >= 0");
               if (d.kind == DeviceKind::CPU && d.index != 0)
                 throw ValueError("dlarray has one CPU device, 'cpu'");
             }
             return PyDevice{d};
           }),
           pyb::arg("kind"), pyb::arg("index") = pyb::none())
      .def_property_readonly("type", [](const PyDevice& d) { return device_kind_name(d.d.kind); })
      .def_property_readonly("index", [](const PyDevice& d) { return d.d.index; })
      .def("__dlpack_device__",
           [](const PyDevice& d) { return pyb::make_tuple(static_cast<int>(d.d.kind), d.d.index); })
      .def("__eq__",
           [](const PyDevice& a, pyb::handle b) {
             if (pyb::isinstance<PyDevice>(b)) return a.d == b.cast<PyDevice&>().d;
             if (pyb::isinstance<pyb::str>(b)) {
               try {
                 return a.d == parse_device(b.cast<std::string>());
               } catch (const ValueError&) {
                 return false;
               }
             }
             return false;
           })
      .def("__ne__",
           [](pyb::handle a, pyb::handle b) { return !a.attr("__eq__")(b).cast<bool>(); })
      .def("__hash__", [](const PyDevice& d) { return pyb::hash(pyb::str(d.d.str())); })
      .def("__str__", [](const PyDevice& d) { return d.d.str(); })
      .def("__repr__", [](const PyDevice& d) { return "Device('" + d.d.str() + "')"; })
      .def("__reduce__", [](const PyDevice& d) {
        return pyb::make_tuple(pyb::module_::import("dlarray").attr("Device"), pyb::make_tuple(d.d.str()));
      });
}

}  // namespace dla::py
