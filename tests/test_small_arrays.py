"""Small arrays, whose bytes share one block with their Storage header and whose Array lives
inside the Python object, and views that borrow their base's storage: lifetimes, DLPack
exchange, alignment, the dtype slot (not timing: that is benchmarks/small_arrays.py)."""
import gc
import sys
import weakref

import numpy as np
import pytest

import dlarray as dl

# Every dtype with a NumPy twin, so NumPy says what its alignment is.
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


def _churn():
    """Makes and drops many small arrays, so that freed small blocks are handed out again."""
    for n in range(5):
        junk = [dl.full((n,), -7.0) for _ in range(200)]
        del junk
    gc.collect()


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_views_keep_a_small_array_alive_after_the_base_is_gone(n):
    values = [float(k + 1) for k in range(n)]
    base = dl.asarray(values)
    views = [base[::-1], base[n - 1:], base[0], dl.reshape(base, (1, n)).T, base[None]]
    del base
    _churn()
    assert views[0].tolist() == values[::-1]
    assert views[1].tolist() == values[n - 1:]
    assert float(views[2]) == values[0]
    assert views[3].tolist() == [[v] for v in values]
    assert views[4].tolist() == [values]
    # Writes through one view reach the others: they share the one block.
    views[1][0] = 99.0
    assert views[0].tolist()[0] == 99.0


def test_small_blocks_are_counted_and_returned():
    gc.collect()
    base = dl._core._allocator_stats("cpu")
    made = [dl.ones(n) for n in (0, 1, 2, 3, 4) for _ in range(10)]
    mid = dl._core._allocator_stats("cpu")
    assert mid["allocations"] - base["allocations"] == 50
    assert mid["bytes_in_use"] > base["bytes_in_use"]
    del made
    gc.collect()
    end = dl._core._allocator_stats("cpu")
    assert end["frees"] - base["frees"] == 50
    assert end["bytes_in_use"] == base["bytes_in_use"]


@pytest.mark.parametrize("n", [0, 1, 3, 4])
def test_dlpack_round_trip_with_numpy(n):
    values = [float(k) - 1.5 for k in range(n)]
    a = dl.asarray(values)
    x = np.from_dlpack(a)
    assert x.tolist() == values
    if n:
        assert x.ctypes.data == a._data_ptr  # shared, not copied
        a[0] = 42.0
        assert x[0] == 42.0
        values[0] = 42.0
    del a
    _churn()
    assert x.tolist() == values  # NumPy's view keeps the block alive
    b = dl.from_dlpack(x)
    assert b.tolist() == values
    if n:
        assert b._data_ptr == x.ctypes.data
    # And NumPy's own small arrays come in the other way.
    y = np.arange(n, dtype=np.int32)
    c = dl.from_dlpack(y)
    del y
    _churn()
    assert c.tolist() == list(range(n))


@pytest.mark.parametrize("n", [1, 2, 4])
def test_dlpack_round_trip_with_torch(n):
    torch = pytest.importorskip("torch")
    values = [float(k) + 0.25 for k in range(n)]
    a = dl.asarray(values, dtype=dl.float32)
    t = torch.from_dlpack(a)
    assert t.data_ptr() == a._data_ptr
    assert t.tolist() == values
    del a
    _churn()
    assert t.tolist() == values
    b = dl.from_dlpack(t)
    assert b._data_ptr == t.data_ptr() and b.tolist() == values
    u = torch.arange(n, dtype=torch.float64)
    c = dl.from_dlpack(u)
    del u
    _churn()
    assert c.tolist() == [float(k) for k in range(n)]


@pytest.mark.parametrize("name", DTYPES)
def test_small_arrays_are_aligned_for_their_dtype(name):
    dtype = getattr(dl, name)
    align = np.dtype(name).alignment
    itemsize = np.dtype(name).itemsize
    for n in range(0, 64 // itemsize + 2):
        for make in (dl.zeros, dl.ones, dl.empty):
            a = make(n, dtype=dtype)
            assert a._data_ptr % align == 0, (name, n, make.__name__)
        fill = True if name == "bool" else 1
        assert dl.asarray([fill] * n, dtype=dtype)._data_ptr % align == 0


@pytest.mark.parametrize("nbytes", [33, 40, 60, 64, 65, 100, 1000, 4096, 100_000, 5_000_000])
def test_larger_arrays_keep_64_byte_alignment(nbytes):
    a = dl.empty(nbytes, dtype=dl.uint8)
    assert a._data_ptr % 64 == 0
    b = dl.zeros(-(-nbytes // 8), dtype=dl.float64)
    assert b._data_ptr % 64 == 0


def test_rank_two_and_up_views_of_small_arrays():
    # Rank <= 1 keeps shape and strides inside the array; above that they are on the heap.
    x = dl.asarray([[1.0, 2.0], [3.0, 4.0]])
    t = x.T
    del x
    copies = [t, t.mT, dl.reshape(t, (1, 2, 2)), t[:, None, :], t[..., ::-1]]
    _churn()
    assert copies[0].tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert copies[1].tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert copies[2].shape == (1, 2, 2) and copies[2].tolist() == [[[1.0, 3.0], [2.0, 4.0]]]
    assert copies[3].shape == (2, 1, 2) and copies[3]._strides == (1, 0, 2)
    assert copies[4].tolist() == [[3.0, 1.0], [4.0, 2.0]]


def test_array_objects_carry_their_array_and_support_weak_references():
    # The Array is embedded in the Python object: one block per array object.
    assert dl.Array.__basicsize__ <= 96
    a = dl.ones(3)
    dead = []
    r = weakref.ref(a, lambda _: dead.append(True))
    assert r() is a
    del a
    gc.collect()
    assert dead == [True] and r() is None


def test_views_of_views_lean_on_the_array_that_owns_the_storage():
    # x[i], x[1:3] and x.T borrow the storage and keep the owning object alive instead (one
    # link: a view of a view refers to the owner, not to the view in between).
    x = dl.asarray([1.0, 2.0, 3.0, 4.0])
    before = sys.getrefcount(x)
    a = x[1:]
    b = a[1:]
    c = b[0]
    assert sys.getrefcount(x) == before + 3
    refs = x._storage_refs
    del a, b
    assert x._storage_refs == refs
    exported = np.from_dlpack(c)  # a counted reference of its own
    del x
    _churn()
    assert float(c) == 3.0 and exported.tolist() == 3.0
    m = dl.reshape(dl.arange(6.0), (2, 3))
    t = m.T
    tt = t.mT
    del m
    _churn()
    assert t.tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    assert tt.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


@pytest.mark.parametrize("name", DTYPES + ["float16", "bfloat16", "float8_e4m3fn"])
def test_dtype_attribute_of_arrays_and_views(name):
    dtype = getattr(dl, name)
    x = dl.empty(3, dtype=dtype)
    assert x.dtype is dtype
    assert x[0].dtype is dtype and x[1:].dtype is dtype
    assert dl.reshape(x, (1, 3)).T.dtype is dtype
    with pytest.raises(AttributeError):
        x.dtype = dl.int8
