"""Argument checks shared by the Python-level functions (linalg, diff, ...): one wording for
every "must be an array" and "must be an int" error, as the C++ entries word theirs."""
import operator as _operator

from . import _core


def check_array(x, fname, what="x"):
    """TypeError unless x is a dlarray.Array."""
    if not isinstance(x, _core.Array):
        raise TypeError(f"{fname}: {what} must be a dlarray.Array, got {type(x).__name__}")


def int_arg(value, fname, what):
    """value as a Python int (anything with __index__ but bool); TypeError naming it otherwise."""
    if isinstance(value, bool):
        raise TypeError(f"{fname}: {what} must be an int, got bool")
    try:
        return _operator.index(value)
    except TypeError:
        raise TypeError(f"{fname}: {what} must be an int, got {type(value).__name__}") from None
