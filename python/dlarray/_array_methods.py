"""Methods of dlarray.Array that are plainer in Python: repr/str, NumPy's __array__, iteration,
pickling and copying, the number protocols of 0-d arrays (round, format, math.floor/ceil/trunc),
and the everyday NumPy array methods beyond the standard (item, copy, flatten, fill, ...)."""
import math
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


def _zero_d_value(self, what):
    """The element of a 0-d array as a Python number; TypeError as NumPy's for other shapes."""
    if self.ndim != 0:
        raise TypeError(f"{what}: only 0-d arrays can be converted to Python scalars, got shape {self.shape}")
    return self.tolist()


def __round__(self, ndigits=None):
    """round(x) of a 0-d array: a Python int (half to even, as NumPy's scalars); round(x, n): a
    0-d array of x's dtype. n-d arrays: use dlarray.round (NumPy's arrays refuse round() too)."""
    value = _zero_d_value(self, "round()")
    if isinstance(value, complex):
        raise TypeError(f"round() of a complex array (dtype {self.dtype}); round the real and imaginary parts")
    if ndigits is None:
        return round(value)
    return _core.asarray(round(value, ndigits), dtype=self.dtype, device=self.device)


def __floor__(self):
    value = _zero_d_value(self, "math.floor()")
    return math.floor(value)


def __ceil__(self):
    value = _zero_d_value(self, "math.ceil()")
    return math.ceil(value)


def __trunc__(self):
    value = _zero_d_value(self, "math.trunc()")
    return math.trunc(value)


def __format__(self, spec):
    """format(x, spec) and f-strings: a 0-d array formats as its element (f"{x[0]:.3f}"); an n-d
    array takes only the empty spec (its str), as NumPy's."""
    if self.ndim == 0 and _core.isdtype(self.dtype, ("bool", "numeric")):
        return format(self.tolist(), spec)
    if spec:
        raise TypeError(f"unsupported format string {spec!r} passed to dlarray.Array.__format__ "
                        f"(only 0-d arrays take a format spec; this one has shape {self.shape})")
    return str(self)


# ---- everyday NumPy array methods (beyond the standard) ------------------------------------------

def item(self, *index):
    """The element as a Python number: x.item() of a one-element array, x.item(i) / x.item(i, j)
    by flat or full index (NumPy's ndarray.item)."""
    if not index:
        if self.size != 1:
            raise ValueError(f"item(): can only convert an array of size 1 to a Python scalar, got size {self.size}")
        return _core.reshape(self, ()).tolist()
    if len(index) == 1 and not isinstance(index[0], tuple):
        flat = index[0]
        if not isinstance(flat, int):
            flat = _index_int(flat, "item()")
        if not -self.size <= flat < self.size:
            raise IndexError(f"item(): index {flat} is out of bounds for size {self.size}")
        return _core.reshape(self, (-1,))[flat].tolist()
    key = index[0] if len(index) == 1 else index
    if len(key) != self.ndim:
        raise IndexError(f"item(): {len(key)} indices for an array of {self.ndim} dimensions")
    return self[tuple(_index_int(k, "item()") for k in key)].tolist()


def _index_int(value, what):
    import operator

    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{what}: indices must be integers, got {type(value).__name__}") from None


def copy(self):
    """A new array with the same values on the same device (NumPy's ndarray.copy)."""
    return _core.asarray(self, copy=True)


def flatten(self):
    """A new 1-d array with the elements in row-major order (always a copy, as NumPy's)."""
    return _core.reshape(_core.asarray(self, copy=True), (-1,))


def ravel(self):
    """The elements as a 1-d array in row-major order: a view when the layout allows, else a copy."""
    return _core.reshape(self, (-1,))


def fill(self, value):
    """Sets every element to value, in place (NumPy's ndarray.fill)."""
    self[...] = value


def tobytes(self):
    """The elements' bytes in row-major order (NumPy's ndarray.tobytes)."""
    return bytes(memoryview(_core._host_bytes(self)))


def conj(self):
    """The complex conjugate (dlarray.conj; real arrays unchanged)."""
    return _core.conj(self) if _core.isdtype(self.dtype, "complex floating") else self


def round_method(self, decimals=0):
    """Each element rounded to `decimals` places, half to even (NumPy's ndarray.round)."""
    if decimals == 0:
        return _core.round(self)
    if _core.isdtype(self.dtype, ("bool", "integral")):
        if decimals > 0:
            return _core.asarray(self, copy=True)
        scale = 10 ** (-decimals)
        return _core.astype(_core.round(_core.astype(self, _core.float64) / scale) * scale, self.dtype)
    scale = 10.0 ** decimals
    return _core.round(self * scale) / scale


def swapaxes(self, axis1, axis2):
    """The view with two axes exchanged (NumPy's ndarray.swapaxes)."""
    axes = list(range(self.ndim))
    axes[axis1], axes[axis2] = axes[axis2], axes[axis1]
    return _core.permute_dims(self, tuple(axes))


def nonzero(self):
    """The indices of the nonzero elements, one array per axis (dlarray.nonzero)."""
    return _core.nonzero(self)


def argsort(self, axis=-1, kind=None):
    """Indices that sort the array along axis (stable; NumPy's ndarray.argsort)."""
    return _core.argsort(self, axis=axis, stable=True)


def dot(self, other):
    """Matrix product for 2-d arrays, inner product for 1-d (dlarray.matmul), NumPy's ndarray.dot
    for those shapes; a 0-d operand multiplies elementwise."""
    if self.ndim == 0 or getattr(other, "ndim", 0) == 0:
        return self * other
    return _core.matmul(self, other)


_NUMPY_METHODS = {
    "item": item, "copy": copy, "flatten": flatten, "ravel": ravel, "fill": fill, "tobytes": tobytes,
    "conj": conj, "conjugate": conj, "round": round_method, "swapaxes": swapaxes, "nonzero": nonzero,
    "argsort": argsort, "dot": dot,
}
for _name, _fn in _NUMPY_METHODS.items():
    if not hasattr(Array, _name):
        _fn.__name__ = _name
        setattr(Array, _name, _fn)

Array.__round__ = __round__
Array.__floor__ = __floor__
Array.__ceil__ = __ceil__
Array.__trunc__ = __trunc__
Array.__format__ = __format__
Array.__array__ = __array__
Array.__iter__ = __iter__
Array.__reduce_ex__ = __reduce_ex__
Array.__copy__ = __copy__
Array.__deepcopy__ = __deepcopy__
Array.__repr__ = array_repr
Array.__str__ = array_str
