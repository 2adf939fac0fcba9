"""repr() and str() of arrays, laid out as NumPy does (its default print options).

The rules, as NumPy documents and prints them: one format per array chosen from all shown
values (booleans padded to a common width, integers right-aligned, floats with the fewest
digits that still identify each value (at most 8 after the point), aligned on the decimal
point and padded on the right, or all in scientific notation when the magnitudes span more
than 1e3 or reach 1e8 (1e6 for float32) or go below 1e-4); complex numbers format real and imaginary parts
separately; rows wrap at 75 characters; arrays above 1000 elements show 3 items at each end
of every long axis, fetched with indexing so that only those are read.
"""
import math
import struct
from decimal import Decimal

_EDGE = 3
_THRESHOLD = 1000
_LINEWIDTH = 75
_PRECISION = 8
_IMPLIED_DTYPES = {"float64", "int64", "bool", "complex128"}
_FLOAT_BITS = {"float16": 16, "float32": 32, "bfloat16": 32, "complex64": 32}


# ---- gathering the values that are shown ------------------------------------------------

def _tree(x, summarise):
    """Nested lists of the shown values; Ellipsis where a summarised axis skips items."""
    if x.ndim == 0:
        return x.tolist()
    n = x.shape[0]
    if not summarise:
        return x.tolist()
    if n > 2 * _EDGE:
        idx = list(range(_EDGE)) + [None] + list(range(n - _EDGE, n))
    else:
        idx = range(n)
    return [Ellipsis if i is None else _tree(x[i], True) for i in idx]


def _leaves(tree):
    if isinstance(tree, list):
        for t in tree:
            yield from _leaves(t)
    elif tree is not Ellipsis:
        yield tree


# ---- number formats -------------------------------------------------------------------------

def _round_to(v, bits):
    if bits == 32:
        return struct.unpack("f", struct.pack("f", v))[0]
    if bits == 16:
        return struct.unpack("e", struct.pack("e", v))[0]
    return v


def _shortest(v, bits):
    """The shortest decimal string that reads back as v at `bits` precision (v finite, >= 0)."""
    if bits == 64:
        return repr(v)
    for p in range(1, 18):
        s = f"{v:.{p}g}"
        if _round_to(float(s), bits) == v:
            return s
    return repr(v)


def _scalar_str(v, bits, in_complex):
    """NumPy's str of a float32/float16 scalar: Python's float repr layout with the digits of the
    narrow value and its own upper cutoff for positional notation (1e6 for float32)."""
    if not math.isfinite(v):
        return repr(v)
    ds, e = _digits(v, bits)
    sign = "-" if math.copysign(1.0, v) < 0 else ""
    a = abs(v)
    if a != 0 and (a < 1e-4 or a >= {32: 1e6, 16: 1e3}[bits]):
        mant = ds[0] + ("." + ds[1:] if len(ds) > 1 else "")
        return f"{sign}{mant}e{'-' if e < 0 else '+'}{abs(e):02d}"
    if ds == "0":
        text = "0.0"
    elif e >= 0:
        text = ds[: e + 1].ljust(e + 1, "0") + "." + (ds[e + 1:] or "0")
    else:
        text = "0." + "0" * (-e - 1) + ds
    if in_complex and text.endswith(".0"):
        text = text[:-2]  # complex parts print like Python's: (1+2j)
    return sign + text


def _digits(v, bits):
    """(digit string, decimal exponent of the first digit) of |v|'s shortest representation."""
    d = Decimal(_shortest(abs(v), bits)).normalize()
    sign, digits, exp = d.as_tuple()
    ds = "".join(map(str, digits))
    if ds.strip("0") == "":
        return "0", 0
    return ds, exp + len(ds) - 1


