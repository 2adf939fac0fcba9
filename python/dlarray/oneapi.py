"""dlarray.oneapi: SYCL devices (DLPack kDLOneAPI), the devices dpctl and dpnp use.

Arrays on ``"oneapi:N"`` live in SYCL USM memory of the N-th device of ``dpctl.get_devices()``
(the numbering dpctl gives DLPack device ids), allocated in that device's default context, so
dpnp and dpctl read them without copies (DLPack, ``__sycl_usm_array_interface__``) and we read
theirs. The SYCL runtime is dpctl's C interface library, loaded on first use: with no dpctl
installed, ``device_count()`` is 0 and ``why_unavailable()`` says why. No kernels run on these
devices yet: arrays move there and back (``to_device``, ``asarray``, copies), nothing computes.
"""
import importlib.util as _util
import os as _os

from . import _core

__all__ = ["device_count", "why_unavailable", "usm_type", "get_default_usm_type", "set_default_usm_type"]


def _configure():
    # find_spec locates the package without importing it (importing dpctl starts the SYCL runtime).
    spec = _util.find_spec("dpctl")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = _os.path.join(folder, "libDPCTLSyclInterface.so")
        if _os.path.exists(path):
            _core._oneapi_configure(path)
            return


def device_count():
    """How many SYCL devices dlarray can use (0 without dpctl or a SYCL device)."""
    return _core._oneapi_device_count()


def why_unavailable():
    """Why device_count() is 0 ('' when it is not)."""
    return _core._oneapi_why_unavailable()


def usm_type(x):
    """The USM kind of a oneapi array's memory: 'device', 'shared' or 'host' (dpnp's x.usm_type)."""
    return _core._oneapi_usm_type(x)


def get_default_usm_type():
    """The USM kind new oneapi arrays are allocated as ('device' unless set)."""
    return _core._oneapi_get_usm_type()


def set_default_usm_type(kind):
    """Allocate new oneapi arrays as 'device', 'shared' or 'host' USM (dpnp's usm_type=)."""
    _core._oneapi_set_usm_type(kind)


_configure()
