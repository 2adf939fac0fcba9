"""float16 and bfloat16 arithmetic (beyond the array API standard).

Oracles: NumPy's float16 for float16, PyTorch's bfloat16 for bfloat16. Both libraries
evaluate their half-precision functions in float32 and round once, as dlarray does, so
arithmetic, comparisons and rounding must agree exactly and transcendental functions within
one half ulp (their float32 functions are not ours). Reductions accumulate in float32 and
round once: compared with the float32 computation rounded to the half type.
"""
import math

import numpy as np
import pytest

import dlarray as dl

torch = pytest.importorskip("torch")

OPS = {o["name"]: o for o in dl._core._elementwise_ops()}
FLOAT_OPS = sorted(n for n, o in OPS.items() if "real floating" in o["kinds"] and n not in ("where", "clip"))
# Results determined exactly by one float32 operation rounded once (or no rounding at all).
EXACT = {"abs", "add", "subtract", "multiply", "divide", "negative", "positive", "square", "sqrt", "ceil",
         "floor", "trunc", "round", "sign", "signbit", "copysign", "maximum", "minimum", "equal", "not_equal",
         "less", "less_equal", "greater", "greater_equal", "isnan", "isinf", "isfinite", "real", "conj",
         "reciprocal", "floor_divide", "remainder", "nextafter", "hypot"}
NUMPY_SPECIAL_CASES_DIFFER = {"floor_divide", "remainder"}
TORCH_SPECIAL_CASES_DIFFER = {"floor_divide", "remainder", "sign"}
TORCH_NAME = {"acos": "arccos", "asin": "arcsin", "atan": "arctan", "acosh": "arccosh", "asinh": "arcsinh",
              "atanh": "arctanh", "atan2": "arctan2", "bitwise_invert": "bitwise_not", "divide": "true_divide",
              "floor_divide": "floor_divide", "pow": "pow", "remainder": "remainder"}
NP_NAME = {"acos": "arccos", "asin": "arcsin", "atan": "arctan", "acosh": "arccosh", "asinh": "arcsinh",
           "atanh": "arctanh", "atan2": "arctan2", "pow": "power", "conj": "conjugate"}

SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, np.inf, -np.inf, np.nan, 6e-8, -6e-8, 1e-5, 65504.0, -65504.0,
            0.1, 7.0, -7.5, 100.0, 2.0, 1e4]


