"""dlarray.random: random numbers that are the same bits on every device.

`default_rng(seed)` gives a `Generator` over `Philox`, the counter-based Philox-4x32-10 bit
generator (Salmon et al., SC11; cuRAND's and PyTorch's CUDA generator). Element i of a draw is
computed from (key, stream, counter + i / lanes) alone, by one C++ source compiled for every
device (src/core/philox.h), with IEEE operations that no compiler fuses and the library's own
log and sine/cosine: `default_rng(7).normal(size=n, device=d)` is bit-identical on the CPU, on
CUDA and on ROCm, whatever the thread count or launch shape. The streams are not NumPy's (NumPy
seeds PCG64 through SeedSequence); the methods and their arguments are NumPy Generator's, with
`dtype=` and `device=` as dlarray's creation functions take them. `size=None` gives a 0-d array
(as CuPy), not a Python scalar.
"""
from __future__ import annotations

import math
import operator
import secrets
from typing import Any, Optional, Sequence, Union

from . import _core

__all__ = ["Generator", "Philox", "default_rng"]

_MASK64 = (1 << 64) - 1
_MAX_SPAWN = 1 << 24  # children per spawn call: each is a Python object in the returned list
# philox::Kind (src/core/philox.h)
_BITS, _UNIFORM, _NORMAL, _EXPONENTIAL, _INTEGERS = 0, 1, 2, 3, 4
# Random bits per uniform for each float dtype: its significand (the value then is exact in it,
# so a cast to float16 or bfloat16 never rounds a uniform up to 1.0).
_UNIFORM_BITS = {"float64": 53, "float32": 24, "float16": 11, "bfloat16": 8}

Size = Union[None, int, Sequence[int]]


