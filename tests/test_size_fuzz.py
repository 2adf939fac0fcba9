"""Deterministic fuzz of every function that takes a shape, count, axis, index or offset (issue 9).

Each case calls one function with integers drawn from a hostile pool (0 and small values,
2**31 and 2**32, 2**61 to 2**64, negatives, past 64 bits) and asserts that the call either
raises one of the exceptions the standard names (TypeError, ValueError, IndexError,
OverflowError, MemoryError, BufferError; never RuntimeError or SystemError, which is what
a C++ error or an exception left pending becomes) or returns arrays whose size is the
product of their shape and whose nbytes is size * itemsize; when NumPy answers the same
call with a small array, the values must be NumPy's.

The seed is fixed, so every run draws the same cases (a failure prints its case). Calls
whose result would be a feasible but large allocation (1 MiB to 2**48 bytes) are not made:
they test the machine, not the arithmetic; above 2**48 bytes no address space can hold
them and they must raise. FUZZ_CASES and FUZZ_SEED override the defaults for exploring.
"""
import math
import os
import random

import numpy as np
import pytest

import dlarray as dl
from helpers import dlpack_ctypes as H

SEED = int(os.environ.get("FUZZ_SEED", "20261122"))
CASES = int(os.environ.get("FUZZ_CASES", "10000"))
ALLOWED = (TypeError, ValueError, IndexError, OverflowError, MemoryError, BufferError)
SMALL_BYTES = 1 << 20       # results up to this size are computed and compared with NumPy
IMPOSSIBLE_BYTES = 1 << 48  # more than any x86-64 or arm64 address space: must raise

EDGES = [2**31 - 1, 2**31, 2**32, 2**61, 2**62, 2**63 - 1, 2**63, 2**64, 2**70,
         -2**31, -2**63, -2**63 - 1, -2**64]
SMALL = [0, 1, 2, 3, 5, -1, -2, -3]


def draw_int(rng):
    return rng.choice(SMALL) if rng.random() < 0.6 else rng.choice(EDGES)


def draw_count(rng):
    """A dimension or count: mostly non-negative, sometimes hostile."""
    return rng.choice([0, 1, 2, 3, 4]) if rng.random() < 0.55 else rng.choice(EDGES + [-1])


def draw_shape(rng, max_ndim=4):
    return tuple(draw_count(rng) for _ in range(rng.randint(0, max_ndim)))


def draw_slice(rng):
    part = lambda: None if rng.random() < 0.3 else draw_int(rng)  # noqa: E731
    step = part()
    return slice(part(), part(), None if step == 0 else step)


DTYPES = ["bool", "int8", "int32", "int64", "float32", "float64", "complex128"]


def sample(rng, ndim=None):
    shape = tuple(rng.randint(0, 4) for _ in range(rng.randint(0, 3) if ndim is None else ndim))
    return np.arange(math.prod(shape), dtype=np.int64).reshape(shape)


def nbytes_of(shape, dtype="float64"):
    if any(d < 0 for d in shape):
        return None  # negative: must raise, whatever the size
    return math.prod(shape) * np.dtype(dtype).itemsize


# ---- the cases: each returns (description, dlarray call, NumPy call, result bytes or None) -----
# Result bytes: None when the result cannot be larger than the inputs (always safe to call).

def case_creation(rng):
    shape, dtype = draw_shape(rng), rng.choice(DTYPES)
    kind = rng.choice(["zeros", "ones", "empty", "full"])
    if kind == "full":
        return (f"full({shape}, 7, dtype={dtype})", lambda: dl.full(shape, 7, dtype=getattr(dl, dtype)),
                lambda: np.full(shape, 7, dtype=dtype), nbytes_of(shape, dtype))
    return (f"{kind}({shape}, dtype={dtype})", lambda: getattr(dl, kind)(shape, dtype=getattr(dl, dtype)),
            None if kind == "empty" else lambda: getattr(np, kind)(shape, dtype=dtype), nbytes_of(shape, dtype))


