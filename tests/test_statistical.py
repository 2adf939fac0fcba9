"""Statistical functions (src/core/reduction_ops.h) against NumPy: values, dtypes, axes,
keepdims, layouts, the standard's special cases and the errors for bad arguments."""
import inspect
import math

import numpy as np
import pytest

import dlarray as dl
from helpers.oracle import to_numpy

OPS = {op["name"]: op for op in dl._core._reduction_ops()}
SPEC_STATISTICAL = ["cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var"]
NUMERIC = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64", "complex64", "complex128"]
ALL_DTYPES = ["bool"] + NUMERIC
ORDERED = [d for d in ALL_DTYPES if not d.startswith("complex")]


def accumulate_dtype(dtype):
    """The standard's result dtype of sum/prod/cumulative_* without a dtype argument."""
    if dtype == "bool" or dtype.startswith("int"):
        return "int64"
    if dtype.startswith("uint"):
        return "uint64"
    return dtype


def float_dtype(dtype):
    return dtype if dtype.startswith(("float", "complex")) else "float64"


def values(shape, dtype, small=False):
    """Varied values; small ones (1..3) where products must not overflow."""
    n = int(np.prod(shape, dtype=np.int64))
    k = np.arange(n)
    if dtype == "bool":
        return (k % 3 == 1).reshape(shape)
    base = (k % 3 + 1) if small else (k * 7 % 23)
    if dtype.startswith("complex"):
        return (base + 1j * ((k * 5) % 3 - 1)).astype(dtype).reshape(shape)
    if dtype.startswith("float"):
        return (base - (0 if small else 11) + 0.25).astype(dtype).reshape(shape)
    return base.astype(dtype).reshape(shape)


def oracle(name, x, axis=None, keepdims=False, correction=0.0):
    dtype = x.dtype.name
    if name in ("sum", "prod"):
        return getattr(np, name)(x, axis=axis, dtype=accumulate_dtype(dtype), keepdims=keepdims)
    if name in ("max", "min"):
        return getattr(np, name)(x, axis=axis, keepdims=keepdims)
    xf = x.astype(float_dtype(dtype))
    if name == "mean":
        return np.mean(xf, axis=axis, keepdims=keepdims)
    return getattr(np, name)(xf, axis=axis, ddof=correction, keepdims=keepdims)


def assert_close(got, want, dtype):
    want = np.asarray(want)
    assert str(got.dtype) == want.dtype.name
    g = to_numpy(got)
    assert g.shape == want.shape
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(g, want)
    else:
        single = want.dtype in (np.float32, np.complex64)
        np.testing.assert_allclose(g, want, rtol=1e-5 if single else 1e-12, atol=1e-5 if single else 1e-12,
                                   equal_nan=True)


def accepts(name, dtype):
    return not (name in ("max", "min") and dtype.startswith("complex"))


def test_table_is_the_standards_statistical_chapter():
    assert sorted(OPS) == SPEC_STATISTICAL


@pytest.mark.parametrize("name", SPEC_STATISTICAL)
def test_text_signature_matches_the_stub(name):
    assert str(inspect.signature(getattr(dl, name))) == "(" + OPS[name]["params"] + ")"


REDUCTIONS = [n for n in SPEC_STATISTICAL if not n.startswith("cumulative")]
AXES = [None, 0, 1, 2, -1, (0, 2), (1, 2), (0, 1, 2), ()]


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_values_dtypes_and_axes_match_numpy(name, dtype):
    if not accepts(name, dtype):
        return
    x = values((3, 4, 5), dtype, small=name == "prod")
    a = dl.asarray(x)
    for axis in AXES:
        for keepdims in (False, True):
            assert_close(getattr(dl, name)(a, axis=axis, keepdims=keepdims), oracle(name, x, axis, keepdims), dtype)


