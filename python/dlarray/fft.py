"""dlarray.fft: the array API `fft` extension (2025.12) on CPU and on GPU arrays.

No FFT is written here. On GPU arrays (cuda:N, rocm:N) the transforms are cuFFT's, through
`_core._gpu_fft` (src/backends/gpu/gpu_fft.h), given the lengths, axes and norm factor resolved
here. On the CPU they are pocketfft, through `scipy.fft` when SciPy is installed
(threads with `workers=` for large inputs) and through `numpy.fft` otherwise (NumPy >= 2.0 keeps
float32 as complex64, as scipy.fft does). Either is called on a zero-copy, possibly read-only NumPy
view of the dlarray memory (`numpy.from_dlpack`) and its result is wrapped without a copy
(`dlarray.from_dlpack`). Why SciPy first: single-threaded it took less CPU time than numpy.fft at
every benchmark size (float32 about 3x less), and it can use threads (benchmarks/fft.py --scipy;
figures in docs/performance.md).
Every device takes one path: the arguments are checked here once, then the runner of x's device
(_RUNNERS) calls its library. This file owns what the standard asks beyond the libraries: argument
checks with the exceptions the standard names (TypeError for dtypes, ValueError for n, s, axes,
norm), the dtype rules, and a clean error for arrays on devices without an FFT library (a ROCm
build without hipFFT). NumPy and SciPy
are imported by the first transform, not by `import dlarray` (NumPy alone costs ~60 ms there, SciPy ~250 ms).
"""
from . import _core

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_TRANSFORMS = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "rfftn", "irfftn")
_Array = _core.Array
_from_numpy = _core.from_dlpack
_np = None  # numpy, bound by _use_backend() on the first transform
_to_numpy = None  # numpy.from_dlpack, bound by _use_backend()
# name -> callable(a, n_or_s, axis_or_axes, norm, overwrite_x, workers), scipy.fft's positional
# order; filled by _use_backend(). The functions hold this dict (not a copy), so switching
# backends (the tests run both) reaches every one of them.
_IMPL = {}
_THREADS_FROM = 1 << 16  # elements; below this a thread hand-off costs more than it saves
_threads = _core._num_threads  # large transforms use as many threads as dlarray's own kernels

# Accepted input dtypes as NumPy type characters (f d: float32 float64; F D: complex64 complex128).
# The complex-input transforms also take real floating input, as NumPy and PyTorch do (the standard
# says "should" be complex): it is promoted to the complex dtype of the same precision, so float32
# stays single precision. The real-input transforms reject complex input (the standard says "must").
_NORMS = ("backward", "ortho", "forward", None)  # None: "backward", as NumPy and SciPy accept
_FLOATING = "fdFD"
_REAL = "fd"
_EXPECTED = {_FLOATING: "a real or complex floating-point dtype", _REAL: "a real floating-point dtype"}


def _use_backend(name=None):
    """Binds the transforms to "scipy" (scipy.fft) or "numpy" (numpy.fft); None: SciPy if installed.

    Returns the name bound. Both take the same arguments from us; only SciPy takes `workers`.
    """
    global _np, _to_numpy
    import numpy

    if name is None:
        try:
            import scipy.fft  # noqa: F401
            name = "scipy"
        except ImportError:
            name = "numpy"
    if name == "scipy":
        import scipy.fft as backend

        impl = {t: getattr(backend, t) for t in _TRANSFORMS}  # (x, n, axis, norm, overwrite_x, workers)
    elif name == "numpy":
        impl = {t: (lambda a, n, axis, norm, overwrite, workers, f=getattr(numpy.fft, t): f(a, n, axis, norm))
                for t in _TRANSFORMS}
    else:
        raise ValueError(f"fft backend must be 'scipy' or 'numpy', got {name!r}")
    _np, _to_numpy = numpy, numpy.from_dlpack
    _IMPL.clear()
    _IMPL.update(impl)
    return name


def _integers_as_float64(x):
    """Integer and bool input transforms as float64, as NumPy's and SciPy's do (the standard
    leaves non-floating input to the implementation; dlarray's floating functions all do this)."""
    if type(x) is _Array and _core.isdtype(x.dtype, ("bool", "integral")):
        return _core.astype(x, _core.float64)
    return x


# ---- One path for every device ----------------------------------------------------------------
# Each transform checks its arguments the same way whatever the device (type, dtype, axes,
# lengths), then hands them to the runner of x's device, found in _RUNNERS by the DLPack device
# type: _host_run for CPU memory (pocketfft through SciPy or NumPy), _device_run for cuda:N and
# rocm:N (the vendor library through _core._gpu_fft). A device without a runner raises
# NotImplementedError. A runner takes (name, x, n or s, axis or axes, norm) as scipy.fft's
# functions do: n / s None means the default lengths, axes None every axis.
_DTYPES = {_FLOATING: (_core.float32, _core.float64, _core.complex64, _core.complex128),
           _REAL: (_core.float32, _core.float64)}


