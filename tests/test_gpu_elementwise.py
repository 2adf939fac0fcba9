"""Elementwise operations and dtype conversions on GPU arrays against the CPU: over
dlarray._fake_gpu on every machine, and on a real GPU (cuda:0, else rocm:0) in the tests marked
gpu at the end, skipped without one.

The fake backend executes the GPU's element bodies (src/backends/gpu/gpu_elementwise_kernels.h,
the same code nvcc and hipcc compile into kernels) on the host, so every op of the declaration
table, the promotion with Python scalars, broadcasting, strided and transposed operands,
in-place operators, the stream each job is queued on and the errors are checked over it against
the CPU results. What stays for a real GPU: the launch itself, checked by the tests marked gpu
at the sizes and layouts that choose the kernels (the contiguous 16-byte-vector path: 1-d jobs
of aligned operands, the tail of count % V elements; its fallbacks: misaligned views, strided
operands, broadcasting; Python scalars), and device-side math libraries
(tests/test_gpu_interop.py, scripts/gpu-test). The conformance suite covers every op on small
arrays.
"""
import numpy as np
import pytest

import dlarray as dl
from helpers.gpu_util import clean, host, real_device  # noqa: F401  (clean, real_device: fixtures)
from helpers.cases import OPS, accepts, sample

# (complex64 and complex128: tests/test_gpu_complex.py)
REAL_DTYPES = [dl.bool, dl.int8, dl.int16, dl.int32, dl.int64, dl.uint8, dl.uint16, dl.uint32,
               dl.uint64, dl.float32, dl.float64]
# Computed by libm (GPU: the vendor's math library) rather than exactly: the CPU may take a
# vector loop for them (src/backends/cpu/vector_math.cpp), so results may differ by a few ulp.
APPROXIMATE = {"acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cos", "cosh", "exp",
               "expm1", "log", "log1p", "log2", "log10", "logaddexp", "sin", "sinh", "tan", "tanh",
               "hypot", "pow"}
SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 1e-30, -1e30]


def gpu(a, device="rocm:0"):
    return dl.asarray(a).to_device(device)


def inputs(name, dtype, rng, n=64):
    arity = OPS[name]["arity"]
    if name == "where":
        return [rng.integers(0, 2, n).astype(bool), sample("add", dtype, n, rng), sample("add", dtype, n, rng, 1)]
    args = [sample(name, dtype, n, rng, k) for k in range(arity)]
    if np.dtype(str(dtype)).kind == "f":  # the special values in every position
        for k in range(arity):
            args[k][: len(SPECIALS)] = np.roll(SPECIALS, k)
    return args


def call(name, args):
    fn = getattr(dl, name)
    if name == "clip":
        return fn(args[0], min=args[1], max=args[2])
    return fn(*args)


def assert_same(got, want, name):
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    if name in APPROXIMATE and want.dtype.kind == "f":
        np.testing.assert_array_max_ulp(got, want, maxulp=4)
    else:
        np.testing.assert_array_equal(got, want)
        if want.dtype.kind == "f":  # -0.0 vs 0.0 too
            assert np.array_equal(np.signbit(got), np.signbit(want))


CASES = [(name, dtype) for name in sorted(OPS) for dtype in REAL_DTYPES if accepts(OPS[name], dtype)]


@pytest.mark.parametrize("name,dtype", CASES, ids=[f"{n}-{d}" for n, d in CASES])
def test_every_op_and_dtype_matches_the_cpu(fake, name, dtype):
    rng = np.random.default_rng(abs(hash((name, str(dtype)))) % 2**32)
    args = [dl.asarray(a) for a in inputs(name, dtype, rng)]
    want = host(call(name, args))
    got = call(name, [a.to_device("rocm:0") for a in args])
    assert str(got.device) == "rocm:0"
    assert_same(host(got), want, name)
    # real() of a real array is a view of it (nothing launched); every other op is one launch.
    assert [e[0] for e in fake.log()].count("elementwise") == (0 if name == "real" else 1)


HALF_CASES = [(name, h) for name in sorted(OPS) for h in ("float16", "bfloat16")
              if accepts(OPS[name], dl.float32) and name != "nextafter"]


def as_f32(x):
    return host(x.astype(dl.float32) if x.dtype in (dl.float16, dl.bfloat16) else x)


