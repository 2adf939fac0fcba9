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
  Ufuncs dlarray lacks (scipy.special's), or calls with out=/where=, run NumPy's loop on
  zero-copy views of CPU arrays and return dlarray arrays; device arrays raise TypeError.
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
        if param.kind == param.VAR_POSITIONAL:  # np.einsum(*operands): spread, as NumPy received them
            pos.extend(_to_ours(v) for v in value)
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
        if _device_off_cpu((args, kwargs)) is not None:
            return NotImplemented
        return func._implementation(*_to_numpy(args), **_to_numpy(kwargs))
    return result


def _device_off_cpu(value):
    """The device of the first array in `value` (nested lists, tuples, dicts) that is not on the
    CPU, or None when all are."""
    if isinstance(value, _core.Array):
        return None if value.device == "cpu" else value.device
    items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
    for v in items:
        device = _device_off_cpu(v)
        if device is not None:
            return device
    return None


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
    ufunc.reduce the matching reduction), with NumPy's loop dtypes. A ufunc dlarray has no
    kernel for (scipy.special.erf, np.frompyfunc's), or a call with out=/where=/casting= ...,
    runs NumPy's loop on zero-copy NumPy views of CPU arrays and returns dlarray arrays; on
    another device it raises TypeError naming the device."""
    import numpy as np

    if not _known_types(type(v) for v in inputs if isinstance(v, (np.ndarray, _core.Array))):
        return NotImplemented
    result = NotImplemented
    if kwargs.get("out") is None:
        kwargs.pop("out", None)
        if method == "__call__":
            result = _ufunc_call(ufunc, inputs, kwargs)
        elif method == "reduce":
            result = _ufunc_reduce(ufunc, inputs, kwargs)
    if result is NotImplemented:
        result = _ufunc_through_numpy(ufunc, method, inputs, kwargs)
    return result


def _ufunc_call(ufunc, inputs, kwargs):
    import numpy as np

    fn = getattr(_namespace(), _RENAMED.get(ufunc.__name__, ufunc.__name__), None)
    kwargs = dict(kwargs)
    dtype = kwargs.pop("dtype", None)
    if fn is None or kwargs or not isinstance(ufunc, np.ufunc) or not callable(fn):
        return NotImplemented
    # A NumPy ufunc promises NumPy's loop: operands are converted to the dtypes NumPy's
    # resolution picks (exp of int8 is float16 there; dtype= fixes the loop). NumPy scalars
    # count as their dtype (NEP 50), Python numbers as weak scalars.
    try:
        operand_dtypes = tuple(np.dtype(a.dtype) if isinstance(a, (_core.Array, np.ndarray, np.generic)) else type(a)
                               for a in inputs)
        loop = ((np.dtype(dtype),) * ufunc.nin if dtype is not None
                else ufunc.resolve_dtypes(operand_dtypes + (None,) * ufunc.nout))
    except (TypeError, ValueError):
        return NotImplemented
    args = []
    for a, want in zip(inputs, loop[:ufunc.nin]):
        if isinstance(a, (np.ndarray, np.generic)):
            a = _core.asarray(np.asarray(a))
        if isinstance(a, _core.Array) and np.dtype(a.dtype) != want:
            a = _core.astype(a, _to_ours(want))
        args.append(a)
    if not builtins.any(isinstance(a, _core.Array) for a in args):
        return NotImplemented
    return fn(*args)


def _ufunc_reduce(ufunc, inputs, kwargs):
    if ufunc.__name__ not in _REDUCTIONS or len(inputs) != 1:
        return NotImplemented
    if not set(kwargs) <= {"axis", "dtype", "keepdims"}:
        return NotImplemented
    kw = {k: _to_ours(v) for k, v in kwargs.items() if v is not None}
    kw.setdefault("axis", 0)  # ufunc.reduce's default axis is 0, not all axes
    return getattr(_namespace(), _REDUCTIONS[ufunc.__name__])(_to_ours(inputs[0]), **kw)


def _ufunc_through_numpy(ufunc, method, inputs, kwargs):
    """NumPy's own loop over zero-copy NumPy views of CPU arrays; results become dlarray arrays
    (out= arrays are written through their views and returned as given)."""
    device = _device_off_cpu((inputs, kwargs))
    if device is not None:
        raise TypeError(f"NumPy's ufunc {ufunc.__name__!r}{'' if method == '__call__' else '.' + method} "
                        f"runs only on CPU arrays (dlarray has no kernel of its own for this call), and an "
                        f"operand is on '{device}'; move it with to_device('cpu') first")
    out = kwargs.get("out")
    result = getattr(ufunc, method)(*_to_numpy(inputs), **_to_numpy(kwargs))
    if out is not None:
        return out[0] if len(out) == 1 else out
    return _from_numpy_result(result)


def _from_numpy_result(result):
    import numpy as np

    if isinstance(result, tuple):
        return tuple(_from_numpy_result(r) for r in result)
    if isinstance(result, (np.ndarray, np.generic)):
        result = np.asarray(result)
        if result.dtype == object:  # np.frompyfunc's: the numbers' own dtype, as np.array infers it
            inferred = np.array(result.tolist())
            if inferred.dtype == object or inferred.shape != result.shape:
                raise TypeError("the NumPy result holds Python objects that are not numbers of one kind; "
                                "dlarray has no object dtype")
            result = inferred
        return _core.asarray(result)
    return result


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


def _transpose_method(self, *axes):
    """NumPy-style x.transpose(), x.transpose(1, 0) or x.transpose((1, 0)): dlarray.permute_dims."""
    if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], int)):
        axes = axes[0]
    return _permute_dims(self, axes if axes else None)


_NUMPY_STYLE_METHODS = ("sum", "prod", "mean", "std", "var", "max", "min", "any", "all",
                        "argmax", "argmin", "cumsum", "cumprod", "squeeze", "clip")

_core.DType.__numpy_dtype__ = property(_numpy_dtype)
_core.DType.type = property(lambda self: _numpy_dtype(self).type,
                            doc="The NumPy scalar type of this dtype (NumPy's dtype.type).")
_core.DType.kind = property(lambda self: _numpy_dtype(self).kind,
                            doc="NumPy's one-letter kind of this dtype ('b', 'i', 'u', 'f', 'c').")
for _name in _NUMPY_STYLE_METHODS:
    setattr(_core.Array, _name, _numpy_style_method(_name))
_core.Array.astype = _astype_method
_core.Array.reshape = _reshape_method
_core.Array.transpose = _transpose_method
_core.Array.__array_function__ = __array_function__
_core.Array.__array_ufunc__ = __array_ufunc__