VIEWS = {
    "sliced_and_reversed": lambda v: v[::2, 1::3, ::-1],
    "transposed": lambda v: v[::-1, ::2].mT if isinstance(v, np.ndarray) else dl.permute_dims(v[::-1, ::2], (0, 2, 1)),
    "one_column": lambda v: v[..., 3],
}


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("name", REDUCTIONS)
def test_strided_and_reversed_inputs(name, view):
    base = values((6, 8, 10), "float64", small=name == "prod")
    x, a = VIEWS[view](base), VIEWS[view](dl.asarray(base))
    assert a.shape == x.shape
    for axis in (None, 0, -1, (0, 1)):
        assert_close(getattr(dl, name)(a, axis=axis), oracle(name, x, axis), "float64")


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "float32", "complex64"])
@pytest.mark.parametrize("name", ["sum", "prod"])
def test_dtype_argument_casts_before_accumulating(name, dtype):
    x = values((4, 6), "int8", small=True)
    if dtype.startswith("uint"):
        x = np.abs(x)
    got = getattr(dl, name)(dl.asarray(x), axis=1, dtype=getattr(dl, dtype))
    assert_close(got, getattr(np, name)(x.astype(dtype), axis=1, dtype=dtype), dtype)


def test_sum_of_int8_widens_instead_of_wrapping():
    x = np.full(1000, 100, dtype=np.int8)
    assert int(dl.sum(dl.asarray(x))) == 100_000
    assert dl.sum(dl.asarray(x), dtype=dl.int8).dtype == dl.int8


def test_unsigned_accumulates_as_uint64_and_bool_as_int64():
    assert dl.sum(dl.asarray([1, 2], dtype=dl.uint8)).dtype == dl.uint64
    assert dl.prod(dl.asarray([True, True])).dtype == dl.int64
    assert int(dl.sum(dl.asarray([True, False, True]))) == 2


@pytest.mark.parametrize("correction", [0, 1, 2.5])
@pytest.mark.parametrize("name", ["var", "std"])
def test_correction(name, correction):
    x = values((5, 7), "float64")
    for axis in (None, 0, 1):
        assert_close(getattr(dl, name)(dl.asarray(x), axis=axis, correction=correction),
                     oracle(name, x, axis, correction=correction), "float64")


@pytest.mark.parametrize("name", ["var", "std"])
def test_correction_at_least_the_count_gives_nan(name):
    x = dl.asarray([1.0, 2.0, 4.0])
    assert math.isnan(float(getattr(dl, name)(x, correction=3)))
    assert math.isnan(float(getattr(dl, name)(x, correction=5)))
    assert not math.isnan(float(getattr(dl, name)(x, correction=2)))


def test_var_is_stable_for_a_large_offset():
    x = np.array([1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16])
    assert float(dl.var(dl.asarray(x))) == pytest.approx(np.var(x), rel=1e-12)


