"""Why dlarray._rocm (the ROCm backend) could not be imported, said with what the build needs.

A ROCm build links the HIP runtime it was built against, libamdhip64.so.<major>, and each ROCm
major version ships only its own (ROCm 5: .so.5, ROCm 6: .so.6, ROCm 7: .so.7). So a build made
on one ROCm version does not load on another: the loader's bare "cannot open shared object
file" is turned here into an error that names the version the build needs. CMake records that
version beside the module (_rocm_build_info.py, written by CMakeLists.txt).
"""


def build_runtime_major():
    """The HIP runtime major version this build's dlarray._rocm links, or None without a ROCm build."""
    try:
        from ._rocm_build_info import hip_runtime_major
    except ImportError:
        return None
    return hip_runtime_major


def explained(error, runtime_major=None):
    """The ImportError to report for `error`, raised by importing dlarray._rocm: unchanged when
    the module was not built; otherwise one that says which libamdhip64 the build needs (from
    runtime_major, else the build's record), chained to the original."""
    if isinstance(error, ModuleNotFoundError) and error.name == "dlarray._rocm":
        return error  # no ROCm backend in this build: nothing to explain
    major = runtime_major if runtime_major is not None else build_runtime_major()
    if major is None or major == "unknown":
        needs = "the HIP runtime (libamdhip64) of the ROCm it was built against"
    else:
        needs = f"libamdhip64.so.{major}, the HIP runtime of ROCm {major}.x"
    new = ImportError(
        f"dlarray._rocm could not be loaded ({error}). This build of the ROCm backend needs {needs}; "
        "a ROCm build must be made against the ROCm version of the machine it runs on (ROCm 6 and 7 "
        "ship neither each other's libamdhip64 nor ROCm 5's): rebuild dlarray there "
        "(docs/gpus.md, Building, ROCm).")
    new.__cause__ = error
    return new
