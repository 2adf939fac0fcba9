"""x[key] and x[key] = value (basic, integer-array and mask indexing), take and take_along_axis,
against NumPy."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as npst

import dlarray as dl
from helpers.oracle import DTYPE_NAMES, assert_matches, sample, to_numpy

FAST = settings(max_examples=60, deadline=None)
shapes = npst.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)
nonempty_shapes = npst.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=5)


def as_dl_key(key):
    """NumPy index arrays in a key become dlarray arrays."""
    if isinstance(key, tuple):
        return tuple(dl.asarray(k) if isinstance(k, np.ndarray) else k for k in key)
    return dl.asarray(key) if isinstance(key, np.ndarray) else key


# ---- basic indexing --------------------------------------------------------------------

@FAST
@given(data=st.data(), shape=shapes)
def test_basic_indexing_matches_numpy(data, shape):
    a = sample(shape)
    key = data.draw(npst.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
    assert_matches(dl.asarray(a)[key], a[key])


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_every_dtype_slices_and_single_elements(dtype):
    a = sample((4, 5), dtype)
    x = dl.asarray(a)
    assert_matches(x[1:3, ::-2], a[1:3, ::-2])
    assert_matches(x[-1, 2], a[-1, 2])
    assert_matches(x[[0, 3, 3], 1:], a[[0, 3, 3], 1:])


def test_single_element_is_a_0d_array_not_a_scalar():
    x = dl.asarray([[1.5, 2.5], [3.5, 4.5]])
    y = x[1, 0]
    assert isinstance(y, dl.Array) and y.shape == () and y.dtype == dl.float64
    assert y.tolist() == 3.5
    assert x[()].shape == (2, 2)
    assert x[...].shape == (2, 2)


def test_basic_results_are_views_that_write_through():
    x = dl.asarray(np.arange(12.0).reshape(3, 4))
    v = x[1:, ::2]
    v[0, 1] = -1.0
    assert x.tolist()[1][2] == -1.0
    row = x[2]
    row[...] = 7.0
    assert x.tolist()[2] == [7.0] * 4
    x[0, 0] = 9.0
    assert v.tolist()[0][1] == -1.0 and x[0, 0].tolist() == 9.0


def test_negative_steps_and_clamped_bounds():
    a = np.arange(10)
    x = dl.asarray(a)
    big = 2**63  # bounds beyond int64 take PySlice_Unpack's clamping path instead of the plain one
    for key in [slice(None, None, -1), slice(8, 2, -2), slice(-100, 100), slice(100, -100, -3), slice(5, 5),
                slice(big, -big, -1), slice(-big, big), slice(None, None, -big), slice(None, None, big),
                slice(np.int64(1), np.int32(7), np.int8(2)), slice(-1, None, -4), slice(None, -3)]:
        assert_matches(x[key], a[key])


def test_newaxis_and_ellipsis_positions():
    a = sample((2, 3, 4))
    x = dl.asarray(a)
    for key in [(None,), (..., None), (None, ..., None, 0), (0, ..., 1), (..., 0, None, 1), (None, None, 1, None)]:
        assert_matches(x[key], a[key])


def test_integer_like_indices():
    class Idx:
        def __index__(self):
            return 2

    a = sample((4, 5))
    x = dl.asarray(a)
    assert_matches(x[Idx(), np.int64(1)], a[2, 1])
    assert_matches(x[dl.asarray(3), dl.asarray(-1, dtype=dl.int8)], a[3, -1])
    assert_matches(x[slice(Idx(), None)], a[2:])


@pytest.mark.parametrize(
    "key, error",
    [
        ((0, 0, 0), IndexError),          # too many indices
        ((..., 0, ...), IndexError),      # two ellipses
        (5, IndexError),                  # out of range
        ((0, -6), IndexError),
        (1.5, IndexError),                # not an index
        ("a", IndexError),
        (slice(None, None, 0), ValueError),
        (10**30, IndexError),
    ],
)
def test_bad_keys_raise(key, error):
    x = dl.asarray(sample((4, 5)))
    with pytest.raises(error):
        x[key]


def test_float_index_array_raises():
    x = dl.asarray(sample((4,)))
    with pytest.raises(IndexError, match="integer or boolean"):
        x[dl.asarray([0.0, 1.0])]


def test_iteration_over_a_1d_array_gives_0d_arrays():
    x = dl.asarray([1, 2, 3])
    items = list(x)
    assert [i.shape for i in items] == [(), (), ()]
    assert [i.tolist() for i in items] == [1, 2, 3]


# ---- integer-array indexing --------------------------------------------------------------

@FAST
@given(data=st.data(), shape=nonempty_shapes)
def test_integer_array_indexing_matches_numpy(data, shape):
    a = sample(shape)
    key = data.draw(npst.integer_array_indices(shape, result_shape=npst.array_shapes(min_dims=0, max_dims=3)))
    assert_matches(dl.asarray(a)[as_dl_key(key)], a[key])


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("index_dtype", ["int8", "uint8", "int32", "uint64", "int64"])
def test_one_index_array_into_a_vector(dtype, index_dtype):
    # x[idx] of a 1-d array by one C-contiguous index array takes a shortcut past the general
    # plan (the fused gather): every dtype, index dtype and index shape, negative indices,
    # strided and offset x, against NumPy; a strided index and one out of range take the
    # general path (which names the index).
    a = sample((40,), dtype)
    x = dl.asarray(a)
    signed = not index_dtype.startswith("u")
    picks = np.array([0, 39, 7, 7, -1, -40, 20] if signed else [0, 39, 7, 7, 20], dtype=index_dtype)
    for key in (picks, picks.reshape(-1, 1), picks[:1].reshape(()), picks[:0], np.tile(picks, (2, 3)), picks[::2]):
        assert_matches(x[dl.asarray(key)], a[key])
    inside = picks[(picks < 19) & (picks >= -19)]  # x[3:][::2] has 19 elements
    assert_matches(x[3:][::2][dl.asarray(inside)], a[3:][::2][inside])
    with pytest.raises(IndexError, match="40"):
        x[dl.asarray(np.array([1, 40], dtype=index_dtype))]
    if signed:
        with pytest.raises(IndexError, match="-41"):
            x[dl.asarray(np.array([-41, 0], dtype=index_dtype))]


@FAST
@given(data=st.data(), shape=npst.array_shapes(min_dims=2, max_dims=5, min_side=1, max_side=4))
def test_mixed_advanced_and_basic_keys_match_numpy(data, shape):
    # Each axis gets a slice, an integer, an index array or (sometimes) a None before it;
    # this covers adjacent and separated advanced indices (result axes first when separated).
    a = sample(shape)
    idx_shape = data.draw(npst.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=3))
    key = []
    for side in shape:
        if data.draw(st.integers(0, 4)) == 0:
            key.append(None)
        kind = data.draw(st.sampled_from(["slice", "int", "array"]))
        if kind == "slice":
            key.append(slice(data.draw(st.integers(-side, side)), None, data.draw(st.sampled_from([1, 2, -1]))))
        elif kind == "int":
            key.append(data.draw(st.integers(-side, side - 1)))
        else:
            key.append(data.draw(npst.arrays(np.int64, idx_shape, elements=st.integers(-side, side - 1))))
    key = tuple(key)
    assert_matches(dl.asarray(a)[as_dl_key(key)], a[key])


def test_advanced_index_placement_rules():
    a = sample((3, 4, 5, 6))
    x = dl.asarray(a)
    i, j = np.array([0, 2]), np.array([[1], [0]])
    for key in [(slice(None), i, j), (i, slice(None), j), (0, slice(None), i), (slice(None), 0, None, i),
                (i, None, j), (slice(None), i, ..., j), (..., i), (i, ...), (slice(None), i, 0)]:
        assert_matches(x[as_dl_key(key)], a[key])


def test_index_arrays_of_every_integer_dtype_and_lists():
    a = sample((6, 3))
    x = dl.asarray(a)
    for dt in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]:
        idx = np.array([5, 0, 2, 2], dtype=dt)
        assert_matches(x[dl.asarray(idx)], a[idx])
    assert_matches(x[[1, -1]], a[[1, -1]])
    assert_matches(x[[]], a[np.array([], dtype=np.int64)])


def test_out_of_bounds_index_arrays_raise():
    x = dl.asarray(sample((4, 3)))
    for bad in [[0, 4], [-5], np.array([2**63], dtype=np.uint64)]:
        with pytest.raises(IndexError, match="out of bounds"):
            x[dl.asarray(bad)]
    with pytest.raises(ValueError):
        x[dl.asarray([0, 1]), dl.asarray([0, 1, 2])]  # index arrays that do not broadcast


# ---- boolean masks ---------------------------------------------------------------------------

@FAST
@given(data=st.data(), shape=shapes)
def test_masks_match_numpy(data, shape):
    a = sample(shape)
    k = data.draw(st.integers(0, len(shape)))
    mask = data.draw(npst.arrays(bool, shape[:k]))
    assert_matches(dl.asarray(a)[dl.asarray(mask)], a[mask])


def test_zero_dim_masks_add_an_axis():
    a = sample((2, 3))
    x = dl.asarray(a)
    assert_matches(x[dl.asarray(True)], a[np.True_])
    assert_matches(x[dl.asarray(False)], a[np.False_])
    assert_matches(x[True], a[True])
    assert_matches(x[..., False], a[..., False])


def test_mask_shape_mismatch_raises_index_error():
    x = dl.asarray(sample((3, 4)))
    with pytest.raises(IndexError, match="did not match"):
        x[dl.asarray([True, False])]
    with pytest.raises(IndexError):
        x[dl.asarray(np.ones((3, 4, 1), dtype=bool))]


def test_mask_axis_of_length_zero_selects_nothing():
    # The standard allows a mask axis of length 0 against any axis length.
    x = dl.asarray(sample((3, 4)))
    assert x[dl.asarray(np.zeros((0,), dtype=bool))].shape == (0, 4)
    assert x[dl.asarray(np.zeros((3, 0), dtype=bool))].shape == (0,)


def test_masks_combine_with_other_indices_like_numpy():
    a = sample((3, 4, 5))
    x = dl.asarray(a)
    m = a[0, :, 0] > 7
    for key in [(0, m), (slice(None), m, 1), (m[None, :].repeat(3, 0), slice(1, 3))]:
        assert_matches(x[as_dl_key(key)], a[key])


# ---- __setitem__ -------------------------------------------------------------------------------

@FAST
@given(data=st.data(), shape=shapes)
def test_setitem_basic_matches_numpy(data, shape):
    a = sample(shape)
    x = dl.asarray(a.copy())
    key = data.draw(npst.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
    target = a[key].shape
    # a value shape that broadcasts *to* the target: trailing axes, each equal or 1
    keep = data.draw(st.integers(0, len(target)))
    vshape = tuple(s if data.draw(st.booleans()) else 1 for s in target[len(target) - keep:])
    value = -np.arange(1, 1 + int(np.prod(vshape)), dtype=np.float64).reshape(vshape)
    x[key] = dl.asarray(value)
    a[key] = value
    assert_matches(x, a)


@FAST
@given(data=st.data(), shape=nonempty_shapes)
def test_setitem_advanced_matches_numpy(data, shape):
    a = sample(shape)
    x = dl.asarray(a.copy())
    key = data.draw(npst.integer_array_indices(shape, result_shape=npst.array_shapes(min_dims=1, max_dims=2)))
    # Unique targets: with repeated indices, which write wins is unspecified.
    flat = np.ravel_multi_index(tuple(k % s for k, s in zip(np.broadcast_arrays(*key), shape)), shape)
    if len(np.unique(flat)) != flat.size:
        return
    value = -np.arange(1, 1 + flat.size, dtype=np.float64).reshape(flat.shape)
    x[as_dl_key(key)] = dl.asarray(value)
    a[key] = value
    assert_matches(x, a)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_setitem_every_dtype_with_masks_scalars_and_arrays(dtype):
    a = sample((3, 4), dtype)
    x = dl.asarray(a.copy())
    mask = a.real % 2 == 0 if dtype != "bool" else a
    scalar = True if dtype == "bool" else 1
    x[dl.asarray(mask)] = scalar
    a[mask] = scalar
    assert_matches(x, a)
    x[[0, 2], 1:3] = dl.asarray(sample((2, 2), dtype)[::-1])
    a[[0, 2], 1:3] = sample((2, 2), dtype)[::-1]
    assert_matches(x, a)


def test_setitem_casts_values_to_the_array_dtype():
    x = dl.zeros(4, dtype=dl.float32)
    x[1] = 2
    x[2:] = dl.asarray([1, 2], dtype=dl.int64)
    assert x.dtype == dl.float32 and x.tolist() == [0.0, 2.0, 1.0, 2.0]
    z = dl.zeros(2, dtype=dl.complex64)
    z[0] = 1 + 2j
    z[1] = dl.asarray(3.0)
    assert z.tolist() == [1 + 2j, 3 + 0j]
    i = dl.zeros(3, dtype=dl.int8)
    i[...] = 5
    assert i.tolist() == [5, 5, 5]


@pytest.mark.parametrize(
    "dtype, value, error",
    [
        ("float64", 1j, TypeError),
        ("int8", float("nan"), ValueError),
        ("int64", float("inf"), OverflowError),
        ("int8", 300, OverflowError),
        ("uint8", -1, OverflowError),
        ("float32", dl.asarray(1j), TypeError),
    ],
)
def test_setitem_refuses_values_no_element_can_hold(dtype, value, error):
    x = dl.zeros(3, dtype=getattr(dl, dtype))
    with pytest.raises(error):
        x[0] = value
    if not isinstance(value, dl.Array):  # (NumPy drops a complex array's imaginary part with a warning)
        with pytest.raises(error):  # NumPy refuses the same values with the same exceptions
            np.zeros(3, dtype=dtype)[0] = value
    assert x.tolist() == [0, 0, 0]


@pytest.mark.parametrize("dtype, value", [("int8", 1.7), ("int32", -2.5), ("uint8", 3.9), ("bool", 2),
                                          ("bool", 0.0), ("int16", True), ("float32", 1e40), ("complex64", 2)])
def test_setitem_converts_values_as_numpy(dtype, value):
    x = dl.zeros(3, dtype=getattr(dl, dtype))
    want = np.zeros(3, dtype=dtype)
    with np.errstate(over="ignore"):
        want[1:] = value
    x[1:] = value
    assert x.tolist() == want.tolist()
    x[0] = dl.asarray(value)  # a 0-d array converts the same way
    assert x.tolist()[0] == want.tolist()[1]


def test_setitem_broadcasts_and_rejects_incompatible_values():
    x = dl.zeros((2, 3))
    x[...] = dl.asarray([1.0, 2.0, 3.0])
    x[0] = dl.asarray([[7.0, 8.0, 9.0]])  # leading length-1 axes may be dropped
    assert x.tolist() == [[7.0, 8.0, 9.0], [1.0, 2.0, 3.0]]
    with pytest.raises(ValueError):
        x[...] = dl.asarray([1.0, 2.0])


def test_setitem_with_overlapping_source_behaves_like_numpy():
    a = np.arange(10)
    x = dl.asarray(a.copy())
    x[1:] = x[:-1]
    a[1:] = a[:-1].copy()
    assert_matches(x, a)
    x[::-1] = x
    a[::-1] = a.copy()
    assert_matches(x, a)


def test_read_only_arrays_refuse_writes():
    x = dl.broadcast_to(dl.asarray([1.0, 2.0]), (3, 2))
    with pytest.raises(ValueError, match="read-only"):
        x[0, 0] = 5.0
    with pytest.raises(ValueError, match="read-only"):
        x[dl.asarray([0])] = 5.0
    v = x[1:]
    with pytest.raises(ValueError, match="read-only"):
        v[...] = 1.0


def test_deleting_elements_is_a_type_error():
    x = dl.asarray([1, 2])
    with pytest.raises(TypeError):
        del x[0]


# ---- take / take_along_axis ------------------------------------------------------------------

@FAST
@given(data=st.data(), shape=nonempty_shapes)
def test_take_matches_numpy(data, shape):
    a = sample(shape)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = shape[axis]
    idx = data.draw(npst.arrays(np.int64, st.integers(0, 6), elements=st.integers(-n, n - 1)))
    assert_matches(dl.take(dl.asarray(a), dl.asarray(idx), axis=axis), np.take(a, idx, axis=axis))


def test_take_defaults_and_errors():
    a = sample((5,))
    assert_matches(dl.take(dl.asarray(a), dl.asarray([4, -1, 0])), np.take(a, [4, -1, 0]))
    with pytest.raises(TypeError):
        dl.take(dl.asarray(a), dl.asarray([1.0]))
    with pytest.raises(IndexError):
        dl.take(dl.asarray(a), dl.asarray([5]))
    with pytest.raises(IndexError):
        dl.take(dl.asarray(a), dl.asarray([0]), axis=1)


@FAST
@given(data=st.data(), shape=nonempty_shapes)
def test_take_along_axis_matches_numpy(data, shape):
    a = sample(shape)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = shape[axis]
    # indices broadcast against x on the other axes (length 1 or equal), any length on axis
    ishape = tuple(
        data.draw(st.integers(0, 4)) if i == axis % len(shape) else data.draw(st.sampled_from([1, s]))
        for i, s in enumerate(shape)
    )
    idx = data.draw(npst.arrays(np.int64, ishape, elements=st.integers(-n, n - 1)))
    expected = np.take_along_axis(a, idx, axis=axis)
    assert_matches(dl.take_along_axis(dl.asarray(a), dl.asarray(idx), axis=axis), expected)


def test_take_along_axis_errors():
    x = dl.asarray(sample((2, 3)))
    with pytest.raises(ValueError):
        dl.take_along_axis(x, dl.asarray([0, 1]), axis=1)  # ndim mismatch
    with pytest.raises(IndexError):
        dl.take_along_axis(x, dl.asarray([[0]]), axis=2)


def test_indexing_results_come_back_to_numpy_unchanged():
    a = sample((3, 4), "complex128")
    x = dl.asarray(a)
    np.testing.assert_array_equal(to_numpy(x[:, ::-1][[2, 0]]), a[:, ::-1][[2, 0]])


def test_results_beyond_64_dimensions_raise_index_error():
    x = dl.zeros((1,) * 64)
    assert x[(0,) * 64].shape == ()
    with pytest.raises(IndexError, match="at most 64"):
        x[None]


def test_other_libraries_arrays_and_integers_as_indices():
    a = sample((10,))
    x = dl.asarray(a)
    assert_matches(x[np.array([1, 3])], a[[1, 3]])
    assert_matches(x[np.array(a > 50)], a[a > 50])
    assert_matches(x[np.int64(3)], a[3])
    assert_matches(x[np.array(4)], a[4])
    assert_matches(x[dl.asarray(1):dl.asarray(7):dl.asarray(2)], a[1:7:2])
    x[0:2] = np.array([7.0, 8.0])
    a[0:2] = [7.0, 8.0]
    assert_matches(x, a)
    x[[0, 1]] = [1.0, 2.0]
    a[[0, 1]] = [1.0, 2.0]
    assert_matches(x, a)


def test_setitem_from_a_view_of_the_same_memory_through_another_import():
    # Two imports of one NumPy buffer are different storages over the same bytes: the value is
    # still read whole before x is written (NumPy's result), not element by element.
    base = np.arange(20.0)
    x = dl.from_dlpack(base)
    x[:] = dl.from_dlpack(base[::-1])
    np.testing.assert_array_equal(np.asarray(x), np.arange(20.0)[::-1])
    base = np.arange(20.0)
    x = dl.from_dlpack(base)
    x[1:] = dl.from_dlpack(base[:-1])
    np.testing.assert_array_equal(np.asarray(x), np.concatenate([[0.0], np.arange(19.0)]))


@pytest.mark.parametrize("index_dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"])
def test_one_index_array_of_every_integer_type_gathers_every_item_size(index_dtype):
    # x[idx] / take with one integer array over whole elements take a fused pass (gather.h):
    # every item size it covers (1, 2, 4, 8 bytes) and one it leaves to the general path (16).
    rng = np.random.default_rng(3)
    top = min(np.iinfo(index_dtype).max, 199)
    raw = rng.integers(0, top, 3000)
    if np.iinfo(index_dtype).min < 0:
        raw = raw - rng.integers(0, 2, 3000) * min(200, -int(np.iinfo(index_dtype).min))  # negatives wrap once
    nidx = raw.astype(index_dtype)
    for dtype in ["bool", "int8", "int16", "float32", "float64", "complex128"]:
        nx = (rng.standard_normal(200) * 100).astype(dtype) if dtype != "bool" else rng.random(200) < 0.5
        x = dl.asarray(nx)
        np.testing.assert_array_equal(np.asarray(x[dl.asarray(nidx)]), nx[nidx])
        np.testing.assert_array_equal(np.asarray(dl.take(x, dl.asarray(nidx))), np.take(nx, nidx))
        spread = np.zeros(600, dtype=nx.dtype)
        spread[1::3] = nx  # a strided source: addressed by byte stride, not by element
        np.testing.assert_array_equal(np.asarray(dl.asarray(spread)[1::3][dl.asarray(nidx)]), nx[nidx])


def test_one_bad_index_deep_in_a_long_index_array_raises_and_names_it():
    x = dl.asarray(np.arange(100.0))
    for bad in (100, -101):
        nidx = np.arange(5000) % 100
        nidx[4321] = bad
        with pytest.raises(IndexError, match=f"index {bad} is out of bounds for axis 0 with size 100"):
            x[dl.asarray(nidx)]
        with pytest.raises(IndexError, match=f"index {bad} is out of bounds"):
            dl.take(x, dl.asarray(nidx))
    huge = np.array([1, 2**63 + 5], dtype=np.uint64)
    with pytest.raises(IndexError, match="9223372036854775813"):
        x[dl.asarray(huge)]
    # An empty axis: every index is out of range, and nothing may be read (NumPy's empty buffers
    # are one byte; the sanitizer run caught a read of "element 0" there).
    for empty in (dl.asarray(np.zeros(0)), dl.from_dlpack(np.zeros(0, dtype=np.int64))):
        with pytest.raises(IndexError, match="out of bounds for axis 0 with size 0"):
            empty[dl.asarray(np.array([0, 0]))]
        with pytest.raises(IndexError, match="out of bounds"):
            dl.take(empty, dl.asarray(np.array([-1])))
        assert empty[dl.asarray(np.zeros(0, dtype=np.int64))].shape == (0,)
