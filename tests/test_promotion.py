"""Type promotion: the standard's tables, NumPy's choices where the standard leaves a pair open,
Python and NumPy scalars, and promotion inside operations.

The expected table is rebuilt here from the standard's rules (not read from the C++ table) for
the pairs it defines, and is NumPy's np.result_type for the rest (bool with numbers, integers
with floating, int64 with uint64); every pair is also checked against NumPy.
"""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import dlarray as dl

SIGNED = [dl.int8, dl.int16, dl.int32, dl.int64]
UNSIGNED = [dl.uint8, dl.uint16, dl.uint32, dl.uint64]
FLOATING = [dl.float32, dl.float64, dl.complex64, dl.complex128]
ALL = [dl.bool] + SIGNED + UNSIGNED + FLOATING
BITS = {d: np.dtype(str(d)).itemsize * 8 for d in ALL}


def expected(a, b):
    """The standard's promotion, or NumPy's where the standard defines none."""
    return standard(a, b) or getattr(dl, str(np.result_type(np.dtype(str(a)), np.dtype(str(b)))))


def standard(a, b):
    """The standard's promotion rules, or None where it defines none."""
    if a == b:
        return a
    if dl.bool in (a, b):
        return None
    if a in SIGNED and b in SIGNED or a in UNSIGNED and b in UNSIGNED:
        return a if BITS[a] >= BITS[b] else b
    if a in UNSIGNED and b in SIGNED:
        a, b = b, a
    if a in SIGNED and b in UNSIGNED:
        bits = max(BITS[a], 2 * BITS[b])
        return None if bits > 64 else {8: dl.int8, 16: dl.int16, 32: dl.int32, 64: dl.int64}[bits]
    if a in FLOATING and b in FLOATING:
        complex_ = a in (dl.complex64, dl.complex128) or b in (dl.complex64, dl.complex128)
        wide = max(BITS[a] // (2 if a in (dl.complex64, dl.complex128) else 1),
                   BITS[b] // (2 if b in (dl.complex64, dl.complex128) else 1))
        return {(False, 32): dl.float32, (False, 64): dl.float64, (True, 32): dl.complex64,
                (True, 64): dl.complex128}[(complex_, wide)]
    return None


@pytest.mark.parametrize("a", ALL, ids=str)
def test_result_type_table(a):
    for b in ALL:
        want = expected(a, b)
        assert dl.result_type(a, b) == want, b
        assert str(np.result_type(np.dtype(str(a)), np.dtype(str(b)))) == str(want), b
        # Operations promote arrays the same way; 0-d arrays are no different.
        assert dl.equal(dl.ones((), dtype=a), dl.ones(3, dtype=b)).dtype == dl.bool
        assert dl.where(dl.asarray(True), dl.ones((), dtype=a), dl.ones(2, dtype=b)).dtype == want, b
        assert (dl.ones(2, dtype=a) * dl.ones(2, dtype=b) if {a, b} != {dl.bool} else
                dl.ones(2, dtype=a) & dl.ones(2, dtype=b)).dtype == want, b
        # can_cast is NumPy's "safe" casting: true exactly where promotion with `to` gives `to`.
        assert dl.can_cast(a, b) == (want == b) == np.can_cast(str(a), str(b)), b


def test_mixed_kinds_follow_numpy():
    """The pairs the standard leaves open, spelled out (NumPy, PyTorch, CuPy, JAX agree on the kind)."""
    assert standard(dl.int64, dl.float64) is None
    assert dl.result_type(dl.int64, dl.float64) == dl.float64
    assert dl.result_type(dl.int16, dl.float32) == dl.float32
    assert dl.result_type(dl.int32, dl.float32) == dl.float64
    assert dl.result_type(dl.int64, dl.uint64) == dl.float64
    assert dl.result_type(dl.bool, dl.int8) == dl.int8
    assert dl.result_type(dl.bool, dl.complex64) == dl.complex64
    assert dl.result_type(dl.uint8, dl.complex64) == dl.complex64
    assert dl.result_type(dl.uint32, dl.complex64) == dl.complex128
    got = dl.asarray([1.5, 2.5]) + dl.asarray([1, 2])
    assert got.dtype == dl.float64 and got.tolist() == [2.5, 4.5]


def test_the_standard_table_is_associative_and_commutative():
    for a, b, c in itertools.product(ALL, repeat=3):
        ab, bc = standard(a, b), standard(b, c)
        left = standard(ab, c) if ab is not None else None
        right = standard(a, bc) if bc is not None else None
        if left is not None and right is not None:
            assert left == right
            assert dl.result_type(a, b, c) == left


def test_result_type_mixes_arrays_dtypes_and_scalars():
    assert dl.result_type(dl.ones(1, dtype=dl.int8), dl.uint8) == dl.int16
    assert dl.result_type(dl.int8, 1) == dl.int8
    assert dl.result_type(1, dl.float32, 1.0) == dl.float32
    assert dl.result_type(dl.float32, 1j) == dl.complex64
    assert dl.result_type(dl.float64, 1j) == dl.complex128
    assert dl.result_type(dl.bool, True) == dl.bool
    # Python scalars of a higher kind take their kind's default dtype, as NumPy 2's (NEP 50).
    assert dl.result_type(dl.int8, 1.0) == dl.float64
    assert dl.result_type(dl.bool, 1) == dl.int64
    assert dl.result_type(dl.int16, 1j) == dl.complex128
    assert dl.result_type(dl.float32, True) == dl.float32
    # NumPy scalars count as their dtype.
    assert dl.result_type(np.float32(1), dl.int8) == dl.float32
    assert dl.result_type(np.float64(1), dl.float32) == dl.float64
    for bad in [(1, 2.0), ()]:
        with pytest.raises(TypeError):
            dl.result_type(*bad)


SCALAR_RULES = [  # (array dtype, scalar, result dtype or the exception): NumPy 2's weak scalars
    (dl.bool, True, dl.bool), (dl.bool, 1, dl.int64), (dl.bool, 1.0, dl.float64), (dl.bool, 1j, dl.complex128),
    (dl.int8, 5, dl.int8), (dl.int8, 127, dl.int8), (dl.int8, 128, OverflowError), (dl.int8, True, dl.int8),
    (dl.uint8, 255, dl.uint8), (dl.uint8, -1, OverflowError), (dl.uint64, 2**64 - 1, dl.uint64),
    (dl.int64, 2**63, OverflowError), (dl.int32, 1.5, dl.float64), (dl.int32, 1j, dl.complex128),
    (dl.float32, 1, dl.float32), (dl.float32, 1.5, dl.float32), (dl.float32, 1j, dl.complex64),
    (dl.float64, 2j, dl.complex128), (dl.complex64, 3, dl.complex64), (dl.complex64, 1.5, dl.complex64),
    (dl.complex128, 1j, dl.complex128), (dl.float64, True, dl.float64),
]


@pytest.mark.parametrize("dtype,scalar,want", SCALAR_RULES, ids=[f"{d}-{s!r}" for d, s, _ in SCALAR_RULES])
def test_python_scalar_rules(dtype, scalar, want):
    x = dl.ones(2, dtype=dtype)
    if isinstance(want, type) and issubclass(want, Exception):
        with pytest.raises(want):
            dl.equal(x, scalar)
        with pytest.raises(want):
            scalar != x  # noqa: B015  (the reflected comparison)
        with pytest.raises(want):
            np.ones(2, dtype=str(dtype)) + scalar  # NumPy raises the same
        return
    assert dl.where(dl.asarray([True, False]), x, scalar).dtype == want
    assert dl.where(dl.asarray([True, False]), scalar, x).dtype == want
    assert (x == scalar).dtype == dl.bool
    assert str((np.ones(2, dtype=str(dtype)) + scalar).dtype) == str(want)


def test_python_scalar_values_are_converted_to_the_array_dtype():
    assert (dl.asarray([1.0], dtype=dl.float32) + 0.1).tolist() == [np.float32(1.0) + np.float32(0.1)]
    assert (dl.asarray([250], dtype=dl.uint8) + 10).tolist() == [4]  # wraps like the dtype
    assert (dl.asarray([2.0]) * 1j).tolist() == [2j]


PROMOTABLE = [(a, b) for a in ALL for b in ALL if a != dl.bool]


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_broadcast_and_promote_against_numpy(data):
    """Random mutually broadcastable shapes and promotable dtypes: add and less agree with NumPy."""
    a_dtype, b_dtype = data.draw(st.sampled_from(PROMOTABLE), label="dtypes")
    s1, s2 = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=4), label="shapes").input_shapes
    a = data.draw(hnp.arrays(np.dtype(str(a_dtype)), s1, elements={"allow_nan": False, "allow_infinity": False}
                             if np.dtype(str(a_dtype)).kind in "fc" else None), label="a")
    b = data.draw(hnp.arrays(np.dtype(str(b_dtype)), s2, elements={"allow_nan": False, "allow_infinity": False}
                             if np.dtype(str(b_dtype)).kind in "fc" else None), label="b")
    x, y = dl.asarray(a), dl.asarray(b)
    with np.errstate(all="ignore"):
        want = a + b
    got = x + y
    assert got.dtype == expected(a_dtype, b_dtype) and got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)
    if want.dtype.kind != "c":
        np.testing.assert_array_equal(np.asarray(x < y), a < b)
