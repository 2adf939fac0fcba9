"""Elementwise functions, driven by the declaration table (dlarray._core._elementwise_ops()).

NumPy is the value oracle; where the array API standard and NumPy differ (floor division
by infinities, complex log1p near 0) the standard's value is asserted explicitly.
"""
import inspect
import math
import warnings

import numpy as np
import pytest

import dlarray as dl
from helpers.cases import DTYPES, KIND, OPS, accepts, expected_dtype, npd, sample

SPEC_ELEMENTWISE = """abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift
bitwise_invert bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh divide
equal exp expm1 floor floor_divide greater greater_equal hypot imag isfinite isinf isnan less
less_equal log log1p log2 log10 logaddexp logical_and logical_not logical_or logical_xor maximum
minimum multiply negative nextafter not_equal positive pow real reciprocal remainder round sign
signbit sin sinh square sqrt subtract tan tanh trunc""".split()

# Operations whose real results are exact (correctly rounded or integral): compared bit for
# bit. For complex inputs only the component-wise ones are; the rest (NumPy's complex
# multiply, divide, abs and sqrt round differently from C99's) get a tolerance.
EXACT = {"abs", "add", "subtract", "multiply", "divide", "negative", "positive", "square", "sqrt",
         "ceil", "floor", "trunc", "round", "maximum", "minimum", "copysign", "nextafter", "sign",
         "real", "imag", "conj", "floor_divide", "remainder", "reciprocal", "clip", "where"}
EXACT_COMPLEX = {"add", "subtract", "negative", "positive", "round", "real", "imag", "conj", "where"}


def numpy_oracle(name, args):
    fn = {"clip": lambda x, lo, hi: np.clip(x, lo, hi)}.get(name) or getattr(np, name)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return np.asarray(fn(*args))


def assert_values(name, dtype, got, want):
    assert got.shape == want.shape, dtype
    got = np.asarray(got)
    exact = EXACT_COMPLEX if npd(dtype).kind == "c" else EXACT
    if name in exact or want.dtype.kind in "biu":
        if want.dtype.kind in "fc":
            np.testing.assert_array_equal(got, want.astype(got.dtype))
        else:
            np.testing.assert_array_equal(got, want)
        return
    single = npd(dtype) in (np.float32, np.complex64)
    np.testing.assert_allclose(got, want, rtol=2e-6 if single else 1e-13, atol=1e-30, equal_nan=True)


def test_table_is_the_standard_67_plus_where():
    assert sorted(OPS) == sorted(SPEC_ELEMENTWISE + ["where"])
    for name in OPS:
        assert callable(getattr(dl, name))


@pytest.mark.parametrize("name", sorted(OPS))
def test_text_signature_matches_the_stub(name):
    assert str(inspect.signature(getattr(dl, name))) == "(" + OPS[name]["params"] + ")"


@pytest.mark.parametrize("name", sorted(OPS))
def test_values_match_numpy(name):
    op = OPS[name]
    for dtype in DTYPES:
        if not accepts(op, dtype):
            continue
        rng = np.random.default_rng(abs(hash((name, str(dtype)))) % 2**32)
        n = 37
        if name == "where":
            args = [rng.integers(0, 2, n).astype(bool), sample(name, dtype, n, rng), sample(name, dtype, n, rng, 1)]
        elif name == "clip":
            x = sample(name, dtype, n, rng)
            lo, hi = np.sort(np.stack([sample(name, dtype, n, rng), sample(name, dtype, n, rng)]), axis=0)
            args = [x, lo, hi]
        else:
            args = [sample(name, dtype, n, rng, i) for i in range(op["arity"])]
        out = getattr(dl, name)(*[dl.asarray(a) for a in args])
        assert out.dtype == expected_dtype(op, dtype), dtype
        want = numpy_oracle(name, args)
        assert str(out.dtype) == str(want.dtype), dtype
        assert_values(name, dtype, out, want)


def floating_only(op):
    """Functions defined for floating inputs only: integer and bool inputs compute in float64."""
    return "real floating" in op["kinds"] and not {"bool", "signed integer", "unsigned integer"} & set(op["kinds"])


