"""Methods of dlarray.Array that are plainer in Python: repr/str, NumPy's __array__, iteration,
pickling and copying."""
import pickle

from . import _core
from ._format import array_repr, array_str

Array = _core.Array


# The dtypes NumPy's DLPack import takes; the others (bfloat16, the float8/6/4 formats) are
# NumPy dtypes only through ml_dtypes, and reach it as bytes.
_DLPACK_TO_NUMPY = frozenset(["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                              "float16", "float32", "float64", "complex64", "complex128"])


def _numpy_dtype_via_ml_dtypes(name):
    """NumPy's dtype named `name`, registered by ml_dtypes (JAX's dtypes) if it is installed."""
    import numpy as np

    try:
        return np.dtype(name)
    except TypeError:
        pass
    try:
        import ml_dtypes  # noqa: F401  (registers its dtypes with NumPy by name)
        return np.dtype(name)
    except (ImportError, TypeError):
        raise TypeError(
            f"NumPy has no dtype {name} (install ml_dtypes for it), so a {name} array cannot become a "
            "NumPy array; convert with astype(float32) first"
        ) from None


def __array__(self, dtype=None, copy=None):
    """NumPy conversion (NumPy 2 protocol): zero-copy through DLPack when allowed.

    bfloat16 and the float8/float6/float4 formats become ml_dtypes' NumPy dtypes (as JAX gives
    them) by a copy of the bytes; TypeError where ml_dtypes is not installed or the format is
    packed (float6/float4, which ml_dtypes stores one per byte).
    """
    import numpy as np

    if self.device != "cpu":
        raise BufferError(
            f"cannot convert an array on '{self.device}' to NumPy without a copy; "
            "call x.to_device('cpu') first"
        )
    name = str(self.dtype)
    if name not in _DLPACK_TO_NUMPY:
        theirs = _numpy_dtype_via_ml_dtypes(name)
        if self.itemsize != theirs.itemsize:
            raise TypeError(f"{name} is packed here ({self.nbytes} bytes for {self.size} elements) and one per byte "
                            "in NumPy; convert with astype(float32) first")
        if copy is False:
            raise ValueError(f"__array__: copy=False, but NumPy reads {name} only from a copy")
        out = np.frombuffer(_core._host_bytes(self), dtype=theirs).reshape(self.shape)
        return out.astype(dtype) if dtype is not None else out.copy()  # frombuffer's view is read-only
    if copy is False and dtype is not None and np.dtype(dtype) != np.dtype(name):
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
