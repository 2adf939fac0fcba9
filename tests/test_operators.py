"""The operators of dlarray.Array: each is its elementwise function, in every form.

The operator -> function table is the one the standard gives; values are checked against the
namespace function (itself checked against NumPy in test_elementwise.py) and against NumPy.
"""
import inspect
import math
import operator

import numpy as np
import pytest

import dlarray as dl

OPS = {op["name"]: op for op in dl._core._elementwise_ops()}

BINARY = {  # dunder stem -> (function, operator, in-place operator)
    "add": ("add", operator.add, operator.iadd),
    "sub": ("subtract", operator.sub, operator.isub),
    "mul": ("multiply", operator.mul, operator.imul),
    "truediv": ("divide", operator.truediv, operator.itruediv),
    "floordiv": ("floor_divide", operator.floordiv, operator.ifloordiv),
    "mod": ("remainder", operator.mod, operator.imod),
    "pow": ("pow", operator.pow, operator.ipow),
    "and": ("bitwise_and", operator.and_, operator.iand),
    "or": ("bitwise_or", operator.or_, operator.ior),
    "xor": ("bitwise_xor", operator.xor, operator.ixor),
    "lshift": ("bitwise_left_shift", operator.lshift, operator.ilshift),
    "rshift": ("bitwise_right_shift", operator.rshift, operator.irshift),
}
COMPARE = {"lt": ("less", operator.lt), "le": ("less_equal", operator.le), "eq": ("equal", operator.eq),
           "ne": ("not_equal", operator.ne), "gt": ("greater", operator.gt), "ge": ("greater_equal", operator.ge)}
UNARY = {"neg": ("negative", operator.neg), "pos": ("positive", operator.pos), "abs": ("abs", operator.abs),
         "invert": ("bitwise_invert", operator.invert)}

SAMPLE_DTYPE = {"bool": dl.bool, "signed integer": dl.int16, "unsigned integer": dl.uint8,
                "real floating": dl.float64, "complex floating": dl.complex64}


def operands(fname):
    """A pair of arrays of each dtype kind the function accepts."""
    rng = np.random.default_rng(1)
    for kind in OPS[fname]["kinds"]:
        d = SAMPLE_DTYPE[kind]
        nd = np.dtype(str(d))
        if nd.kind == "b":
            a, b = rng.integers(0, 2, (2, 6)).astype(bool)
        elif nd.kind in "iu":
            a = rng.integers(0 if nd.kind == "u" else -50, 50, 6).astype(nd)
            b = rng.integers(0, 7, 6).astype(nd)  # valid shift counts and exponents
        else:
            a = (rng.uniform(0.5, 3, 6) + (1j * rng.uniform(-1, 1, 6) if nd.kind == "c" else 0)).astype(nd)
            b = (rng.uniform(0.5, 3, 6) + (1j * rng.uniform(-1, 1, 6) if nd.kind == "c" else 0)).astype(nd)
        yield d, a, b


def same(x, y):
    assert x.dtype == y.dtype and x.shape == y.shape
    np.testing.assert_array_equal(np.asarray(x), np.asarray(y))


@pytest.mark.parametrize("stem", sorted(BINARY))
def test_binary_operators_forward_reflected_inplace(stem):
    fname, op, iop = BINARY[stem]
    fn = getattr(dl, fname)
    for d, a, b in operands(fname):
        x, y = dl.asarray(a), dl.asarray(b)
        same(op(x, y), fn(x, y))
        same(getattr(x, f"__{stem}__")(y), fn(x, y))
        same(getattr(y, f"__r{stem}__")(x), fn(x, y))
        scalar = {"b": True, "i": 3, "u": 3, "f": 2.0, "c": 2.0 - 1j}[np.dtype(str(d)).kind]
        same(op(x, scalar), fn(x, scalar))
        same(op(scalar, x), fn(scalar, x))
        z = dl.asarray(a, copy=True)
        before = z
        z = iop(z, y)
        assert z is before
        same(z, fn(x, y))


