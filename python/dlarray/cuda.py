"""dlarray.cuda: CUDA devices and streams.

Work on a CUDA device (allocation, copies, fills, DLPack hand-overs) is queued on the
current stream of that device in the calling thread: the legacy default stream until
`set_stream` or `with stream(s):` picks another. Nothing here synchronises a whole device.
Without a driver or a GPU, `device_count()` is 0 and the rest raises ValueError.
Names: Stream, current_stream, set_stream, stream, synchronize, device_count, is_available,
empty_cache, memory_info.
"""
from . import _core
from ._gpu import export

__all__ = export(globals(), _core.cuda)
