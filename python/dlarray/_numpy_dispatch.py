"""NumPy's protocols on dlarray objects, so that code written against NumPy (Dask's chunk
functions, np.sum(x), np.dtype(dlarray.float64)) runs dlarray's own functions on dlarray arrays.

- ``DType.__numpy_dtype__`` (NumPy >= 2.4 reads it in ``np.dtype(obj)``): the NumPy dtype of
  the same name; dtypes NumPy lacks (bfloat16, float8 ...) raise TypeError.
- ``Array.__array_function__`` / ``Array.__array_ufunc__`` (NEP 18 / NEP 13), as CuPy does: the
  NumPy function is looked up by name in the dlarray namespace (with the few renames below), the
  call is re-bound through the NumPy signature, and each argument goes to the dlarray function as
  its signature takes it (positional-only first, then by keyword; NumPy defaults are dropped).
  NumPy arrays among the arguments are taken zero-copy. A function dlarray lacks, or an argument it
  has no equivalent for (``out=``, ``where=``, ``order=``), runs NumPy's own implementation on
  zero-copy NumPy views of CPU arrays (what NumPy did before this protocol existed, and what
  SciPy's NumPy-only paths rely on) and gives NotImplemented (NumPy's TypeError) for device arrays.
  Ufuncs dlarray lacks, or with out=/where=, give NotImplemented.
"""
import builtins
import functools
import inspect

from . import _core

# NumPy name -> dlarray name where the array API standard renamed the function.
_RENAMED = {
    "absolute": "abs", "arccos": "acos", "arccosh": "acosh", "arcsin": "asin", "arcsinh": "asinh",
    "arctan": "atan", "arctan2": "atan2", "arctanh": "atanh", "amax": "max", "amin": "min",
    "concatenate": "concat", "conjugate": "conj", "power": "pow", "true_divide": "divide",
    "invert": "bitwise_invert", "bitwise_not": "bitwise_invert", "left_shift": "bitwise_left_shift",
    "right_shift": "bitwise_right_shift", "transpose": "permute_dims",
    "cumsum": "cumulative_sum", "cumprod": "cumulative_prod",
}
# NumPy keyword -> dlarray keyword, per NumPy function name.
_KEYWORD_RENAMED = {
    "std": {"ddof": "correction"}, "var": {"ddof": "correction"},
    "clip": {"a_min": "min", "a_max": "max"},
}
# ufunc.reduce -> the dlarray reduction.
_REDUCTIONS = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
               "logical_and": "all", "logical_or": "any"}


def _namespace():
    import dlarray

    return dlarray


def _numpy_dtype(self):
    import numpy as np

    try:
        return np.dtype(str(self))
    except TypeError:
        raise TypeError(f"NumPy has no dtype for dlarray.{self}") from None


def _permute_dims(x, /, axes=None):
    """np.transpose: axes=None reverses the axes (permute_dims has no default)."""
    return _core.permute_dims(x, tuple(reversed(range(x.ndim))) if axes is None else tuple(axes))


_ADAPTERS = {"transpose": _permute_dims}


@functools.lru_cache(maxsize=None)
def _plan(np_func_name, np_func):
    """(dlarray function, NumPy signature, names passed positionally, keyword renames) or None."""
    target_name = _RENAMED.get(np_func_name, np_func_name)
    target = _ADAPTERS.get(np_func_name) or getattr(_namespace(), target_name, None)
    if not callable(target) or isinstance(target, type):
        return None
    try:
        np_sig = inspect.signature(np_func)
        our_sig = inspect.signature(target)
    except (TypeError, ValueError):
        return None
    positional = [p.name for p in our_sig.parameters.values() if p.kind == p.POSITIONAL_ONLY]
    keywords = {p.name for p in our_sig.parameters.values()
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return target, np_sig, len(positional), keywords, _KEYWORD_RENAMED.get(np_func_name, {})


def _is_default(param, value):
    if value is param.default:
        return True
    return type(value).__name__ == "_NoValueType"  # NumPy's "argument not given" sentinel


def _to_ours(value):
    """NumPy arrays and scalars among the arguments become dlarray arrays / Python scalars."""
    import numpy as np

    if isinstance(value, np.ndarray):
        return _core.asarray(value)
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.dtype):
        ours = getattr(_core, value.name, None)
        if not isinstance(ours, _core.DType):  # structured, object, string, datetime ... dtypes
            raise TypeError(f"NumPy's dtype {value!r} has no dlarray equivalent")
        return ours
    if isinstance(value, (list, tuple)) and any(isinstance(v, (np.ndarray, _core.Array)) for v in value):
        return type(value)(_to_ours(v) for v in value)
    return value


