"""`__array_namespace_info__()`: what this build of dlarray supports, per the array API's inspection API.

Plain Python: these are dictionaries and tuples built from the namespace's own dtype and
device objects, called rarely.
"""
from . import _core

_KINDS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
}
_KINDS["integral"] = _KINDS["signed integer"] + _KINDS["unsigned integer"]
_KINDS["numeric"] = _KINDS["integral"] + _KINDS["real floating"] + _KINDS["complex floating"]
_ALL = _KINDS["bool"] + _KINDS["numeric"]


def _devices():
    """CPU, then the CUDA/ROCm devices the runtimes see, then the SYCL devices dpctl sees (none
    without dpctl; asking starts its runtime, so only here, not at import)."""
    sycl = _core._oneapi_device_count()
    return tuple(_core._visible_devices()) + tuple(_core.Device("oneapi", i) for i in range(sycl))


def _check_device(device):
    """Validates a device argument (None means the default device); every device has the same dtypes."""
    if device is not None and _core.Device(str(device)) not in _devices():
        raise ValueError(f"device {device!r} is not available (see devices())")


class Info:
    """The inspection namespace returned by `dlarray.__array_namespace_info__()`."""

    __slots__ = ()

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        return _core._default_device()

    def devices(self):
        return _devices()

    def default_dtypes(self, *, device=None):
        _check_device(device)
        return {
            "real floating": _core.float64,
            "complex floating": _core.complex128,
            "integral": _core.int64,
            "indexing": _core.int64,
        }

    def dtypes(self, *, device=None, kind=None):
        _check_device(device)
        if kind is None:
            names = _ALL
        else:
            kinds = (kind,) if isinstance(kind, str) else tuple(kind)
            for k in kinds:
                if k not in _KINDS:
                    raise ValueError(f"unknown dtype kind {k!r}; expected one of {sorted(_KINDS)}")
            wanted = {n for k in kinds for n in _KINDS[k]}
            names = [n for n in _ALL if n in wanted]
        return {n: getattr(_core, n) for n in names}


_INFO = Info()


def __array_namespace_info__():
    """The array API inspection namespace: capabilities, devices and dtypes of dlarray."""
    return _INFO
