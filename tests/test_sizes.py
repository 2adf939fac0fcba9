"""Hostile sizes and arguments (issue 9): one regression test per example reported there.

The rules (src/core/checked_size.h): a shape whose element count or byte count does not fit
in int64 (Py_ssize_t) is ValueError "array is too big" naming the shape and dtype, before
anything is allocated or computed; an allocation no machine can satisfy is MemoryError; a
negative dimension is ValueError; a Python int beyond 64 bits is ValueError or
OverflowError, never pybind11's RuntimeError; no call returns with an exception pending.
Layouts from outside (DLPack, exchange tables) are validated before they are used.

The byte counts used for MemoryError (2**58 float64 = 2 EiB) exceed any machine's address
space, so no test here ever allocates much.
"""
import ctypes

import numpy as np
import pytest

import dlarray as dl
from helpers import dlpack_ctypes as H

TOO_BIG = "array is too big"


# ---- creation: byte counts that wrapped, allocations that cannot succeed ---------------------

@pytest.mark.parametrize("make", [dl.zeros, dl.empty, lambda s: dl.full(s, 2.0)])
def test_bytes_that_fit_but_no_machine_has_are_memory_error(make):
    with pytest.raises(MemoryError):
        make((2**58,))


def test_ones_whose_byte_count_overflows_names_shape_and_dtype():
    with pytest.raises(ValueError, match=r"array is too big; shape \(1, 2305843009213693952\) of dtype float64"):
        dl.ones((1, 2**61))
    # The element count fits, the bytes do not.
    with pytest.raises(ValueError, match=r"\(2305843009213693952, 2\) of dtype int16 has more than 2\*\*63 - 1 bytes"):
        dl.empty((2**61, 2), dtype=dl.int16)
    with pytest.raises(ValueError, match=r"of dtype int8 has more than 2\*\*63 - 1 elements"):
        dl.empty((2**62, 4), dtype=dl.int8)


@pytest.mark.parametrize("shape", [(2**64,), (2**63,), (3, 2**70)])
def test_shape_entries_beyond_int64_are_value_error_not_pybind11_runtime_error(shape):
    for make in (dl.zeros, dl.ones, dl.empty):
        with pytest.raises(ValueError, match=TOO_BIG):
            make(shape)
    with pytest.raises(ValueError, match=TOO_BIG):
        dl.reshape(dl.zeros(1), shape)


def test_shape_entries_below_int64_are_negative_dimensions():
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        dl.zeros((2, -2**64))
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        dl.zeros((-1,))


def test_zero_length_axis_makes_any_other_axis_fit():
    a = dl.zeros((0, 2**62, 2**62), dtype=dl.int8)
    assert a.shape == (0, 2**62, 2**62) and a.size == 0 and a.nbytes == 0


class SetErrorLog:
    def __init__(self):
        self.calls = []
        self.fn = H.SetErrorFn(lambda ctx, kind, msg: self.calls.append((kind.decode(), msg.decode())))


@pytest.mark.parametrize("shape, kind", [((2**58,), "MemoryError"), ((2**61,), "ValueError"), ((2**62, 4), "ValueError")])
def test_exchange_table_allocator_refuses_what_it_cannot_allocate(shape, kind):
    api = H.exchange_api_of(dl.Array)
    alloc = H.call_table(api, "managed_tensor_allocator", H.AllocatorFn)
    arr = (ctypes.c_int64 * len(shape))(*shape)
    t = H.DLTensor()
    t.ndim, t.shape = len(shape), ctypes.cast(arr, ctypes.POINTER(ctypes.c_int64))
    t.dtype, t.device = H.DLDataType(2, 64, 1), H.DLDevice(1, 0)
    out = ctypes.POINTER(H.DLManagedTensorVersioned)()
    errors = SetErrorLog()
    assert alloc(ctypes.byref(t), ctypes.byref(out), None, errors.fn) == -1
    assert not out and len(errors.calls) == 1 and errors.calls[0][0] == kind


# ---- arange, linspace, eye, meshgrid ---------------------------------------------------------

@pytest.mark.parametrize("args", [(-2**63, 3, 2), (0, 2**63 - 1), (-2**63, 2**63 - 1), (0, 1e30), (0, float("inf"))])
def test_arange_too_long_is_value_error(args):
    with pytest.raises(ValueError, match=TOO_BIG):
        dl.arange(*args)