def _runner(x, accepted, name):
    """The runner for x's device, after checking that x is an Array of an accepted dtype."""
    if type(x) is not _Array:
        raise TypeError(f"fft.{name}: x must be a dlarray.Array, got {type(x).__name__}")
    if x.dtype not in _DTYPES[accepted]:
        raise TypeError(f"fft.{name}: x has dtype {x.dtype}; expected {_EXPECTED[accepted]}")
    run = _RUNNERS.get(x.__dlpack_device__()[0])
    if run is None:
        raise NotImplementedError(f"fft.{name} on device '{x.device}' is not available yet")
    return run


def _host_run(name, x, lengths, axes, norm):
    """The backend's transform of a zero-copy NumPy view of x, threaded from _THREADS_FROM
    elements; its result wrapped without a copy. The backend's ValueError (an unknown norm) is
    renamed."""
    if _to_numpy is None:
        _use_backend()
    a = _to_numpy(x)
    try:
        out = _IMPL[name](a, lengths, axes, norm, False, 1 if a.size < _THREADS_FROM else _threads())
    except ValueError as e:
        raise ValueError(f"fft.{name}: {e}") from None
    return _from_numpy(out)


# name -> (kind: 0 C2C, 1 R2C, 2 C2R; forward: the exponent sign is -1 and norm="backward" leaves
# it unscaled; reverse). hfft and ihfft conjugate, which gpu_fft does without a complex kernel:
# hfft(a) = irfft(conj(a)) with the forward norm is C2R read at -t, ihfft(a) = conj(rfft(a)) with
# the inverse norm is R2C of a read at -t.
_GPU_PLAN = {"fft": (0, True, False), "ifft": (0, False, False), "rfft": (1, True, False),
             "irfft": (2, False, False), "hfft": (2, True, True), "ihfft": (1, False, True),
             "fftn": (0, True, False), "ifftn": (0, False, False), "rfftn": (1, True, False),
             "irfftn": (2, False, False)}


def _device_run(name, x, lengths, axes, norm):
    """The vendor library's transform of x on its GPU: the default lengths and the norm factor
    resolved here, the plan and the launch in C++ (src/backends/gpu/gpu_fft.h)."""
    if norm is None:
        norm = "backward"
    if norm not in _NORMS:
        raise ValueError(f"fft.{name}: norm must be 'backward', 'ortho' or 'forward', got {norm!r}")
    kind, forward, reverse = _GPU_PLAN[name]
    if type(axes) is int:  # a 1-D transform
        axes, lengths = [axes], None if lengths is None else [lengths]
    elif axes is None:
        axes = list(range(x.ndim))
    if lengths is None:
        shape = x.shape
        lengths = [shape[ax] for ax in axes]
        if kind == 2 and axes:  # C2R: the real output's length, 2*(m-1) by default
            lengths[-1] = 2 * (lengths[-1] - 1)
    total = 1
    for length in lengths:
        if length < 1:
            raise ValueError(f"fft.{name}: invalid number of data points ({length}) specified")
        total *= length
    if norm == "ortho":
        scale = total ** -0.5
    else:
        scale = 1.0 if (norm == "backward") == forward else 1.0 / total
    return _core._gpu_fft(x, kind, list(axes), list(lengths), forward, scale, reverse, f"fft.{name}")


_RUNNERS = {1: _host_run, 2: _device_run, 10: _device_run}  # kDLCPU, kDLCUDA, kDLROCM


def _axis(name, arg, axis, ndim):
    """A validated axis in [0, ndim); ValueError (the standard's rule) when out of range."""
    try:
        axis = axis.__index__()
    except AttributeError:
        raise TypeError(f"fft.{name}: {arg} must be an integer, got {type(axis).__name__}") from None
    if not -ndim <= axis < ndim:
        raise ValueError(f"fft.{name}: {arg} {axis} is out of range for an array of rank {ndim} "
                         f"(valid: [-{ndim}, {ndim}))")
    return axis + ndim if axis < 0 else axis


def _length(name, arg, n):
    """A validated transform length: a positive integer."""
    if type(n) is bool or not hasattr(n, "__index__"):
        raise TypeError(f"fft.{name}: {arg} must be an integer or None, got {type(n).__name__}")
    n = n.__index__()
    if n < 1:
        raise ValueError(f"fft.{name}: {arg} must be >= 1, got {n}")
    return n