def _call(plan, args, kwargs):
    target, np_sig, n_positional, keywords, renames = plan
    try:
        bound = np_sig.bind(*args, **kwargs)
    except TypeError:
        return NotImplemented
    pos, kw = [], {}
    params = np_sig.parameters
    for i, (name, value) in enumerate(bound.arguments.items()):
        param = params[name]
        if param.kind == param.VAR_KEYWORD:
            if value:
                return NotImplemented
            continue
        if i < n_positional:
            pos.append(_to_ours(value))
            continue
        if _is_default(param, value):
            continue
        name = renames.get(name, name)
        if name not in keywords:
            return NotImplemented  # out=, where=, order= ...: nothing equivalent in dlarray
        kw[name] = _to_ours(value)
    return target(*pos, **kw)


def _known_types(types):
    import numpy as np

    return builtins.all(issubclass(t, (_core.Array, np.ndarray)) for t in types)


def __array_function__(self, func, types, args, kwargs):
    """NEP 18: NumPy functions called on dlarray arrays run the dlarray function of that name."""
    if not _known_types(types):
        return NotImplemented
    plan = _plan(func.__name__, func)
    try:
        result = NotImplemented if plan is None else _call(plan, args, kwargs)
    except TypeError:
        # dlarray's stricter rules (no mixed-kind promotion, an array operand required) refused
        # a call NumPy defines: the caller asked for NumPy's semantics, so NumPy computes it.
        result = NotImplemented
    if result is NotImplemented:
        # No dlarray equivalent: NumPy's own implementation on zero-copy NumPy views of the CPU
        # arrays, as before this protocol existed (SciPy's NumPy-only paths call np.* on our
        # arrays). Device arrays get NotImplemented: NumPy raises TypeError, never a hidden copy.
        if not _all_on_cpu((args, kwargs)):
            return NotImplemented
        return func._implementation(*_to_numpy(args), **_to_numpy(kwargs))
    return result


def _all_on_cpu(value):
    if isinstance(value, _core.Array):
        return value.device == "cpu"
    if isinstance(value, (list, tuple)):
        return builtins.all(_all_on_cpu(v) for v in value)
    if isinstance(value, dict):
        return builtins.all(_all_on_cpu(v) for v in value.values())
    return True


def _to_numpy(value):
    import numpy as np

    if isinstance(value, _core.Array):
        return np.asarray(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_to_numpy(v) for v in value)
    if isinstance(value, dict):
        return {k: _to_numpy(v) for k, v in value.items()}
    return value


