"""dlarray.einsum: Einstein summation, composed from the namespace's own functions.

This module owns the subscripts' grammar (string and NumPy's interleaved sublist form), the
choice of contraction order (opt_einsum's greedy rule), and each pairwise contraction as one
batched matmul after permute_dims/reshape. Diagonals are strided views (linalg.diagonal), sums
over one operand's own indices are dl.sum, so the work runs on whatever device holds the arrays.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

from . import _core
from ._core import Array, DType
from .linalg import diagonal as _diagonal

__all__ = ["einsum"]

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_ELLIPSIS_BASE = 0x100  # labels of the dimensions under '...': code points no letter can have
_SCALARS = (bool, int, float, complex)


def einsum(subscripts: str | Array, /, *operands: Any, optimize: bool | str | Sequence[Any] = True,
           dtype: DType | None = None) -> Array:
    """Evaluate the Einstein summation convention on the operands.

    Parameters
    ----------
    subscripts : str
        Comma-separated subscript labels (letters a-z, A-Z, and at most one ``...`` per term),
        optionally followed by ``->`` and the output's labels. Without ``->`` the output holds
        the ``...`` dimensions, then the labels that occur once, in alphabetical (ASCII) order.
        NumPy's interleaved form ``einsum(x, [0, 1], y, [1, 2], [0, 2])`` is accepted too.
    *operands : Array or Python scalar
        The arrays (all on one device); Python scalars are 0-d operands.
    optimize : bool, 'greedy', 'optimal' or a path, optional
        True, 'greedy' and 'optimal' contract pairwise in opt_einsum's greedy order; False
        contracts left to right; a list ``['einsum_path', (i, j), ...]`` (as np.einsum_path
        returns) is followed as given.
    dtype : DType, optional
        Compute and return in this dtype; the operands must cast to it safely (NumPy's
        casting='safe').

    Returns
    -------
    Array
        The result on the operands' device, in their promoted dtype (the array API's rules,
        as matmul). When no arithmetic is needed (``'ij->ji'``, ``'ii->i'``) it is a view of the
        operand, as NumPy's; otherwise a new array, possibly a permuted view of one.

    Notes
    -----
    Differences from NumPy: ``out``, ``order`` and ``casting`` are not taken; optimize=False
    still contracts pairwise (left to right) rather than in one loop, and 'optimal' uses the
    greedy order. Dimensions under ``...`` that the output leaves out are summed (NumPy does so
    with optimize=True). Size-1 dimensions broadcast against their label's size, as NumPy's.
    Bool operands give a bool result (any of the products), computed in int64.

    The namespace calls of an evaluation are remembered (the last 256 kinds of call): a later
    call with the same subscripts and operands of the same shapes, strides and dtypes replays
    them without parsing or choosing the order again.
    """
    if isinstance(subscripts, str):
        spec = subscripts
        arrays = list(operands)
    elif isinstance(subscripts, Array):
        spec, arrays = _from_sublists(subscripts, operands)
    else:
        raise TypeError(f"einsum: subscripts must be a str (or an array followed by sublists), "
                        f"got {type(subscripts).__name__}")
    if not arrays:
        raise ValueError("einsum: no operands given")
    arrays, result_dtype = _promoted(arrays, dtype)
    path = _explicit_path(optimize, len(arrays))
    left_to_right = optimize is False and not path
    # Which operands are one object matters too: a plan made for einsum(s, a, a) reads slot 1 twice.
    same_as = tuple(next(j for j, y in enumerate(arrays) if y is x) for x in arrays)
    key = (spec, path or left_to_right, same_as, tuple((x.shape, x._strides, x.dtype) for x in arrays))
    steps = _PLANS.get(key)
    if steps is not None:
        return _replay(steps, arrays)
    terms, output, sizes = _parse(spec, [x.shape for x in arrays])
    do = _Trace(arrays)
    out = _evaluate(do, list(arrays), terms, output, sizes, path, left_to_right, result_dtype == _core.bool)
    if len(_PLANS) >= _PLANS_KEPT:
        try:  # the oldest goes; another thread may be doing the same
            _PLANS.pop(next(iter(_PLANS)), None)
        except (RuntimeError, StopIteration):
            pass
    _PLANS[key] = do.steps_to(out)
    return out


# ---- plans: the namespace calls of one evaluation, replayed for operands that look the same ----

_PLANS: dict = {}  # (subscripts, optimize, aliasing, operands' shapes, strides, dtypes) -> plan, oldest first
_PLANS_KEPT = 256


class _Trace:
    """Calls namespace functions and records them: which earlier results (or operands) each
    took, and its other arguments. Every choice einsum makes depends only on the operands'
    shapes, strides and dtypes, so the record replays exactly for operands that share them."""

    def __init__(self, arrays):
        self._slot = {id(x): i for i, x in enumerate(arrays)}
        self._alive = list(arrays)  # keeps ids unique while the trace lives
        self._steps = []

    def __call__(self, fn, *args, **kwargs):
        out = fn(*args, **kwargs)
        spec = tuple((True, self._slot[id(a)]) if isinstance(a, Array) else (False, a) for a in args)
        self._steps.append((fn, spec, kwargs))
        self._slot[id(out)] = len(self._alive)
        self._alive.append(out)
        return out

    def steps_to(self, out):
        """The steps and the slot of the result."""
        return tuple(self._steps), self._slot[id(out)]


def _replay(plan, arrays):
    steps, result = plan
    slots = list(arrays)
    for fn, spec, kwargs in steps:
        slots.append(fn(*[slots[v] if is_slot else v for is_slot, v in spec], **kwargs))
    return slots[result]


def _transpose(x):
    return x.mT


# ---- operands and dtypes -----------------------------------------------------------------------

def _promoted(operands, dtype):
    """The operands as arrays of one dtype (Python scalars become 0-d arrays) and that dtype."""
    arrays = [x for x in operands if isinstance(x, Array)]
    for i, x in enumerate(operands):
        if not isinstance(x, Array) and not isinstance(x, _SCALARS):
            raise TypeError(f"einsum: operand {i} must be a dlarray.Array or a Python scalar, "
                            f"got {type(x).__name__}")
    if arrays:
        common = _core.result_type(*arrays, *[x for x in operands if not isinstance(x, Array)])
        device = arrays[0].device
    else:
        common = _core.result_type(*[_core.asarray(x) for x in operands])
        device = None
    if dtype is not None:
        if not isinstance(dtype, DType):
            raise TypeError(f"einsum: dtype must be a dlarray dtype, got {type(dtype).__name__}")
        for i, x in enumerate(operands):
            if isinstance(x, Array) and not _safe_cast(x.dtype, dtype):
                raise TypeError(f"einsum: cannot cast operand {i} from {x.dtype} to dtype={dtype} "
                                f"safely (NumPy's casting='safe')")
        common = dtype
    out = []
    for x in operands:
        if isinstance(x, Array):
            out.append(x if x.dtype == common else _core.astype(x, common))
        else:
            out.append(_core.asarray(x, dtype=common, device=device))
    return out, common


def _kind(dt):
    for rank, kind in enumerate(("bool", "integral", "real floating", "complex floating")):
        if _core.isdtype(dt, kind):
            return rank
    return -1


def _safe_cast(src, dst):
    """NumPy's 'safe' casting between the array API dtypes: within a kind as can_cast, from
    integers to floats wide enough for them (up to 16 bits: float32; wider: float64)."""
    if _core.can_cast(src, dst):
        return True
    ks, kd = _kind(src), _kind(dst)
    if ks == 0 and kd > 0:
        return True
    if ks == 1 and kd >= 2:
        float_bytes = _core.finfo(dst).bits // 8
        return float_bytes >= 8 or (float_bytes >= 4 and _core.iinfo(src).bits <= 16)
    return False


# ---- subscripts --------------------------------------------------------------------------------

def _from_sublists(first, rest):
    """NumPy's interleaved form (x, [0, 1], y, [1, 2], [0, 2]) as a subscripts string; labels
    0-25 are 'A'-'Z' and 26-51 'a'-'z', so their ASCII order is their numeric order."""
    args = (first,) + tuple(rest)
    arrays = list(args[0::2])
    sublists = list(args[1::2])
    output = None
    if len(args) % 2 == 1:  # an odd count: the last one is the output's sublist
        output = arrays.pop()
    if len(sublists) != len(arrays):
        raise ValueError("einsum: the sublist form takes an operand, then its sublist, for each operand")
    terms = [_sublist_term(s, i) for i, s in enumerate(sublists)]
    spec = ",".join(terms)
    if output is not None:
        spec += "->" + _sublist_term(output, "output")
    return spec, arrays


def _sublist_term(sublist, which):
    if isinstance(sublist, (str, bytes)) or not hasattr(sublist, "__iter__"):
        raise TypeError(f"einsum: the sublist of operand {which} must be a list of ints and Ellipsis, "
                        f"got {type(sublist).__name__}")
    letters = []
    for label in sublist:
        if label is Ellipsis:
            letters.append("...")
            continue
        if isinstance(label, bool) or not hasattr(label, "__index__"):
            raise TypeError(f"einsum: sublist labels must be ints or Ellipsis, got {type(label).__name__}")
        value = label.__index__()
        if not 0 <= value < len(_LETTERS):
            raise ValueError(f"einsum: sublist label {value} is not within the valid range [0, {len(_LETTERS)})")
        letters.append(_LETTERS[value])
    return "".join(letters)


def _split_term(term, where):
    """The labels of one term, with None standing for its '...'."""
    body = term.replace("...", "\0")
    if body.count("\0") > 1:
        raise ValueError(f"einsum: {where} has more than one '...'")
    labels = []
    for ch in body:
        if ch == "\0":
            labels.append(None)
        elif ch in _LETTERS:
            labels.append(ch)
        elif ch == ".":
            raise ValueError(f"einsum: {where} has a '.' that is not part of an ellipsis ('...')")
        else:
            raise ValueError(f"einsum: invalid subscript {ch!r} in {where}; subscripts must be letters (a-z, A-Z)")
    return labels


def _parse(spec, shapes):
    """Terms (one list of labels per operand, '...' spelled out as labels of its own), the
    output's labels, and each label's size (size-1 dimensions broadcast, as NumPy's)."""
    spec = spec.replace(" ", "")
    if spec.count("->") > 1 or spec.replace("->", "").count("-") or spec.replace("->", "").count(">"):
        raise ValueError("einsum: subscripts may hold one '->' (before the output's labels), no other '-' or '>'")
    explicit = "->" in spec
    lhs, rhs = spec.split("->") if explicit else (spec, "")
    raw_terms = lhs.split(",")
    if len(raw_terms) != len(shapes):
        raise ValueError(f"einsum: the subscripts name {len(raw_terms)} operand(s) but {len(shapes)} were given")
    parsed = [_split_term(t, f"the subscripts of operand {i}") for i, t in enumerate(raw_terms)]
    ellipsis_ndim = 0
    for i, (labels, shape) in enumerate(zip(parsed, shapes)):
        named = len(labels) - (None in labels)
        if None in labels:
            if named > len(shape):
                raise ValueError(f"einsum: operand {i} has {len(shape)} dimension(s) but its subscripts "
                                 f"{raw_terms[i]!r} name {named}")
            ellipsis_ndim = max(ellipsis_ndim, len(shape) - named)
        elif named != len(shape):
            raise ValueError(f"einsum: operand {i} has {len(shape)} dimension(s) but its subscripts "
                             f"{raw_terms[i]!r} name {named} (use '...' for the others)")
    ellipsis_labels = [chr(_ELLIPSIS_BASE + k) for k in range(ellipsis_ndim)]
    terms = []
    for labels, shape in zip(parsed, shapes):
        if None in labels:
            at = labels.index(None)
            covered = len(shape) - (len(labels) - 1)
            labels = labels[:at] + ellipsis_labels[ellipsis_ndim - covered:] + labels[at + 1:]
        terms.append(labels)
    sizes = _label_sizes(terms, shapes)
    if explicit:
        out = _split_term(rhs, "the output's subscripts")
        seen = set()
        for ch in out:
            if ch is not None and not any(ch in t for t in terms):
                raise ValueError(f"einsum: output subscript {ch!r} does not appear in any input's subscripts")
            if ch in seen:
                raise ValueError(f"einsum: output subscript {ch if ch else '...'!r} appears more than once")
            seen.add(ch)
        if None in out:
            at = out.index(None)
            out = out[:at] + ellipsis_labels + out[at + 1:]
    else:
        counts = {}
        for t in terms:
            for ch in t:
                counts[ch] = counts.get(ch, 0) + 1
        out = ellipsis_labels + sorted(ch for ch, c in counts.items() if c == 1 and ch in _LETTERS)
    return terms, out, sizes


def _label_sizes(terms, shapes):
    sizes = {}
    for i, (labels, shape) in enumerate(zip(terms, shapes)):
        for label, n in zip(labels, shape):
            have = sizes.get(label)
            if have is None or have == 1:
                sizes[label] = n
            elif n not in (1, have):
                name = repr(label) if label in _LETTERS else "'...'"
                raise ValueError(f"einsum: label {name} has size {n} in operand {i} but size {have} before; "
                                 f"sizes must match (or be 1)")
    return sizes


# ---- evaluation --------------------------------------------------------------------------------

def _evaluate(do, arrays, terms, output, sizes, path, left_to_right, as_bool):
    """The result of the parsed expression; every namespace call goes through `do`."""
    if as_bool:  # bool products summed: any of them; counted in int64, compared with 0 at the end
        arrays = [do(_core.astype, x, _core.int64) for x in arrays]
    ops = [_own_labels_only(do, x, t, sizes) for x, t in zip(arrays, terms)]
    ops = _sum_lonely(do, ops, output)
    path = list(path)
    while len(ops) > 1:
        if path:
            positions = path.pop(0)
        elif left_to_right:
            positions = (0, 1)
        else:
            positions = _greedy_pair(ops, output, sizes)
        picked = [ops[p] for p in positions]
        rest = [op for k, op in enumerate(ops) if k not in positions]
        if len(picked) == 1:  # a path's single-operand step: its sums happened already
            ops = rest + picked
            continue
        keep = set(output).union(*[op[1] for op in rest])
        acc = picked[0]
        for k, nxt in enumerate(picked[1:]):
            later = set().union(*[op[1] for op in picked[k + 2:]])
            last = not rest and k == len(picked) - 2
            acc = _contract(do, acc, nxt, keep | later, output if last else None)
            if as_bool and not last:  # keep counts at 0/1 so long chains cannot overflow
                acc = (do(_core.astype, do(_core.not_equal, acc[0], 0), _core.int64), acc[1])
        ops = [acc] + rest if left_to_right else rest + [acc]
    x, labels = ops[0]
    x, labels = _sum_out(do, x, labels, [lb for lb in labels if lb not in output])
    for label in output:  # a label whose every occurrence was a broadcast size-1 dimension
        if label not in labels:
            x = do(_core.expand_dims, x, axis=x.ndim)
            labels = labels + [label]
    order = tuple(labels.index(lb) for lb in output)
    if order != tuple(range(len(order))) or any(x is a for a in arrays):  # never the operand itself
        x = do(_core.permute_dims, x, order)
    if any(x.shape[i] != sizes[lb] for i, lb in enumerate(output)):
        x = do(_core.broadcast_to, x, tuple(sizes[lb] for lb in output))
    if as_bool:
        x = do(_core.not_equal, x, 0)
    return x


def _explicit_path(optimize, count):
    if optimize is True or optimize is False or optimize is None or optimize in ("greedy", "optimal"):
        return ()
    if isinstance(optimize, str):
        raise ValueError(f"einsum: optimize must be a bool, 'greedy', 'optimal' or a path, got {optimize!r}")
    try:
        steps = list(optimize)
    except TypeError:
        raise TypeError(f"einsum: optimize must be a bool, 'greedy', 'optimal' or a path, "
                        f"got {type(optimize).__name__}") from None
    if steps and steps[0] == "einsum_path":
        steps = steps[1:]
    path = []
    for step in steps:
        positions = tuple(int(p) for p in step)
        if not positions or len(set(positions)) != len(positions) or not all(0 <= p < count for p in positions):
            raise ValueError(f"einsum: path step {step!r} does not name distinct operands of the {count} left")
        path.append(positions)
        count -= len(positions) - 1
    return tuple(path)


def _own_labels_only(do, x, labels, sizes):
    """x with broadcast size-1 axes dropped and repeated labels reduced to their diagonal."""
    squeezed = [i for i, lb in enumerate(labels) if x.shape[i] == 1 and sizes[lb] != 1]
    if squeezed:
        x = do(_core.squeeze, x, axis=tuple(squeezed))
        labels = [lb for i, lb in enumerate(labels) if i not in squeezed]
    for label in dict.fromkeys(labels):
        where = [i for i, lb in enumerate(labels) if lb == label]
        if len(where) < 2:
            continue
        others = [i for i in range(len(labels)) if i not in where]
        x = do(_core.permute_dims, x, tuple(others + where))
        for _ in range(len(where) - 1):  # each diagonal view merges the last two axes into one
            x = do(_diagonal, x)
        labels = [labels[i] for i in others] + [label]
    return x, list(labels)


def _sum_lonely(do, ops, output):
    """Sum each operand over the labels that neither the output nor another operand has."""
    out = []
    for k, (x, labels) in enumerate(ops):
        elsewhere = set(output).union(*[t for j, (_, t) in enumerate(ops) if j != k])
        out.append(_sum_out(do, x, labels, [lb for lb in labels if lb not in elsewhere]))
    return out


def _sum_out(do, x, labels, gone):
    if not gone:
        return x, labels
    axes = tuple(i for i, lb in enumerate(labels) if lb in gone)
    if len(axes) == x.ndim:  # a whole sum: of one flat vector when x is contiguous (a view)
        axes = None
        if x.ndim > 1 and _contiguous(x):
            x = do(_core.reshape, x, (x.size,))
    return do(_core.sum, x, axis=axes, dtype=x.dtype), [lb for lb in labels if lb not in gone]


def _contiguous(x):
    expected = 1
    for n, stride in zip(reversed(x.shape), reversed(x._strides)):
        if n != 1 and stride != expected:
            return False
        expected *= n
    return True


def _greedy_pair(ops, output, sizes):
    """opt_einsum's greedy choice: of the pairs that share a label, the one whose contraction
    shrinks the total size most (result size minus both inputs' sizes); without such pairs,
    the outer product of the two smallest operands."""
    def size(labels):
        return math.prod(sizes[lb] for lb in labels)

    label_sets = [set(t) for _, t in ops]
    best, best_key = None, None
    for i in range(len(ops)):
        for j in range(i + 1, len(ops)):
            if not label_sets[i] & label_sets[j]:
                continue
            keep = set(output).union(*[s for k, s in enumerate(label_sets) if k not in (i, j)])
            result = (label_sets[i] | label_sets[j]) & keep
            cost = size(result) - size(label_sets[i]) - size(label_sets[j])
            key = (cost, size(result))
            if best_key is None or key < best_key:
                best, best_key = (i, j), key
    if best is None:
        by_size = sorted(range(len(ops)), key=lambda k: size(label_sets[k]))
        best = tuple(sorted(by_size[:2]))
    return best


def _memory_order(x, labels):
    """The labels from the slowest-varying axis in memory to the fastest."""
    strides = x._strides
    order = sorted(range(len(labels)), key=lambda i: -abs(strides[i]) if x.shape[i] > 1 else 0)
    return [labels[i] for i in order]


def _contract(do, a_op, b_op, keep, output=None):
    """One pairwise contraction as one (batched) matmul: the labels of both operands that stay
    are the batch, those of both that go are summed by the product, the rest are the matrices'
    rows and columns. Returns (array, labels)."""
    (a, la), (b, lb_) = a_op, b_op
    sa, sb = set(la), set(lb_)
    a, la = _sum_out(do, a, la, [lb for lb in la if lb not in sb and lb not in keep])
    b, lb_ = _sum_out(do, b, lb_, [lb for lb in lb_ if lb not in sa and lb not in keep])
    if output is not None:  # the last step: the operand order whose result lies as the output does
        in_order = _plan((a, la), (b, lb_), keep)[-1]
        if [lb for lb in output if lb in in_order] != in_order:
            swapped = _plan((b, lb_), (a, la), keep)[-1]
            if [lb for lb in output if lb in swapped] == swapped:
                (a, la), (b, lb_) = (b, lb_), (a, la)
    batch, summed, free_a, free_b, _ = _plan((a, la), (b, lb_), keep)

    def sizes_of(x, labels, group):
        return [x.shape[labels.index(g)] for g in group]

    def arranged(x, labels, order, shape):
        perm = tuple(labels.index(g) for g in order)
        if perm != tuple(range(len(perm))):
            x = do(_core.permute_dims, x, perm)
        return x if x.shape == tuple(shape) else do(_core.reshape, x, tuple(shape))

    batch_shape = sizes_of(a, la, batch)
    fa_shape, fb_shape = sizes_of(a, la, free_a), sizes_of(b, lb_, free_b)
    result_shape = tuple(batch_shape + fa_shape + fb_shape)
    result_labels = batch + free_a + free_b
    if not summed:  # an outer (or elementwise) product: broadcasting multiply, no matmul
        a2 = arranged(a, la, batch + free_a, batch_shape + fa_shape + [1] * len(free_b))
        b2 = arranged(b, lb_, batch + free_b, batch_shape + [1] * len(free_a) + fb_shape)
        return do(_core.multiply, a2, b2), result_labels
    m, n, k = math.prod(fa_shape), math.prod(fb_shape), math.prod(sizes_of(a, la, summed))
    a_rows_first = _rows_first(a, la, free_a, summed)
    b_rows_first = _rows_first(b, lb_, summed, free_b)
    if not batch and m == 1:  # a vector times a matrix (or a dot product): gemv or dot
        a2 = arranged(a, la, free_a + summed, [k])
    elif a_rows_first:
        a2 = arranged(a, la, batch + free_a + summed, batch_shape + [m, k])
    else:  # stored with the summed labels first: hand matmul the transpose's view
        a2 = do(_transpose, arranged(a, la, batch + summed + free_a, batch_shape + [k, m]))
    if not batch and n == 1:
        b2 = arranged(b, lb_, summed + free_b, [k])
    elif b_rows_first:
        b2 = arranged(b, lb_, batch + summed + free_b, batch_shape + [k, n])
    else:
        b2 = do(_transpose, arranged(b, lb_, batch + free_b + summed, batch_shape + [n, k]))
    product = do(_core.matmul, a2, b2)
    return (product if product.shape == result_shape else do(_core.reshape, product, result_shape)), result_labels


def _plan(a_op, b_op, keep):
    """The label groups of a contraction: batch and summed labels in the larger operand's
    memory order, each operand's own labels in its memory order."""
    (a, la), (b, lb_) = a_op, b_op
    sa, sb = set(la), set(lb_)
    lead = _memory_order(a, la) if a.size >= b.size else _memory_order(b, lb_)
    batch = [lb for lb in lead if lb in sa and lb in sb and lb in keep]
    summed = [lb for lb in lead if lb in sa and lb in sb and lb not in keep]
    free_a = [lb for lb in _memory_order(a, la) if lb not in sb]
    free_b = [lb for lb in _memory_order(b, lb_) if lb not in sa]
    return batch, summed, free_a, free_b, batch + free_a + free_b


def _rows_first(x, labels, rows, cols):
    """Whether x lies in memory with its `rows` labels before its `cols` labels (the layout a
    row-major matrix of rows x cols reads without a copy); else it lies the other way round."""
    order = [lb for lb in _memory_order(x, labels) if lb in rows or lb in cols]
    if not rows or not cols:
        return True
    return order.index(cols[0]) > max(order.index(r) for r in rows) if cols[0] in order else True
