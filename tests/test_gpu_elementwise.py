"""Elementwise operations on a real GPU against the CPU, at the sizes and layouts that choose the
kernels: the contiguous 16-byte-vector path (1-d jobs of aligned operands, the tail of count % V
elements), its fallbacks (misaligned views, strided operands, broadcasting) and Python scalars.
The conformance suite covers every op on small arrays; this file covers the launch paths."""
import numpy as np
import pytest

import dlarray as dl
from helpers.gpu_util import first_gpu_device, host

pytestmark = pytest.mark.gpu

SIZES = [1, 3, 4, 5, 15, 16, 17, 1023, 4096, 4099, 2**20 + 7]
DTYPES = ["float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint64", "bool"]


def values(dtype, n, seed):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool)
    if dtype.startswith("float"):
        return rng.uniform(-3, 3, n).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -100), min(info.max, 100), n).astype(dtype)


def same(got, want, maxulp=0):
    """Exact, or within maxulp for the transcendental functions: the GPU computes them with its
    vendor's math library (CUDA documents expf within 2 ulp, atan2f within 3), the CPU with ours."""
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind == "f" and maxulp:
        np.testing.assert_array_max_ulp(got, want, maxulp=maxulp)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_binary_unary_and_where_match_the_cpu(n, dtype):
    dev = first_gpu_device()
    a, b = values(dtype, n, 1), values(dtype, n, 2)
    xa, xb = dl.asarray(a), dl.asarray(b)
    ga, gb = xa.to_device(dev), xb.to_device(dev)
    # (function, arity, ulp allowed): IEEE operations must agree exactly
    ops = [(dl.equal, 2, 0), (dl.logical_and, 2, 0), (dl.logical_xor, 2, 0), (dl.logical_not, 1, 0)] \
        if dtype == "bool" else \
        [(dl.add, 2, 0), (dl.multiply, 2, 0), (dl.maximum, 2, 0), (dl.less, 2, 0), (dl.negative, 1, 0), (dl.abs, 1, 0)]
    if dtype.startswith("float"):
        ops += [(dl.sqrt, 1, 0), (dl.divide, 2, 0), (dl.exp, 1, 4), (dl.atan2, 2, 4)]
    for f, arity, ulp in ops:
        args_cpu, args_gpu = (xa, xb)[:arity], (ga, gb)[:arity]
        same(host(f(*args_gpu)), host(f(*args_cpu)), ulp)
    cond = dl.asarray(values("bool", n, 3))
    same(host(dl.where(cond.to_device(dev), ga, gb)), host(dl.where(cond, xa, xb)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint8"])
def test_scalars_views_and_broadcasting_match_the_cpu(dtype):
    dev = first_gpu_device()
    n = 4099
    a = values(dtype, n, 4)
    x = dl.asarray(a)
    g = x.to_device(dev)
    two = 2.0 if dtype.startswith("float") else 2
    cases = [
        lambda m: m * two,            # a scalar operand
        lambda m: two - m,
        lambda m: m[1:] + m[:-1],     # misaligned operands: the element path
        lambda m: m[:-1:2] * m[1::2],  # strided operands
        lambda m: dl.reshape(m[:4096], (64, 64)) + dl.reshape(m[:64], (1, 64)),  # broadcasting
    ]
    for c in cases:
        same(host(c(g)), host(c(x)))
    # in place: out aliases an input exactly
    g2 = dl.asarray(a).to_device(dev)
    g2 += g
    same(host(g2), host(x + x))


def test_comparison_outputs_and_mixed_widths():
    dev = first_gpu_device()
    a = values("float64", 2**16 + 3, 5)
    x = dl.asarray(a)
    g = x.to_device(dev)
    same(host(g > 0.5), host(x > 0.5))          # 8-byte inputs, 1-byte output
    same(host(dl.isnan(g / g)), host(dl.isnan(x / x)))
    h = dl.astype(x, dl.float32)
    same(host(dl.astype(g, dl.float32) + 1), host(h + 1))
