"""Cases shared by several test files, so that no test file imports another: the elementwise
declaration table with its dtype kinds and in-domain samples (test_elementwise, test_gpu_elementwise,
helpers/complex_cases), the sort data (test_gpu_sort, test_gpu_search, test_gpu_complex), and
the fft function lists (test_fft, test_gpu_fft)."""
import numpy as np

import dlarray as dl

# ---- elementwise -------------------------------------------------------------------------------
OPS = {op["name"]: op for op in dl._core._elementwise_ops()}

DTYPES = [dl.bool, dl.int8, dl.int16, dl.int32, dl.int64, dl.uint8, dl.uint16, dl.uint32,
          dl.uint64, dl.float32, dl.float64, dl.complex64, dl.complex128]
KIND = {dl.bool: "bool", dl.float32: "real floating", dl.float64: "real floating",
        dl.complex64: "complex floating", dl.complex128: "complex floating"}
KIND.update({d: "signed integer" for d in (dl.int8, dl.int16, dl.int32, dl.int64)})
KIND.update({d: "unsigned integer" for d in (dl.uint8, dl.uint16, dl.uint32, dl.uint64)})
REAL_OF = {dl.complex64: dl.float32, dl.complex128: dl.float64}

def npd(dtype):
    return np.dtype(str(dtype))


def accepts(op, dtype):
    return KIND[dtype] in op["kinds"]


def expected_dtype(op, dtype):
    if op["result"] == "bool":
        return dl.bool
    if op["result"] == "real":
        return REAL_OF.get(dtype, dtype)
    return dtype


def sample(name, dtype, n, rng, operand=0):
    """Values inside the function's domain where one exists; integers over their range."""
    d = npd(dtype)
    if dtype == dl.bool:
        return rng.integers(0, 2, n).astype(bool)
    if d.kind in "iu":
        info = np.iinfo(d)
        if name in ("bitwise_left_shift", "bitwise_right_shift") and operand == 1:
            return rng.integers(0, d.itemsize * 8, n).astype(d)
        if name == "pow":
            lo = 0 if (operand == 1 or d.kind == "u") else -3
            return rng.integers(lo, 4 if operand == 1 else 6, n).astype(d)
        return rng.integers(info.min, info.max, n, endpoint=True, dtype=d)
    lo, hi = {"acosh": (1, 10), "acos": (-1, 1), "asin": (-1, 1), "atanh": (-0.99, 0.99),
              "log": (0.01, 100), "log2": (0.01, 100), "log10": (0.01, 100), "log1p": (-0.99, 100),
              "sqrt": (0, 100), "pow": (0.1, 3)}.get(name, (-10, 10))
    real = rng.uniform(lo, hi, n)
    if d.kind == "c":
        return (real + 1j * rng.uniform(lo, hi, n)).astype(d)
    return real.astype(d)


# ---- sorting and searching ---------------------------------------------------------------------
REAL = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]


def data(shape, dtype, seed=0):
    """Many duplicates (stability shows), negative and positive; floats with NaN and signed zeros."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    info = np.iinfo(dtype) if dtype[0] in "iu" else None
    v = rng.integers(0 if dtype.startswith("uint") else -9, 9, n).astype(dtype)
    if info is not None and n >= 4:  # the extremes of the type, where a key transform can break
        v[:4] = [info.min, info.max, info.min, 0]
    if dtype.startswith("float") and n >= 8:
        v[rng.choice(n, size=max(n // 8, 4), replace=False)] = np.nan
        zeros = rng.choice(n, size=max(n // 8, 4), replace=False)
        v[zeros] = np.where(rng.integers(0, 2, zeros.size) == 1, -0.0, 0.0)
        v[:2] = [np.inf, -np.inf]
    return v.reshape(shape)


def bits(a):
    """The exact elements: floats as their bit patterns, so -0.0 and NaN payloads count."""
    a = np.ascontiguousarray(a)
    return a.view(f"u{a.itemsize}") if a.dtype.kind in "fb" else a


def on_gpu(a, device="rocm:0"):
    return dl.asarray(a).to_device(device)


# ---- fft ---------------------------------------------------------------------------------------
ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_D = ["fftn", "ifftn", "rfftn", "irfftn"]
REAL_INPUT = {"rfft", "ihfft", "rfftn"}  # the standard: "must have a real-valued floating-point dtype"
FLOATS = ["float32", "float64", "complex64", "complex128"]


def accepted(name):
    return ["float32", "float64"] if name in REAL_INPUT else FLOATS