def _mix64(z: int) -> int:
    """A 64-bit finalizer (SplitMix64's): every input bit flips about half the output bits."""
    z = (z + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def _key_from_seed(seed: Any) -> int:
    """The 64-bit key of a seed: None (fresh entropy), a non-negative int of any size, or a
    sequence of them; every 64-bit word of every int goes through the mixer."""
    if seed is None:
        return secrets.randbits(64)
    words = []
    for s in (seed if isinstance(seed, (list, tuple)) else [seed]):
        try:
            s = operator.index(s)
        except TypeError:
            raise TypeError(f"seed must be None, a non-negative int or a sequence of them, not {type(s).__name__}") from None
        if s < 0:
            raise ValueError(f"seed must be non-negative, got {s}")
        chunk = [s & _MASK64]
        s >>= 64
        while s:
            chunk.append(s & _MASK64)
            s >>= 64
        words.extend(chunk + [len(chunk)])  # the length keeps 1 and (1, 0) apart
    key = _mix64(len(words))
    for w in words:
        key = _mix64(key ^ w)
    return key


class Philox:
    """Philox-4x32-10: a 64-bit key, a 32-bit stream number and a 64-bit counter of 128-bit blocks.

    `state` is a dict (save and restore it, or pickle the object); `spawn(n)` gives n generators
    with keys of their own."""

    def __init__(self, seed: Any = None, *, stream: int = 0):
        self._key = _key_from_seed(seed)
        if not 0 <= stream < 2**32:
            raise ValueError(f"stream must be in [0, 2**32), got {stream}")
        self._stream = stream
        self._counter = 0
        self._spawned = 0

    @property
    def state(self) -> dict:
        return {"bit_generator": "Philox4x32-10", "key": self._key, "stream": self._stream,
                "counter": self._counter, "spawned": self._spawned}

    @state.setter
    def state(self, value: dict) -> None:
        if not isinstance(value, dict) or value.get("bit_generator") != "Philox4x32-10":
            raise ValueError("state must be a dict from Philox.state (bit_generator 'Philox4x32-10')")
        key, stream, counter = value["key"], value["stream"], value["counter"]
        if not (0 <= key <= _MASK64 and 0 <= stream < 2**32 and 0 <= counter <= _MASK64):
            raise ValueError("state holds a key, stream or counter out of range")
        self._key, self._stream, self._counter = key, stream, counter
        self._spawned = value.get("spawned", 0)

    def spawn(self, n_children: int) -> list:
        """n_children bit generators with keys derived from this one's and their spawn index."""
        n_children = operator.index(n_children)
        if not 0 <= n_children <= _MAX_SPAWN:
            raise ValueError(f"n_children must be in [0, {_MAX_SPAWN}] (a list of generators is built), got {n_children}")
        children = []
        for _ in range(n_children):
            self._spawned += 1
            child = Philox.__new__(Philox)
            child._key = _mix64(self._key ^ _mix64(self._spawned ^ (self._stream << 32)))
            child._stream, child._counter, child._spawned = 0, 0, 0
            children.append(child)
        return children

    def __repr__(self) -> str:
        return f"Philox(key={self._key:#018x}, stream={self._stream}, counter={self._counter})"


def _shape_of(size: Size) -> tuple:
    if size is None:
        return ()
    if isinstance(size, (list, tuple)):
        shape = tuple(operator.index(s) for s in size)
    else:
        try:
            shape = (operator.index(size),)
        except TypeError:
            raise TypeError(f"size must be None, an int or a tuple of ints, not {type(size).__name__}") from None
    if any(s < 0 for s in shape):
        raise ValueError(f"negative dimensions are not allowed (size={size})")
    return shape


def _float_dtype(dtype: Any, what: str):
    dt = _core.float64 if dtype is None else dtype
    name = getattr(dt, "name", None) if not isinstance(dt, str) else dt
    if name not in _UNIFORM_BITS:
        raise TypeError(f"{what}: dtype must be float64, float32, float16 or bfloat16, not {dtype!r}")
    return getattr(_core, name), name


def _is_array(x: Any) -> bool:
    return isinstance(x, _core.Array)


class Generator:
    """Random numbers on any device from a counter-based bit generator (NumPy Generator's methods)."""

    def __init__(self, bit_generator: Philox):
        if not isinstance(bit_generator, Philox):
            raise TypeError(f"bit_generator must be a dlarray.random.Philox, not {type(bit_generator).__name__}")
        self._bit_generator = bit_generator

    @property
    def bit_generator(self) -> Philox:
        return self._bit_generator

    def spawn(self, n_children: int) -> list:
        """n_children independent generators (their own keys)."""
        return [Generator(b) for b in self._bit_generator.spawn(n_children)]

    def __repr__(self) -> str:
        return f"Generator({self._bit_generator!r})"

    # ---- the one path to the kernels ----

    def _fill(self, shape: tuple, dtype, kind: int, bits: int, a: float = 0.0, b: float = 0.0,
              low: int = 0, range_: int = 0, device=None):
        out = _core.empty(shape, dtype=dtype, device=device)
        bg = self._bit_generator
        # The kernel says how many counter blocks the draw used (its values per block are its rule).
        used = _core._random_fill(out, kind, bg._key, bg._stream, bg._counter, bits, float(a), float(b), low, range_)
        bg._counter = (bg._counter + used) & _MASK64
        return out

    def _real(self, kind: int, shape: tuple, dtype, what: str, a: float, b: float, device):
        dt, name = _float_dtype(dtype, what)
        # Normals and exponentials read 32-bit uniforms below float64 (their value is rounded to
        # the dtype once, from float64, for float16 and bfloat16).
        bits = _UNIFORM_BITS[name] if kind == _UNIFORM else (53 if name == "float64" else 32)
        if name in ("float64", "float32"):
            return self._fill(shape, dt, kind, bits, a, b, device=device)
        return _core.astype(self._fill(shape, _core.float64, kind, bits, a, b, device=device), dt)

    # ---- continuous distributions ----

    def random(self, size: Size = None, dtype: Any = None, *, device: Any = None):
        """Uniform floats in [0, 1): float64 (53 random bits) or float32 (24), float16 (11), bfloat16 (8)."""
        return self._real(_UNIFORM, _shape_of(size), dtype, "random", 0.0, 1.0, device)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Size = None, *, dtype: Any = None, device: Any = None):
        """Uniform floats in [low, high): low + (high - low) * random()."""
        if _is_array(low) or _is_array(high):
            return self._with_array_parameters(low, high - low, size, dtype, device, self.random)
        width = float(high) - float(low)
        if not math.isfinite(width):
            raise OverflowError(f"uniform: high - low must be finite, got low={low}, high={high}")
        return self._real(_UNIFORM, _shape_of(size), dtype, "uniform", float(low), width, device)

    def standard_normal(self, size: Size = None, dtype: Any = None, *, device: Any = None):
        """Standard normal floats (Box-Muller over pairs of uniforms)."""
        return self._real(_NORMAL, _shape_of(size), dtype, "standard_normal", 0.0, 1.0, device)

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Size = None, *, dtype: Any = None, device: Any = None):
        """Normal floats of mean loc and standard deviation scale (>= 0)."""
        if _is_array(loc) or _is_array(scale):
            self._check_non_negative(scale, "scale")
            return self._with_array_parameters(loc, scale, size, dtype, device, self.standard_normal)
        if not float(scale) >= 0:
            raise ValueError(f"normal: scale must be non-negative, got {scale}")
        return self._real(_NORMAL, _shape_of(size), dtype, "normal", float(loc), float(scale), device)

    def standard_exponential(self, size: Size = None, dtype: Any = None, *, device: Any = None):
        """Exponential floats of scale 1: -log(u), u uniform in (0, 1]."""
        return self._real(_EXPONENTIAL, _shape_of(size), dtype, "standard_exponential", 0.0, 1.0, device)

    def exponential(self, scale: Any = 1.0, size: Size = None, *, dtype: Any = None, device: Any = None):
        """Exponential floats of mean scale (>= 0)."""
        if _is_array(scale):
            self._check_non_negative(scale, "scale")
            return self._with_array_parameters(0.0, scale, size, dtype, device, self.standard_exponential)
        if not float(scale) >= 0:
            raise ValueError(f"exponential: scale must be non-negative, got {scale}")
        return self._real(_EXPONENTIAL, _shape_of(size), dtype, "exponential", 0.0, float(scale), device)

    @staticmethod
    def _check_non_negative(x: Any, name: str) -> None:
        if _is_array(x) and bool(_core.any(_core.less(x, 0))):
            raise ValueError(f"{name} must be non-negative")

    def _with_array_parameters(self, shift, scale, size, dtype, device, standard):
        """shift + scale * standard(shape), broadcasting array parameters as NumPy does; each
        operation is one IEEE kernel, so these are the same bits on every device too."""
        arrays = [x for x in (shift, scale) if _is_array(x)]
        device = device if device is not None else arrays[0].device
        shape = _core.broadcast_shapes(*[x.shape for x in arrays]) if size is None else _shape_of(size)
        if dtype is None:
            dtype = _core.result_type(*arrays, _core.float32) if all(
                x.dtype in (_core.float32, _core.float64) for x in arrays) else _core.float64
        z = standard(shape, dtype, device=device)
        return shift + scale * z if not (isinstance(shift, float) and shift == 0.0) else scale * z

    # ---- integers ----

    def integers(self, low: int, high: Optional[int] = None, size: Size = None, dtype: Any = None,
                 endpoint: bool = False, *, device: Any = None):
        """Uniform integers in [low, high) (or [low, high] with endpoint=True; [0, low) when high
        is None), without bias (Lemire's multiply-and-reject, on 32-bit words for ranges up to 2**32
        and on 64-bit words beyond)."""
        dt = _core.int64 if dtype is None else dtype
        name = getattr(dt, "name", dt)
        if name == "bool":
            info_min, info_max = 0, 1
        else:
            try:
                info = _core.iinfo(dt)
            except (TypeError, ValueError):
                raise TypeError(f"integers: dtype must be an integer dtype or bool, not {dtype!r}") from None
            info_min, info_max = info.min, info.max
        if _is_array(low) or _is_array(high):
            raise TypeError("integers: low and high must be Python ints (array bounds are not supported)")
        if high is None:
            low, high = 0, low
        low, high = operator.index(low), operator.index(high)
        top = high if endpoint else high - 1
        if low < info_min:
            raise ValueError(f"integers: low is out of bounds for {name}")
        if top > info_max:
            raise ValueError(f"integers: high is out of bounds for {name}")
        if low > top:
            raise ValueError("integers: low > high" if endpoint else "integers: low >= high")
        span = top - low + 1  # 1 .. 2**64; 2**64 is passed as 0 ("every word")
        words = _core.uint64 if name == "uint64" else _core.int64
        out = self._fill(_shape_of(size), words, _INTEGERS, 0, low=low & _MASK64, range_=span & _MASK64, device=device)
        return out if name in ("int64", "uint64") else _core.astype(out, dt)

    # ---- permutations and sampling ----

    def _permutation_indices(self, n: int, device):
        """A uniformly random order of range(n): a stable argsort of n random 64-bit words."""
        keys = self._fill((n,), _core.uint64, _BITS, 0, device=device)
        return _core.argsort(keys)

    def permutation(self, x: Any, *, axis: int = 0, device: Any = None):
        """A permuted arange(x) for an int x; otherwise a copy of x shuffled along axis."""
        if not _is_array(x):
            n = operator.index(x)
            if n < 0:
                raise ValueError(f"permutation: x must be non-negative, got {n}")
            return self._permutation_indices(n, device)
        if x.ndim == 0:
            raise ValueError("permutation: x must be an integer or at least 1-dimensional")
        axis = _normalize_axis(axis, x.ndim, "permutation")
        return _core.take(x, self._permutation_indices(x.shape[axis], x.device), axis=axis)

    def shuffle(self, x: Any, axis: int = 0) -> None:
        """Shuffles x in place along axis."""
        if not _is_array(x):
            raise TypeError(f"shuffle: x must be a dlarray array, not {type(x).__name__}")
        if x.ndim == 0:
            raise ValueError("shuffle: x must be at least 1-dimensional")
        axis = _normalize_axis(axis, x.ndim, "shuffle")
        x[...] = _core.take(x, self._permutation_indices(x.shape[axis], x.device), axis=axis)

    def choice(self, a: Any, size: Size = None, replace: bool = True, p: Any = None, axis: int = 0,
               shuffle: bool = True, *, device: Any = None):
        """Samples from range(a) for an int a, or from a's entries along axis; with or without
        replacement, uniformly or with probabilities p."""
        if _is_array(a):
            if a.ndim == 0:
                raise ValueError("choice: a must be 1-dimensional or an integer")
            axis = _normalize_axis(axis, a.ndim, "choice")
            n, device = a.shape[axis], a.device if device is None else device
        else:
            n = operator.index(a)
            if n < 0:
                raise ValueError(f"choice: a must be a positive integer unless no samples are taken, got {n}")
        shape = _shape_of(size)
        k = math.prod(shape)
        if n == 0 and k > 0:
            raise ValueError("choice: a cannot be empty unless no samples are taken")
        if p is not None:
            idx = self._weighted_choice(p, n, shape, k, replace, device)
        elif replace:
            idx = self.integers(0, max(n, 1), size=shape, device=device)
        else:
            if k > n:
                raise ValueError("choice: cannot take a larger sample than population when replace is False")
            idx = _core.reshape(self._permutation_indices(n, device)[:k], shape)
        return _take_shaped(a, idx, axis) if _is_array(a) else idx

    def _weighted_choice(self, p, n, shape, k, replace, device):
        # The cumulative sums are taken on the host in float64, the same on every device.
        host_p = _core.asarray(p, dtype=_core.float64, device="cpu") if not _is_array(p) else \
            _core.astype(p.to_device("cpu"), _core.float64)
        if host_p.ndim != 1:
            raise ValueError("choice: p must be 1-dimensional")
        if host_p.shape[0] != n:
            raise ValueError(f"choice: a and p must have the same size ({n} and {host_p.shape[0]})")
        if bool(_core.any(_core.logical_not(_core.isfinite(host_p)))) or bool(_core.any(_core.less(host_p, 0))):
            raise ValueError("choice: probabilities are not non-negative finite numbers")
        total = float(_core.sum(host_p))
        if abs(total - 1.0) > 1.5e-8:  # NumPy's tolerance: sqrt of float64's epsilon
            raise ValueError(f"choice: probabilities do not sum to 1 (they sum to {total!r})")
        if replace:
            cdf = _core.cumulative_sum(host_p)
            cdf = cdf / cdf[-1]
            u = self.random(shape, device=device)
            idx = _core.searchsorted(cdf.to_device(u.device), u, side="right")
            return _core.minimum(idx, n - 1)  # u below 1 never passes cdf[-1] == 1; kept for safety
        nonzero = int(_core.count_nonzero(host_p))
        if k > nonzero:
            raise ValueError("choice: fewer non-zero entries in p than size")
        # Efraimidis and Spirakis (2006): the k smallest exponential / p are a weighted sample
        # without replacement (p = 0 gives inf: never chosen).
        e = self.standard_exponential((n,), device=device)
        keys = _core.divide(e, host_p.to_device(e.device))
        return _core.reshape(_core.argsort(keys)[:k], shape)


def _take_shaped(a, idx, axis):
    """a's entries at idx along axis, idx's shape in place of that axis (NumPy's choice)."""
    flat = _core.take(a, _core.reshape(idx, (-1,)), axis=axis)
    shape = a.shape[:axis] + tuple(idx.shape) + a.shape[axis + 1:]
    return _core.reshape(flat, shape)


def _normalize_axis(axis: int, ndim: int, what: str) -> int:
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise IndexError(f"{what}: axis {axis} is out of bounds for an array of dimension {ndim}")
    return axis % ndim


def default_rng(seed: Any = None) -> Generator:
    """A Generator over Philox seeded with `seed` (None: fresh entropy; a Generator: itself)."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, Philox):
        return Generator(seed)
    return Generator(Philox(seed))
