"""Random calls of every public function and Array method with random, mostly wrong, arguments:
the bad-input rule ("never crash, never an exception the standard does not name") checked
beyond the inputs anyone thought of. Run as a script by tests/test_random_calls.py, in a child
process, so that a crash fails the test instead of the test run; each call is written to the log
file before it is made, so a crash names its call.

    python tests/helpers/random_calls.py SEED CALLS LOG [DEVICE]

DEVICE `rocm:0` installs the fake GPU backend and makes it the default device, so that the GPU
paths see the same calls. Prints one line per call that raised an exception outside ALLOWED or
ran longer than SLOW_CALL_S, then `done N calls, M bad`.
"""
import inspect
import math
import os
import random
import resource
import signal
import sys

import numpy as np

import dlarray as dl

# The exceptions the standard and Python name for bad input (LinAlgError and CopyError are
# ValueErrors); MemoryError for allocations the size checks allow but the machine cannot hold,
# OverflowError for int()/float() of values outside Python's range.
ALLOWED = (TypeError, ValueError, IndexError, BufferError, NotImplementedError, MemoryError, OverflowError,
           ZeroDivisionError)
SLOW_CALL_S = 20

DTYPES = [dl.bool, dl.int8, dl.uint8, dl.int16, dl.uint16, dl.int32, dl.uint32, dl.int64, dl.uint64, dl.float16,
          dl.bfloat16, dl.float32, dl.float64, dl.complex64, dl.complex128, dl.float8_e4m3fn]
SHAPES = [(), (0,), (1,), (3,), (5,), (2, 3), (3, 3), (1, 0, 2), (4, 1), (2, 3, 4), (2, 2, 2, 2), (0, 3), (3, 0)]
VALUES = [0, 1, -1, 2, 3, 0.5, -2.5, 100, 127, 255, -128, 1e300, math.nan, math.inf, -0.0]
SCALARS = [0, 1, -1, 2, 3, -7, 2**31, 2**63 - 1, -2**63, 2**63, 2**64, -2**64, 10**30, 1.5, -0.0, math.nan, math.inf,
           True, False, 1j, 1 + 2j, complex("nan"), 2**62, -2**62]
AXES = [None, 0, 1, -1, 2, -2, 3, 5, -5, (0,), (0, 1), (1, 0), (0, 0), (-1, 0), (), 2**63, -2**63 - 1, 2**40, 1.0,
        "0", [0]]
SHAPE_ARGS = [(), (0,), (3,), (2, 3), (-1,), (-1, 2), (2, -1), (-2,), (2**62, 2**62), (2**31, 2**31, 4), (2**63,),
              (-1, -1), (6,), (1, 1, 1, 1), 5, -3, 0, 2**64, [2, 3], (2.0,), (None,), "3", (2**62, 0),
              (0, 2**62, 2**62), (10**6, 10**6)]
KEYWORDS = ["axis", "keepdims", "dtype", "device", "copy", "stable", "descending", "side", "sorter", "n", "norm", "ord",
            "upper", "full_matrices", "rtol", "correction", "axes", "s", "shape", "k", "num", "endpoint", "step",
            "stop", "fill_value", "min", "max", "include_initial", "prepend", "append", "repeats", "offset",
            "n_rows", "n_cols", "indexing", "source", "destination", "shift", "reps", "invert", "d", "x1", "x2",
            "kind", "max_version", "stream", "dl_device", "api_version"]
METHODS = ["__getitem__", "__setitem__", "__add__", "__radd__", "__iadd__", "__sub__", "__mul__", "__imul__",
           "__truediv__", "__itruediv__", "__floordiv__", "__mod__", "__pow__", "__ipow__", "__rpow__", "__matmul__",
           "__imatmul__", "__and__", "__or__", "__xor__", "__lshift__", "__rshift__", "__ilshift__", "__invert__",
           "__neg__", "__abs__", "__lt__", "__le__", "__eq__", "__ne__", "__gt__", "__ge__", "__bool__", "__int__",
           "__float__", "__complex__", "__index__", "__len__", "__iter__", "__dlpack__", "__dlpack_device__",
           "__array__", "__array_namespace__", "to_device", "astype", "tolist", "__repr__", "__format__", "reshape",
           "transpose", "squeeze", "sum", "cumsum", "clip", "__reduce_ex__", "__copy__", "__deepcopy__"]
