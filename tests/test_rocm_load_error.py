"""The error kept in dlarray.rocm.backend_import_error when dlarray._rocm cannot be imported
(python/dlarray/_rocm_load_error.py): a build made against one ROCm's HIP runtime does not load
on another, and the error must name the libamdhip64 the build needs."""
from dlarray._rocm_load_error import explained

LOADER_ERROR = "libamdhip64.so.5: cannot open shared object file: No such file or directory"


def test_a_missing_runtime_names_the_version_the_build_needs():
    original = ImportError(LOADER_ERROR)
    e = explained(original, runtime_major="5")
    assert isinstance(e, ImportError)
    message = str(e)
    assert "libamdhip64.so.5, the HIP runtime of ROCm 5.x" in message
    assert "must be made against the ROCm version of the machine it runs on" in message
    assert LOADER_ERROR in message  # the loader's own words are kept
    assert e.__cause__ is original


def test_an_unknown_version_still_explains_the_rule():
    e = explained(ImportError("undefined symbol: hipLaunchKernel"), runtime_major="unknown")
    assert "the HIP runtime (libamdhip64) of the ROCm it was built against" in str(e)
    assert "libamdhip64.so." not in str(e)


def test_a_build_without_the_rocm_backend_keeps_its_error():
    original = ModuleNotFoundError("No module named 'dlarray._rocm'", name="dlarray._rocm")
    assert explained(original, runtime_major="6") is original
