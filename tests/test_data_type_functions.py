"""Data type functions (astype, can_cast, finfo, iinfo, isdtype, result_type) and constants."""
import inspect
import itertools
import math

import numpy as np
import pytest

import dlarray as dl

ALL = [dl.bool, dl.int8, dl.int16, dl.int32, dl.int64, dl.uint8, dl.uint16, dl.uint32, dl.uint64,
       dl.float32, dl.float64, dl.complex64, dl.complex128]
COMPLEX = (dl.complex64, dl.complex128)


def npd(d):
    return np.dtype(str(d))


@pytest.mark.parametrize("src", ALL, ids=str)
def test_astype_values(src):
    values = np.array([0, 1, 2, 3, 100, 7], dtype=npd(src))
    x = dl.asarray(values)
    for dst in ALL:
        if src in COMPLEX and dst not in COMPLEX and dst != dl.bool:
            with pytest.raises(TypeError, match="real|imag"):
                dl.astype(x, dst)
            continue
        out = dl.astype(x, dst)
        assert out.dtype == dst and out.shape == x.shape
        np.testing.assert_array_equal(np.asarray(out), values.astype(npd(dst)), err_msg=str(dst))


@pytest.mark.parametrize("dst", ["float32", "int64", "float16", "uint8"])
def test_astype_keeps_the_axis_order_as_numpy(dst):
    """A conversion of a transposed, Fortran-ordered or sliced array is laid out in the source's
    axis order (NumPy's astype, order "K"), with NumPy's values; transposing conversions (a
    row-major destination from a transposed source, through asarray) are tiled: same values."""
    base = np.arange(3 * 200 * 150, dtype=np.float64).reshape(3, 200, 150) % 97
    for v in (base[0].T, np.asfortranarray(base[1]), base[:, ::2].transpose(2, 0, 1), base[::-1, :, ::3].T,
              base[2, 5:, 7:].T):
        got = np.asarray(dl.astype(dl.asarray(v), getattr(dl, dst)))
        want = v.astype(dst)
        assert got.strides == want.strides, (v.shape, v.strides)
        np.testing.assert_array_equal(got, want)
        row_major = np.asarray(dl.asarray(dl.asarray(v), dtype=getattr(dl, dst), copy=True))
        np.testing.assert_array_equal(row_major, want)


def test_astype_copy_semantics():
    x = dl.asarray([1.0, 2.0])
    assert dl.astype(x, dl.float64, copy=False) is x
    y = dl.astype(x, dl.float64)
    assert y is not x and y._data_ptr != x._data_ptr
    z = dl.astype(x, dl.float32, copy=False)  # a conversion always makes a new array
    assert z.dtype == dl.float32 and z._data_ptr != x._data_ptr
    assert dl.astype(x, dl.float64, device="cpu", copy=False) is x
    assert dl.astype(x, dl.int32, device=dl.Device("cpu")).tolist() == [1, 2]
    with pytest.raises(TypeError):
        dl.astype(x, "not a dtype")
    with pytest.raises(TypeError):
        dl.astype([1.0], dl.float32)


def test_astype_bool_and_special_values():
    assert dl.astype(dl.asarray([0.0, -0.0, math.nan, 2.0]), dl.bool).tolist() == [False, False, True, True]
    assert dl.astype(dl.asarray([0j, 1j, 0.5 + 0j]), dl.bool).tolist() == [False, True, True]
    assert dl.astype(dl.asarray([True, False]), dl.complex64).tolist() == [1 + 0j, 0j]
    # NaN and infinities to integers are implementation-defined: they must not crash.
    assert dl.astype(dl.asarray([math.nan, math.inf, -math.inf]), dl.int32).shape == (3,)


INTEGER = [dl.int8, dl.int16, dl.int32, dl.int64, dl.uint8, dl.uint16, dl.uint32, dl.uint64]


def _saturated(v, dst):
    """convert()'s rule: truncate toward zero, saturate to the type's range, NaN -> 0."""
    info = np.iinfo(npd(dst))
    if math.isnan(v):
        return 0
    if v <= info.min:
        return int(info.min)
    if v >= info.max:
        return int(info.max)
    return math.trunc(v)