def _positional(v, bits, plus):
    """v without exponent: unique digits, at most _PRECISION after the point, '.' kept."""
    ds, e = _digits(v, bits)
    if ds == "0":
        int_part, frac = "0", ""
    elif e >= 0:
        int_part = (ds[: e + 1]).ljust(e + 1, "0")
        frac = ds[e + 1:]
    else:
        int_part, frac = "0", "0" * (-e - 1) + ds
    if len(frac) > _PRECISION:
        int_part, _, frac = f"{abs(v):.{_PRECISION}f}".partition(".")
        frac = frac.rstrip("0")
    sign = "-" if math.copysign(1.0, v) < 0 else ("+" if plus else "")
    return sign + int_part, frac


def _scientific(v, bits, plus):
    """(sign+leading digit, fraction digits, exponent) with unique digits, at most _PRECISION."""
    ds, e = _digits(v, bits)
    if len(ds) - 1 > _PRECISION:
        mant, _, exp = f"{abs(v):.{_PRECISION}e}".partition("e")
        lead, _, frac = mant.partition(".")
        ds, e = lead + frac.rstrip("0"), int(exp)
    sign = "-" if math.copysign(1.0, v) < 0 else ("+" if plus else "")
    return sign + ds[0], ds[1:], e


class _FloatFormat:
    def __init__(self, values, bits, plus=False):
        self.bits, self.plus = bits, plus
        finite = [v for v in values if math.isfinite(v)]
        nonzero = [abs(v) for v in finite if v != 0]
        # NumPy's cutoff for large values is 10**min(8, decimal digits of the dtype), and it
        # compares in the dtype's own precision.
        r = lambda t: _round_to(t, bits)  # noqa: E731
        big = {64: 1e8, 32: 1e6, 16: 1e3}[bits]
        self.exp = bool(nonzero) and (
            max(nonzero) >= r(big) or min(nonzero) < r(1e-4) or r(max(nonzero) / min(nonzero)) > 1e3)
        if not finite:
            self.pad_left = self.pad_right = 0
        elif self.exp:
            parts = [_scientific(v, bits, plus) for v in finite]
            self.precision = max(len(f) for _, f, _ in parts)
            self.exp_size = max(2, max(len(str(abs(e))) for _, _, e in parts))
            self.pad_left = max(len(i) for i, _, _ in parts)
            self.pad_right = self.exp_size + 2 + self.precision
        else:
            parts = [_positional(v, bits, plus) for v in finite]
            self.pad_left = max(len(i) for i, _ in parts)
            self.pad_right = max(len(f) for _, f in parts)
        if len(finite) != len(values):
            # room for nan / inf / -inf in the same columns
            neg_inf = plus or any(v < 0 for v in values if math.isinf(v))
            offset = self.pad_right + 1
            self.pad_left = max(self.pad_left, 3 - offset, 3 + neg_inf - offset)

    def __call__(self, v):
        if not math.isfinite(v):
            s = "nan" if math.isnan(v) else "inf"
            s = ("+" if self.plus and s == "nan" else "-" if v < 0 else "+" if self.plus else "") + s
            return " " * (self.pad_left + self.pad_right + 1 - len(s)) + s
        if self.exp:
            lead, frac, e = _scientific(v, self.bits, self.plus)
            if len(frac) < self.precision:
                # Digits past the unique ones are the exact value's, rounded (as NumPy's dragon4).
                mant, _, ex = f"{abs(v):.{self.precision}e}".partition("e")
                digit, _, frac = mant.partition(".")
                lead, e = lead[:-1] + digit, int(ex)
            exp = ("-" if e < 0 else "+") + str(abs(e)).rjust(self.exp_size, "0")
            return lead.rjust(self.pad_left) + "." + frac + "e" + exp
        int_part, frac = _positional(v, self.bits, self.plus)
        return int_part.rjust(self.pad_left) + "." + frac.ljust(self.pad_right)


class _ComplexFormat:
    def __init__(self, values, bits):
        self.re = _FloatFormat([v.real for v in values], bits)
        self.im = _FloatFormat([v.imag for v in values], bits, plus=True)

    def __call__(self, v):
        i = self.im(v.imag)
        cut = len(i.rstrip())
        return self.re(v.real) + i[:cut] + "j" + i[cut:]


