"""The array object's basic attributes, dtypes and devices."""
import pytest

import dlarray as dl


def test_attributes_of_a_2d_array():
    x = dl.asarray([[1, 2, 3], [4, 5, 6]])
    assert x.shape == (2, 3)
    assert x.ndim == 2
    assert x.size == 6
    assert len(x) == 2
    assert x.dtype == dl.int64
    assert x.device == dl.Device("cpu")
    assert x.T.shape == (3, 2)
    assert x.T.tolist() == [[1, 4], [2, 5], [3, 6]]
    assert x.mT.tolist() == [[1, 4], [2, 5], [3, 6]]


def test_dtypes_compare_and_hash():
    assert dl.float32 == dl.float32
    assert dl.float32 != dl.float64
    assert len({dl.int8, dl.int8, dl.uint8}) == 2
    assert dl.asarray(1.0).dtype is dl.float64


def test_device_objects():
    cpu = dl.Device("cpu")
    assert cpu == "cpu" and str(cpu) == "cpu"
    assert hash(cpu) == hash(dl.Device("cpu"))
    with pytest.raises(ValueError, match="unknown device"):
        dl.Device("tpu")
    with pytest.raises(ValueError):
        dl.zeros(3, device="cpu:1")


@pytest.mark.parametrize("pair, error", [
    ((1, 0), None), ((2**62, 0), ValueError), ((1, 2**40), ValueError), ((1, -1), ValueError),
    ((-5, 0), ValueError), ((99, 0), ValueError), (("cpu", 0), TypeError), ((1.0, 0), TypeError),
    ((True, 0), TypeError),
])
def test_device_pairs_out_of_range_raise_what_the_standard_names(pair, error):
    # (DLDeviceType, index) pairs as __dlpack_device__ gives them; any int reaches the parser.
    x = dl.ones(3)
    if error is None:
        assert x.to_device(pair).device == "cpu" and dl.zeros(2, device=pair).device == "cpu"
        return
    with pytest.raises(error, match="device"):
        x.to_device(pair)
    with pytest.raises(error, match="device"):
        dl.zeros(2, device=pair)


def test_len_of_0d_and_T_of_1d_raise():
    with pytest.raises(TypeError):
        len(dl.asarray(1))
    with pytest.raises(ValueError):
        dl.asarray([1, 2]).T


def test_rank_up_to_64():
    x = dl.zeros((1,) * 64)
    assert x.ndim == 64
    with pytest.raises(ValueError, match="at most 64"):
        dl.zeros((1,) * 65)


def test_freed_array_objects_are_reused_cleanly():
    # wrap() reuses the blocks of freed arrays: a reused block must start with no weak
    # references, its own value, and the type's reference count must not drift.
    import gc
    import sys
    import weakref

    x = dl.reshape(dl.arange(12.0), (3, 4))
    refs_before = sys.getrefcount(dl.Array)
    for _ in range(3):
        views = [x[i, j] for i in range(3) for j in range(4)]
        probes = [weakref.ref(v) for v in views]
        assert [float(v) for v in views] == [float(k) for k in range(12)]
        del views
        gc.collect()
        alive = [p() is not None for p in probes]
        assert not any(alive)
        fresh = [x[i, 0] for i in range(3)]  # reuses the blocks just freed
        assert [float(v) for v in fresh] == [0.0, 4.0, 8.0]
        weak_counts = [weakref.getweakrefcount(v) for v in fresh]
        assert weak_counts == [0, 0, 0]
        del fresh
    refs_after = sys.getrefcount(dl.Array)
    assert refs_after == refs_before
