"""dlarray.cuda: CUDA devices and streams.

Work on a CUDA device (allocation, copies, fills, DLPack hand-overs) is queued on the
current stream of that device in the calling thread: the legacy default stream until
`set_stream` or `with stream(s):` picks another. Nothing here synchronises a whole device.
Without a driver or a GPU, `device_count()` is 0 and the rest raises ValueError.
"""
from . import _core
from ._gpu import stream_context

_ns = _core.cuda
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
