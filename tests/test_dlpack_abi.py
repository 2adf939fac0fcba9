"""dlarray's dlpack.h against the published DLPack 1.3 ABI and against peers' headers.

`_core._dlpack_abi_layout()` reports sizeof/offsetof of every struct and field of
src/dlpack/dlpack.h as compiled into the module, plus the ABI constants. They are checked
against the published 64-bit layout (DLPack 1.3), and against a peer's dlpack.h (PyTorch's
ATen/dlpack.h, tvm-ffi's dlpack/dlpack.h) compiled into a tiny C probe with the system
compiler; the probe tests skip cleanly when no compiler or peer header is found.
"""
import ctypes
import importlib.util
import os
import shutil
import subprocess

import pytest

import dlarray as dl
from helpers import dlpack_ctypes as H

LAYOUT = dl._core._dlpack_abi_layout()

# The published 64-bit layout: struct -> (size, [(field, offset, size), ...]).
PUBLISHED = {
    "DLPackVersion": (8, [("major", 0, 4), ("minor", 4, 4)]),
    "DLDevice": (8, [("device_type", 0, 4), ("device_id", 4, 4)]),
    "DLDataType": (4, [("code", 0, 1), ("bits", 1, 1), ("lanes", 2, 2)]),
    "DLTensor": (48, [("data", 0, 8), ("device", 8, 8), ("ndim", 16, 4), ("dtype", 20, 4), ("shape", 24, 8),
                      ("strides", 32, 8), ("byte_offset", 40, 8)]),
    "DLManagedTensor": (64, [("dl_tensor", 0, 48), ("manager_ctx", 48, 8), ("deleter", 56, 8)]),
    "DLManagedTensorVersioned": (80, [("version", 0, 8), ("manager_ctx", 8, 8), ("deleter", 16, 8),
                                      ("flags", 24, 8), ("dl_tensor", 32, 48)]),
    "DLPackExchangeAPIHeader": (16, [("version", 0, 8), ("prev_api", 8, 8)]),
    "DLPackExchangeAPI": (56, [("header", 0, 16), ("managed_tensor_allocator", 16, 8),
                               ("managed_tensor_from_py_object_no_sync", 24, 8),
                               ("managed_tensor_to_py_object_no_sync", 32, 8),
                               ("dltensor_from_py_object_no_sync", 40, 8), ("current_work_stream", 48, 8)]),
}

PUBLISHED_CONSTANTS = {
    "DLPACK_MAJOR_VERSION": 1, "DLPACK_MINOR_VERSION": 3,
    "DLPACK_FLAG_BITMASK_READ_ONLY": 1, "DLPACK_FLAG_BITMASK_IS_COPIED": 2,
    "DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED": 4,
    "kDLCPU": 1, "kDLCUDA": 2, "kDLCUDAHost": 3, "kDLOpenCL": 4, "kDLVulkan": 7, "kDLMetal": 8, "kDLVPI": 9,
    "kDLROCM": 10, "kDLROCMHost": 11, "kDLExtDev": 12, "kDLCUDAManaged": 13, "kDLOneAPI": 14, "kDLWebGPU": 15,
    "kDLHexagon": 16, "kDLMAIA": 17, "kDLTrn": 18,
    "kDLInt": 0, "kDLUInt": 1, "kDLFloat": 2, "kDLOpaqueHandle": 3, "kDLBfloat": 4, "kDLComplex": 5,
    "kDLBool": 6, "kDLFloat8_e3m4": 7, "kDLFloat8_e4m3": 8, "kDLFloat8_e4m3b11fnuz": 9, "kDLFloat8_e4m3fn": 10,
    "kDLFloat8_e4m3fnuz": 11, "kDLFloat8_e5m2": 12, "kDLFloat8_e5m2fnuz": 13, "kDLFloat8_e8m0fnu": 14,
    "kDLFloat6_e2m3fn": 15, "kDLFloat6_e3m2fn": 16, "kDLFloat4_e2m1fn": 17,
}

needs_64_bit = pytest.mark.skipif(ctypes.sizeof(ctypes.c_void_p) != 8, reason="published table is for 64-bit")


def ours(struct):
    s = LAYOUT["structs"][struct]
    return s["size"], [(f, off, size) for f, (off, size) in s["fields"].items()]