def test_arange_nan_bound_is_value_error():
    with pytest.raises(ValueError, match="nan"):
        dl.arange(0, float("nan"))


def test_arange_across_the_whole_int64_range_is_exact():
    # start + i * step leaves int64 on the way for no value that is stored.
    for args in [(-2**63, 2**63 - 1, 2**62), (2**63 - 1, -2**63, -2**62), (-2**63, -2**63 + 3)]:
        assert dl.arange(*args).tolist() == np.arange(*args).tolist()


def test_arange_takes_0d_arrays_for_its_bounds():
    assert dl.arange(dl.asarray(5.0)).tolist() == np.arange(5.0).tolist()
    r = dl.arange(dl.asarray(2), dl.asarray(9), dl.asarray(3))
    assert r.dtype == dl.int64 and r.tolist() == [2, 5, 8]
    with pytest.raises(TypeError):
        dl.arange(dl.asarray([5.0]))
    with pytest.raises(TypeError):
        dl.arange(dl.asarray(True))


def test_linspace_of_more_elements_than_memory_is_memory_error():
    with pytest.raises(MemoryError):
        dl.linspace(0, 1, 2**58)
    with pytest.raises(ValueError, match=TOO_BIG):
        dl.linspace(0, 1, 2**64)


def test_eye_too_big_and_extreme_diagonals():
    with pytest.raises(ValueError, match=TOO_BIG):
        dl.eye(2**62, 1)
    assert dl.eye(0, 2**63 - 1).shape == (0, 2**63 - 1)
    for k in (2**63 - 1, -2**63, 2**70, -2**70, 3, -2):
        assert dl.eye(2, 3, k=k).tolist() == np.eye(2, 3, k=max(min(k, 10), -10)).tolist()


def test_tril_triu_extreme_diagonals():
    x = dl.reshape(dl.arange(12), (3, 4))
    for k in (2**63 - 1, -2**63, 2**70):
        kk = max(min(k, 10), -10)
        assert dl.tril(x, k=k).tolist() == np.tril(np.arange(12).reshape(3, 4), kk).tolist()
        assert dl.triu(x, k=k).tolist() == np.triu(np.arange(12).reshape(3, 4), kk).tolist()


def test_diagonal_extreme_offsets():
    # -(-2**63) overflowed into a negative diagonal length (a view with shape (-2**63 + 4,)).
    a = np.arange(12).reshape(3, 4)
    x = dl.asarray(a)
    for k in (2**63 - 1, -2**63, -2**63 + 1, -3, -2, 0, 3, 4):
        got = dl.linalg.diagonal(x, offset=k)
        assert got.tolist() == np.diagonal(a, offset=max(min(k, 10), -10)).tolist(), k
    with pytest.raises((OverflowError, ValueError)):
        dl.linalg.diagonal(x, offset=2**63)


def test_meshgrid_whose_grids_are_too_big_raises_before_copying():
    with pytest.raises(ValueError, match=TOO_BIG):
        dl.meshgrid(*[dl.ones((256,))] * 8)


# ---- broadcast, tile, repeat, concat: too big raises before anything is computed -------------

@pytest.mark.parametrize("shape", [(3, 2**62), (4, 2**62), (2**40, 2**20), (2**32, 2**32)])
def test_broadcast_to_a_size_that_does_not_fit_is_value_error(shape):
    with pytest.raises(ValueError, match=TOO_BIG):
        dl.broadcast_to(dl.ones((1,)), shape)


@pytest.mark.parametrize("shapes", [((2**40,), (2**30, 1)), ((3, 1), (1, 2**62)), ((2**63 - 1,), (2, 1))])
def test_broadcast_shapes_whose_size_does_not_fit_is_value_error(shapes):
    with pytest.raises(ValueError, match=TOO_BIG):
        dl.broadcast_shapes(*shapes)


def test_broadcast_shapes_of_a_huge_but_countable_size_is_returned():
    assert dl.broadcast_shapes((2**31,), (2**31, 1)) == (2**31, 2**31)
    assert dl.broadcast_shapes((0, 1), (1, 2**62)) == (0, 2**62)


