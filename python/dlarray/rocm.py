"""dlarray.rocm: ROCm devices and streams (the HIP backend, module dlarray._rocm).

The same API as dlarray.cuda. The backend is a separate extension that needs the HIP
runtime (libamdhip64); where it is missing, `device_count()` is 0 and the rest raises
ValueError. Work is queued on the current stream of a device in the calling thread.
"""
from . import _core
from ._gpu import stream_context

_ns = _core.rocm
Stream = _ns.Stream
current_stream = _ns.current_stream
set_stream = _ns.set_stream
synchronize = _ns.synchronize
device_count = _ns.device_count
is_available = _ns.is_available
empty_cache = _ns.empty_cache
memory_info = _ns.memory_info
stream = stream_context(_ns)

__all__ = ["Stream", "current_stream", "set_stream", "stream", "synchronize", "device_count",
           "is_available", "empty_cache", "memory_info"]