def case_arange(rng):
    args = [draw_int(rng) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.2:
        args[0] = float(args[0]) / 3
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) == 3 else 1)
    n = 0 if step == 0 else max(0, math.ceil((stop - start) / step) if isinstance(start, float) else
                                   -((start - stop) // step))
    # Integer ranges are compared with Python's exact range: NumPy computes the length in
    # double precision and gets arange(-2**63, 1, 2**61) one element short.
    exact = all(isinstance(a, int) for a in args) and step != 0
    expected = (lambda: np.asarray(range(start, stop, step), dtype=np.int64)) if exact else (lambda: np.arange(*args))
    return f"arange{tuple(args)}", lambda: dl.arange(*args), expected, n * 8


def case_linspace(rng):
    num = draw_count(rng)
    endpoint = rng.random() < 0.5
    return (f"linspace(-1, 2, {num}, endpoint={endpoint})", lambda: dl.linspace(-1, 2, num, endpoint=endpoint),
            lambda: np.linspace(-1, 2, num, endpoint=endpoint), nbytes_of((num,)))


def case_eye(rng):
    n, m, k = draw_count(rng), draw_count(rng), draw_int(rng)
    return (f"eye({n}, {m}, k={k})", lambda: dl.eye(n, m, k=k), lambda: np.eye(n, m, k=k), nbytes_of((n, m)))


def case_tri(rng):
    x, k, f = sample(rng, rng.randint(2, 3)), draw_int(rng), rng.choice(["tril", "triu"])
    return (f"{f}({x.shape}, k={k})", lambda: getattr(dl, f)(dl.asarray(x), k=k),
            lambda: getattr(np, f)(x, k=k), None)


def case_reshape(rng):
    x, shape = sample(rng), draw_shape(rng)
    return (f"reshape({x.shape}, {shape})", lambda: dl.reshape(dl.asarray(x), shape), lambda: np.reshape(x, shape), None)


def case_broadcast_to(rng):
    x, shape = sample(rng, rng.randint(0, 2)), draw_shape(rng)
    # A view: safe to make at any size; compared when small.
    return (f"broadcast_to({x.shape}, {shape})", lambda: dl.broadcast_to(dl.asarray(x), shape),
            lambda: np.broadcast_to(x, shape), None)


def case_tile(rng):
    x, reps = sample(rng), draw_shape(rng, 3)
    d = max(x.ndim, len(reps))
    xs, rs = (1,) * (d - x.ndim) + x.shape, (1,) * (d - len(reps)) + reps
    # NumPy's tile and repeat loop over every repetition even when the result is empty.
    return (f"tile({x.shape}, {reps})", lambda: dl.tile(dl.asarray(x), reps),
            (lambda: np.tile(x, reps)) if max(reps, default=0) < 2**20 else None,
            nbytes_of(tuple(a * b for a, b in zip(xs, rs)), "int64"))


def case_repeat(rng):
    x, r = sample(rng, rng.randint(1, 2)), draw_count(rng)
    axis = rng.choice([None, 0, x.ndim - 1, draw_int(rng)])
    n = x.size if axis is None else (x.shape[axis] if -x.ndim <= axis < x.ndim else 0)
    return (f"repeat({x.shape}, {r}, axis={axis})", lambda: dl.repeat(dl.asarray(x), r, axis=axis),
            (lambda: np.repeat(x, r, axis=axis)) if r < 2**20 else None, nbytes_of((n * r, x.size // max(n, 1)), "int64") if r >= 0 else None)


def case_axis_function(rng):
    x = sample(rng, rng.randint(1, 3))
    a = draw_int(rng) if rng.random() < 0.7 else rng.randint(-x.ndim, x.ndim - 1)
    b = draw_int(rng) if rng.random() < 0.5 else rng.randint(-x.ndim, x.ndim - 1)
    calls = {
        "expand_dims": (lambda m, v: m.expand_dims(v, axis=a)),
        "squeeze": (lambda m, v: m.squeeze(v, axis=a)),
        "flip": (lambda m, v: m.flip(v, axis=a)),
        "moveaxis": (lambda m, v: m.moveaxis(v, a, b)),
        "roll": (lambda m, v: m.roll(v, b, axis=a)),
        "roll_flat": (lambda m, v: m.roll(v, a)),
        "roll_axes": (lambda m, v: m.roll(v, (a, b), axis=(0, 0))),
        "concat": (lambda m, v: (m.concat if m is dl else m.concatenate)([v, v], axis=a)),
        "stack": (lambda m, v: m.stack([v, v], axis=a)),
        "sum": (lambda m, v: m.sum(v, axis=a)),
        "cumulative_sum": (lambda m, v: m.cumulative_sum(v, axis=a) if m is dl else m.cumsum(v, axis=a)),
        "take": (lambda m, v: m.take(v, m.asarray([0, -1]) if v.shape[a % v.ndim] else m.asarray([], dtype=m.int64),
                                     axis=a) if -v.ndim <= a < v.ndim else m.take(v, m.asarray([0]), axis=a)),
        "unstack": (lambda m, v: m.unstack(v, axis=a) if m is dl else tuple(np.moveaxis(v, a, 0))),
        "diff": (lambda m, v: m.diff(v, axis=a)),
    }
    name = rng.choice(sorted(calls))
    f = calls[name]
    return (f"{name}({x.shape}, {a}, {b})", lambda: f(dl, dl.asarray(x)), lambda: f(np, x), None)


def case_getitem(rng):
    x = sample(rng, rng.randint(1, 3))
    key = tuple(draw_int(rng) if rng.random() < 0.3 else draw_slice(rng) for _ in range(rng.randint(1, x.ndim)))
    return f"x{x.shape}[{key}]", lambda: dl.asarray(x)[key], lambda: x[key], None


def case_setitem(rng):
    x = sample(rng, rng.randint(1, 3))
    key = tuple(draw_int(rng) if rng.random() < 0.3 else draw_slice(rng) for _ in range(rng.randint(1, x.ndim)))

    def assign(m):
        y = m.asarray(x, copy=True)
        y[key] = -7
        return y

    return f"x{x.shape}[{key}] = -7", lambda: assign(dl), lambda: assign(np), None


def case_index_array(rng):
    x = sample(rng, rng.randint(1, 2))
    values = [draw_int(rng) for _ in range(rng.randint(0, 3))]
    dtype = rng.choice(["int64", "uint64", "int8"])
    if not all(np.iinfo(dtype).min <= v <= np.iinfo(dtype).max for v in values):
        dtype = "int64"
        values = [max(min(v, 2**63 - 1), -2**63) for v in values]
    return (f"x{x.shape}[asarray({values}, {dtype})]",
            lambda: dl.asarray(x)[dl.asarray(values, dtype=getattr(dl, dtype))],
            lambda: x[np.asarray(values, dtype=dtype)], None)


def case_meshgrid(rng):
    lengths = [rng.choice([0, 1, 2, 3, 50, 256]) for _ in range(rng.randint(1, 8))]
    indexing = rng.choice(["xy", "ij"])
    shape = list(lengths)
    if indexing == "xy" and len(shape) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    return (f"meshgrid({lengths}, indexing={indexing})",
            lambda: dl.meshgrid(*[dl.arange(n) for n in lengths], indexing=indexing),
            lambda: np.meshgrid(*[np.arange(n) for n in lengths], indexing=indexing),
            nbytes_of(shape, "int64") * len(lengths))


def case_dlpack(rng):
    """A hand-made DLPack tensor over 64 bytes with a hostile shape, strides and offset."""
    ndim = rng.randint(0, 3)
    shape = [draw_count(rng) for _ in range(ndim)]
    strides = [rng.choice([0, 1, 2, -1, draw_int(rng)]) for _ in range(ndim)]
    offset = rng.choice([0, 8, 2**62, 2**63 - 8])
    shape = [max(min(d, 2**63 - 1), -2**63) for d in shape]
    strides = [max(min(s, 2**63 - 1), -2**63) for s in strides]
    backing = np.arange(8.0)
    log = H.DeleterLog()

    def call():
        p = H.Producer(lambda: H.capsule_of(H.make_tensor(log, backing=backing, shape=shape, strides=strides,
                                                          byte_offset=offset, code=2, bits=64)))
        a = dl.from_dlpack(p)
        # Reading is safe only when the layout stays inside the 64 bytes.
        lo = offset + sum((d - 1) * s * 8 for d, s in zip(shape, strides) if s < 0 and d > 0)
        hi = offset + 8 + sum((d - 1) * s * 8 for d, s in zip(shape, strides) if s > 0 and d > 0)
        if 0 < a.size <= 4096 and 0 <= lo and hi <= 64:
            a.tolist()
        return a

    return f"from_dlpack(shape={shape}, strides={strides}, byte_offset={offset})", call, None, None


CASE_MAKERS = [case_creation, case_arange, case_linspace, case_eye, case_tri, case_reshape, case_broadcast_to,
               case_tile, case_repeat, case_axis_function, case_axis_function, case_getitem, case_setitem,
               case_index_array, case_meshgrid, case_dlpack]


def check_arrays(result):
    arrays = result if isinstance(result, (tuple, list)) else (result,)
    for a in arrays:
        assert isinstance(a, dl.Array)
        assert a.size == math.prod(a.shape) and a.size >= 0
        assert a.nbytes == a.size * a.itemsize
    return arrays


def run_case(desc, call, np_call, nbytes):
    if nbytes is not None and SMALL_BYTES < nbytes < IMPOSSIBLE_BYTES:
        return "skipped"
    try:
        result = call()
    except ALLOWED as e:
        assert "Unable to cast" not in str(e), f"{desc}: pybind11's message leaked: {e}"
        return "raised"
    except BaseException as e:  # noqa: BLE001 - the point is to catch everything else
        pytest.fail(f"{desc}: raised {type(e).__name__}: {e}")
    assert nbytes is None or nbytes < IMPOSSIBLE_BYTES, f"{desc}: returned an array of {nbytes} bytes"
    arrays = check_arrays(result)
    small = sum(a.nbytes for a in arrays) <= SMALL_BYTES
    if np_call is not None and small:
        try:
            expected = np_call()
        except Exception:  # NumPy refused: ours may still give a valid answer (e.g. eye with k=2**70)
            return "returned"
        expected = expected if isinstance(expected, (tuple, list)) else (expected,)
        assert len(expected) == len(arrays), desc
        for a, e in zip(arrays, expected):
            e = np.asarray(e)
            assert a.shape == e.shape, f"{desc}: shape {a.shape} != NumPy's {e.shape}"
            # (An empty (2**62, 0) view has no values, and a list of 2**62 empty lists is not a test.)
            if a.size:
                assert a.dtype == getattr(dl, str(e.dtype)) or a.dtype == dl.int64, f"{desc}: dtype {a.dtype}"
                if e.dtype.kind in "fc":  # float arange: NumPy steps by (start + step) - start
                    assert np.allclose(np.asarray(a.tolist()), e, rtol=1e-12, atol=0, equal_nan=True), desc
                else:
                    assert a.tolist() == e.tolist(), f"{desc}: values differ from NumPy's"
    return "returned"


def test_fuzz_sizes_axes_indices_and_offsets():
    rng = random.Random(SEED)
    outcomes = {"raised": 0, "returned": 0, "skipped": 0}
    for _ in range(CASES):
        maker = rng.choice(CASE_MAKERS)
        outcomes[run_case(*maker(rng))] += 1
    # The pools are tuned so that most cases run and both outcomes are common.
    assert outcomes["skipped"] < CASES // 10, outcomes
    assert outcomes["raised"] > CASES // 5 and outcomes["returned"] > CASES // 5, outcomes