@pytest.mark.parametrize("name", sorted(OPS))
def test_dtypes_outside_the_kinds_raise_type_error(name):
    for dtype in DTYPES:
        if accepts(OPS[name], dtype) or floating_only(OPS[name]) and KIND[dtype] != "complex floating":
            continue
        x = dl.ones(3, dtype=dtype)
        args = {"where": [dl.ones(3, dtype=dl.bool), x, x], "clip": [x]}.get(name, [x] * OPS[name]["arity"])
        with pytest.raises(TypeError, match=name):
            getattr(dl, name)(*args)


@pytest.mark.parametrize("name", sorted(n for n, op in OPS.items() if floating_only(op)))
def test_integer_and_bool_inputs_of_floating_functions_compute_in_float64(name):
    """As NumPy's true_divide (and PyTorch, CuPy, JAX): float64 for every integer width; the
    values are those of the function on the inputs converted to float64."""
    rng = np.random.default_rng(7)
    for dtype in [dl.bool, dl.int8, dl.uint8, dl.int32, dl.int64, dl.uint64]:
        args = [sample(name, dtype, 16, rng, i) for i in range(OPS[name]["arity"])]
        if name in ("acosh",):
            args = [np.abs(a.astype(np.int64)).astype(npd(dtype)) + np.asarray(1).astype(npd(dtype)) for a in args]
        got = getattr(dl, name)(*[dl.asarray(a) for a in args])
        want_dtype = dl.bool if OPS[name]["result"] == "bool" else dl.float64
        assert got.dtype == want_dtype, dtype
        as_float = [dl.asarray(a.astype(np.float64)) for a in args]
        np.testing.assert_array_equal(np.asarray(got), np.asarray(getattr(dl, name)(*as_float)), err_msg=str(dtype))


def test_true_division_of_integers_gives_float64():
    got = dl.divide(dl.asarray([1, 2]), dl.asarray([4, 4]))
    assert got.dtype == dl.float64 and got.tolist() == [0.25, 0.5]
    assert (dl.asarray([1, 2, 3]) / 2).tolist() == [0.5, 1.0, 1.5]
    assert (dl.asarray([3], dtype=dl.int8) / dl.asarray([2], dtype=dl.int8)).dtype == dl.float64  # NumPy's too
    assert (dl.asarray([True, False]) / 2).tolist() == [0.5, 0.0]
    assert (1 / dl.asarray([4])).tolist() == [0.25]
    x = dl.asarray([1, 2])
    with pytest.raises(TypeError, match="in place"):  # NumPy refuses x /= 2 for integer x too
        x /= 2
    assert x.tolist() == [1, 2]


# ---- special values ---------------------------------------------------------------------

SPECIALS = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, -2.5, 3.0, 1e-300, -7.25, 1e300]
REAL_UNARY = [n for n, op in OPS.items() if op["arity"] == 1 and "real floating" in op["kinds"]]
REAL_BINARY = [n for n, op in OPS.items() if op["arity"] == 2 and "real floating" in op["kinds"]]


def assert_same_floats(got, want, context):
    got, want = np.asarray(got), np.asarray(want)
    if want.dtype == bool:
        np.testing.assert_array_equal(got, want, err_msg=context)
        return
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=0, equal_nan=True, err_msg=context)
    both_zero = (got == 0) & (want == 0)
    np.testing.assert_array_equal(np.signbit(got[both_zero]), np.signbit(want[both_zero]), err_msg=context + " (zero signs)")


@pytest.mark.parametrize("name", sorted(REAL_UNARY))
def test_unary_special_values(name):
    x = np.array(SPECIALS)
    got = getattr(dl, name)(dl.asarray(x))
    want = numpy_oracle(name, [x])
    if name == "sign":
        want = np.where(want == 0, 0.0, want)  # the standard: sign(-0.0) is +0.0
    assert_same_floats(got, want, name)


@pytest.mark.parametrize("name", sorted(set(REAL_BINARY) - {"floor_divide", "maximum", "minimum"}))
def test_binary_special_values(name):
    a, b = np.meshgrid(np.array(SPECIALS), np.array(SPECIALS))
    got = getattr(dl, name)(dl.asarray(a.ravel()), dl.asarray(b.ravel()))
    assert_same_floats(got, numpy_oracle(name, [a.ravel(), b.ravel()]), name)


