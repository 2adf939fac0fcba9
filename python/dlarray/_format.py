"""repr() and str() of arrays, in NumPy's layout: nested brackets, aligned columns, summarised
edges for large arrays."""
import math

_EDGE = 3          # elements kept at each edge of a summarised axis
_THRESHOLD = 1000  # summarise above this many elements
_DEFAULT_DTYPES = {"float64", "int64", "bool", "complex128"}


def _format_float(v):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == int(v) and abs(v) < 1e16:
        return f"{int(v)}." if v != 0 or math.copysign(1, v) > 0 else "-0."
    r = repr(v)
    return r


def _format_scalar(v):
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return _format_float(v)
    if isinstance(v, complex):
        re, im = _format_float(v.real), _format_float(abs(v.imag))
        sign = "-" if (v.imag < 0 or (v.imag == 0 and math.copysign(1, v.imag) < 0)) else "+"
        return f"{re}{sign}{im}j"
    return str(v)


def _nested(x, summarise):
    """tolist(), with '...' in place of the middle of long axes when summarising."""
    if x.ndim == 0:
        return x.tolist()
    if not summarise or x.shape[0] <= 2 * _EDGE:
        return [_nested(x[i], summarise) for i in range(x.shape[0])] if x.ndim > 1 else (
            x.tolist() if not summarise else [x[i].tolist() for i in range(x.shape[0])]
        )
    head = [_nested(x[i], summarise) for i in range(_EDGE)]
    tail = [_nested(x[i], summarise) for i in range(x.shape[0] - _EDGE, x.shape[0])]
    return head + [Ellipsis] + tail


def _leaves(tree):
    if isinstance(tree, list):
        for t in tree:
            yield from _leaves(t)
    else:
        yield tree


def _render(tree, width, indent, depth):
    if not isinstance(tree, list):
        return "..." if tree is Ellipsis else _format_scalar(tree).rjust(width)
    if not tree:
        return "[]"
    if not isinstance(tree[0], list) and not (tree[0] is Ellipsis and len(tree) > 1 and isinstance(tree[-1], list)):
        return "[" + ", ".join(_render(t, width, indent, depth + 1) for t in tree) + "]"
    sep = "," + "\n" * (1 if depth == 0 and False else 1)
    inner_indent = indent + " "
    parts = [_render(t, width, inner_indent, depth + 1) for t in tree]
    blank = "\n" * max(0, _depth(tree) - 2)
    return "[" + (sep + blank + inner_indent).join(parts) + "]"


def _depth(tree):
    d = 0
    while isinstance(tree, list) and tree:
        d += 1
        tree = tree[0] if tree[0] is not Ellipsis else tree[-1]
    return d


def _body(x, prefix):
    try:
        host = x if x.device == "cpu" else x.to_device("cpu")
        summarise = host.size > _THRESHOLD
        tree = host.tolist() if not summarise else _nested(host, True)
    except (TypeError, BufferError, AttributeError, IndexError) as e:  # storage-only dtypes, no indexing yet
        return f"<{x.shape} {x.dtype} on {x.device}: {e}>"
    if x.ndim == 0:
        return _format_scalar(tree)
    width = max((len(_format_scalar(v)) for v in _leaves(tree) if v is not Ellipsis), default=0)
    return _render(tree, width, " " * len(prefix), 0)


def array_repr(x):
    prefix = "Array("
    body = _body(x, prefix)
    extras = []
    if str(x.dtype) not in _DEFAULT_DTYPES or x.size == 0:
        extras.append(f"dtype={x.dtype}")
    if x.device != "cpu":
        extras.append(f"device='{x.device}'")
    suffix = (", " + ", ".join(extras)) if extras else ""
    return f"{prefix}{body}{suffix})"


def array_str(x):
    return _body(x, "")