@pytest.mark.parametrize("name,expected", [("sum", 0), ("prod", 1), ("mean", math.nan), ("var", math.nan),
                                           ("std", math.nan)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_empty_reductions(name, expected, dtype):
    out = getattr(dl, name)(dl.asarray([], dtype=getattr(dl, dtype)))
    assert out.shape == ()
    if math.isnan(expected):
        assert bool(dl.isnan(out))
    else:
        assert complex(out) == expected
        assert not math.copysign(1.0, float(dl.real(out))) < 0  # the empty sum is +0, not -0


def test_empty_reduction_along_an_axis_keeps_the_other_extent():
    x = np.zeros((0, 3))
    assert_close(dl.sum(dl.asarray(x), axis=0), np.sum(x, axis=0), "float64")
    assert_close(dl.prod(dl.asarray(x), axis=1), np.prod(x, axis=1), "float64")
    assert dl.max(dl.asarray(x), axis=1).shape == (0,)


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_min_of_nothing_raise_value_error(name):
    with pytest.raises(ValueError, match="no elements"):
        getattr(dl, name)(dl.asarray([], dtype=dl.float64))
    with pytest.raises(ValueError):
        getattr(dl, name)(dl.zeros((0, 3)), axis=0)


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("position", [0, 5, 16, 1999])
def test_nan_propagates(name, position):
    x = np.linspace(-3, 3, 2000)
    x[position] = np.nan
    assert bool(dl.isnan(getattr(dl, name)(dl.asarray(x))))
    y = x.reshape(40, 50)
    got = to_numpy(getattr(dl, name)(dl.asarray(y), axis=1))
    assert np.isnan(got[position // 50]) and np.isnan(got).sum() == 1


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_min_with_infinities(name):
    x = dl.asarray([-math.inf, 1.0, math.inf])
    assert float(getattr(dl, name)(x)) == (math.inf if name == "max" else -math.inf)


def test_complex_product_of_one_element_is_the_element():
    z = complex(math.inf, math.inf)
    assert complex(dl.prod(dl.asarray([z]))) == z  # no multiplication by an identity 1+0j


def test_sum_follows_successive_add_for_special_values():
    assert math.isnan(float(dl.sum(dl.asarray([math.inf, -math.inf, 1.0]))))
    assert float(dl.sum(dl.asarray([math.inf, 1.0, 2.0]))) == math.inf
    assert math.copysign(1.0, float(dl.sum(dl.asarray([-0.0, -0.0])))) == -1.0


def test_float32_sum_is_pairwise_accurate():
    x = np.full(10**6, 0.1, dtype=np.float32)
    got = float(dl.sum(dl.asarray(x)))
    assert got == pytest.approx(np.sum(x.astype(np.float64)), rel=1e-6)


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_large_inputs_take_the_threaded_paths(name, axis):
    x = values((600, 500), "float64", small=name == "prod")
    if name == "prod":
        x = 1 + (x - 2) * 1e-6  # products of 3e5 factors near 1 stay finite
    assert_close(getattr(dl, name)(dl.asarray(x), axis=axis), oracle(name, x, axis), "float64")
    xi = values((600, 500), "int64")
    if name in ("sum", "max", "min"):
        assert_close(getattr(dl, name)(dl.asarray(xi), axis=axis), oracle(name, xi, axis), "int64")


# ---- cumulative_sum / cumulative_prod ---------------------------------------------------------

@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_cumulative_match_numpy(name, dtype):
    x = values((3, 4, 5), dtype, small=True)
    a = dl.asarray(x)
    for axis in (0, 1, 2, -1):
        for include_initial in (False, True):
            got = getattr(dl, name)(a, axis=axis, include_initial=include_initial)
            want = getattr(np, name)(x, axis=axis, dtype=accumulate_dtype(dtype), include_initial=include_initial)
            assert_close(got, want, dtype)


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_on_1d_without_axis_and_with_dtype(name):
    x = np.array([1, 2, 3, 4], dtype=np.int16)
    assert_close(getattr(dl, name)(dl.asarray(x)), getattr(np, name)(x, dtype="int64"), "int64")
    assert_close(getattr(dl, name)(dl.asarray(x), dtype=dl.float32), getattr(np, name)(x, dtype="float32"),
                 "float32")
    assert getattr(dl, name)(dl.asarray([], dtype=dl.float64), include_initial=True).shape == (1,)


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_argument_errors(name):
    f = getattr(dl, name)
    with pytest.raises(ValueError, match="axis is required"):
        f(dl.ones((2, 3)))
    with pytest.raises(ValueError, match="at least one dimension"):
        f(dl.asarray(1.0))
    with pytest.raises(IndexError):
        f(dl.ones(3), axis=1)
    with pytest.raises(TypeError):
        f(dl.ones(3), include_initial=1)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "uint8", "complex128"])
def test_cumulative_sum_of_long_rows_adds_left_to_right(dtype):
    # Along the last axis the running value is kept in a register: the same left-to-right
    # additions as NumPy's (bit-equal for floats), one long row and rows split over threads.
    for shape in ((100_000,), (64, 5000)):
        x = values(shape, dtype)
        got = dl.cumulative_sum(dl.asarray(x), axis=-1)
        want = np.cumulative_sum(x, axis=-1, dtype=accumulate_dtype(dtype))
        np.testing.assert_array_equal(to_numpy(got), want)


def test_cumulative_sum_of_a_strided_view():
    x = np.arange(60.0).reshape(6, 10)[::-2, 1::3]
    a = dl.asarray(np.arange(60.0).reshape(6, 10))[::-2, 1::3]
    assert_close(dl.cumulative_sum(a, axis=0), np.cumulative_sum(x, axis=0), "float64")


# ---- argument errors --------------------------------------------------------------------------

@pytest.mark.parametrize("name", REDUCTIONS)
def test_axis_and_keepdims_errors(name):
    f = getattr(dl, name)
    x = dl.ones((2, 3))
    with pytest.raises(IndexError, match="out of bounds"):
        f(x, axis=2)
    with pytest.raises(ValueError, match="repeated"):
        f(x, axis=(0, -2))
    with pytest.raises(TypeError):
        f(x, axis=1.0)
    with pytest.raises(TypeError):
        f(x, keepdims=1)
    with pytest.raises(TypeError):
        f([1.0, 2.0])


@pytest.mark.parametrize("name", ["max", "min"])
def test_complex_has_no_order(name):
    with pytest.raises(TypeError, match="real-valued"):
        getattr(dl, name)(dl.asarray([1j]))


@pytest.mark.parametrize("name", ["sum", "prod"])
def test_dtype_argument_errors(name):
    with pytest.raises(TypeError, match="numeric"):
        getattr(dl, name)(dl.ones(3), dtype=dl.bool)
    with pytest.raises(TypeError, match="imaginary"):
        getattr(dl, name)(dl.asarray([1j]), dtype=dl.float64)


def test_correction_must_be_a_number():
    with pytest.raises(TypeError):
        dl.var(dl.ones(3), correction="1")
    with pytest.raises(TypeError):
        dl.std(dl.ones(3), correction=True)


def test_storage_only_dtypes_are_refused():
    # float16 and bfloat16 compute (test_half_precision.py); the fp8 family is storage only.
    x = dl.empty(3, dtype=dl.float8_e4m3fn)
    with pytest.raises(TypeError, match="storage-only"):
        dl.sum(x)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["max", "min"])
def test_vectorized_max_min_see_a_nan_in_every_lane_and_the_tail(name, dtype):
    n = 1000  # past the vector blocks' threshold, with a scalar tail
    base = np.linspace(-7, 7, n).astype(dtype)
    expected = getattr(np, name)(base)
    assert float(getattr(dl, name)(dl.asarray(base))) == expected
    for pos in range(0, n, 13):
        x = base.copy()
        x[pos] = np.nan
        assert math.isnan(float(getattr(dl, name)(dl.asarray(x)))), pos
    ends = base.copy()
    ends[-1] = 100 if name == "max" else -100
    assert float(getattr(dl, name)(dl.asarray(ends))) == ends[-1]


# ---- the vectorized max/min/argmax/argmin of every integer dtype (simd_minmax.h) ---------------

@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"])
@pytest.mark.parametrize("n", [255, 256, 1000, 4099, 70001])
def test_integer_extremes_match_numpy_across_the_whole_range(dtype, n):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(n)
    a = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    # The extremes somewhere inside, twice each (the first one's index is the answer), so a
    # signed/unsigned compare mistake or a lost lane shows.
    for v in (info.min, info.max):
        at = rng.choice(n, 2, replace=False)
        a[at] = v
    x = dl.asarray(a)
    assert int(dl.max(x)) == int(a.max()) and int(dl.min(x)) == int(a.min())
    assert int(dl.argmax(x)) == int(a.argmax()) and int(dl.argmin(x)) == int(a.argmin())
    # A range that never reaches the type's limits, crossing zero for signed types.
    b = (np.arange(n) % 97).astype(dtype)
    if info.min < 0:
        b = (b.astype(np.int64) - 48).astype(dtype)
    y = dl.asarray(b)
    assert int(dl.max(y)) == int(b.max()) and int(dl.argmin(y)) == int(b.argmin())
