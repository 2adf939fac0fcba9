"""The loader of the GPU vendors' math libraries (src/backends/gpu/vendor_library.cpp), on the CPU.

cuBLAS and friends are opened with dlopen on first use; here the loader is pointed at libraries
of the test's choosing (through _core._open_vendor_library, the same code with another spec) to
check the search order (DLARRAY_GPU_LIBRARY_PATH alone when set; the plain soname; the wheel
directories under sys.path, read under the GIL from a thread that released it) and the message
that says what to install. cuBLAS itself is loaded in tests/test_gpu_linalg.py on a real GPU.
"""
import glob
import os
import shutil
import subprocess
import sys

import pytest

import dlarray
from dlarray import _core

SONAME = "libdlarray_test_vendor.so.1"


@pytest.fixture
def a_library(tmp_path):
    """A loadable shared object to stand in for a vendor library: a copy of dlarray._fake_gpu."""
    src = glob.glob(os.path.join(os.path.dirname(dlarray.__file__), "_fake_gpu*.so"))
    if not src:
        pytest.skip("dlarray._fake_gpu is not built")
    return src[0]


def test_a_missing_library_names_what_to_install(monkeypatch):
    monkeypatch.delenv("DLARRAY_GPU_LIBRARY_PATH", raising=False)
    with pytest.raises(RuntimeError) as e:
        _core._open_vendor_library("TestBLAS", [SONAME, "libdlarray_test_vendor.so.0"], ["nvidia/cu13/lib"],
                                   "nvidia-testblas")
    msg = str(e.value)
    for part in ("TestBLAS", SONAME, "libdlarray_test_vendor.so.0", "nvidia/cu13/lib", "sys.path entries",
                 "pip install dlarray[cuda]", "pip install nvidia-testblas", "DLARRAY_GPU_LIBRARY_PATH"):
        assert part in msg, (part, msg)


def test_the_wheel_directory_under_a_sys_path_entry_is_searched(a_library, tmp_path, monkeypatch):
    monkeypatch.delenv("DLARRAY_GPU_LIBRARY_PATH", raising=False)
    lib_dir = tmp_path / "site" / "nvidia" / "cu13" / "lib"
    lib_dir.mkdir(parents=True)
    shutil.copy(a_library, lib_dir / SONAME)
    with pytest.raises(RuntimeError):
        _core._open_vendor_library("TestBLAS", [SONAME], ["nvidia/cublas/lib", "nvidia/cu13/lib"], "x")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))  # added after import: read at load time
    path = _core._open_vendor_library("TestBLAS", [SONAME], ["nvidia/cublas/lib", "nvidia/cu13/lib"], "x")
    assert os.path.samefile(path, lib_dir / SONAME)


def test_the_plain_soname_comes_first():
    # Already loaded (or on the system's path): no directory is needed.
    path = _core._open_vendor_library("libc", ["libdlarray_no_such.so.9", "libc.so.6"], ["nowhere"], "x")
    assert os.path.basename(path).startswith("libc")


def test_the_environment_variable_is_the_only_place_searched(a_library, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    full = tmp_path / "full"
    full.mkdir()
    shutil.copy(a_library, full / SONAME)
    code = ("import sys\nfrom dlarray import _core\n"
            "try:\n"
            f"    print(_core._open_vendor_library('TestBLAS', [{SONAME!r}, 'libc.so.6'], ['nvidia/cu13/lib'], 'x'))\n"
            "except RuntimeError as e:\n"
            "    print('ERROR', e)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    run = lambda where: subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                       env=dict(env, DLARRAY_GPU_LIBRARY_PATH=where)).stdout
    out = run(str(empty))
    # Not even libc.so.6 (loaded in every process) is taken from elsewhere while it is set.
    assert out.startswith("ERROR") and "DLARRAY_GPU_LIBRARY_PATH" in out and str(empty) in out, out
    assert "pip install dlarray[cuda]" in out and "pip install x" in out, out
    out = run(f"{empty}:{full}")
    assert os.path.samefile(out.strip(), full / SONAME), out



def test_a_missing_cusolver_names_its_package(tmp_path, monkeypatch):
    # cusolver.cpp's search (its sonames and wheel directories) through the same loader; cuSOLVER
    # itself, and the text cusolver.cpp adds about its dependencies, are checked on a real GPU
    # (tests/test_gpu_linalg.py).
    monkeypatch.setenv("DLARRAY_GPU_LIBRARY_PATH", str(tmp_path))
    with pytest.raises(RuntimeError) as e:
        _core._open_vendor_library("cuSOLVER", ["libcusolver.so.12", "libcusolver.so.11"],
                                   ["nvidia/cu13/lib", "nvidia/cusolver/lib"], "nvidia-cusolver")
    msg = str(e.value)
    for part in ("cuSOLVER", "libcusolver.so.12", "pip install dlarray[cuda]", "pip install nvidia-cusolver"):
        assert part in msg, (part, msg)


# The ROCm build's libraries (src/backends/rocm/hipblas.cpp, hipfft.cpp, hipsolver.cpp): their
# sonames, ROCm's package names and /opt/rocm/lib through the same loader. No pip extra installs
# them, so the message names ROCm's package instead. hipBLAS & co. themselves need an AMD GPU.
ROCM_SPECS = [
    ("hipBLAS", ["libhipblas.so.3", "libhipblas.so.2", "libhipblas.so.1", "libhipblas.so.0"], "hipblas"),
    ("hipFFT", ["libhipfft.so.1", "libhipfft.so.0"], "hipfft"),
    ("hipSOLVER", ["libhipsolver.so.1", "libhipsolver.so.0"], "hipsolver"),
]


@pytest.mark.parametrize("name,sonames,package", ROCM_SPECS)
def test_a_missing_rocm_library_names_rocms_package(name, sonames, package, tmp_path, monkeypatch):
    monkeypatch.delenv("DLARRAY_GPU_LIBRARY_PATH", raising=False)
    missing = tmp_path / "no-rocm" / "lib"
    with pytest.raises(RuntimeError) as e:
        _core._open_vendor_library(name, [s.replace("lib", "libdlarray_no_", 1) for s in sonames], [], package,
                                   extra=None, install_dirs=[str(missing)])
    msg = str(e.value)
    for part in (name, "on the system's library path", str(missing), f"Install ROCm's {package} package",
                 "DLARRAY_GPU_LIBRARY_PATH"):
        assert part in msg, (part, msg)
    assert "pip install" not in msg and "sys.path entries" not in msg, msg


def test_the_install_directories_are_searched_last(a_library, tmp_path, monkeypatch):
    monkeypatch.delenv("DLARRAY_GPU_LIBRARY_PATH", raising=False)
    rocm_lib = tmp_path / "opt" / "rocm" / "lib"
    rocm_lib.mkdir(parents=True)
    shutil.copy(a_library, rocm_lib / SONAME)
    path = _core._open_vendor_library("TestBLAS", [SONAME], [], "x", extra=None,
                                      install_dirs=[str(tmp_path / "nowhere"), str(rocm_lib)])
    assert os.path.samefile(path, rocm_lib / SONAME)
    # While DLARRAY_GPU_LIBRARY_PATH is set it is the only place searched, install directories too.
    monkeypatch.setenv("DLARRAY_GPU_LIBRARY_PATH", str(tmp_path / "nowhere"))
    with pytest.raises(RuntimeError, match="DLARRAY_GPU_LIBRARY_PATH"):
        _core._open_vendor_library("TestBLAS", ["libdlarray_test_vendor.so.7"], [], "x", extra=None,
                                   install_dirs=[str(rocm_lib)])