@pytest.mark.parametrize("src", [dl.float32, dl.float64], ids=str)
@pytest.mark.parametrize("dst", INTEGER, ids=str)
def test_astype_float_to_integer_truncates_and_saturates(src, dst):
    # Every boundary a conversion path has (the type's range, 2^24/2^31/2^32 where float32 rounds,
    # 2^51 where the 64-bit vector path hands a block back, 2^52/2^53/2^63/2^64), NaN and
    # infinities, ties and negative fractions, placed inside rows long enough for the vector
    # bodies, and in the tail, contiguous and strided.
    info = np.iinfo(npd(dst))
    edges = [math.nan, math.inf, -math.inf, 0.0, -0.0, 0.5, -0.5, 0.99, -0.99, 1.5, -1.5, 2.5, -2.5, 255.5, 256.0,
             -129.0, 127.9, 128.0, 32767.5, 32768.0, -32769.0, 65535.9, 65536.0, 2.0 ** 24 + 2, 2.0 ** 31 - 128,
             2.0 ** 31, -(2.0 ** 31), -(2.0 ** 31) - 256, 2.0 ** 32 - 1, 2.0 ** 32, 2.0 ** 51 - 0.5, 2.0 ** 51,
             -(2.0 ** 51), 2.0 ** 52 + 1, 2.0 ** 53, 2.0 ** 63 - 1024, 2.0 ** 63, -(2.0 ** 63), -(2.0 ** 63) - 4096,
             2.0 ** 64 - 2048, 2.0 ** 64, 1e30, -1e30, float(info.max), float(info.min), float(info.max) - 1,
             float(info.min) + 1]
    rng = np.random.default_rng(5)
    for n, place in ((203, 0), (203, 150), (777, 700), (2000, 1000)):
        base = (rng.standard_normal(n) * 1e3).astype(npd(src))
        values = np.concatenate([base[:place], np.array(edges, dtype=npd(src)), base[place:]])
        expected = [_saturated(float(v), dst) for v in values]
        assert dl.astype(dl.asarray(values), dst).tolist() == expected
        strided = dl.asarray(values)[::3]
        assert dl.astype(strided, dst).tolist() == expected[::3]
    # A block without any edge value takes the vector path whole: 256-element blocks of ordinary values.
    ordinary = (rng.standard_normal(4096) * 1e6).astype(npd(src))
    if info.min == 0:
        ordinary = np.abs(ordinary)
    want = np.clip(np.trunc(ordinary.astype(np.float64)), float(info.min), float(info.max))
    assert dl.astype(dl.asarray(ordinary), dst).tolist() == [int(w) for w in want]


def test_astype_signature():
    assert str(inspect.signature(dl.astype)) == "(x, dtype, /, *, copy=True, device=None)"


def test_can_cast_follows_promotion():
    for src, dst in itertools.product(ALL, ALL):
        try:
            promoted = dl.result_type(src, dst)
        except TypeError:
            promoted = None
        assert dl.can_cast(src, dst) == (promoted == dst), (src, dst)
        assert dl.can_cast(dl.ones(1, dtype=src), dst) == (promoted == dst), (src, dst)


@pytest.mark.parametrize("dtype", [dl.float32, dl.float64, dl.complex64, dl.complex128], ids=str)
def test_finfo(dtype):
    real = {dl.complex64: dl.float32, dl.complex128: dl.float64}.get(dtype, dtype)
    want = np.finfo(npd(real))
    for arg in (dtype, dl.ones(1, dtype=dtype)):
        f = dl.finfo(arg)
        assert (f.bits, f.eps, f.max, f.min, f.smallest_normal) == (
            want.bits, float(want.eps), float(want.max), float(want.min), float(want.smallest_normal))
        assert all(isinstance(v, float) for v in (f.eps, f.max, f.min, f.smallest_normal))
        assert f.dtype == real
    with pytest.raises(TypeError):
        dl.finfo(dl.int32)


@pytest.mark.parametrize("dtype", ALL[1:9], ids=str)
def test_iinfo(dtype):
    want = np.iinfo(npd(dtype))
    i = dl.iinfo(dl.ones(1, dtype=dtype))
    assert (i.bits, i.min, i.max) == (want.bits, int(want.min), int(want.max))
    assert dl.iinfo(dtype).dtype == dtype
    with pytest.raises(TypeError):
        dl.iinfo(dl.float32)
    with pytest.raises(TypeError):
        dl.iinfo(dl.bool)


