"""What dlarray.cuda and dlarray.rocm share: the names they export and the stream context manager."""
import contextlib

_FROM_CORE = ["Stream", "current_stream", "set_stream", "synchronize", "device_count", "is_available",
              "empty_cache", "memory_info"]


def stream_context(ns):
    """Builds `stream(s)` for a backend namespace `ns` (dlarray._core.cuda or .rocm)."""

    @contextlib.contextmanager
    def stream(s):
        """stream(s)

        Within the block, `s` is the current stream of its device in this thread (None: no
        change); the previous stream is restored on exit, also when the block raises.
        """
        if s is None:
            yield None
            return
        previous = ns.current_stream(s.device)
        ns.set_stream(s)
        try:
            yield s
        finally:
            ns.set_stream(previous)

    return stream


def export(namespace, ns):
    """Fills a public module's namespace from the C++ submodule `ns`; returns its __all__."""
    for name in _FROM_CORE:
        namespace[name] = getattr(ns, name)
    namespace["stream"] = stream_context(ns)
    return _FROM_CORE + ["stream"]