def values(n=400, seed=0):
    rng = np.random.default_rng(seed)
    v = np.concatenate([rng.uniform(-4, 4, n // 2), rng.standard_normal(n // 4) * 50,
                        rng.uniform(-1, 1, n // 4), SPECIALS])
    return v


def ulp_distance16(a, b):
    """Distance in float16 / bfloat16 steps between two arrays of the same half dtype (as int bit patterns)."""
    def ordered(bits):
        bits = bits.astype(np.int64)
        return np.where(bits & 0x8000, 0x8000 - (bits & 0x7FFF), bits + 0x8000)
    nan = np.isnan(a.astype(np.float32)) & np.isnan(b.astype(np.float32))
    d = np.abs(ordered(a.view(np.uint16)) - ordered(b.view(np.uint16)))
    return np.where(nan, 0, d)


def to_np16(x):
    return np.from_dlpack(x)


# ---- float16 against NumPy ---------------------------------------------------------------------

def np_oracle(name, *args):
    f = getattr(np, NP_NAME.get(name, name))
    with np.errstate(all="ignore"):
        return f(*args)


@pytest.mark.parametrize("name", FLOAT_OPS)
def test_float16_elementwise_matches_numpy(name):
    arity = OPS[name]["arity"]
    v = values().astype(np.float16)
    args = [v] if arity == 1 else [v, np.roll(values(seed=1).astype(np.float16), 3)]
    if name == "pow":
        args[1] = (np.round(args[1].astype(np.float32)) % 5).astype(np.float16)
    expected = np_oracle(name, *args)
    with np.errstate(all="ignore"):
        got = to_np16(getattr(dl, name)(*[dl.asarray(a) for a in args]))
    assert got.dtype == expected.dtype, (name, got.dtype, expected.dtype)
    if got.dtype == np.bool_:
        np.testing.assert_array_equal(got, expected)
        return
    d = ulp_distance16(got, expected)
    if name in NUMPY_SPECIAL_CASES_DIFFER:  # NumPy: floor_divide(inf, 0.5) is nan; the standard: inf
        d = np.where(np.isfinite(args[0]) & np.isfinite(args[1]), d, 0)
    bound = 0 if name in EXACT else 1
    worst = int(np.argmax(d))
    assert d[worst] <= bound, f"{name}{tuple(a[worst] for a in args)}: {got[worst]} vs NumPy {expected[worst]}"


def test_float16_where_and_clip():
    x = values().astype(np.float16)
    y = values(seed=2).astype(np.float16)
    c = x > y
    np.testing.assert_array_equal(to_np16(dl.where(dl.asarray(c), dl.asarray(x), dl.asarray(y))), np.where(c, x, y))
    got = to_np16(dl.clip(dl.asarray(x), -1.5, 2.25))
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, np.clip(x, np.float16(-1.5), np.float16(2.25)))
    lo = np.full(x.shape, -0.5, np.float16)
    np.testing.assert_array_equal(to_np16(dl.clip(dl.asarray(x), dl.asarray(lo))), np.maximum(x, lo))
    got = to_np16(dl.where(dl.asarray(c), dl.asarray(x), 0.1))  # the scalar takes float16
    np.testing.assert_array_equal(got, np.where(c, x, np.float16(0.1)))


def test_float16_operators_and_scalars_match_numpy():
    x = values().astype(np.float16)
    y = values(seed=3).astype(np.float16)
    a, b = dl.asarray(x), dl.asarray(y)
    with np.errstate(all="ignore"):
        cases = [(a + b, x + y), (a - b, x - y), (a * b, x * y), (a / b, x / y), (a // b, x // y), (a % b, x % y),
                 (-a, -x), (+a, +x), (abs(a), abs(x)), (a < b, x < y), (a == b, x == y), (a != b, x != y),
                 (a + 0.1, x + np.float16(0.1)), (2 * a, x * np.float16(2)), (1 - a, np.float16(1) - x),
                 (a ** 2, x ** np.float16(2)), (3.0 / (a + 10), np.float16(3) / (x + np.float16(10)))]
    for i, (got, want) in enumerate(cases):
        got = to_np16(got)
        assert got.dtype == want.dtype, i
        if want.dtype == np.bool_:
            np.testing.assert_array_equal(got, want)
        else:
            assert ulp_distance16(got, want).max() == 0, i


def test_float16_in_place_and_strided():
    x = values().astype(np.float16)
    a = dl.asarray(x.copy())
    a += 1.5
    a *= dl.asarray(x)
    with np.errstate(all="ignore"):
        want = (x + np.float16(1.5)) * x
    assert ulp_distance16(to_np16(a), want).max() == 0
    m = np.arange(60, dtype=np.float16).reshape(6, 10) / np.float16(7)
    d = dl.asarray(m)
    got = to_np16(dl.sin(d[::2, ::3]) + d[1::2, ::3].T.T)
    with np.errstate(all="ignore"):
        want = np.sin(m[::2, ::3]) + m[1::2, ::3]
    assert ulp_distance16(got, want).max() <= 1
    row = dl.asarray(m[0])
    assert ulp_distance16(to_np16(d * row), m * m[0]).max() == 0  # broadcast
    assert ulp_distance16(to_np16(d.T + d.T), (m.T + m.T)).max() == 0  # Fortran-ordered
    b = dl.asarray(x.copy())
    b += dl.ones(x.shape, dtype=dl.float32)  # the float32 result goes back into float16, as NumPy's same_kind
    assert b.dtype == dl.float16
    with np.errstate(all="ignore"):
        assert ulp_distance16(to_np16(b), (x.astype(np.float32) + 1).astype(np.float16)).max() == 0
    with pytest.raises(TypeError, match="in place"):
        b += 1j


def test_float16_large_arrays_use_the_threaded_path():
    x = np.random.default_rng(5).uniform(-3, 3, 300_001).astype(np.float16)
    got = to_np16(dl.exp(dl.asarray(x)) * 2 - 1)
    with np.errstate(all="ignore"):
        want = np.exp(x) * np.float16(2) - np.float16(1)
    assert ulp_distance16(got, want).max() <= 2


# ---- bfloat16 against PyTorch --------------------------------------------------------------------

def torch_oracle(name, *args):
    tname = TORCH_NAME.get(name, name)
    if name == "equal":
        return torch.eq(*args)
    if name == "logaddexp":
        return torch.logaddexp(*args)
    if name == "nextafter":
        return torch.nextafter(*args)
    if name == "signbit":
        return torch.signbit(args[0])
    if name == "round":
        return torch.round(args[0])
    if name == "square":
        return args[0] * args[0]
    if name == "positive":
        return args[0].clone()
    if name == "real" or name == "conj":
        return args[0].clone()
    if name == "sign":
        return torch.sign(args[0])
    if name == "remainder":
        return torch.remainder(*args)
    if name == "floor_divide":
        return torch.floor_divide(*args)
    return getattr(torch, tname)(*args)


@pytest.mark.parametrize("name", FLOAT_OPS)
def test_bfloat16_elementwise_matches_torch(name):
    arity = OPS[name]["arity"]
    v = torch.tensor(values(), dtype=torch.float32).to(torch.bfloat16)
    args = [v] if arity == 1 else [v, torch.roll(torch.tensor(values(seed=1), dtype=torch.float32).to(torch.bfloat16), 3)]
    if name == "pow":
        args[1] = (torch.round(args[1].float()) % 5).to(torch.bfloat16)
    try:
        expected = torch_oracle(name, *args)
    except (RuntimeError, NotImplementedError) as e:  # an op PyTorch lacks for bfloat16 on CPU
        pytest.skip(f"torch has no bfloat16 {name}: {e}")
    got = torch.from_dlpack(getattr(dl, name)(*[dl.from_dlpack(a) for a in args]))
    assert got.dtype == expected.dtype, (name, got.dtype, expected.dtype)
    if got.dtype == torch.bool:
        assert torch.equal(got, expected), name
        return
    d = _bf16_ulps(got, expected)
    if name in TORCH_SPECIAL_CASES_DIFFER:  # torch: sign(nan) is 0, floor_divide(inf, 0.5) nan
        finite = np.isfinite(args[0].float().numpy())
        if arity == 2:
            finite &= np.isfinite(args[1].float().numpy())
        d = np.where(finite, d, 0)
    bound = 0 if name in EXACT else 1
    worst = int(np.argmax(d))
    assert d[worst] <= bound, f"{name}{tuple(float(a[worst]) for a in args)}: {float(got[worst])} vs torch {float(expected[worst])}"


def _bf16_ulps(a, b):
    def ordered(t):
        bits = t.view(torch.int16).numpy().astype(np.int64) & 0xFFFF
        return np.where(bits & 0x8000, 0x8000 - (bits & 0x7FFF), bits + 0x8000)
    nan = torch.isnan(a).numpy() & torch.isnan(b).numpy()
    return np.where(nan, 0, np.abs(ordered(a) - ordered(b)))


def test_bfloat16_operators_scalars_and_strides_match_torch():
    x = torch.tensor(values(), dtype=torch.float32).to(torch.bfloat16)
    y = torch.tensor(values(seed=4), dtype=torch.float32).to(torch.bfloat16)
    a, b = dl.from_dlpack(x), dl.from_dlpack(y)
    cases = [(a + b, x + y), (a * b, x * y), (a / b, x / y), (a - 0.1, x - 0.1), (2 * a, 2 * x),
             (a[::3] + b[::3], x[::3] + y[::3]), (dl.sqrt(abs(a)), torch.sqrt(torch.abs(x)))]
    for i, (got, want) in enumerate(cases):
        got = torch.from_dlpack(got)
        assert got.dtype == torch.bfloat16, i
        assert _bf16_ulps(got, want).max() == 0, i


def test_bfloat16_nextafter_steps_by_a_bfloat16_ulp():
    one = dl.astype(dl.asarray(1.0), dl.bfloat16)
    up = dl.nextafter(one, dl.astype(dl.asarray(2.0), dl.bfloat16))
    assert float(dl.astype(up, dl.float32)) == 1.0 + 2.0**-7
    down = dl.nextafter(dl.astype(dl.asarray(1.0), dl.float16), dl.astype(dl.asarray(0.0), dl.float16))
    assert float(dl.astype(down, dl.float32)) == 1.0 - 2.0**-11


# ---- reductions ------------------------------------------------------------------------------------

REDUCTIONS = ["sum", "prod", "max", "min", "mean", "var", "std"]


@pytest.mark.parametrize("half", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", REDUCTIONS + ["cumulative_sum", "cumulative_prod"])
def test_reductions_accumulate_in_float32_and_round_once(name, half):
    rng = np.random.default_rng(7)
    v = rng.uniform(0.5, 1.5 if name.endswith("prod") else 10, (37, 29)).astype(np.float32)
    dt = getattr(dl, half)
    x = dl.astype(dl.asarray(v), dt)
    x32 = np.from_dlpack(dl.astype(x, dl.float32))  # the half values, exactly, as float32
    for axis in (None, 0, 1):
        if name.startswith("cumulative"):
            if axis is None:
                continue
            got = getattr(dl, name)(x, axis=axis)
            want32 = np.cumsum(x32, axis=axis) if name == "cumulative_sum" else np.cumprod(x32, axis=axis)
        else:
            got = getattr(dl, name)(x, axis=axis)
            kw = {"dtype": np.float64} if name in ("sum", "prod", "mean") else {}
            want32 = getattr(np, name)(x32, axis=axis, **kw)
        assert got.dtype == dt, (name, axis)
        got32 = np.from_dlpack(dl.astype(got, dl.float32))
        want = dl.astype(dl.astype(dl.asarray(np.asarray(want32, dtype=np.float32)), dt), dl.float32)
        # float32 accumulation against float64: may differ by one rounding of the half type
        np.testing.assert_allclose(got32, np.from_dlpack(want), rtol=2.0**-7 if half == "bfloat16" else 2.0**-10)


def test_float16_sum_matches_numpy_and_beats_float16_accumulation():
    x = np.full(10000, 0.1, dtype=np.float16)
    got = np.from_dlpack(dl.sum(dl.asarray(x)))
    assert got.dtype == np.float16
    assert got == np.float16(np.sum(x.astype(np.float32)))  # float32 accumulation, one rounding
    assert got == np.sum(x)  # NumPy's float16 sum accumulates in float32 too
    assert float(dl.astype(dl.max(dl.asarray(x)), dl.float32)) == float(np.float16(0.1))


def test_reduction_dtype_argument_with_half_types():
    x = dl.asarray(np.arange(10, dtype=np.float16))
    assert dl.sum(x, dtype=dl.float32).dtype == dl.float32
    assert float(dl.sum(x, dtype=dl.float64)) == 45.0
    assert dl.sum(dl.arange(10, dtype=dl.float32), dtype=dl.float16).dtype == dl.float16
    assert dl.sum(dl.arange(10, dtype=dl.int32), dtype=dl.bfloat16).dtype == dl.bfloat16
    assert dl.cumulative_sum(x, dtype=dl.float64).dtype == dl.float64


# ---- promotion, Python scalars, data type functions ---------------------------------------------

STANDARD = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
            "complex64", "complex128"]
EXPECTED = {  # (half, other) -> result, None = TypeError
    ("float16", "float32"): "float32", ("float16", "float64"): "float64", ("float16", "complex64"): "complex64",
    ("float16", "complex128"): "complex128", ("float16", "float16"): "float16", ("float16", "bfloat16"): "float32",
    ("bfloat16", "float32"): "float32", ("bfloat16", "float64"): "float64", ("bfloat16", "complex64"): "complex64",
    ("bfloat16", "complex128"): "complex128", ("bfloat16", "bfloat16"): "bfloat16",
    # with bool and integers: float16 as NumPy, bfloat16 as PyTorch
    ("float16", "bool"): "float16", ("float16", "int8"): "float16", ("float16", "uint8"): "float16",
    ("float16", "int16"): "float32", ("float16", "uint16"): "float32", ("float16", "int32"): "float64",
    ("float16", "uint32"): "float64", ("float16", "int64"): "float64", ("float16", "uint64"): "float64",
    **{("bfloat16", i): "bfloat16" for i in ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
                                             "uint64"]},
}


@pytest.mark.parametrize("half", ["float16", "bfloat16"])
@pytest.mark.parametrize("other", STANDARD + ["float16", "bfloat16"])
def test_promotion_with_every_dtype(half, other):
    want = EXPECTED.get((half, other)) or EXPECTED.get((other, half))
    h, o = getattr(dl, half), getattr(dl, other)
    a, b = dl.ones(3, dtype=h), dl.ones(3, dtype=o)
    if want is None:
        with pytest.raises(TypeError):
            dl.result_type(h, o)
        with pytest.raises(TypeError):
            a + b
        assert not dl.can_cast(h, o)
        return
    assert dl.result_type(h, o) == dl.result_type(o, h) == getattr(dl, want)
    assert (a + b).dtype == (b + a).dtype == getattr(dl, want)
    assert dl.can_cast(h, o) == (want == other)
    if half == "float16" and other != "bfloat16":  # NumPy agrees
        assert np.result_type(np.float16, np.dtype(other)) == np.dtype(want)
    if (half == "bfloat16" or other == "bfloat16") and other not in ("uint16", "uint32", "uint64"):  # PyTorch agrees
        to_t = lambda n: getattr(torch, n) if n != "bool" else torch.bool
        assert torch.promote_types(to_t(half), to_t(other)) == to_t(want)


@pytest.mark.parametrize("half", ["float16", "bfloat16"])
def test_python_scalars_are_weak(half):
    h = getattr(dl, half)
    a = dl.ones(3, dtype=h)
    assert (a + 1).dtype == h and (a * 2.5).dtype == h and (1.0 - a).dtype == h
    assert dl.result_type(h, 1.0) == h and dl.result_type(h, 1) == h
    assert (a + 1j).dtype == dl.complex64 == dl.result_type(h, 1j)
    assert (a + True).dtype == h and dl.result_type(h, False) == h
    big = a * 1e6  # rounds to the half type's infinity (float16) or its nearest value (bfloat16)
    want = np.float16(1e6) if half == "float16" else float(torch.tensor(1e6, dtype=torch.bfloat16))
    assert float(dl.astype(big[0], dl.float32)) == float(want)


def test_data_type_functions():
    assert dl.isdtype(dl.float16, "real floating") and dl.isdtype(dl.bfloat16, "real floating")
    assert dl.isdtype(dl.float16, "numeric") and not dl.isdtype(dl.bfloat16, "integral")
    assert not dl.isdtype(dl.float16, "complex floating") and not dl.isdtype(dl.float16, "bool")
    assert dl.isdtype(dl.float16, dl.float16) and not dl.isdtype(dl.float16, dl.bfloat16)
    f = dl.finfo(dl.float16)
    n = np.finfo(np.float16)
    assert (f.bits, f.eps, f.max, f.min, f.smallest_normal) == (16, float(n.eps), float(n.max), float(n.min),
                                                                 float(n.smallest_normal))
    f, t = dl.finfo(dl.bfloat16), torch.finfo(torch.bfloat16)
    assert (f.bits, f.eps, f.max, f.min, f.smallest_normal) == (t.bits, t.eps, t.max, t.min, t.smallest_normal)
    x = dl.asarray([1.0, 2.5, 65519.0, 65520.0, 1e-8])
    np.testing.assert_array_equal(np.from_dlpack(dl.astype(x, dl.float16)),
                                  np.array([1.0, 2.5, 65519.0, 65520.0, 1e-8]).astype(np.float16))
    assert dl.can_cast(dl.float16, dl.float32) and not dl.can_cast(dl.float32, dl.float16)
    assert not dl.can_cast(dl.float16, dl.bfloat16) and dl.can_cast(dl.int8, dl.float16)  # NumPy's safe casting
    assert not dl.can_cast(dl.int16, dl.float16)
    assert dl.float16 not in dl.__array_namespace_info__().dtypes().values()
    assert dl.bfloat16 not in dl.__array_namespace_info__().dtypes().values()
    assert len(dl.__array_namespace_info__().dtypes()) == 13


def test_float64_to_half_rounds_once():
    # 1 + 2**-11 + 2**-40 lies just above the midpoint between two float16 values; a
    # double -> float32 -> float16 conversion would land on the midpoint and round to even.
    v = 1.0 + 2.0**-11 + 2.0**-40
    got = np.from_dlpack(dl.astype(dl.asarray(v), dl.float16))
    assert got == np.float16(v) == np.float16(1.0 + 2.0**-10)
    got_bf = dl.astype(dl.astype(dl.asarray(1.0 + 2.0**-8 + 2.0**-40), dl.bfloat16), dl.float32)
    assert float(got_bf) == 1.0 + 2.0**-7


def test_kinds_the_half_types_do_not_have():
    a = dl.ones(3, dtype=dl.float16)
    for f in (dl.bitwise_and, dl.bitwise_left_shift):
        with pytest.raises(TypeError, match="float16"):
            f(a, a)
    with pytest.raises(TypeError):
        dl.logical_not(dl.ones(3, dtype=dl.bfloat16))
    assert (dl.ones(3, dtype=dl.float16) + dl.ones(3, dtype=dl.int8)).dtype == dl.float16  # NumPy's promotion
    assert math.isnan(float(dl.astype(dl.sqrt(dl.astype(dl.asarray(-1.0), dl.float16)), dl.float32)))