KINDS = {
    "bool": [dl.bool],
    "signed integer": ALL[1:5],
    "unsigned integer": ALL[5:9],
    "integral": ALL[1:9],
    "real floating": [dl.float32, dl.float64],
    "complex floating": list(COMPLEX),
    "numeric": ALL[1:],
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_isdtype_kinds(kind):
    for d in ALL:
        assert dl.isdtype(d, kind) is (d in KINDS[kind])


def test_isdtype_dtypes_and_tuples():
    assert dl.isdtype(dl.int8, dl.int8) and not dl.isdtype(dl.int8, dl.int16)
    assert dl.isdtype(dl.float32, ("integral", dl.float32))
    assert dl.isdtype(dl.uint8, ("bool", "unsigned integer"))
    assert not dl.isdtype(dl.complex64, ("real floating", dl.bool))
    assert dl.isdtype(dtype=dl.bool, kind="bool")
    with pytest.raises(ValueError, match="unknown kind"):
        dl.isdtype(dl.int8, "integer")
    with pytest.raises(TypeError):
        dl.isdtype("int8", "integral")


def test_result_type_is_variadic():
    assert str(inspect.signature(dl.result_type)) == "(*arrays_and_dtypes)"
    assert dl.result_type(dl.int8, dl.int16, dl.uint16, dl.ones(1, dtype=dl.int8)) == dl.int32


def test_constants():
    assert dl.e == math.e and dl.pi == math.pi and dl.inf == math.inf
    assert math.isnan(dl.nan) and dl.newaxis is None
    assert all(isinstance(c, float) for c in (dl.e, dl.pi, dl.inf, dl.nan))
    assert dl.__array_api_version__ == "2025.12"


@pytest.mark.parametrize("src", [dl.int64, dl.uint64], ids=str)
@pytest.mark.parametrize("dst", [dl.int8, dl.int16, dl.int32, dl.uint8, dl.uint16, dl.uint32, dl.float32, dl.float64],
                         ids=str)
def test_astype_from_64_bit_integers_wraps_and_rounds_as_numpy(src, dst):
    # Narrowing keeps the low bits; to float32/float64 each value is rounded to nearest once
    # (not through float64 for float32): odd multiples of 2^-25/2^-54 of a power of two are
    # the double-rounding traps. 8-element vector steps with tails, contiguous and strided.
    info = np.iinfo(npd(src))
    edges = [info.min, info.max, 0, 1, info.max - 1, 2 ** 24 + 1, 2 ** 53 + 1, 2 ** 53 - 1, 2 ** 62 + 2 ** 38 + 1,
             (1 << 63) - (1 << 39) - 1, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32]
    if info.min < 0:
        edges += [-1, -(2 ** 53) - 1, -(2 ** 24) - 1, -129, -32769, -(2 ** 31) - 1]
    else:
        edges += [2 ** 64 - 2 ** 40 - 1, 2 ** 63 + 1]
    rng = np.random.default_rng(9)
    for n in (1, 7, 8, 9, 64, 203):
        values = rng.integers(info.min, info.max, n, dtype=npd(src), endpoint=True)
        values[: min(n, len(edges))] = np.array(edges[:n], dtype=object).astype(npd(src))
        want = values.astype(npd(dst))
        assert np.array_equal(np.asarray(dl.astype(dl.asarray(values), dst)), want), n
        assert np.array_equal(np.asarray(dl.astype(dl.asarray(values)[::3], dst)), want[::3]), n


def test_dtype_equality_is_by_value_across_every_way_to_get_a_dtype():
    # == and != are a C slot that relies on dtype objects being interned: every route to a dtype
    # (attribute, array, result dtype, name lookup, pickling, copies, NumPy) must give the one object.
    import copy
    import pickle
    x = dl.asarray([1.0, 2.0], dtype=dl.float32)
    routes = [x.dtype, dl.result_type(x, dl.float32), dl.astype(x, dl.float32).dtype, dl.finfo(dl.float32).dtype,
              pickle.loads(pickle.dumps(dl.float32)), copy.deepcopy(dl.float32), dl.asarray(np.float32(1)).dtype,
              dl.__array_namespace_info__().dtypes()["float32"]]
    for d in routes:
        assert d == dl.float32 and not (d != dl.float32) and d is dl.float32
        assert d != dl.float64 and not (d == dl.float64)
    assert dl.float32 == np.dtype("float32") and np.dtype("float32") == dl.float32
    assert dl.float32 != np.dtype("float64")
    assert (dl.float32 == "float32") is False and (dl.float32 != 1) is True
    assert len({dl.float32, x.dtype, dl.float64}) == 2