SKIPPED = {"set_default_device", "default_device", "cuda", "rocm", "oneapi"}  # process state, not data


class Calls:
    def __init__(self, seed, device):
        self.rng = random.Random(seed)
        self.device = device

    def array(self, dtype=None, shape=None):
        rng = self.rng
        dtype, shape = dtype or rng.choice(DTYPES), shape if shape is not None else rng.choice(SHAPES)
        values = np.array([rng.choice(VALUES) for _ in range(math.prod(shape))]).reshape(shape)
        try:
            x = dl.asarray(values).astype(dtype)
        except ALLOWED:  # the storage-only float8 does not convert
            x = dl.empty(shape, dtype=dtype)
        if self.device and rng.random() < 0.9:
            x = x.to_device(self.device)
        r = rng.random()
        if r < 0.15 and x.ndim >= 2:
            x = x.mT
        elif r < 0.25 and x.ndim >= 1:
            x = x[::-1]
        elif r < 0.3 and x.ndim >= 1:
            x = x[::2]
        return x

    def key(self):
        def one():
            return self.rng.choice([0, 1, -1, 2, -3, 7, 2**63, -2**63 - 1, slice(None), slice(1, None),
                                    slice(None, None, -2), slice(-2**62, 2**62, 3), None, Ellipsis, True, False,
                                    self.array(), [0, 1], [True, False], dl.asarray([0, -1]), dl.asarray([[1], [0]]),
                                    dl.asarray([True, False, True])])
        return tuple(one() for _ in range(self.rng.randint(0, 4))) if self.rng.random() < 0.6 else one()

    def value(self):
        rng, r = self.rng, self.rng.random()
        if r < 0.1:
            return self.key()
        if r < 0.45:
            return self.array()
        if r < 0.65:
            return rng.choice(SCALARS)
        if r < 0.75:
            return rng.choice(SHAPE_ARGS)
        if r < 0.8:
            return rng.choice(DTYPES)
        if r < 0.88:
            return rng.choice([None, "cpu", "cuda:0", "foo", dl.Device("cpu"), object(), [], [[1, 2], [3]],
                               [1, [2]], np.float32, "float32", (1, 0), (2**62, 0)])
        if r < 0.94:
            return [self.array() for _ in range(rng.randint(0, 3))]
        return np.arange(rng.randint(0, 6)).reshape(rng.choice([(-1,), (1, -1)]))

    def keyword(self, name):
        rng = self.rng
        choices = {
            "axis": AXES, "axes": AXES,
            "dtype": DTYPES + [None, "float32", np.float64, int, float, complex, bool, []],
            "side": ["left", "right", "middle", None], "norm": ["backward", "ortho", "forward", "bad", None],
            "ord": [None, 1, 2, -1, -2, math.inf, -math.inf, 0, 3, 0.5, "fro", "nuc", "x"],
            "max_version": [None, (1, 0), (0, 8), (2, 0), (1,), "x", (1, 2, 3)],
            "dl_device": [None, (1, 0), (2, 0), (13, 0), (1, -1), (1, 2**40), "cpu", (1,)],
            "stream": [None, -1, 0, 1, 2, 2**64, "s"], "indexing": ["xy", "ij", "zz"],
            "kind": ["bool", "integral", "real floating", "complex floating", "numeric", "x", ("bool", "integral"), ()],
        }
        if name in choices:
            return rng.choice(choices[name])
        if name in ("keepdims", "copy", "stable", "descending", "upper", "full_matrices", "endpoint",
                    "include_initial", "invert"):
            return rng.choice([True, False, None, 1, "yes"])
        return self.value()

    def plausible(self, param):
        """A value of the kind the parameter takes: its default, or a likely alternative."""
        rng, name = self.rng, param.name
        if name in ("axis", "offset", "k", "shift", "n"):
            return rng.choice([None if param.default is None else param.default, 0, 1, -1, 2])
        if isinstance(param.default, bool):
            return rng.choice([True, False])
        if name == "dtype":
            return rng.choice(DTYPES)
        return param.default if param.default is not param.empty else self.value()

    def next_call(self, functions):
        """(description, callable, args, kwargs)."""
        rng = self.rng
        if rng.random() < 0.75:
            name, f = rng.choice(functions)
            if rng.random() < 0.7:  # arrays for the positional parameters, the function's own keywords
                params = list(inspect.signature(f).parameters.values())
                # Half the time the arrays agree in dtype and shape, so calls get past promotion.
                like = (rng.choice(DTYPES), rng.choice(SHAPES)) if rng.random() < 0.5 else (None, None)
                args = [self.array(*like) if rng.random() < 0.8 else self.value()
                        for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
                if any(p.kind == p.VAR_POSITIONAL for p in params):
                    args += [self.array(*like) for _ in range(rng.randint(0, 3))]
                optional = [p for p in params if p.default is not p.empty or p.kind == p.KEYWORD_ONLY]
                kwargs = {p.name: self.keyword(p.name) if rng.random() < 0.5 else self.plausible(p)
                          for p in rng.sample(optional, min(len(optional), rng.choice([0, 1, 1, 2, 3])))}
            else:
                args = [self.value() for _ in range(rng.choice([0, 1, 1, 1, 2, 2, 3]))]
                kwargs = {k: self.keyword(k) for k in rng.sample(KEYWORDS, rng.choice([0, 0, 1, 1, 2, 3]))}
        else:
            receiver, name = self.array(), rng.choice(METHODS)
            f = getattr(receiver, name)
            args = [self.value() for _ in range(rng.choice([0, 1, 1, 2]))]
            if name in ("__getitem__", "__setitem__") and args and rng.random() < 0.8:
                args[0] = self.key()
            kwargs = {k: self.keyword(k) for k in rng.sample(KEYWORDS, rng.choice([0, 0, 0, 1, 2]))}
            name = f"<{receiver.dtype} {receiver.shape} strides={receiver._strides} {receiver.device}>.{name}"
        return name + "(" + ", ".join([describe(a) for a in args] + [f"{k}={describe(v)}" for k, v in kwargs.items()]) + ")", f, args, kwargs


def describe(v):
    return f"<{v.dtype} {v.shape} {v.device}>" if isinstance(v, dl.Array) else repr(v)[:80]


def public_functions():
    out = [(n, getattr(dl, n)) for n in dir(dl)
           if not n.startswith("_") and n not in SKIPPED and callable(getattr(dl, n)) and not isinstance(getattr(dl, n), type)]
    for module in (dl.linalg, dl.fft):
        out += [(f"{module.__name__.split('.')[-1]}.{n}", getattr(module, n)) for n in dir(module)
                if not n.startswith("_") and callable(getattr(module, n)) and not isinstance(getattr(module, n), type)]
    # dlarray.random: its entry point and every method of a Generator (its state moves on with each call)
    generator = dl.random.default_rng(0)
    out.append(("random.default_rng", dl.random.default_rng))
    out += [(f"random.Generator.{n}", getattr(generator, n)) for n in dir(generator)
            if not n.startswith("_") and callable(getattr(generator, n))]
    return out


class Slow(Exception):
    pass


def on_alarm(*_):
    raise Slow()


def main(seed, n_calls, log_path, device=None):
    if "asan" not in os.environ.get("LD_PRELOAD", ""):  # AddressSanitizer reserves terabytes of address space
        # Shapes the size checks allow but this machine cannot hold fail at once as MemoryError,
        # instead of paging gigabytes in.
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    if device:
        import dlarray._fake_gpu
        if "rocm" in dl._core._backends():  # a ROCm build's backend: this child's rocm:0 is the fake
            dl._core._uninstall_gpu_backend("rocm")
        dlarray._fake_gpu.install()
        dl.set_default_device(device)
    calls, functions = Calls(seed, device), public_functions()
    signal.signal(signal.SIGALRM, on_alarm)
    bad = 0
    with open(log_path, "w") as log:
        for i in range(n_calls):
            description, f, args, kwargs = calls.next_call(functions)
            log.write(f"{i}: {description}\n")
            log.flush()
            signal.alarm(SLOW_CALL_S)
            try:
                result = f(*args, **kwargs)
                if isinstance(result, dl.Array) and result.size < 10**6:
                    result.to_device("cpu").tolist()  # the result is readable
            except ALLOWED:
                pass
            except Slow:
                bad += 1
                print(f"SLOW (over {SLOW_CALL_S} s) {i}: {description}", flush=True)
            except Exception as e:  # noqa: BLE001  (what the test is looking for)
                bad += 1
                print(f"UNEXPECTED {type(e).__name__}: {str(e)[:300]} :: {i}: {description}", flush=True)
            finally:
                signal.alarm(0)
    print(f"done {n_calls} calls, {bad} bad")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], *sys.argv[4:5])
