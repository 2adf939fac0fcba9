"""DLPack's C structs in ctypes, for tests that feed dlarray exact C-level inputs.

The layouts are the published DLPack 1.3 ABI (test_dlpack_abi.py checks them against
dlarray's header). With them the tests build hand-made producers: managed tensors with
any field value (NULL strides, byte offsets, unknown type codes, a foreign major version),
capsules made with PyCapsule_New, and deleters that count their calls; and exchange
tables whose functions are Python callbacks that count theirs.
"""
import ctypes
import sys
from ctypes import (CFUNCTYPE, POINTER, PYFUNCTYPE, Structure, c_char_p, c_int, c_int32, c_int64,
                    c_uint8, c_uint16, c_uint32, c_uint64, c_void_p, py_object)

import numpy as np

READ_ONLY = 1 << 0
IS_COPIED = 1 << 1
IS_SUBBYTE_TYPE_PADDED = 1 << 2

kDLCPU = 1
kDLCUDA = 2


class DLPackVersion(Structure):
    _fields_ = [("major", c_uint32), ("minor", c_uint32)]


class DLDevice(Structure):
    _fields_ = [("device_type", c_int32), ("device_id", c_int32)]


class DLDataType(Structure):
    _fields_ = [("code", c_uint8), ("bits", c_uint8), ("lanes", c_uint16)]


class DLTensor(Structure):
    _fields_ = [
        ("data", c_void_p),
        ("device", DLDevice),
        ("ndim", c_int32),
        ("dtype", DLDataType),
        ("shape", POINTER(c_int64)),
        ("strides", POINTER(c_int64)),
        ("byte_offset", c_uint64),
    ]


class DLManagedTensor(Structure):
    pass


