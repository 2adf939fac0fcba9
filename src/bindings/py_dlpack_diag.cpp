// py_dlpack_diag.cpp — _dlpack_counters() and _exchange_loop(): what tests and benchmarks need
// to see inside the exchange.
//
// _exchange_loop runs one exchange-table operation n times in C++, so benchmarks can
// report the C-level cost of a table (ours or a peer's) without the Python call around it.
#include <Python.h>

#include <string>

#include "bindings/py_array.h"
#include "core/errors.h"
#include "dlpack/counters.h"
#include "bindings/py_dlpack_diag.h"
#include "bindings/py_dlpack.h"
#include "bindings/py_exchange_api.h"

namespace dla::py {
namespace {

DLPackCounters g_counters;

pyb::dict counters() {
  const DLPackCounters& c = g_counters;
  pyb::dict out;
  out["dlpack_exports"] = c.dlpack_exports.load();
  out["table_allocator"] = c.table_allocator.load();
  out["table_managed_from_py"] = c.table_managed_from_py.load();
  out["table_managed_to_py"] = c.table_managed_to_py.load();
  out["table_dltensor_from_py"] = c.table_dltensor_from_py.load();
  out["table_current_work_stream"] = c.table_current_work_stream.load();
  out["imports_via_peer_table"] = c.imports_via_peer_table.load();
  out["imports_via_protocol"] = c.imports_via_protocol.load();
  return out;
}

const DLPackExchangeAPI* table_of(PyObject* obj) {
  if (try_unwrap(obj)) return dlarray_exchange_api();
  if (const DLPackExchangeAPI* api = peer_exchange_api(Py_TYPE(obj))) return api;
  throw TypeError(std::string("_exchange_loop: type ") + Py_TYPE(obj)->tp_name +
                  " publishes no usable DLPack exchange table");
}

void exchange_loop(pyb::handle obj, int64_t n, const std::string& what) {
  PyObject* o = obj.ptr();
  if (what == "managed") {
    // The table's owning export and its release: what a C consumer pays per tensor.
    const DLPackExchangeAPI* api = table_of(o);
    for (int64_t i = 0; i < n; ++i) {
      DLManagedTensorVersioned* mt = nullptr;
      if (api->managed_tensor_from_py_object_no_sync(o, &mt) != 0) throw pyb::error_already_set();
      if (mt->deleter) mt->deleter(mt);
    }
  } else if (what == "borrowed") {
    const DLPackExchangeAPI* api = table_of(o);
    if (!api->dltensor_from_py_object_no_sync) throw TypeError("_exchange_loop: the table has no dltensor_from_py_object_no_sync");
    for (int64_t i = 0; i < n; ++i) {
      DLTensor t;
      if (api->dltensor_from_py_object_no_sync(o, &t) != 0) throw pyb::error_already_set();
    }
  } else if (what == "import") {
    // dlarray's whole consumer path minus the Python call: import, wrap, release.
    for (int64_t i = 0; i < n; ++i) {
      bool copied = false;
      pyb::object r = wrap(import_dlpack(o, nullptr, -1, &copied));
    }
  } else {
    throw ValueError("_exchange_loop: what must be 'managed', 'borrowed' or 'import', got '" + what + "'");
  }
}

}  // namespace

DLPackCounters& dlpack_counters() { return g_counters; }

void bind_dlpack_diag(pyb::module_& m) {
  m.def("_dlpack_counters", &counters,
        "_dlpack_counters()\n--\n\n"
        "How often each DLPack entry point ran in this process (producer: __dlpack__ and the "
        "five exchange-table functions; consumer: imports through a peer's table or __dlpack__).");
  m.def("_exchange_loop", &exchange_loop, pyb::arg("obj"), pyb::arg("n"), pyb::arg("what"),
        "_exchange_loop(obj, n, what)\n--\n\n"
        "Benchmark helper: n times in C++, with the exchange table of type(obj): 'managed' "
        "(managed_tensor_from_py_object_no_sync + deleter), 'borrowed' "
        "(dltensor_from_py_object_no_sync), or 'import' (dlarray's consumer path, result dropped).");
}

}  // namespace dla::py
