"""dlarray.rocm: ROCm devices and streams (the HIP backend, module dlarray._rocm).

The same API as dlarray.cuda. The backend is a separate extension that needs the HIP
runtime (libamdhip64); where it is missing, `device_count()` is 0, the rest raises
ValueError, and `backend_import_error` says why. Work is queued on the current stream of a
device in the calling thread.
"""
from . import _core
from ._gpu import export

__all__ = export(globals(), _core.rocm)