LegacyDeleter = CFUNCTYPE(None, POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", c_void_p), ("deleter", LegacyDeleter)]


class DLManagedTensorVersioned(Structure):
    pass


VersionedDeleter = CFUNCTYPE(None, POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [
    ("version", DLPackVersion),
    ("manager_ctx", c_void_p),
    ("deleter", VersionedDeleter),
    ("flags", c_uint64),
    ("dl_tensor", DLTensor),
]


class DLPackExchangeAPIHeader(Structure):
    pass


DLPackExchangeAPIHeader._fields_ = [("version", DLPackVersion), ("prev_api", POINTER(DLPackExchangeAPIHeader))]

SetErrorFn = CFUNCTYPE(None, c_void_p, c_char_p, c_char_p)
# Callbacks a hand-made table publishes (Python functions: ctypes takes the GIL for them).
AllocatorCb = CFUNCTYPE(c_int, POINTER(DLTensor), POINTER(POINTER(DLManagedTensorVersioned)), c_void_p, SetErrorFn)
ManagedFromPyCb = CFUNCTYPE(c_int, c_void_p, POINTER(POINTER(DLManagedTensorVersioned)))
ManagedToPyCb = CFUNCTYPE(c_int, POINTER(DLManagedTensorVersioned), POINTER(c_void_p))
DLTensorFromPyCb = CFUNCTYPE(c_int, c_void_p, POINTER(DLTensor))
StreamCb = CFUNCTYPE(c_int, c_int32, c_int32, POINTER(c_void_p))


class DLPackExchangeAPI(Structure):
    _fields_ = [
        ("header", DLPackExchangeAPIHeader),
        ("managed_tensor_allocator", c_void_p),
        ("managed_tensor_from_py_object_no_sync", c_void_p),
        ("managed_tensor_to_py_object_no_sync", c_void_p),
        ("dltensor_from_py_object_no_sync", c_void_p),
        ("current_work_stream", c_void_p),
    ]


# Calling a table's functions from Python: PYFUNCTYPE keeps the GIL held (the functions
# touch Python objects) and turns a Python error the callee set into a raised exception.
AllocatorFn = PYFUNCTYPE(c_int, POINTER(DLTensor), POINTER(POINTER(DLManagedTensorVersioned)), c_void_p, SetErrorFn)
ManagedFromPyFn = PYFUNCTYPE(c_int, py_object, POINTER(POINTER(DLManagedTensorVersioned)))
ManagedToPyFn = PYFUNCTYPE(c_int, POINTER(DLManagedTensorVersioned), POINTER(c_void_p))
DLTensorFromPyFn = PYFUNCTYPE(c_int, py_object, POINTER(DLTensor))
StreamFn = PYFUNCTYPE(c_int, c_int32, c_int32, POINTER(c_void_p))

# A handle of our own on the interpreter's C API, not ctypes.pythonapi: that one is shared, and
# libraries imported later change its functions' argtypes (on the GPU machine, one made
# Py_DecRef take a py_object, so steal_object decremented a temporary int instead).
_api = ctypes.PyDLL(None) if sys.platform != "win32" else ctypes.PyDLL(ctypes.pythonapi._name)
_api.PyCapsule_New.restype = py_object
_api.PyCapsule_New.argtypes = [c_void_p, c_char_p, c_void_p]
_api.PyCapsule_GetPointer.restype = c_void_p
_api.PyCapsule_GetPointer.argtypes = [py_object, c_char_p]
_api.PyCapsule_GetName.restype = c_char_p
_api.PyCapsule_GetName.argtypes = [py_object]
_api.PyCapsule_IsValid.restype = c_int
_api.PyCapsule_IsValid.argtypes = [py_object, c_char_p]
_api.Py_DecRef.argtypes = [c_void_p]
_api.Py_DecRef.restype = None

# Capsule names must outlive their capsules: module-level constants.
VERSIONED_NAME = b"dltensor_versioned"
LEGACY_NAME = b"dltensor"
API_NAME = b"dlpack_exchange_api"
_CapsuleDestructor = CFUNCTYPE(None, c_void_p)
# Capsule destructors get a raw pointer to a capsule being deallocated: no py_object there.
_raw_is_valid = ctypes.PYFUNCTYPE(c_int, c_void_p, c_char_p)(("PyCapsule_IsValid", _api))
_raw_get_pointer = ctypes.PYFUNCTYPE(c_void_p, c_void_p, c_char_p)(("PyCapsule_GetPointer", _api))


def capsule_name(cap):
    return _api.PyCapsule_GetName(cap).decode()


def capsule_pointer(cap, name):
    return _api.PyCapsule_GetPointer(cap, name if isinstance(name, bytes) else name.encode())


def exchange_api_of(cls):
    """The DLPackExchangeAPI a type publishes under __dlpack_c_exchange_api__ (DLPack 1.3)."""
    cap = cls.__dlpack_c_exchange_api__
    assert capsule_name(cap) == API_NAME.decode()
    return DLPackExchangeAPI.from_address(capsule_pointer(cap, API_NAME))


def call_table(api, field, fntype):
    """A callable for one function of a table, holding the GIL while it runs."""
    addr = getattr(api, field)
    assert addr, f"{field} is NULL"
    return fntype(addr)


class DeleterLog:
    """Counts deleter calls of hand-made tensors and keeps their memory alive until then."""

    def __init__(self):
        self.calls = 0
        self._keep = {}  # address of the managed struct -> objects it needs

    def hold(self, address, *objects):
        self._keep[address] = objects

    def release(self, address):
        self.calls += 1
        self._keep.pop(address, None)

    @property
    def alive(self):
        return len(self._keep)


def _shape_array(values):
    if values is None:
        return None, None
    arr = (c_int64 * max(len(values), 1))(*values)
    return arr, ctypes.cast(arr, POINTER(c_int64))


def make_tensor(log, *, backing=None, data=None, shape=(), strides="auto", byte_offset=0, code=2, bits=64,
                lanes=1, device=(kDLCPU, 0), flags=0, version=(1, 3), legacy=False, ndim=None):
    """A hand-made DLManagedTensor(Versioned) (a ctypes object) whose deleter logs to `log`.

    backing: a NumPy array the tensor views (kept alive until the deleter runs); data: an
    explicit data pointer (None with no backing: NULL). strides: "auto" for the backing
    array's own strides in elements (or compact row-major), None for a NULL pointer, or a
    sequence. shape: a sequence, or None for a NULL pointer.
    """
    if data is None and backing is not None:
        data = backing.ctypes.data
    if strides == "auto":
        if backing is not None and shape is not None and len(shape) == backing.ndim:
            strides = [s // backing.itemsize for s in backing.strides]
        else:
            acc, strides = 1, []
            for d in reversed(shape or ()):
                strides.insert(0, acc)
                acc *= max(d, 1)
    shape_arr, shape_ptr = _shape_array(None if shape is None else list(shape))
    strides_arr, strides_ptr = _shape_array(None if strides is None else list(strides))
    cls, deleter_type = (DLManagedTensor, LegacyDeleter) if legacy else (DLManagedTensorVersioned, VersionedDeleter)
    mt = cls()
    t = mt.dl_tensor
    t.data = data
    t.device = DLDevice(*device)
    t.ndim = len(shape) if ndim is None else ndim
    t.dtype = DLDataType(code, bits, lanes)
    t.shape = shape_ptr if shape_ptr is not None else POINTER(c_int64)()
    t.strides = strides_ptr if strides_ptr is not None else POINTER(c_int64)()
    t.byte_offset = byte_offset
    if not legacy:
        mt.version = DLPackVersion(*version)
        mt.flags = flags
    address = ctypes.addressof(mt)

    def deleter(_ptr, address=address):
        log.release(address)

    cb = deleter_type(deleter)
    mt.deleter = cb
    log.hold(address, mt, cb, shape_arr, strides_arr, backing)
    return mt


def _destructor_for(name, cls):
    def destructor(cap):
        # What every producer's capsule destructor does: release only if never consumed.
        if _raw_is_valid(cap, name):
            mt = cls.from_address(_raw_get_pointer(cap, name))
            mt.deleter(ctypes.pointer(mt))

    return _CapsuleDestructor(destructor)


_VERSIONED_DESTRUCTOR = _destructor_for(VERSIONED_NAME, DLManagedTensorVersioned)
_LEGACY_DESTRUCTOR = _destructor_for(LEGACY_NAME, DLManagedTensor)


def capsule_of(mt, *, destructor=True):
    """A DLPack capsule holding the hand-made tensor `mt` (named after its struct kind)."""
    legacy = isinstance(mt, DLManagedTensor)
    name = LEGACY_NAME if legacy else VERSIONED_NAME
    d = (_LEGACY_DESTRUCTOR if legacy else _VERSIONED_DESTRUCTOR) if destructor else None
    return _api.PyCapsule_New(ctypes.addressof(mt), name, ctypes.cast(d, c_void_p) if d else None)


class Producer:
    """A minimal DLPack producer: __dlpack__ returns a capsule made by `make_capsule`."""

    def __init__(self, make_capsule, device=(kDLCPU, 0)):
        self._make = make_capsule
        self._device = device
        self.calls = []  # the keyword arguments of each __dlpack__ call

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        self.calls.append(dict(stream=stream, max_version=max_version, dl_device=dl_device, copy=copy))
        return self._make()

    def __dlpack_device__(self):
        return self._device


class LegacyProducer:
    """A pre-2023.12 producer: __dlpack__ knows only `stream` and returns legacy capsules."""

    def __init__(self, make_capsule):
        self._make = make_capsule
        self.calls = 0

    def __dlpack__(self, stream=None):
        self.calls += 1
        return self._make()

    def __dlpack_device__(self):
        return (kDLCPU, 0)


def tensor_view_of(mt_ptr):
    """(shape, strides, data, byte_offset, flags) of a DLManagedTensorVersioned pointer."""
    mt = mt_ptr.contents
    t = mt.dl_tensor
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = tuple(t.strides[i] for i in range(t.ndim))
    return shape, strides, t.data, t.byte_offset, mt.flags


def steal_object(address):
    """The Python object behind a new reference returned as a raw PyObject* (the reference is consumed)."""
    obj = ctypes.cast(address, py_object).value  # takes its own reference
    _api.Py_DecRef(address)
    return obj
