// py_dlpack_abi.cpp — _core._dlpack_abi_layout(): the layout of src/dlpack/dlpack.h as compiled.
//
// The DLPack ABI is a published standard; tests/test_dlpack_abi.py compares this report
// with the published sizes and with a C probe compiled against a peer's dlpack.h, so a
// field moved or resized in our header is caught before it corrupts an exchange.
#include <pybind11/pybind11.h>

#include <cstddef>

#include "dlpack/dlpack.h"
#include "bindings/py_dlpack_diag.h"

namespace dla::py {
namespace {

// Each struct of dlpack.h with every field, in declaration order.
#define DLARRAY_DLPACK_STRUCTS(S, F)                                                              \
  S(DLPackVersion, F(DLPackVersion, major) F(DLPackVersion, minor))                              \
  S(DLDevice, F(DLDevice, device_type) F(DLDevice, device_id))                                   \
  S(DLDataType, F(DLDataType, code) F(DLDataType, bits) F(DLDataType, lanes))                    \
  S(DLTensor, F(DLTensor, data) F(DLTensor, device) F(DLTensor, ndim) F(DLTensor, dtype)         \
                  F(DLTensor, shape) F(DLTensor, strides) F(DLTensor, byte_offset))              \
  S(DLManagedTensor,                                                                             \
    F(DLManagedTensor, dl_tensor) F(DLManagedTensor, manager_ctx) F(DLManagedTensor, deleter))   \
  S(DLManagedTensorVersioned,                                                                    \
    F(DLManagedTensorVersioned, version) F(DLManagedTensorVersioned, manager_ctx)                \
        F(DLManagedTensorVersioned, deleter) F(DLManagedTensorVersioned, flags)                  \
            F(DLManagedTensorVersioned, dl_tensor))                                              \
  S(DLPackExchangeAPIHeader, F(DLPackExchangeAPIHeader, version) F(DLPackExchangeAPIHeader, prev_api)) \
  S(DLPackExchangeAPI,                                                                           \
    F(DLPackExchangeAPI, header) F(DLPackExchangeAPI, managed_tensor_allocator)                  \
        F(DLPackExchangeAPI, managed_tensor_from_py_object_no_sync)                              \
            F(DLPackExchangeAPI, managed_tensor_to_py_object_no_sync)                            \
                F(DLPackExchangeAPI, dltensor_from_py_object_no_sync)                            \
                    F(DLPackExchangeAPI, current_work_stream))

// Enumerators and macros whose values are ABI too.
#define DLARRAY_DLPACK_CONSTANTS(C)                                                               \
  C(DLPACK_MAJOR_VERSION) C(DLPACK_MINOR_VERSION) C(DLPACK_FLAG_BITMASK_READ_ONLY)               \
  C(DLPACK_FLAG_BITMASK_IS_COPIED) C(DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED)                 \
  C(kDLCPU) C(kDLCUDA) C(kDLCUDAHost) C(kDLOpenCL) C(kDLVulkan) C(kDLMetal) C(kDLVPI) C(kDLROCM) \
  C(kDLROCMHost) C(kDLExtDev) C(kDLCUDAManaged) C(kDLOneAPI) C(kDLWebGPU) C(kDLHexagon)          \
  C(kDLMAIA) C(kDLTrn) C(kDLInt) C(kDLUInt) C(kDLFloat) C(kDLOpaqueHandle) C(kDLBfloat)          \
  C(kDLComplex) C(kDLBool) C(kDLFloat8_e3m4) C(kDLFloat8_e4m3) C(kDLFloat8_e4m3b11fnuz)          \
  C(kDLFloat8_e4m3fn) C(kDLFloat8_e4m3fnuz) C(kDLFloat8_e5m2) C(kDLFloat8_e5m2fnuz)              \
  C(kDLFloat8_e8m0fnu) C(kDLFloat6_e2m3fn) C(kDLFloat6_e3m2fn) C(kDLFloat4_e2m1fn)

pyb::dict abi_layout() {
  pyb::dict structs;
#define DLARRAY_FIELD(T, f)                                                              \
  fields[#f] = pyb::make_tuple(offsetof(T, f), sizeof(static_cast<T*>(nullptr)->f));
#define DLARRAY_STRUCT(T, FIELDS)                                              \
  {                                                                            \
    pyb::dict fields;                                                          \
    FIELDS                                                                     \
    pyb::dict s;                                                               \
    s["size"] = sizeof(T);                                                     \
    s["align"] = alignof(T);                                                   \
    s["fields"] = fields;                                                      \
    structs[#T] = s;                                                           \
  }
  DLARRAY_DLPACK_STRUCTS(DLARRAY_STRUCT, DLARRAY_FIELD)
#undef DLARRAY_STRUCT
#undef DLARRAY_FIELD
  pyb::dict constants;
#define DLARRAY_CONSTANT(c) constants[#c] = static_cast<long long>(c);
  DLARRAY_DLPACK_CONSTANTS(DLARRAY_CONSTANT)
#undef DLARRAY_CONSTANT
  pyb::dict out;
  out["structs"] = structs;
  out["constants"] = constants;
  out["enum_sizes"] = pyb::make_tuple(sizeof(DLDeviceType), sizeof(DLDataTypeCode));
  return out;
}

}  // namespace

void bind_dlpack_abi(pyb::module_& m) {
  m.def("_dlpack_abi_layout", &abi_layout,
        "_dlpack_abi_layout()\n--\n\n"
        "The compiled layout of dlarray's dlpack.h: {'structs': {name: {'size', 'align', "
        "'fields': {field: (offset, size)}}}, 'constants': {name: value}, 'enum_sizes': "
        "(sizeof DLDeviceType, sizeof DLDataTypeCode)}. For the ABI tests.");
}

}  // namespace dla::py