def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
    """NEP 13: NumPy ufuncs on dlarray arrays run the dlarray elementwise function (and
    ufunc.reduce the matching reduction); out=, where=, casting= ... give NotImplemented."""
    import numpy as np

    if not _known_types(type(v) for v in inputs if isinstance(v, (np.ndarray, _core.Array))):
        return NotImplemented
    if kwargs.get("out") is not None:
        return NotImplemented
    kwargs.pop("out", None)
    ns = _namespace()
    if method == "__call__":
        fn = getattr(ns, _RENAMED.get(ufunc.__name__, ufunc.__name__), None)
        dtype = kwargs.pop("dtype", None)
        if fn is None or kwargs:
            return NotImplemented
        args = [_to_ours(v) for v in inputs]
        # A NumPy ufunc promises NumPy's loop: operands are converted to the dtypes NumPy's
        # resolution picks (int64 counts divided into float64 sums in Dask's mean; dtype=).
        try:
            operand_dtypes = tuple(np.dtype(a.dtype) if isinstance(a, (_core.Array, np.ndarray)) else type(a)
                                   for a in inputs)
            loop = ((np.dtype(dtype),) * ufunc.nin if dtype is not None  # dtype= fixes the loop
                    else ufunc.resolve_dtypes(operand_dtypes + (None,) * ufunc.nout))
        except (TypeError, ValueError):
            return NotImplemented
        args = [_core.astype(a, _to_ours(want)) if isinstance(a, _core.Array) and np.dtype(a.dtype) != want else a
                for a, want in zip(args, loop[:ufunc.nin])]
        return fn(*args)
    if method == "reduce" and ufunc.__name__ in _REDUCTIONS and len(inputs) == 1:
        allowed = {"axis", "dtype", "keepdims"}
        if not set(kwargs) <= allowed:
            return NotImplemented
        kw = {k: _to_ours(v) for k, v in kwargs.items() if v is not None}
        kw.setdefault("axis", 0)  # ufunc.reduce's default axis is 0, not all axes
        return getattr(ns, _REDUCTIONS[ufunc.__name__])(_to_ours(inputs[0]), **kw)
    return NotImplemented


def _numpy_style_method(np_name):
    """ndarray.<np_name> for dlarray arrays (Dask calls chunk.sum(axis=..), meta.astype(..)):
    NumPy's signature, dlarray's function, TypeError where dlarray has no equivalent argument."""
    def method(self, *args, **kwargs):
        import numpy as np

        plan = _plan(np_name, getattr(np, np_name))
        result = NotImplemented if plan is None else _call(plan, (self, *args), kwargs)
        if result is NotImplemented:
            raise TypeError(f"Array.{np_name}: arguments {args!r}, {kwargs!r} have no dlarray equivalent")
        return result

    method.__name__ = np_name
    method.__doc__ = (f"NumPy-style method: the same as numpy.{np_name}(x, ...), computed by "
                      f"dlarray.{_RENAMED.get(np_name, np_name)} (no out=/where=).")
    return method


def _astype_method(self, dtype, copy=True):
    """NumPy-style x.astype(dtype, copy=True): dlarray.astype; NumPy dtypes are accepted."""
    return _core.astype(self, _to_ours(_as_numpy_dtype_if_foreign(dtype)), copy=copy)


def _as_numpy_dtype_if_foreign(dtype):
    if isinstance(dtype, _core.DType):
        return dtype
    import numpy as np

    return np.dtype(dtype)


def _reshape_method(self, *shape, copy=None):
    """NumPy-style x.reshape(2, 3) or x.reshape((2, 3)): dlarray.reshape."""
    if len(shape) == 1 and not isinstance(shape[0], int):
        shape = tuple(shape[0])
    return _core.reshape(self, shape, copy=copy)


_NUMPY_STYLE_METHODS = ("sum", "prod", "mean", "std", "var", "max", "min", "any", "all",
                        "argmax", "argmin", "cumsum", "cumprod", "squeeze", "transpose", "clip")

_core.DType.__numpy_dtype__ = property(_numpy_dtype)
_core.DType.type = property(lambda self: _numpy_dtype(self).type,
                            doc="The NumPy scalar type of this dtype (NumPy's dtype.type).")
_core.DType.kind = property(lambda self: _numpy_dtype(self).kind,
                            doc="NumPy's one-letter kind of this dtype ('b', 'i', 'u', 'f', 'c').")
for _name in _NUMPY_STYLE_METHODS:
    setattr(_core.Array, _name, _numpy_style_method(_name))
_core.Array.astype = _astype_method
_core.Array.reshape = _reshape_method
_core.Array.__array_function__ = __array_function__
_core.Array.__array_ufunc__ = __array_ufunc__
