"""The default device: where creation functions put arrays when they are given no device.

`set_default_device(d)` sets it for the process (as `torch.set_default_device`), the context
manager `default_device(d)` for the calling thread within a block (as `jax.default_device`),
and the environment variable DLARRAY_DEFAULT_DEVICE at import (so that a whole program, or
the array API conformance suite, runs on `cuda:0` unchanged). It applies to arange, empty,
eye, full, linspace, ones, zeros and to asarray of Python scalars and sequences; functions
given arrays (the `*_like` forms, asarray of an array, operations) keep their inputs' device.
`__array_namespace_info__().default_device()` reports it.
"""
import contextlib
import os

from . import _core

__all__ = ["default_device", "get_default_device", "set_default_device"]


def set_default_device(device):
    """Makes `device` (a Device, a string such as "cuda:0", or None for cpu) the process-wide
    default device of creation functions."""
    _core._set_default_device(device)


def get_default_device():
    """The device creation functions use when given none, in this thread."""
    return _core._default_device()


@contextlib.contextmanager
def default_device(device):
    """Within the block, creation functions in this thread put arrays on `device`."""
    previous = _core._thread_default_device()
    _core._set_thread_default_device(device)
    try:
        yield _core._default_device()
    finally:
        _core._set_thread_default_device(previous)


def _from_environment():
    name = os.environ.get("DLARRAY_DEFAULT_DEVICE")
    if name:
        try:
            set_default_device(name)
        except ValueError as e:
            raise ValueError(f"DLARRAY_DEFAULT_DEVICE={name!r}: {e}") from None