def _make_1d(name, accepted, doc):
    """Builds a 1-D transform (fft ifft rfft irfft hfft ihfft)."""

    def transform(x, /, *, n=None, axis=-1, norm="backward"):
        x = _integers_as_float64(x)
        run = _runner(x, accepted, name)
        ndim = x.ndim
        if type(axis) is not int or not -ndim <= axis < ndim:
            axis = _axis(name, "axis", axis, ndim)
        if n is not None and (type(n) is not int or n < 1):
            n = _length(name, "n", n)
        return run(name, x, n, axis + ndim if axis < 0 else axis, norm)

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = doc
    return transform


def _s_axes(name, shape, s, axes, real_last):
    """Validated (s, axes) for the n-D transforms, as the backends take them.

    The standard requires `axes` whenever `s` is given; `s[i] == -1` keeps axis i's default length
    (for irfftn's last axis that is 2*(M-1): "all elements of the input are used"). Repeated axes
    are implementation-defined: rejected, since with `s` they would be ambiguous.
    """
    ndim = len(shape)
    if axes is None:
        if s is not None:
            raise ValueError(f"fft.{name}: s was given without axes; the standard requires axes "
                             "whenever s is given")
        axes = tuple(range(ndim))
    else:
        if hasattr(axes, "__index__"):
            raise TypeError(f"fft.{name}: axes must be a sequence of integers, got {type(axes).__name__}")
        checked = []
        for ax in axes:
            if type(ax) is not int or not -ndim <= ax < ndim:
                ax = _axis(name, "axes entry", ax, ndim)
            checked.append(ax + ndim if ax < 0 else ax)
        axes = checked
        if len(set(axes)) != len(axes):
            raise ValueError(f"fft.{name}: axes {axes} repeat an axis; each axis may appear once")
    if real_last and not axes:
        raise ValueError(f"fft.{name}: at least one axis is needed (the last one is the real axis)")
    if s is not None:
        s = list(s)
        if len(s) != len(axes):
            raise ValueError(f"fft.{name}: s has {len(s)} entries but axes has {len(axes)}; "
                             "they must have the same length")
        for i, ax in enumerate(axes):
            if type(s[i]) is int and s[i] >= 1:
                continue
            if s[i] == -1 and type(s[i]) is not bool:
                m = shape[ax]
                s[i] = 2 * (m - 1) if real_last == "output" and i == len(axes) - 1 else m
            s[i] = _length(name, f"s[{i}]", s[i])
    return s, axes


def _make_nd(name, accepted, real_last, doc):
    """Builds an n-D transform (fftn ifftn rfftn irfftn)."""

    def transform(x, /, *, s=None, axes=None, norm="backward"):
        x = _integers_as_float64(x)
        run = _runner(x, accepted, name)
        if axes is not None or s is not None or x.ndim == 0:
            s, axes = _s_axes(name, x.shape, s, axes, real_last)
            if not axes:  # nothing to transform (e.g. a 0-d array): a copy, in the result dtype
                if norm not in _NORMS:
                    raise ValueError(f"fft.{name}: norm must be 'backward', 'ortho' or 'forward', "
                                     f"got {norm!r}")
                single = x.dtype == _core.float32 or x.dtype == _core.complex64
                return _core.astype(x, _core.complex64 if single else _core.complex128, copy=True)
        return run(name, x, s, axes, norm)

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = doc
    return transform


