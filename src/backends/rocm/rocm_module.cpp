// rocm_module.cpp — dlarray._rocm: the HIP build of gpu_ops.cu, as an optional extension.
//
// It is separate from dlarray._core because it links libamdhip64, which machines without
// ROCm lack; dlarray/__init__.py imports it when it can. On import it hands its table to
// the core through the registrar capsule, so the core's runtime and allocator registries
// (hidden symbols of _core) are never linked against directly.
#include <Python.h>

#include "backends/gpu/gpu_ops.h"

namespace {

// Hands the HIP table to dlarray._core; returns false with ImportError set on failure.
bool install() {
  auto registrar = reinterpret_cast<DlaGpuRegistrar>(PyCapsule_Import(DLA_GPU_REGISTRAR_CAPSULE, 0));
  if (!registrar) return false;
  char err[512] = {0};
  if (registrar(dla_rocm_gpu_ops(), err, sizeof err) != 0) {
    PyErr_Format(PyExc_ImportError, "dlarray._rocm: %s", err);
    return false;
  }
  return true;
}

// _install(): installs the backend again after a test swapped it out.
PyObject* py_install(PyObject*, PyObject*) {
  if (!install()) return nullptr;
  Py_RETURN_NONE;
}

PyMethodDef g_methods[] = {
    {"_install", py_install, METH_NOARGS, "_install()\n--\n\nInstall the ROCm backend (again)."},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef g_module = {PyModuleDef_HEAD_INIT, "_rocm",
                        "dlarray's ROCm backend (HIP); importing it installs rocm and rocm_host devices.",
                        -1, g_methods, nullptr, nullptr, nullptr, nullptr};

}  // namespace

PyMODINIT_FUNC PyInit__rocm(void) {
  if (!install()) return nullptr;
  return PyModule_Create(&g_module);
}