@pytest.mark.parametrize("name,half", HALF_CASES, ids=[f"{n}-{h}" for n, h in HALF_CASES])
def test_half_precision_ops_match_the_cpu(fake, name, half):
    # float16 / bfloat16: widened to float32 by cast jobs, the float32 kernel, one rounding back.
    rng = np.random.default_rng(11)
    h = getattr(dl, half)
    args = [dl.asarray(a) if name == "where" and k == 0 else dl.asarray(a.astype(np.float32)).astype(h)
            for k, a in enumerate(inputs(name, dl.float32, rng, 32))]
    want = call(name, args)
    got = call(name, [a.to_device("rocm:0") for a in args])
    assert got.dtype == want.dtype and str(got.device) == "rocm:0"
    w, g = as_f32(want), as_f32(got)
    if name in APPROXIMATE:  # the float32 results may differ by an ulp, and so round apart
        np.testing.assert_allclose(g, w, rtol=2.0 ** (-10 if half == "float16" else -7), equal_nan=True)
    else:
        np.testing.assert_array_equal(g, w)


def test_half_precision_conversions_and_reductions(fake):
    x = np.array([0.1, -2.5, 65504.0, 1e-7, np.inf, np.nan, -0.0, 3.0], dtype=np.float64)
    for half in (dl.float16, dl.bfloat16):
        for src in (dl.float64, dl.float32, dl.int32, dl.bool):
            a = dl.asarray(x).astype(src) if src != dl.bool else dl.asarray(x) > 0
            want = host(a.astype(half).astype(dl.float64))
            got = host(a.to_device("rocm:0").astype(half).astype(dl.float64))
            np.testing.assert_array_equal(got, want)
        v = dl.asarray(np.linspace(-1, 1, 33)).astype(half)
        for f in (dl.sum, dl.mean, dl.max, dl.prod):
            np.testing.assert_array_equal(as_f32(f(v.to_device("rocm:0"))), as_f32(f(v)))
    with pytest.raises(NotImplementedError, match="nextafter"):
        dl.nextafter(gpu(np.ones(2, np.float32)).astype(dl.float16), 2.0)


# ---- layouts -------------------------------------------------------------------------------------

def test_broadcasting_transposes_and_strided_views(fake):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 5, 6))
    b = rng.standard_normal((5, 1))
    c = rng.standard_normal((6, 5)).T  # F-ordered operand
    da, db, dc = gpu(a), gpu(b), gpu(np.ascontiguousarray(c.T)).mT
    np.testing.assert_array_equal(host(da * db + dc), a * b + c)
    np.testing.assert_array_equal(host(da[:, ::2, ::-3] - db[::2]), a[:, ::2, ::-3] - b[::2])
    np.testing.assert_array_equal(host(dl.permute_dims(da, (2, 0, 1)) / 3.0), np.transpose(a, (2, 0, 1)) / 3.0)
    np.testing.assert_array_equal(host(dl.maximum(da.mT, 0.0)), np.maximum(np.swapaxes(a, -1, -2), 0.0))


def test_zero_size_and_zero_d(fake):
    e = gpu(np.ones((0, 3)))
    assert host(e + 1).shape == (0, 3)
    assert "elementwise" not in [x[0] for x in fake.log()]
    s = gpu(np.float64(2.5))
    assert host(s * s).shape == () and float(host(s * s)) == 6.25


def test_python_scalars_travel_with_the_job(fake):
    x = gpu(np.arange(5, dtype=np.int16))
    np.testing.assert_array_equal(host(x + 7), np.arange(5, dtype=np.int16) + 7)
    np.testing.assert_array_equal(host(2 ** x), (2 ** np.arange(5)).astype(np.int16))
    f = gpu(np.arange(5, dtype=np.float32))
    assert host(f * 0.1).dtype == np.float32
    np.testing.assert_array_equal(host(f * 0.1), np.arange(5, dtype=np.float32) * np.float32(0.1))
    np.testing.assert_array_equal(host(1.5 - f), np.float32(1.5) - np.arange(5, dtype=np.float32))
    # no host copy of a scalar: one launch, no memcpy before it
    fake.clear_log()
    f * 3.0
    assert [e[0] for e in fake.log() if e[0] in ("memcpy", "elementwise")] == ["elementwise"]


def test_mixed_dtypes_are_converted_on_the_device(fake):
    i = np.arange(6, dtype=np.int8)
    u = np.arange(6, dtype=np.uint16)
    f = np.linspace(-2, 2, 6, dtype=np.float32)
    np.testing.assert_array_equal(host(gpu(i) + gpu(u)), i.astype(np.int32) + u.astype(np.int32))
    np.testing.assert_array_equal(host(gpu(f) * gpu(f.astype(np.float64))), f.astype(np.float64) ** 2)
    assert "cast" in [e[0] for e in fake.log()]


def test_in_place_operators_on_views(fake):
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    d = gpu(a)
    d[:, ::2] *= 2.0
    a[:, ::2] *= 2.0
    d += gpu(np.ones(4))
    a += 1
    np.testing.assert_array_equal(host(d), a)
    b = gpu(np.arange(6, dtype=np.int32))
    b <<= 2
    np.testing.assert_array_equal(host(b), np.arange(6, dtype=np.int32) << 2)