def test_maximum_minimum_propagate_nan():
    a, b = np.meshgrid(np.array(SPECIALS), np.array(SPECIALS))
    for name in ("maximum", "minimum"):
        got = np.asarray(getattr(dl, name)(dl.asarray(a.ravel()), dl.asarray(b.ravel())))
        want = numpy_oracle(name, [a.ravel(), b.ravel()])
        np.testing.assert_array_equal(got, want)  # NaN positions and values; zero signs unspecified


def test_floor_divide_follows_the_standard_with_infinities():
    fd = lambda a, b: float(dl.floor_divide(dl.asarray(a), dl.asarray(b)))
    assert fd(math.inf, 2.0) == math.inf and fd(-math.inf, 2.0) == -math.inf
    assert fd(math.inf, -2.0) == -math.inf
    assert math.copysign(1, fd(1.0, -math.inf)) == -1 and fd(1.0, -math.inf) == 0
    assert math.copysign(1, fd(-1.0, math.inf)) == -1 and fd(-1.0, math.inf) == 0
    assert math.copysign(1, fd(1.0, math.inf)) == 1
    assert math.isnan(fd(math.inf, math.inf)) and math.isnan(fd(0.0, 0.0))
    assert fd(1.0, 0.0) == math.inf and fd(1.0, -0.0) == -math.inf
    # Finite operands agree with Python's //, including 1 // 0.1 == 9.
    for a, b in [(1.0, 0.1), (-7.5, 2.0), (7.5, -2.0), (1e308, 1e-308), (5.0, 3.0)]:
        assert fd(a, b) == a // b


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"])
def test_integer_division_by_one_divisor(dtype):
    # x // d and x % d with one divisor for the row run by its magic multiplier (and four
    # 64-bit lanes at a time on AVX2): the same values as the per-element path (an array of
    # d), and NumPy's except at d = 0 and -1 (where the per-element path defines them: 0, and
    # INT_MIN // -1 wrapping to INT_MIN). Bytes: every numerator with every divisor.
    info = np.iinfo(dtype)
    rng = np.random.default_rng(info.bits)
    if info.bits == 8:
        xs = np.arange(info.min, info.max + 1).astype(dtype)
        divisors = xs
    else:
        edge = [info.min, info.min + 1, info.max, info.max - 1, 0, 1, 2, 3, 5, 7, 10, 255, 256, 1000,
                2 ** (info.bits // 2), 2 ** (info.bits // 2) + 1, 2 ** (info.bits - 2) + 1]
        if info.min < 0:
            edge += [-1, -2, -3, -7, -10, -256, -(2 ** (info.bits // 2)), -(2 ** (info.bits - 2)) - 1]
        xs = np.concatenate([np.array(edge, dtype=dtype),
                             rng.integers(info.min, info.max, 2000, dtype=dtype, endpoint=True)])
        divisors = np.concatenate([np.array(edge, dtype=dtype), rng.integers(info.min, info.max, 30, dtype=dtype, endpoint=True)])
    x = dl.asarray(xs)
    for dv in divisors:
        one = dl.asarray(np.array(dv, dtype=dtype))
        every = dl.asarray(np.full_like(xs, dv))
        for name in ("floor_divide", "remainder"):
            got = np.from_dlpack(getattr(dl, name)(x, one))
            np.testing.assert_array_equal(got, np.from_dlpack(getattr(dl, name)(x, every)), err_msg=f"{name} by {dv}")
            if dv != 0 and not (info.min < 0 and dv == -1):
                np.testing.assert_array_equal(got, getattr(np, name)(xs, dv), err_msg=f"{name} by {dv}")
    # The Python-scalar operators take the same row; an odd length leaves a tail.
    np.testing.assert_array_equal(np.from_dlpack(x[1:] // 7), xs[1:] // 7)
    np.testing.assert_array_equal(np.from_dlpack(x[1:] % 7), xs[1:] % 7)


def test_remainder_matches_python():
    for a, b in [(5.5, 2.0), (-5.5, 2.0), (5.5, -2.0), (1.0, math.inf), (-1.0, math.inf), (1.0, -math.inf), (0.0, -3.0)]:
        got = float(dl.remainder(dl.asarray(a), dl.asarray(b)))
        want = a % b
        assert got == want and math.copysign(1, got) == math.copysign(1, want), (a, b)


def test_sign_of_zeros_and_complex():
    out = np.asarray(dl.sign(dl.asarray([-0.0, 0.0, -3.0, math.nan])))
    assert not np.signbit(out[0]) and out[2] == -1 and math.isnan(out[3])
    z = np.asarray(dl.sign(dl.asarray([3 + 4j, 0j, complex(math.inf, 0), complex(math.nan, 1), complex(math.inf, math.inf)])))
    assert z[0] == 0.6 + 0.8j and z[1] == 0 and z[2] == 1
    assert math.isnan(z[3].real) and math.isnan(z[3].imag) and math.isnan(z[4].real)


def test_complex_expm1_and_log1p_are_accurate_near_zero():
    z = 1e-10 + 1e-10j
    series_log1p = z - z * z / 2 + z**3 / 3
    series_expm1 = z + z * z / 2 + z**3 / 6
    got = complex(dl.log1p(dl.asarray(z)))
    assert abs(got - series_log1p) <= 1e-15 * abs(z)
    got = complex(dl.expm1(dl.asarray(z)))
    assert abs(got - series_expm1) <= 1e-15 * abs(z)
    assert complex(dl.log1p(dl.asarray(-1 + 0j))).real == -math.inf
    zero = complex(dl.expm1(dl.asarray(complex(-0.0, 0.0))))
    assert zero == 0 and math.copysign(1, zero.real) == 1 and math.copysign(1, zero.imag) == 1
    assert complex(dl.expm1(dl.asarray(complex(-math.inf, 0)))) == -1


def test_complex_tanh_and_tan_at_infinity_follow_the_standard():
    inf = math.inf
    for b in (0.5, 2.0, 3.0, -2.0):  # sin(2b) < 0 for 2 and 3: C99 would give 1 - 0j
        z = complex(dl.tanh(dl.asarray(complex(inf, b))))
        assert z.real == 1 and z.imag == 0 and math.copysign(1, z.imag) == math.copysign(1, b)
        w = complex(dl.tanh(dl.asarray(complex(-inf, b))))
        assert w.real == -1 and math.copysign(1, w.imag) == math.copysign(1, b)
    # tan(z) == -1j * tanh(1j * z) for special values too
    for z in (complex(2.0, inf), complex(-3.0, -inf), complex(0.0, math.nan), 1 + 2j):
        got = complex(dl.tan(dl.asarray(z)))
        ref = complex(dl.tanh(dl.asarray(complex(-z.imag, z.real))))
        want = complex(ref.imag, -ref.real)
        same = lambda u, v: u == v or (math.isnan(u) and math.isnan(v))
        assert same(got.real, want.real) and same(got.imag, want.imag), z


def test_complex_pow_small_integer_exponents_are_exact():
    assert complex(dl.pow(dl.asarray(1 + 1j), dl.asarray(2 + 0j))) == 2j
    assert complex(dl.asarray(1 + 1j) ** 3) == -2 + 2j


# ---- integers: every case C++ leaves undefined has a value ------------------------------

def _int_pow_reference(base, exponent, bits, signed):
    """Python's exact power reduced to the dtype's width (wrapping), truncation for e < 0."""
    if exponent < 0:
        return 1 if base == 1 else (-1 if exponent % 2 else 1) if base == -1 else 0
    r = pow(base, exponent, 1 << bits)
    return r - (1 << bits) if signed and r >= 1 << (bits - 1) else r


@pytest.mark.parametrize("dtype", [dl.int8, dl.int16, dl.int32, dl.int64, dl.uint8, dl.uint16, dl.uint32, dl.uint64])
def test_integer_pow_rows_match_exact_arithmetic(dtype):
    # Contiguous rows take a blocked, branch-free loop (int_pow_row); strided ones the functor.
    # Both against Python's integers: negative exponents, bases 0 and +-1, exponents up to the
    # dtype's maximum (63 squarings in a block), wrapping products, a block border (600 > 256).
    info = np.iinfo(npd(dtype))
    signed = info.min < 0
    rng = np.random.default_rng(3)
    n = 600
    nt = npd(dtype)
    base = rng.integers(max(info.min, -40), min(info.max, 40), n, endpoint=True).astype(nt)
    exponent = rng.integers(-5 if signed else 0, 70, n, endpoint=True).astype(nt)
    base[:8] = np.array([0, 1, 2, 3, 0, 1, 7, 5], dtype=nt)
    exponent[:8] = np.array([0, 0, 0, 1, 5, info.max, info.max, info.max - 1], dtype=object).astype(nt)
    if signed:
        base[8:14] = np.array([-1, -1, -1, 0, 2, info.min], dtype=nt)
        exponent[8:14] = np.array([-1, -2, info.min, -1, -3, 2], dtype=nt)
    base[300] = 3
    exponent[300] = info.max  # one huge exponent in a block of small ones
    want = [_int_pow_reference(int(b), int(e), info.bits, signed) for b, e in zip(base, exponent)]
    x, y = dl.asarray(base), dl.asarray(exponent)
    assert dl.pow(x, y).tolist() == want
    assert dl.pow(dl.asarray(np.repeat(base, 2))[::2], dl.asarray(np.repeat(exponent, 2))[::2]).tolist() == want
    # A scalar exponent, a scalar base, and in place.
    for e in (0, 1, 3, 6, info.max):
        assert dl.pow(x, dl.asarray(e, dtype=dtype)).tolist() == [_int_pow_reference(int(b), e, info.bits, signed) for b in base]
    assert (x ** 3).tolist() == [_int_pow_reference(int(b), 3, info.bits, signed) for b in base]
    two = dl.asarray(2, dtype=dtype)
    assert dl.pow(two, y).tolist() == [_int_pow_reference(2, int(e), info.bits, signed) for e in exponent]
    z = dl.asarray(base)
    z **= y
    assert z.tolist() == want
    assert x.tolist() == base.tolist()  # the operands are unchanged


@pytest.mark.parametrize("dtype", [dl.int8, dl.int16, dl.int32, dl.int64])
def test_signed_integer_corner_cases_do_not_trap(dtype):
    info = np.iinfo(npd(dtype))
    x = dl.asarray([info.min, info.min, 7, -7, 5], dtype=dtype)
    y = dl.asarray([-1, 0, 0, 0, -1], dtype=dtype)
    assert dl.floor_divide(x, y).tolist() == [info.min, 0, 0, 0, -5]
    assert dl.remainder(x, y).tolist() == [0, 0, 0, 0, 0]
    assert dl.abs(dl.asarray([info.min], dtype=dtype)).tolist() == [info.min]
    assert dl.negative(dl.asarray([info.min], dtype=dtype)).tolist() == [info.min]
    assert (dl.asarray([info.max], dtype=dtype) + dl.asarray([1], dtype=dtype)).tolist() == [info.min]
    bits = info.bits
    one = dl.asarray([1, -1, 1, -8], dtype=dtype)
    shifts = dl.asarray([bits, bits + 3, -1, 2], dtype=dtype)
    assert dl.bitwise_left_shift(one, shifts).tolist() == [0, 0, 0, -32]
    assert dl.bitwise_right_shift(one, shifts).tolist() == [0, -1, 0, -2]
    assert dl.pow(dl.asarray([2, 1, -1, -1, 0], dtype=dtype), dl.asarray([-1, -5, -3, -2, 0], dtype=dtype)).tolist() == [0, 1, -1, 1, 1]


@pytest.mark.parametrize("dtype", [dl.uint8, dl.uint16, dl.uint32, dl.uint64])
def test_unsigned_integer_corner_cases(dtype):
    info = np.iinfo(npd(dtype))
    x = dl.asarray([info.max, 7, 0], dtype=dtype)
    zero = dl.asarray([0, 0, 0], dtype=dtype)
    assert dl.floor_divide(x, zero).tolist() == [0, 0, 0]
    assert dl.remainder(x, zero).tolist() == [0, 0, 0]
    assert dl.negative(dl.asarray([1], dtype=dtype)).tolist() == [int(info.max)]
    assert dl.bitwise_left_shift(x, dl.asarray([info.bits] * 3, dtype=dtype)).tolist() == [0, 0, 0]
    assert dl.multiply(dl.asarray([info.max], dtype=dtype), dl.asarray([info.max], dtype=dtype)).tolist() == [1]


# ---- broadcasting and layouts -----------------------------------------------------------

@pytest.mark.parametrize("s1,s2", [((3, 1), (4,)), ((2, 1, 5), (3, 1)), ((), (2, 3)), ((1,), (0,)), ((4, 0), (1,))])
def test_broadcasting(s1, s2):
    a = np.arange(math.prod(s1), dtype=np.float64).reshape(s1)
    b = np.arange(math.prod(s2), dtype=np.float64).reshape(s2) * 10
    out = dl.add(dl.asarray(a), dl.asarray(b))
    np.testing.assert_array_equal(np.asarray(out), a + b)


def test_broadcast_mismatch_is_value_error():
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(4,\)|cannot be broadcast"):
        dl.add(dl.zeros((2, 3)), dl.zeros(4))


@pytest.mark.parametrize("view", ["transpose", "step", "reverse", "broadcast0"])
def test_strided_inputs(view):
    base = np.arange(60, dtype=np.float64).reshape(6, 10) / 7
    v = {"transpose": base.T, "step": base[::2, 1::3], "reverse": base[::-1, ::-2],
         "broadcast0": np.broadcast_to(base[:1], (6, 10))}[view]
    x = dl.asarray(v)
    np.testing.assert_allclose(np.asarray(dl.sin(x)), np.sin(v), rtol=1e-14, atol=1e-15)
    # A value's result does not depend on the layout it arrives in.
    np.testing.assert_array_equal(np.asarray(dl.sin(x)), np.asarray(dl.sin(dl.asarray(np.ascontiguousarray(v)))))
    np.testing.assert_array_equal(np.asarray(x * x), v * v)
    np.testing.assert_array_equal(np.asarray(dl.add(x, dl.asarray(np.ascontiguousarray(v)))), v + v)


def test_outputs_follow_the_inputs_memory_order():
    a = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    out = dl.asarray(a) + 1.0
    np.testing.assert_array_equal(np.asarray(out), a + 1)
    assert out._strides == (1, 3)  # Fortran order like the input, so the loop stayed contiguous


@pytest.mark.parametrize("shape", [(3 * 32768 + 7,), (517, 389)])
def test_large_arrays_use_threads_correctly(shape):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape)
    b = rng.standard_normal(shape[-1:])
    x = dl.asarray(a)
    np.testing.assert_array_equal(np.asarray(x + dl.asarray(b)), a + b)
    np.testing.assert_allclose(np.asarray(dl.sin(x)), np.sin(a), rtol=1e-14, atol=1e-15)
    if len(shape) == 2:
        np.testing.assert_array_equal(np.asarray(dl.asarray(a.T) - dl.asarray(a).T), np.zeros(shape[::-1]))
        col = dl.asarray(rng.standard_normal((shape[0], 1)))
        np.testing.assert_array_equal(np.asarray(col * dl.asarray(b)), np.asarray(col) * b)


# ---- Python scalars and promotion inside functions ---------------------------------------

def test_python_scalars_take_the_array_dtype():
    x = dl.asarray([1, 2, 3], dtype=dl.int8)
    assert dl.add(x, 5).dtype == dl.int8 and dl.add(5, x).tolist() == [6, 7, 8]
    f = dl.asarray([1.0], dtype=dl.float32)
    assert dl.multiply(f, 2).dtype == dl.float32 and dl.multiply(2.5, f).dtype == dl.float32
    assert dl.add(f, 1j).dtype == dl.complex64
    assert dl.add(dl.asarray([1.0]), 1j).dtype == dl.complex128
    assert dl.logical_and(dl.asarray([True, False]), True).tolist() == [True, False]
    with pytest.raises(OverflowError):
        dl.add(x, 300)
    # A scalar of a higher kind takes its kind's default dtype (NumPy 2's weak scalars).
    assert dl.add(x, 1.5).dtype == dl.float64 and dl.add(x, 1.5).tolist() == [2.5, 3.5, 4.5]
    assert dl.add(dl.asarray([True]), 1).dtype == dl.int64
    with pytest.raises(TypeError, match="at least one argument must be an array"):
        dl.add(1, 2)
    with pytest.raises(TypeError):
        dl.sin(1.0)


def test_mixed_dtype_arrays_promote_first():
    a = dl.asarray([100], dtype=dl.int8)
    b = dl.asarray([100], dtype=dl.uint8)
    assert (a + b).dtype == dl.int16 and (a + b).tolist() == [200]
    assert dl.add(dl.asarray([1.5], dtype=dl.float32), dl.asarray([2j])).dtype == dl.complex128


# ---- clip and where ---------------------------------------------------------------------

def test_clip_bounds():
    x = dl.asarray([-2.0, 0.5, 3.0, math.nan])
    assert np.array_equal(np.asarray(dl.clip(x, -1, 1)), [-1, 0.5, 1, math.nan], equal_nan=True)
    assert np.array_equal(np.asarray(dl.clip(x, max=0.0)), [-2, 0, 0, math.nan], equal_nan=True)
    assert np.array_equal(np.asarray(dl.clip(x)), np.asarray(x), equal_nan=True)
    assert np.isnan(np.asarray(dl.clip(x, math.nan, 2.0))).all()
    lo = dl.asarray([[0.0], [1.0]])
    assert dl.clip(x, lo).shape == (2, 4)
    i = dl.asarray([1, 200, 50], dtype=dl.uint8)
    assert dl.clip(i, -5, 1000).tolist() == [1, 200, 50]  # bounds beyond the dtype bound nothing
    assert dl.clip(i, 10, 100).dtype == dl.uint8
    with pytest.raises(TypeError, match="clip"):  # the result keeps x's dtype: a float bound would be truncated
        dl.clip(i, 1.5)
    with pytest.raises(TypeError, match="clip"):
        dl.clip(i, dl.asarray(1.5))
    with pytest.raises(TypeError, match="clip"):
        dl.clip(i, np.float32(1.5))
    assert dl.clip(dl.asarray([0.5, 3.0]), 1, np.int64(2)).tolist() == [1.0, 2.0]
    with pytest.raises(TypeError):
        dl.clip(2.0, 1.0)


def test_where():
    c = dl.asarray([True, False, True])
    assert dl.where(c, dl.asarray([1, 2, 3]), dl.asarray([10, 20, 30])).tolist() == [1, 20, 3]
    assert dl.where(c, 1.5, dl.asarray([0.0, 0.0, 0.0])).tolist() == [1.5, 0.0, 1.5]
    assert dl.where(c, dl.asarray([1], dtype=dl.int8), dl.asarray([2], dtype=dl.int16)).dtype == dl.int16
    assert dl.where(dl.asarray([[True], [False]]), dl.asarray([1, 2]), 0).tolist() == [[1, 2], [0, 0]]
    with pytest.raises(TypeError, match="condition"):
        dl.where(dl.asarray([1, 0]), dl.asarray([1, 2]), dl.asarray([3, 4]))
    with pytest.raises(TypeError):
        dl.where(c, 1, 2)


@pytest.mark.parametrize("dtype", [dl.int8, dl.int16, dl.int32, dl.int64, dl.uint8, dl.uint16, dl.uint32,
                                   dl.uint64, dl.float32, dl.float64])
def test_comparison_rows_against_numpy_with_row_and_scalar_operands(dtype):
    # The AVX-512 rows (bool_rows_avx512.cpp) take 64 elements a step, with a row or a broadcast
    # scalar on either side, and leave tails to the loops they replace: lengths around 64, the
    # type's extremes (unsigned compares above the signed range), NaN, signed zeros.
    nt = npd(dtype)
    rng = np.random.default_rng(11)
    if np.issubdtype(nt, np.integer):
        info = np.iinfo(nt)
        pool = np.array([info.min, info.max, 0, 1, info.max // 2 + 1, info.min // 2 - 1 if info.min else 3], dtype=nt)
    else:
        pool = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, np.finfo(nt).max], dtype=nt)
    for n in (1, 63, 64, 65, 130, 257):
        a, b = rng.choice(pool, n), rng.choice(pool, n)
        scalar = pool[n % len(pool)]
        da, db = dl.asarray(a), dl.asarray(b)
        for name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
            ours, theirs = getattr(dl, name), getattr(np, name)
            with np.errstate(invalid="ignore"):
                assert np.array_equal(np.asarray(ours(da, db)), theirs(a, b)), (name, n)
                assert np.array_equal(np.asarray(ours(da, dl.asarray(scalar))), theirs(a, scalar)), (name, n)
                assert np.array_equal(np.asarray(ours(dl.asarray(scalar), db)), theirs(scalar, b)), (name, n)
        if not np.issubdtype(nt, np.integer):
            for name in ("isnan", "isinf", "isfinite", "signbit"):
                assert np.array_equal(np.asarray(getattr(dl, name)(da)), getattr(np, name)(a)), (name, n)
