"""What dlarray.cuda and dlarray.rocm share that is plainer in Python: the stream context manager."""
import contextlib


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