def test_broadcast_view_of_a_huge_but_addressable_size_reports_it_exactly():
    v = dl.broadcast_to(dl.asarray(True), (2**62,))
    assert (v.shape, v.size, v.nbytes) == ((2**62,), 2**62, 2**62)
    assert bool(v[2**62 - 1]) and v[-3:].tolist() == [True] * 3


def test_elementwise_broadcast_too_big_raises_before_computing():
    a = dl.broadcast_to(dl.asarray(1.0), (2**31, 1))
    with pytest.raises(ValueError, match=TOO_BIG):
        a + dl.broadcast_to(dl.asarray(1.0), (1, 2**33))


def test_tile_too_big():
    with pytest.raises(ValueError, match=TOO_BIG):
        dl.tile(dl.ones((2,)), (1, 2**61))
    with pytest.raises(ValueError, match=TOO_BIG):
        dl.tile(dl.ones((2,)), (2**63 - 1,))
    # More than 32 axes takes another path; an empty result is made without copies.
    assert dl.tile(dl.ones((1,) * 33), (2**40,) + (1,) * 31 + (0,)).shape == (2**40,) + (1,) * 31 + (0,)
    assert dl.tile(dl.ones((0,)), (2**40,)).shape == (0,)


def test_repeat_too_big():
    with pytest.raises(ValueError, match=TOO_BIG):
        dl.repeat(dl.ones((2,)), 2**62)
    with pytest.raises(ValueError, match=TOO_BIG):
        dl.repeat(dl.ones((2,)), dl.asarray([2**62, 2**62]))
    with pytest.raises(ValueError, match=TOO_BIG):
        dl.repeat(dl.ones((2,)), 2**64)


def test_unstack_of_an_axis_longer_than_memory_can_list_is_memory_error():
    with pytest.raises(MemoryError):
        dl.unstack(dl.broadcast_to(dl.asarray(True), (2**62, 1)))


def test_concat_whose_length_overflows():
    a = dl.broadcast_to(dl.asarray(True), (2**62,))
    with pytest.raises(ValueError, match=TOO_BIG):
        dl.concat([a, a, a])


# ---- tolist and repr of huge views -------------------------------------------------------------

def test_tolist_of_a_huge_view_is_memory_error_with_nothing_left_pending():
    v = dl.broadcast_to(dl.asarray(True), (2**40, 2**20))
    with pytest.raises(MemoryError):
        v.tolist()
    assert dl.arange(3).tolist() == [0, 1, 2]  # no exception was left set
    text = repr(v)
    assert text.startswith("Array([[ True,  True,  True, ...,  True,  True,  True],")
    assert "shape=(1099511627776, 1048576)" in text


# ---- roll ----------------------------------------------------------------------------------

def test_roll_over_an_empty_axis_tuple_moves_nothing():
    x = np.arange(6).reshape(2, 3)
    assert dl.roll(dl.asarray(x), 1, axis=()).tolist() == np.roll(x, 1, axis=()).tolist()
    with pytest.raises(ValueError):
        dl.roll(dl.asarray(x), (1, 2), axis=())


@pytest.mark.parametrize("shift", [(2**62, 2**62), (2**63 - 1, 2**63 - 1), (-2**63, -2**63), (2**63 - 1, -2**63)])
def test_roll_with_huge_shifts_on_a_repeated_axis(shift):
    x = np.arange(7)
    assert dl.roll(dl.asarray(x), shift, axis=(0, 0)).tolist() == np.roll(x, sum(shift) % 7).tolist()


# ---- exchange tables: values that cannot be tables -------------------------------------------

_table = H.DLPackExchangeAPI()
_table.header.version = H.DLPackVersion(2, 0)  # a major this consumer does not know, no prev_api
_NOT_TABLES = {
    "int 1": 1,
    "int 0": 0,
    "unmapped page": 4096,
    "misaligned": ctypes.addressof(_table) + 1,
    "negative": -8,
    "beyond 64 bits": 2**70,
    "a string": "0x1234",
    "a bool": True,
    "major 2 without prev_api": ctypes.addressof(_table),
}


def _peer(value, *, with_dlpack):
    backing = dl.arange(3.0)
    attrs = {"__c_dlpack_exchange_api__": value}
    if with_dlpack:
        attrs["__dlpack__"] = lambda self, **kw: backing.__dlpack__(**kw)
        attrs["__dlpack_device__"] = lambda self: backing.__dlpack_device__()
    return type("Peer", (), attrs)()


