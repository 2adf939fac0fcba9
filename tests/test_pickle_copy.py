"""pickle, copy.copy and copy.deepcopy of arrays, dtypes and devices; iteration over arrays."""
import copy
import pickle

import numpy as np
import pytest

import dlarray as dl

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]
STORAGE_DTYPES = ["float16", "bfloat16"]


def sample(dtype, shape=(3, 4)):
    n = shape[0] * shape[1]
    return dl.astype(dl.reshape(dl.arange(n) - 5, shape), getattr(dl, dtype))


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
@pytest.mark.parametrize("dtype", DTYPES)
def test_pickle_round_trip_every_dtype_and_protocol(dtype, protocol):
    x = sample(dtype)
    y = pickle.loads(pickle.dumps(x, protocol=protocol))
    assert type(y) is dl.Array and y.dtype == x.dtype and y.shape == x.shape and y.device == x.device
    np.testing.assert_array_equal(np.asarray(y), np.asarray(x))


@pytest.mark.parametrize("dtype", STORAGE_DTYPES)
def test_pickle_storage_dtypes_keep_their_bits(dtype):
    src = dl.asarray([0.5, -2.0, 3.0], dtype=dl.float32)
    x = dl.asarray(src, dtype=getattr(dl, dtype))
    y = pickle.loads(pickle.dumps(x))
    assert y.dtype == x.dtype
    assert dl.asarray(y, dtype=dl.float32).tolist() == dl.asarray(x, dtype=dl.float32).tolist()


@pytest.mark.parametrize("name", ["float8_e4m3fn", "float8_e5m2"])
def test_pickle_fp8_from_torch_keeps_its_bytes(name):
    torch = pytest.importorskip("torch")
    t = torch.tensor([0.5, -2.0, 3.0, 448.0]).to(getattr(torch, name))
    x = dl.from_dlpack(t)
    y = pickle.loads(pickle.dumps(x))
    assert y.dtype == getattr(dl, name) and y.shape == (4,)
    assert torch.equal(torch.from_dlpack(y).view(torch.uint8), t.view(torch.uint8))


@pytest.mark.parametrize("view", ["transposed", "strided", "reversed", "empty", "0-d"])
def test_pickle_views_are_stored_row_major(view):
    base = sample("float64", (6, 4))
    x = {"transposed": base.T, "strided": base[::2, 1::2], "reversed": base[::-1],
         "empty": base[:0], "0-d": base[1, 2]}[view]
    y = pickle.loads(pickle.dumps(x))
    assert y.shape == x.shape
    np.testing.assert_array_equal(np.asarray(y), np.asarray(x))


def test_pickle_protocol_5_sends_the_bytes_out_of_band():
    x = sample("float64")
    buffers = []
    data = pickle.dumps(x, protocol=5, buffer_callback=buffers.append)
    assert len(buffers) == 1 and buffers[0].raw().nbytes == x.nbytes
    y = pickle.loads(data, buffers=buffers)
    np.testing.assert_array_equal(np.asarray(y), np.asarray(x))


def test_unpickled_array_is_writable_and_independent():
    x = dl.asarray(np.arange(4.0))  # shares NumPy's memory
    y = pickle.loads(pickle.dumps(x))
    y[0] = 100.0
    assert float(x[0]) == 0.0 and float(y[0]) == 100.0


@pytest.mark.parametrize("fn", [copy.copy, copy.deepcopy])
def test_copy_and_deepcopy_copy_the_data(fn):
    x = sample("int32")
    y = fn(x)
    assert y.dtype == x.dtype and y.shape == x.shape and y.tolist() == x.tolist()
    y[0, 0] = 99
    assert int(x[0, 0]) == -5


def test_deepcopy_of_a_container_keeps_shared_arrays_shared():
    x = sample("float32")
    a, b = copy.deepcopy([x, x])
    assert a is b and a is not x


@pytest.mark.parametrize("obj", [dl.float32, dl.bfloat16, dl.complex128, dl.Device("cpu")])
def test_dtype_and_device_objects_pickle_and_copy(obj):
    for back in (pickle.loads(pickle.dumps(obj)), copy.copy(obj), copy.deepcopy(obj)):
        assert back == obj


def test_iterating_a_0d_array_raises_type_error():
    with pytest.raises(TypeError, match="0-d"):
        iter(dl.asarray(1.0))
    with pytest.raises(TypeError):
        list(dl.asarray(1.0))


def test_iteration_walks_the_first_axis():
    x = sample("int64")
    rows = list(x)
    assert len(rows) == 3 and all(r.shape == (4,) for r in rows)
    assert [r.tolist() for r in rows] == x.tolist()
    assert list(dl.zeros((0, 2))) == []
