"""Methods of dlarray.Array that are plainer in Python: repr/str and NumPy's __array__."""
from . import _core
from ._format import array_repr, array_str

Array = _core.Array


def __array__(self, dtype=None, copy=None):
    """NumPy conversion (NumPy 2 protocol): zero-copy through DLPack when allowed."""
    import numpy as np

    if self.device != "cpu":
        raise BufferError(
            f"cannot convert an array on '{self.device}' to NumPy without a copy; "
            "call x.to_device('cpu') first"
        )
    if copy is False and dtype is not None and np.dtype(dtype) != np.dtype(str(self.dtype)):
        raise ValueError("__array__: copy=False but a dtype conversion needs a copy")
    out = np.from_dlpack(self, copy=True if copy else None)
    if dtype is not None:
        out = out.astype(dtype, copy=False)
    return out


Array.__array__ = __array__
Array.__repr__ = array_repr
Array.__str__ = array_str
