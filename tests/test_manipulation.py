"""The 15 manipulation functions against NumPy, including which results are views."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as npst

import dlarray as dl
from helpers.oracle import DTYPE_NAMES, assert_matches, sample

FAST = settings(max_examples=50, deadline=None)
shapes = npst.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4)
nd_shapes = npst.array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=4)


def writes_through(view, base, key=None):
    """Whether writing into `view` changes `base` (i.e. the result is a view)."""
    before = base.tolist()
    view[...] = 99 if key is None else view[key]
    return base.tolist() != before


# ---- broadcasting ------------------------------------------------------------------------

@FAST
@given(shapes=npst.mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=4, min_side=0))
def test_broadcast_shapes_and_arrays_match_numpy(shapes):
    inputs, result = shapes
    assert dl.broadcast_shapes(*inputs) == result
    arrays = [sample(s) for s in inputs]
    out = dl.broadcast_arrays(*[dl.asarray(a) for a in arrays])
    assert isinstance(out, tuple)
    for got, exp in zip(out, np.broadcast_arrays(*arrays)):
        assert_matches(got, exp)


def test_broadcast_errors_and_empty_cases():
    assert dl.broadcast_shapes() == ()
    assert dl.broadcast_arrays() == ()
    with pytest.raises(ValueError):
        dl.broadcast_shapes((2, 3), (4,))
    with pytest.raises(ValueError):
        dl.broadcast_to(dl.zeros((2, 3)), (3, 3))
    with pytest.raises(ValueError):
        dl.broadcast_to(dl.zeros((2,)), (1,))


def test_broadcast_to_is_a_read_only_view_when_it_repeats_elements():
    x = dl.asarray([1.0, 2.0])
    b = dl.broadcast_to(x, (3, 2))
    assert_matches(b, np.broadcast_to([1.0, 2.0], (3, 2)))
    assert b._strides == (0, 1)
    with pytest.raises(ValueError, match="read-only"):
        b[0, 0] = 1.0
    same = dl.broadcast_to(x, (2,))
    same[0] = 5.0  # nothing repeated: writable view
    assert x.tolist() == [5.0, 2.0]


# ---- reshape -----------------------------------------------------------------------------

@FAST
@given(data=st.data(), shape=shapes)
def test_reshape_matches_numpy_and_views_when_possible(data, shape):
    a = sample(shape)
    size = a.size
    # a random factorisation of size (with an optional -1)
    new = list(data.draw(st.permutations([d for d in shape])))
    if data.draw(st.booleans()) and new:
        new[data.draw(st.integers(0, len(new) - 1))] = -1
    if size == 0 and -1 in new:
        new = [d for d in shape]
    x = dl.asarray(a)
    # Transposed and strided inputs too, where NumPy's rules say whether a view is possible.
    src = data.draw(st.sampled_from(["plain", "T", "step"]))
    if src == "T":
        a, x = a.T, dl.permute_dims(x, tuple(range(a.ndim))[::-1])
    elif src == "step" and a.ndim:
        a, x = a[::2], x[::2]
        new = list(a.shape)[::-1]
    out = dl.reshape(x, tuple(new))
    assert_matches(out, a.reshape(new))
    view_possible = np.shares_memory(a.reshape(new), a) or a.size <= 1
    if not view_possible:
        with pytest.raises(ValueError):
            dl.reshape(x, tuple(new), copy=False)
    else:
        dl.reshape(x, tuple(new), copy=False)


def test_reshape_copy_keyword():
    x = dl.asarray(np.arange(6.0))
    v = dl.reshape(x, (2, 3))
    assert writes_through(v, x)
    c = dl.reshape(x, (2, 3), copy=True)
    assert not writes_through(c, x)
    t = dl.permute_dims(dl.asarray(np.arange(6.0).reshape(2, 3)), (1, 0))
    with pytest.raises(ValueError, match="copy=False"):
        dl.reshape(t, (6,), copy=False)
    assert_matches(dl.reshape(t, (6,)), np.arange(6.0).reshape(2, 3).T.reshape(6))


def test_reshape_errors():
    x = dl.zeros((2, 3))
    for bad in [(4,), (-1, -1), (-2, 3), (5, -1)]:
        with pytest.raises(ValueError):
            dl.reshape(x, bad)
    with pytest.raises(TypeError):
        dl.reshape(x, (2.0, 3))
    assert dl.reshape(x, 6).shape == (6,)


# ---- axis permutations and insertions ----------------------------------------------------

@FAST
@given(data=st.data(), shape=shapes)
def test_permute_dims_and_moveaxis_match_numpy(data, shape):
    a = sample(shape)
    x = dl.asarray(a)
    n = a.ndim
    perm = data.draw(st.permutations(range(n)))
    perm = [p - n if data.draw(st.booleans()) else p for p in perm]  # negative axes allowed
    assert_matches(dl.permute_dims(x, tuple(perm)), np.transpose(a, perm))
    if n:
        k = data.draw(st.integers(1, n))
        src = data.draw(st.permutations(range(n)))[:k]
        dst = data.draw(st.permutations(range(n)))[:k]
        assert_matches(dl.moveaxis(x, tuple(src), tuple(dst)), np.moveaxis(a, src, dst))
        assert_matches(dl.moveaxis(x, src[0], -1), np.moveaxis(a, src[0], -1))


def test_permutation_errors():
    x = dl.zeros((2, 3))
    for bad in [(0,), (0, 0), (0, 2), (0, 1, 2)]:
        with pytest.raises((ValueError, IndexError)):
            dl.permute_dims(x, bad)
    with pytest.raises(ValueError):
        dl.moveaxis(x, (0, 1), (0,))
    with pytest.raises(IndexError):
        dl.moveaxis(x, 2, 0)


@FAST
@given(data=st.data(), shape=shapes)
def test_expand_dims_and_squeeze_match_numpy(data, shape):
    a = sample(shape)
    x = dl.asarray(a)
    m = a.ndim + data.draw(st.integers(1, 3))
    axes = tuple(data.draw(st.lists(st.integers(0, m - 1), min_size=m - a.ndim, max_size=m - a.ndim, unique=True)))
    axes = tuple(ax - m if data.draw(st.booleans()) else ax for ax in axes)
    e = dl.expand_dims(x, axes)
    assert_matches(e, np.expand_dims(a, axes))
    assert_matches(dl.expand_dims(x, axis=-1), np.expand_dims(a, -1))
    ones = tuple(i for i, s in enumerate(e.shape) if s == 1)
    assert_matches(dl.squeeze(e, ones), np.squeeze(np.expand_dims(a, axes), ones))


def test_expand_dims_and_squeeze_errors():
    x = dl.zeros((2, 1))
    with pytest.raises(IndexError):
        dl.expand_dims(x, 3)
    with pytest.raises(IndexError):
        dl.expand_dims(x, -4)
    with pytest.raises(ValueError):
        dl.expand_dims(x, (0, 0))
    with pytest.raises(ValueError):
        dl.squeeze(x, 0)  # length 2
    with pytest.raises(IndexError):
        dl.squeeze(x, 2)
    assert dl.squeeze(x, 1).shape == (2,)
    assert dl.squeeze(x, (-1,)).shape == (2,)


def test_views_share_memory():
    base = dl.asarray(np.arange(6.0).reshape(2, 3))
    for make in [
        lambda x: dl.permute_dims(x, (1, 0)),
        lambda x: dl.moveaxis(x, 0, 1),
        lambda x: dl.expand_dims(x, 0),
        lambda x: dl.squeeze(dl.expand_dims(x, 1), 1),
        lambda x: dl.flip(x),
        lambda x: dl.unstack(x)[1],
        lambda x: dl.reshape(x, (3, 2)),
    ]:
        x = dl.asarray(np.arange(6.0).reshape(2, 3))
        assert writes_through(make(x), x)
    assert base.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


# ---- flip, roll, unstack -------------------------------------------------------------------

@FAST
@given(data=st.data(), shape=shapes)
def test_flip_and_roll_match_numpy(data, shape):
    a = sample(shape)
    x = dl.asarray(a)
    assert_matches(dl.flip(x), np.flip(a))
    shift = data.draw(st.integers(-7, 7))
    assert_matches(dl.roll(x, shift), np.roll(a, shift))
    if a.ndim:
        axes = tuple(data.draw(st.lists(st.integers(-a.ndim, a.ndim - 1), min_size=1, max_size=3)))
        shifts = tuple(data.draw(st.integers(-5, 5)) for _ in axes)
        assert_matches(dl.roll(x, shifts, axis=axes), np.roll(a, shifts, axis=axes))
        assert_matches(dl.roll(x, shift, axis=axes), np.roll(a, shift, axis=axes))
        uniq = tuple(sorted({ax % a.ndim for ax in axes}))
        assert_matches(dl.flip(x, axis=uniq), np.flip(a, axis=uniq))
        assert_matches(dl.flip(x, axis=axes[0]), np.flip(a, axis=axes[0]))


def test_roll_and_flip_errors():
    x = dl.zeros((2, 3))
    with pytest.raises(ValueError):
        dl.roll(x, (1, 2), axis=(0, 1, 1))
    with pytest.raises(IndexError):
        dl.roll(x, 1, axis=2)
    with pytest.raises(ValueError):
        dl.flip(x, axis=(0, 0))
    with pytest.raises(IndexError):
        dl.flip(x, axis=-3)


@FAST
@given(data=st.data(), shape=nd_shapes)
def test_unstack_matches_numpy(data, shape):
    a = sample(shape)
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    out = dl.unstack(dl.asarray(a), axis=axis)
    assert isinstance(out, tuple) and len(out) == a.shape[axis]
    for got, exp in zip(out, np.moveaxis(a, axis, 0)):
        assert_matches(got, exp)


def test_unstack_of_0d_raises():
    with pytest.raises(ValueError):
        dl.unstack(dl.asarray(1.0))


# ---- joining: concat, stack --------------------------------------------------------------------

@FAST
@given(data=st.data(), shape=nd_shapes)
def test_concat_and_stack_match_numpy(data, shape):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    parts = []
    for i in range(data.draw(st.integers(1, 3))):
        s = list(shape)
        s[axis] = data.draw(st.integers(0, 3))
        parts.append(sample(tuple(s)) + i)
    assert_matches(dl.concat([dl.asarray(p) for p in parts], axis=axis), np.concatenate(parts, axis=axis))
    assert_matches(dl.concat(tuple(dl.asarray(p) for p in parts), axis=None), np.concatenate(parts, axis=None))
    same = [sample(shape) + i for i in range(len(parts))]
    saxis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    assert_matches(dl.stack([dl.asarray(p) for p in same], axis=saxis), np.stack(same, axis=saxis))


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ("int8", "int16", "int16"),
        ("uint8", "int8", "int16"),
        ("uint32", "int64", "int64"),
        ("uint16", "uint64", "uint64"),
        ("float32", "float64", "float64"),
        ("float32", "complex64", "complex64"),
        ("float64", "complex64", "complex128"),
        ("bool", "bool", "bool"),
    ],
)
def test_concat_and_stack_promote_dtypes(a, b, expected):
    xa, xb = dl.asarray(sample((2,), a)), dl.asarray(sample((2,), b))
    out = dl.concat([xa, xb])
    assert_matches(out, np.concatenate([sample((2,), a), sample((2,), b)]).astype(expected))
    assert dl.stack([xa, xb]).dtype == getattr(dl, expected)


def test_join_errors():
    # mixed kinds join in NumPy's promoted dtype
    assert dl.concat([dl.zeros(2, dtype=dl.int64), dl.ones(2, dtype=dl.float64)]).dtype == dl.float64
    assert dl.concat([dl.zeros(2, dtype=dl.int64), dl.ones(2, dtype=dl.uint64)]).tolist() == [0.0, 0.0, 1.0, 1.0]
    with pytest.raises(ValueError):
        dl.concat([dl.zeros((2, 3)), dl.zeros((2, 4))], axis=0)
    with pytest.raises(ValueError):
        dl.concat([dl.asarray(1.0)])
    with pytest.raises(ValueError):
        dl.stack([dl.zeros(2), dl.zeros(3)])
    with pytest.raises(ValueError):
        dl.concat([])
    with pytest.raises(TypeError):
        dl.concat([dl.zeros(2), [1.0, 2.0]])


# ---- tile, repeat ------------------------------------------------------------------------------

@FAST
@given(data=st.data(), shape=shapes)
def test_tile_matches_numpy(data, shape):
    a = sample(shape)
    reps = tuple(data.draw(st.lists(st.integers(0, 3), min_size=0, max_size=4)))
    assert_matches(dl.tile(dl.asarray(a), reps), np.tile(a, reps))


def test_tile_of_many_axes_and_errors():
    a = sample((1,) * 40)
    reps = (2,) + (1,) * 38 + (3,)
    assert_matches(dl.tile(dl.asarray(a), reps), np.tile(a, reps))
    with pytest.raises(ValueError):
        dl.tile(dl.zeros(2), (-1,))


@FAST
@given(data=st.data(), shape=shapes)
def test_repeat_matches_numpy(data, shape):
    a = sample(shape)
    x = dl.asarray(a)
    r = data.draw(st.integers(0, 3))
    assert_matches(dl.repeat(x, r), np.repeat(a, r))
    if a.ndim:
        axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
        counts = np.array(data.draw(st.lists(st.integers(0, 3), min_size=a.shape[axis], max_size=a.shape[axis])), dtype=np.int64)
        assert_matches(dl.repeat(x, dl.asarray(counts, dtype=dl.int64), axis=axis), np.repeat(a, counts, axis=axis))
        assert_matches(dl.repeat(x, dl.asarray([2]), axis=axis), np.repeat(a, [2], axis=axis))


def test_repeat_errors():
    x = dl.zeros((2, 3))
    with pytest.raises(ValueError):
        dl.repeat(x, -1)
    with pytest.raises(ValueError):
        dl.repeat(x, dl.asarray([1, 2]), axis=1)
    with pytest.raises(TypeError):
        dl.repeat(x, dl.asarray([1.0]))
    with pytest.raises(IndexError):
        dl.repeat(x, 2, axis=2)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_copying_functions_keep_every_dtype(dtype):
    a = sample((2, 3), dtype)
    x = dl.asarray(a)
    assert_matches(dl.concat([x, x], axis=1), np.concatenate([a, a], axis=1))
    assert_matches(dl.stack([x, x], axis=-1), np.stack([a, a], axis=-1))
    assert_matches(dl.tile(x, (2, 1)), np.tile(a, (2, 1)))
    assert_matches(dl.roll(x, 1, axis=1), np.roll(a, 1, axis=1))
    assert_matches(dl.repeat(x, 2, axis=0), np.repeat(a, 2, axis=0))