@pytest.mark.parametrize("case", sorted(_NOT_TABLES))
def test_a_value_that_cannot_be_a_table_falls_back_to_dunder_dlpack(case):
    assert dl.from_dlpack(_peer(_NOT_TABLES[case], with_dlpack=True)).tolist() == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("case", sorted(_NOT_TABLES))
def test_a_value_that_cannot_be_a_table_without_dunder_dlpack_says_why(case):
    with pytest.raises(TypeError, match="exchange table that cannot be used"):
        dl.from_dlpack(_peer(_NOT_TABLES[case], with_dlpack=False))


def test_a_capsule_of_another_name_is_not_a_table():
    cap = H._api.PyCapsule_New(ctypes.addressof(_table), b"not_a_table", None)
    peer = type("Peer", (), {"__dlpack_c_exchange_api__": cap})()
    with pytest.raises(TypeError, match="not a capsule named 'dlpack_exchange_api'"):
        dl.from_dlpack(peer)


# ---- index and stride arithmetic at the int64 edges --------------------------------------------

@pytest.mark.parametrize("key", [
    slice(2**63 - 1, None), slice(-2**63, None), slice(None, None, 2**63 - 1), slice(None, None, -2**63),
    slice(2**63 - 1, None, -1), slice(-2**63, None, -1), slice(-2**70, 2**70), slice(2**70, -2**70, -3),
    (Ellipsis, slice(1, None, 2**62)),
])
def test_slices_at_the_int64_edges_match_numpy(key):
    x = np.arange(7)
    assert dl.asarray(x)[key].tolist() == x[key].tolist()


@pytest.mark.parametrize("index", [2**63 - 1, -2**63, 2**63, 2**64, -2**64])
def test_integers_at_the_int64_edges_are_index_errors(index):
    with pytest.raises(IndexError):
        dl.arange(5)[index]


@pytest.mark.parametrize("values, dtype", [([2**63], "uint64"), ([2**64 - 1, 0], "uint64"), ([-2**63], "int64"),
                                           ([2**63 - 1], "int64")])
def test_index_arrays_at_the_int64_edges_are_index_errors(values, dtype):
    x = dl.reshape(dl.arange(10.0), (2, 5))
    idx = dl.asarray(values, dtype=getattr(dl, dtype))
    with pytest.raises(IndexError):
        x[:, idx]
    with pytest.raises(IndexError):
        x[:, idx] = 1.0
    with pytest.raises(IndexError):
        dl.take(x, idx, axis=1)


# ---- DLPack import of layouts that cannot be addressed -----------------------------------------

@pytest.mark.parametrize("spec", [
    dict(shape=(2,), strides=(2**62,)),                 # the extent overflows
    dict(shape=(1,), strides=(2**62,)),                 # a stride in bytes overflows
    dict(shape=(2**62, 4), strides=(4, 1)),             # the byte count overflows
    dict(shape=(2**32, 2**32), strides=(2**32, 1)),     # the element count overflows
    dict(shape=(2,), strides=(1,), byte_offset=2**63 - 4),  # the offset plus the extent overflows
    dict(shape=(3,), strides=(-2**61,)),                # negative extent overflows
])
def test_dlpack_layouts_beyond_int64_are_buffer_errors(spec):
    log = H.DeleterLog()
    backing = np.zeros(8)
    producer = H.Producer(lambda: H.capsule_of(H.make_tensor(log, backing=backing, code=2, bits=64, **spec)))
    with pytest.raises(BufferError, match="2\\*\\*63 - 1"):
        dl.from_dlpack(producer)
    assert log.calls == 1 and log.alive == 0


def test_dlpack_layout_at_the_edge_is_accepted():
    # Zero strides over a huge shape (a broadcast peer view) address one element.
    log = H.DeleterLog()
    backing = np.ones(1)
    producer = H.Producer(lambda: H.capsule_of(H.make_tensor(log, backing=backing, shape=(2**40, 2**19),
                                                             strides=(0, 0), code=2, bits=64)))
    a = dl.from_dlpack(producer)
    assert a.shape == (2**40, 2**19) and a.size == 2**59 and float(a[2**40 - 1, 5]) == 1.0