def test_where_and_clip(fake):
    x = np.array([-3.0, np.nan, 0.5, 7.0])
    np.testing.assert_array_equal(host(dl.clip(gpu(x), min=-1.0, max=1.0)), np.clip(x, -1.0, 1.0))
    np.testing.assert_array_equal(host(dl.clip(gpu(x), max=1.0)), np.minimum(x, 1.0))
    c = np.array([True, False, True, False])
    np.testing.assert_array_equal(host(dl.where(gpu(c), gpu(x), 0.0)), np.where(c, x, 0.0))


# ---- conversions -----------------------------------------------------------------------------------

PAIRS = [(a, b) for a in REAL_DTYPES for b in REAL_DTYPES]


@pytest.mark.parametrize("src,dst", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_astype_every_pair_matches_the_cpu(fake, src, dst):
    rng = np.random.default_rng(7)
    values = sample("add", src, 48, rng)
    if np.dtype(str(src)).kind == "f":
        values[: len(SPECIALS)] = SPECIALS
        values[-4:] = [3e9, -3e9, 1e20, -1e20]  # saturate when converted to integers
    x = dl.asarray(values)
    want = host(dl.astype(x, dst))
    fake.clear_log()
    got = dl.astype(x.to_device("rocm:0")[::-1], dst)[::-1]
    assert str(got.device) == "rocm:0"
    assert ("cast" in [e[0] for e in fake.log()]) == (src != dst)
    np.testing.assert_array_equal(host(got), want)


# ---- devices and streams -------------------------------------------------------------------------

def test_mixing_devices_names_both(fake):
    with pytest.raises(ValueError, match="rocm:0.*rocm:1"):
        gpu(np.ones(3)) + gpu(np.ones(3), "rocm:1")
    with pytest.raises(ValueError, match="rocm:0.*cpu"):
        gpu(np.ones(3)) + dl.ones(3)


def test_work_is_queued_on_the_current_stream(fake):
    x = gpu(np.ones(8), "rocm:1")
    s = dl.rocm.Stream(1)
    dl.rocm.set_stream(s)
    fake.clear_log()
    y = dl.exp(x)
    launches = [e for e in fake.log() if e[0] == "elementwise"]
    assert launches == [("elementwise", 1, s.handle, 0)]
    np.testing.assert_array_max_ulp(host(y), np.exp(np.ones(8)), maxulp=1)


# ---- reductions and scans (tree of elementwise launches, tree_reduce.h) ---------------------------

REDUCTIONS = ["sum", "prod", "max", "min", "mean", "var", "std"]
AXES = [None, 0, 1, 2, (0, 2), (-1, -2), ()]


def reduction_input(dtype, rng):
    d = np.dtype(str(dtype))
    if d.kind == "b":
        return rng.integers(0, 2, (3, 5, 7)).astype(bool)
    if d.kind in "iu":
        return rng.integers(0, 4, (3, 5, 7)).astype(d)
    x = rng.uniform(0.5, 1.5, (3, 5, 7)).astype(d)
    x[1, 2, 3] = np.nan  # propagates into its groups
    return x


RED_CASES = [(n, d) for n in REDUCTIONS for d in [dl.int8, dl.uint32, dl.int64, dl.float32, dl.float64]
             if n in ("sum", "prod", "max", "min") or d in (dl.float32, dl.float64)]


@pytest.mark.parametrize("name,dtype", RED_CASES, ids=[f"{n}-{d}" for n, d in RED_CASES])
def test_reductions_match_the_cpu(fake, name, dtype):
    rng = np.random.default_rng(3)
    x = dl.asarray(reduction_input(dtype, rng))
    g = x.to_device("rocm:0")
    for axis in AXES:
        for keepdims in (False, True):
            want = host(getattr(dl, name)(x, axis=axis, keepdims=keepdims))
            got = getattr(dl, name)(g, axis=axis, keepdims=keepdims)
            assert str(got.device) == "rocm:0"
            got = host(got)
            assert got.dtype == want.dtype and got.shape == want.shape
            if want.dtype.kind == "f":
                np.testing.assert_allclose(got, want, rtol=4 * np.finfo(want.dtype).eps, equal_nan=True)
            else:
                np.testing.assert_array_equal(got, want)


def test_sum_is_pairwise(fake):
    # 2^20 + 3 values of 0.1 in float32: a sequential sum is off by about 1e-3 relative, the
    # tree by a few ulp.
    v = np.full(2**20 + 3, 0.1, dtype=np.float32)
    got = float(host(dl.sum(gpu(v))))
    exact = float(np.sum(v.astype(np.float64)))
    assert abs(got - exact) <= 4 * np.log2(v.size) * np.finfo(np.float32).eps * exact


def test_empty_reductions(fake):
    e = gpu(np.ones((0, 4)))
    np.testing.assert_array_equal(host(dl.sum(e, axis=0)), np.zeros(4))
    np.testing.assert_array_equal(host(dl.prod(e, axis=0)), np.ones(4))
    assert np.isnan(host(dl.mean(e)))
    with pytest.raises(ValueError, match="no identity"):
        dl.max(e, axis=0)


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("dtype", [dl.int16, dl.int64, dl.uint8, dl.float32, dl.float64])
def test_scans_match_the_cpu(fake, name, dtype):
    x = dl.asarray(reduction_input(dtype, np.random.default_rng(5)))
    for axis in (0, 1, 2):
        for include_initial in (False, True):
            want = host(getattr(dl, name)(x, axis=axis, include_initial=include_initial))
            got = host(getattr(dl, name)(x.to_device("rocm:0"), axis=axis, include_initial=include_initial))
            assert got.dtype == want.dtype
            if want.dtype.kind == "f":
                np.testing.assert_allclose(got, want, rtol=8 * np.finfo(want.dtype).eps, equal_nan=True)
            else:
                np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("fn", ["all", "any"])
def test_all_any(fake, fn):
    rng = np.random.default_rng(9)
    for x in (rng.integers(0, 2, (4, 3, 5)).astype(bool), rng.integers(0, 3, (4, 3, 5)), np.ones((2, 1, 3)),
              np.array([0.0, np.nan]), np.zeros((0, 3))):
        for axis in [None, (), 0, -1] + ([(0, 2)] if x.ndim == 3 else []):
            for keepdims in (False, True):
                want = host(getattr(dl, fn)(dl.asarray(x), axis=axis, keepdims=keepdims))
                g = gpu(x)
                got = getattr(dl, fn)(g, axis=axis, keepdims=keepdims)
                np.testing.assert_array_equal(host(got), want)
                assert host(got).shape == want.shape
    # the result is never a view of the input
    b = gpu(np.array([[True], [False]]))
    r = dl.all(b, axis=1)
    b[0, 0] = False
    np.testing.assert_array_equal(host(r), [True, False])


def test_values_reach_the_host(fake):
    x = gpu(np.arange(6.0).reshape(2, 3))
    assert x.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert float(dl.sum(x)) == 15.0 and bool(dl.any(x > 4))


def test_concat_and_stack_of_mixed_dtypes_convert_on_the_device(fake):
    # (the H100 conformance run found them copying a GPU operand to the host, then failing to
    # cast it into the GPU result: "cast: arrays are on different devices")
    a, b = np.array([1, 2], dtype=np.int8), np.array([3, 4], dtype=np.int64)
    ga, gb = gpu(a), gpu(b)
    fake.clear_log()
    for f, want in [(dl.stack, np.stack([a, b])), (dl.concat, np.concatenate([a, b]))]:
        got = f([ga, gb])
        assert str(got.device) == "rocm:0" and got.dtype == dl.int64
        np.testing.assert_array_equal(host(got), want)
    assert "cast" in [e[0] for e in fake.log()]
    e8, e16 = gpu(np.zeros((0, 2), np.int8)), gpu(np.zeros((0, 2), np.int16))
    assert dl.stack([e8, e16]).shape == (2, 0, 2) and dl.concat([e8, e16]).shape == (0, 2)


# ---- on a real GPU: the launch paths --------------------------------------------------------------

LAUNCH_SIZES = [1, 3, 4, 5, 15, 16, 17, 1023, 4096, 4099, 2**20 + 7]
LAUNCH_DTYPES = ["float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint64", "bool"]


def sized_values(dtype, n, seed):
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


@pytest.mark.gpu
@pytest.mark.parametrize("n", LAUNCH_SIZES)
@pytest.mark.parametrize("dtype", LAUNCH_DTYPES)
def test_binary_unary_and_where_match_the_cpu(real_device, n, dtype):
    dev = real_device
    a, b = sized_values(dtype, n, 1), sized_values(dtype, n, 2)
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
    cond = dl.asarray(sized_values("bool", n, 3))
    same(host(dl.where(cond.to_device(dev), ga, gb)), host(dl.where(cond, xa, xb)))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint8"])
def test_scalars_views_and_broadcasting_match_the_cpu(real_device, dtype):
    dev = real_device
    n = 4099
    a = sized_values(dtype, n, 4)
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


@pytest.mark.gpu
def test_comparison_outputs_and_mixed_widths(real_device):
    dev = real_device
    a = sized_values("float64", 2**16 + 3, 5)
    x = dl.asarray(a)
    g = x.to_device(dev)
    same(host(g > 0.5), host(x > 0.5))          # 8-byte inputs, 1-byte output
    same(host(dl.isnan(g / g)), host(dl.isnan(x / x)))
    h = dl.astype(x, dl.float32)
    same(host(dl.astype(g, dl.float32) + 1), host(h + 1))