@needs_64_bit
@pytest.mark.parametrize("struct", sorted(PUBLISHED))
def test_layout_matches_published_abi(struct):
    assert ours(struct) == PUBLISHED[struct]


def test_every_struct_is_reported():
    assert set(LAYOUT["structs"]) == set(PUBLISHED)


def test_constants_match_published_values():
    assert LAYOUT["constants"] == PUBLISHED_CONSTANTS


def test_enums_are_int_sized():
    # DLDevice.device_type travels as an int32.
    assert LAYOUT["enum_sizes"][0] == 4


def test_dlpack_version_exposed_to_python():
    assert dl.DLPACK_VERSION == (1, 3)


@pytest.mark.parametrize("struct", sorted(PUBLISHED))
def test_test_helpers_ctypes_structs_match(struct):
    # The ctypes mirrors the other DLPack tests build inputs with must be the real ABI.
    cls = getattr(H, struct)
    size, fields = ours(struct)
    assert ctypes.sizeof(cls) == size
    for name, off, _ in fields:
        assert getattr(cls, name).offset == off, name


# ---- a peer's header, compiled --------------------------------------------------------------

def _peer_headers():
    found = []
    for module, rel, include in [("torch", "include/ATen/dlpack.h", "ATen/dlpack.h"),
                                 ("torch", "include/dlpack/dlpack.h", "dlpack/dlpack.h"),
                                 ("tvm_ffi", "include/dlpack/dlpack.h", "dlpack/dlpack.h")]:
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.submodule_search_locations:
            continue
        root = list(spec.submodule_search_locations)[0]
        path = os.path.join(root, rel)
        if os.path.exists(path):
            found.append(pytest.param(os.path.join(root, "include"), include, id=f"{module}:{include}"))
    return found or [pytest.param(None, None, id="no-peer-header")]


def _probe_source(include, with_exchange_api):
    lines = ["#include <stdio.h>", "#include <stddef.h>", f"#include <{include}>", "int main(void) {"]
    for struct, (_, fields) in PUBLISHED.items():
        if struct.startswith("DLPackExchange") and not with_exchange_api:
            continue
        lines.append(f'  printf("S {struct} %zu\\n", sizeof({struct}));')
        for name, _, _ in fields:
            lines.append(f'  printf("F {struct} {name} %zu %zu\\n", offsetof({struct}, {name}), '
                         f'sizeof((({struct}*)0)->{name}));')
    for name in PUBLISHED_CONSTANTS:
        if name.startswith("DLPACK_") or with_exchange_api:
            lines.append(f'  printf("C {name} %lld\\n", (long long)({name}));')
    lines += ["  return 0;", "}"]
    return "\n".join(lines)


def _compile_and_run(tmp_path, include_dir, include, with_exchange_api):
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler")
    src = tmp_path / "probe.c"
    exe = tmp_path / "probe"
    src.write_text(_probe_source(include, with_exchange_api))
    r = subprocess.run([cc, "-std=c11", "-I", include_dir, str(src), "-o", str(exe)], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    return out, None


@needs_64_bit
@pytest.mark.parametrize("include_dir, include", _peer_headers())
def test_layout_matches_a_peers_compiled_header(tmp_path, include_dir, include):
    if include_dir is None:
        pytest.skip("no peer dlpack.h (PyTorch or tvm-ffi) installed")
    out, err = _compile_and_run(tmp_path, include_dir, include, with_exchange_api=True)
    if out is None:
        # An older peer header (before DLPack 1.3): compare what it has.
        out, err = _compile_and_run(tmp_path, include_dir, include, with_exchange_api=False)
        assert out is not None, f"peer header does not compile: {err}"
    compared = 0
    for line in out.splitlines():
        kind, *rest = line.split()
        if kind == "S":
            assert LAYOUT["structs"][rest[0]]["size"] == int(rest[1]), line
        elif kind == "F":
            struct, field, off, size = rest
            assert tuple(LAYOUT["structs"][struct]["fields"][field]) == (int(off), int(size)), line
        else:
            assert LAYOUT["constants"][rest[0]] == int(rest[1]), line
        compared += 1
    assert compared >= 30