_NORM_DOC = "norm: 'backward' (default), 'ortho' or 'forward', as numpy.fft."
fft = _make_1d("fft", _FLOATING, f"""fft(x, /, *, n=None, axis=-1, norm='backward')

One-dimensional discrete Fourier transform. Complex input keeps its dtype; real floating input is
promoted to the complex dtype of the same precision. n pads with zeros or trims. {_NORM_DOC}""")
ifft = _make_1d("ifft", _FLOATING, f"""ifft(x, /, *, n=None, axis=-1, norm='backward')

One-dimensional inverse discrete Fourier transform (dtype rules as fft). {_NORM_DOC}""")
rfft = _make_1d("rfft", _REAL, f"""rfft(x, /, *, n=None, axis=-1, norm='backward')

One-dimensional DFT of real input: float32 -> complex64, float64 -> complex128; the axis gets
n//2 + 1 entries. {_NORM_DOC}""")
irfft = _make_1d("irfft", _FLOATING, f"""irfft(x, /, *, n=None, axis=-1, norm='backward')

Inverse of rfft: complex64 -> float32, complex128 -> float64; the output axis has n entries
(default 2*(M-1)). {_NORM_DOC}""")
hfft = _make_1d("hfft", _FLOATING, f"""hfft(x, /, *, n=None, axis=-1, norm='backward')

DFT of a Hermitian-symmetric signal given by its first half: real output of length n (default
2*(M-1)) in the matching real precision. {_NORM_DOC}""")
ihfft = _make_1d("ihfft", _REAL, f"""ihfft(x, /, *, n=None, axis=-1, norm='backward')

Inverse of hfft for real input: the axis gets n//2 + 1 complex entries. {_NORM_DOC}""")
fftn = _make_nd("fftn", _FLOATING, False, f"""fftn(x, /, *, s=None, axes=None, norm='backward')

n-dimensional DFT over `axes` (default: all), sizes `s` (requires axes; -1 keeps an axis's
length). Dtype rules as fft. {_NORM_DOC}""")
ifftn = _make_nd("ifftn", _FLOATING, False, f"""ifftn(x, /, *, s=None, axes=None, norm='backward')

n-dimensional inverse DFT (arguments as fftn). {_NORM_DOC}""")
rfftn = _make_nd("rfftn", _REAL, "input", f"""rfftn(x, /, *, s=None, axes=None, norm='backward')

n-dimensional DFT of real input; the last transformed axis gets s[-1]//2 + 1 entries. {_NORM_DOC}""")
irfftn = _make_nd("irfftn", _FLOATING, "output", f"""irfftn(x, /, *, s=None, axes=None, norm='backward')

Inverse of rfftn; `s` gives output sizes (the last defaults to 2*(M-1)). {_NORM_DOC}""")


def _frequencies(name, n, d, dtype, device, full):
    """fftfreq / rfftfreq: the values as NumPy computes them (float64), then cast and placed."""
    if type(n) is bool or not hasattr(n, "__index__"):
        raise TypeError(f"fft.{name}: n must be an integer, got {type(n).__name__}")
    n = n.__index__()
    if n < 1:
        raise ValueError(f"fft.{name}: n must be >= 1, got {n}")
    if isinstance(d, (bool, complex)) or not hasattr(type(d), "__float__"):
        raise TypeError(f"fft.{name}: d must be a real number, got {type(d).__name__}")
    d = float(d)
    if d == 0.0:
        raise ValueError(f"fft.{name}: d (the sample spacing) must be non-zero")
    dtype = _core.float64 if dtype is None else _core._as_dtype(dtype)
    if dtype != _core.float32 and dtype != _core.float64:
        raise TypeError(f"fft.{name}: dtype must be a real floating-point dtype, got {dtype}")
    if _np is None:
        _use_backend()
    np = _np
    values = np.fft.fftfreq(n, d) if full else np.fft.rfftfreq(n, d)
    if dtype == _core.float32:
        values = values.astype(np.float32)
    if device is None:
        return _from_numpy(values)
    return _core.asarray(values, device=device)  # validates device; copies only off the CPU


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """fftfreq(n, /, *, d=1.0, dtype=None, device=None)

    Sample frequencies of an n-point DFT with spacing d: [0, 1, ..., -2, -1] / (d*n), in `dtype`
    (default float64; float32 or float64) on `device` (default CPU).
    """
    return _frequencies("fftfreq", n, d, dtype, device, True)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """rfftfreq(n, /, *, d=1.0, dtype=None, device=None)

    Sample frequencies of rfft: [0, 1, ..., n//2] / (d*n), n//2 + 1 values (dtype, device as fftfreq).
    """
    return _frequencies("rfftfreq", n, d, dtype, device, False)


def _shift(name, x, axes, sign):
    """fftshift / ifftshift as a roll by half of each axis; works on every dtype and device."""
    if type(x) is not _Array:
        raise TypeError(f"fft.{name}: x must be a dlarray.Array, got {type(x).__name__}")
    shape = x.shape
    ndim = len(shape)
    if axes is None:
        axes = tuple(range(ndim))
    elif hasattr(axes, "__index__") and type(axes) is not bool:
        axes = (_axis(name, "axes", axes, ndim),)
    else:
        axes = tuple(_axis(name, "axes entry", ax, ndim) for ax in axes)
    if not axes:
        return _core.asarray(x, copy=True)
    return _core.roll(x, shift=tuple(sign * (shape[ax] // 2) for ax in axes), axis=axes)


def fftshift(x, /, *, axes=None):
    """fftshift(x, /, *, axes=None)

    Moves the zero-frequency entry to the centre: rolls each axis in `axes` (default: all) by
    half its length. Any dtype.
    """
    return _shift("fftshift", x, axes, 1)


def ifftshift(x, /, *, axes=None):
    """ifftshift(x, /, *, axes=None)

    Inverse of fftshift (they differ by one entry on odd-length axes).
    """
    return _shift("ifftshift", x, axes, -1)
