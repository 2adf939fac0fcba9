"""Methods of dlarray.Array that are plainer in Python: repr/str, NumPy's __array__, iteration,
pickling and copying."""
import pickle

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


def __iter__(self):
    """Iterates over the first axis (as NumPy does); a 0-d array is not iterable."""
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")  # at iter(), not at the first next(), as NumPy
    return (self[i] for i in range(self.shape[0]))


def _rebuild_array(buffer, shape, dtype, device):
    """Inverse of Array.__reduce_ex__: a new writable array from row-major bytes."""
    return _core._array_from_bytes(buffer, shape, dtype, device)


def __reduce_ex__(self, protocol):
    """Pickles the values (row-major, through the host for device arrays), shape, dtype and device.

    With protocol 5 the bytes go out of band when the pickler allows it (no copy on the way out
    for a row-major host array). The read-only flag is not kept, as NumPy does not keep it.
    """
    data = _core._host_bytes(self)
    buf = pickle.PickleBuffer(data) if protocol >= 5 else bytes(memoryview(data))
    return (_rebuild_array, (buf, self.shape, self.dtype, self.device))


def __copy__(self):
    """A new array with the same values on the same device (NumPy's copy.copy copies the data)."""
    return _core.asarray(self, copy=True)


def __deepcopy__(self, memo):
    return _core.asarray(self, copy=True)


Array.__array__ = __array__
Array.__iter__ = __iter__
Array.__reduce_ex__ = __reduce_ex__
Array.__copy__ = __copy__
Array.__deepcopy__ = __deepcopy__
Array.__repr__ = array_repr
Array.__str__ = array_str