@pytest.mark.parametrize("stem", sorted(COMPARE))
def test_comparisons_return_bool_arrays(stem):
    fname, op = COMPARE[stem]
    for d, a, b in operands(fname):
        x, y = dl.asarray(a), dl.asarray(b)
        out = op(x, y)
        assert isinstance(out, dl.Array) and out.dtype == dl.bool
        same(out, getattr(dl, fname)(x, y))
        np.testing.assert_array_equal(np.asarray(out), op(a, b))
        scalar = {"b": True, "i": 1, "u": 1, "f": 1.5, "c": 1j}[np.dtype(str(d)).kind]
        same(op(scalar, x), getattr(dl, fname)(scalar, x))  # Python swaps to the reflected comparison


@pytest.mark.parametrize("stem", sorted(UNARY))
def test_unary_operators(stem):
    fname, op = UNARY[stem]
    for d, a, _ in operands(fname):
        x = dl.asarray(a)
        same(op(x), getattr(dl, fname)(x))
        same(getattr(x, f"__{stem}__")(), getattr(dl, fname)(x))


def test_abs_of_complex_is_real():
    assert abs(dl.asarray([3 + 4j])).dtype == dl.float64
    assert abs(dl.asarray([3 + 4j])).tolist() == [5.0]


def test_operator_values_against_numpy():
    a = np.array([[1.5, -2.0, 3.25], [0.0, 7.0, -1.0]])
    b = np.array([2.0, -0.5, 4.0])
    x, y = dl.asarray(a), dl.asarray(b)
    np.testing.assert_array_equal(np.asarray(x + y), a + b)
    np.testing.assert_array_equal(np.asarray(x // y), a // b)
    np.testing.assert_array_equal(np.asarray(x % y), a % b)
    np.testing.assert_array_equal(np.asarray(1 - x), 1 - a)
    np.testing.assert_array_equal(np.asarray(2 ** y), 2 ** b)
    np.testing.assert_array_equal(np.asarray(-x < y), -a < b)


def test_inplace_never_changes_dtype_or_shape():
    """In-place operators keep the left operand's dtype and shape; the result converts into it
    within a kind or up the order of kinds (NumPy's same_kind casting), never down a kind."""
    x = dl.asarray([1, 2, 100], dtype=dl.int8)
    x += dl.asarray([1, 2, 100], dtype=dl.int16)
    assert x.dtype == dl.int8 and x.tolist() == [2, 4, -56]  # as NumPy's x += int16 (wraps)
    f = dl.asarray([1.0, 2.0], dtype=dl.float32)
    f += dl.asarray([0.5, 0.25], dtype=dl.float64)
    f *= np.float64(2)
    assert f.dtype == dl.float32 and f.tolist() == [3.0, 4.5]
    with pytest.raises(TypeError, match="in place"):
        f += 1j
    with pytest.raises(TypeError, match="in place"):
        x /= 2
    with pytest.raises(TypeError, match="in place"):
        x += 1.5
    y = dl.zeros(3)
    with pytest.raises(ValueError, match="shape"):
        y += dl.zeros((2, 3))
    b = dl.asarray([True])
    with pytest.raises(TypeError, match="in place"):
        b += 1
    y += dl.asarray([[1.0, 2.0, 3.0]][0])  # broadcasting into the left shape is fine
    y += 1
    assert y.tolist() == [2.0, 3.0, 4.0]
    y += dl.asarray([1, 1, 1])  # an integer operand into a float array: up the order of kinds
    assert y.dtype == dl.float64 and y.tolist() == [3.0, 4.0, 5.0]
    f *= 2  # a Python int keeps float32
    assert f.dtype == dl.float32 and f.tolist() == [6.0, 9.0]
    for left, right in [(np.ones(2, np.int8), np.ones(2, np.int16)), (np.ones(2, np.float32), np.ones(2))]:
        want = left.copy()
        want += right
        got = dl.asarray(left)
        got += dl.asarray(right)
        assert str(got.dtype) == str(want.dtype) and got.tolist() == want.tolist()


def test_inplace_on_read_only_memory_raises():
    a = np.arange(3.0)
    a.flags.writeable = False
    x = dl.asarray(a)
    if not x._readonly:
        pytest.skip("asarray copied the read-only buffer")
    with pytest.raises(ValueError, match="read-only"):
        x += 1


def test_inplace_with_an_overlapping_operand_reads_before_writing():
    base = np.arange(8.0)
    x = dl.asarray(base)
    rev = dl.asarray(base[::-1])
    if x._data_ptr != base.ctypes.data or rev._strides != (-1,):
        pytest.skip("asarray copied the NumPy views")
    expected = base + base[::-1]
    x += rev
    np.testing.assert_array_equal(np.asarray(x), expected)


def test_scalar_conversions_of_0d_arrays():
    assert bool(dl.asarray(0.0)) is False and bool(dl.asarray(math.nan)) is True
    assert bool(dl.asarray(0j)) is False and bool(dl.asarray(1j)) is True
    assert int(dl.asarray(-3.7)) == -3 and int(dl.asarray(True)) == 1
    assert int(dl.asarray(2**64 - 1, dtype=dl.uint64)) == 2**64 - 1
    assert float(dl.asarray(5, dtype=dl.int8)) == 5.0 and float(dl.asarray(False)) == 0.0
    assert complex(dl.asarray(2.5)) == 2.5 + 0j and complex(dl.asarray(1 - 2j)) == 1 - 2j
    assert operator.index(dl.asarray(7, dtype=dl.uint16)) == 7
    assert [10, 20, 30][dl.asarray(1)] == 20
    with pytest.raises(ValueError):
        int(dl.asarray(math.nan))
    with pytest.raises(OverflowError):
        int(dl.asarray(math.inf))
    for conv in (int, float):
        with pytest.raises(TypeError):
            conv(dl.asarray(1j))
    for bad in (dl.asarray(1.0), dl.asarray(True)):
        with pytest.raises(TypeError):
            operator.index(bad)


def test_scalar_conversions_need_0d():
    one = dl.asarray([1])
    with pytest.raises(ValueError, match="ambiguous"):
        bool(one)
    for conv in (int, float, complex, operator.index):
        with pytest.raises(TypeError, match="0-d"):
            conv(one)


def test_foreign_operands_defer_to_python():
    x = dl.asarray([1.0, 2.0])
    with pytest.raises(TypeError):
        x + "a"
    with pytest.raises(TypeError):
        object() * x
    assert (x == None) is False  # noqa: E711  (no elementwise meaning: identity comparison)
    assert (x != "a") is True
    with pytest.raises(TypeError):
        pow(x, 2, 3)


def test_arrays_are_unhashable():
    with pytest.raises(TypeError):
        hash(dl.asarray([1]))


def test_matmul_operator_signatures():  # the values are tested in test_linear_algebra_functions.py
    for name in ("__matmul__", "__rmatmul__", "__imatmul__"):
        assert str(inspect.signature(getattr(dl.Array, name))) == "(self, other, /)"


METHODS = ([f"__{s}__" for s in BINARY] + [f"__r{s}__" for s in BINARY] + [f"__i{s}__" for s in BINARY]
           + [f"__{s}__" for s in COMPARE])


@pytest.mark.parametrize("name", METHODS)
def test_dunder_method_signatures(name):
    assert str(inspect.signature(getattr(dl.Array, name))) == "(self, other, /)"
    assert str(inspect.signature(getattr(dl.asarray([1]), name))) == "(other, /)"


@pytest.mark.parametrize("name", ["__neg__", "__pos__", "__abs__", "__invert__", "__bool__", "__int__",
                                  "__float__", "__complex__", "__index__"])
def test_unary_dunder_signatures(name):
    assert str(inspect.signature(getattr(dl.Array, name))) == "(self, /)"