def _formatter(values, dtype_name, ndim):
    if dtype_name == "bool":
        true = " True" if ndim else "True"
        return lambda v: true if v else "False"
    if values and isinstance(values[0], int):
        hi, lo = max(values), min(values)
        width = max(len(str(hi)), len(str(lo)))
        return lambda v: str(v).rjust(width)
    bits = _FLOAT_BITS.get(dtype_name, 64)
    if values and isinstance(values[0], complex):
        return _ComplexFormat(values, bits)
    return _FloatFormat([float(v) for v in values], bits)


# ---- layout ---------------------------------------------------------------------------------

def _extend(s, line, word, width, indent):
    if len(line) + len(word) > width and len(line) > len(indent):
        s += line.rstrip() + "\n"
        line = indent
    return s, line + word


def _layout(tree, depth, fmt, indent, width, sep):
    """NumPy's nested-bracket layout of `tree` with `depth` remaining axes."""
    if depth == 0:
        return fmt(tree)
    inner = indent + " "
    if depth == 1:
        elem_width = width - max(len(sep.rstrip()), 1)
        s, line = "", indent
        for k, item in enumerate(tree):
            word = "..." if item is Ellipsis else fmt(item)
            s, line = _extend(s, line, word, elem_width, indent)
            if k + 1 < len(tree):
                line += sep
        s += line
    else:
        line_sep = sep.rstrip() + "\n" * (depth - 1)
        rows = ["..." if item is Ellipsis else _layout(item, depth - 1, fmt, inner, width - 1, sep) for item in tree]
        s = "".join(indent + r + line_sep for r in rows[:-1]) + indent + rows[-1]
    return "[" + s[len(indent):] + "]"


def _render(x, prefix, sep, width):
    """The body NumPy's array2string would print for x (after `prefix`, within `width`)."""
    if x.size == 0:
        return "[]"
    host = x if x.device == "cpu" else x.to_device("cpu")
    tree = _tree(host, host.size > _THRESHOLD)
    values = list(_leaves(tree))
    fmt = _formatter(values, str(x.dtype), x.ndim)
    if x.ndim == 0:
        return fmt(tree)
    return _layout(tree, x.ndim, fmt, " " + " " * len(prefix), width, sep)


def _fallback(x, err):
    return f"<{x.shape} {x.dtype} on {x.device}: {err}>"


def array_repr(x):
    prefix = "Array("
    try:
        body = _render(x, prefix, ", ", _LINEWIDTH - len(")"))
    except (TypeError, BufferError) as e:  # storage-only dtypes without a Python value
        return prefix + _fallback(x, e) + ")"
    extras = []
    if (x.size == 0 and x.shape != (0,)) or x.size > _THRESHOLD:
        extras.append(f"shape={x.shape}")
    if str(x.dtype) not in _IMPLIED_DTYPES or x.size == 0:
        extras.append(f"dtype={x.dtype}")
    if x.device != "cpu":
        extras.append(f"device='{x.device}'")
    text = prefix + body
    if not extras:
        return text + ")"
    text += ","
    extra = ", ".join(extras) + ")"
    last = len(text) - (text.rfind("\n") + 1)
    spacer = "\n" + " " * len(prefix) if last + len(extra) + 1 > _LINEWIDTH else " "
    return text + spacer + extra


def array_str(x):
    try:
        if x.ndim == 0:
            v = x.tolist()
            bits = _FLOAT_BITS.get(str(x.dtype), 64)
            if bits != 64 and isinstance(v, complex):
                re, im = _scalar_str(v.real, bits, True), _scalar_str(v.imag, bits, True)
                if v.real == 0 and math.copysign(1.0, v.real) > 0:
                    return im + "j"
                return f"({re}{'' if im[0] in '+-' else '+'}{im}j)"
            if bits != 64 and isinstance(v, float):
                return _scalar_str(v, bits, False)
            return str(v)
        return _render(x, "", " ", _LINEWIDTH)
    except (TypeError, BufferError) as e:
        return _fallback(x, e)
