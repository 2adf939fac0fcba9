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


def test_small_blocks_are_reused_without_mixing_contents():
    # Freed data blocks of up to 1 KiB are kept per thread and per 64-byte size class and
    # handed out again: every size class at once, half of them freed and refilled, on the
    # main thread and on worker threads that hand their arrays to the main thread to free.
    import threading

    def churn(seed, keep):
        made = []
        for k in range(1, 140):
            n = (k * 7 + seed) % 130  # 0 to 1040 bytes of float64: every class and beyond
            a = dl.full((n,), float(k + 1000 * seed))
            made.append((a, float(k + 1000 * seed), n))
        for i in range(0, len(made), 2):
            made[i] = None  # back to the cache
        for k in range(1, 70):
            n = (k * 5 + seed) % 130
            made.append((dl.full((n,), -float(k)), -float(k), n))
        keep.extend(m for m in made if m is not None)

    base = dl._core._allocator_stats("cpu")["bytes_in_use"]
    kept = []
    churn(0, kept)
    threads = [threading.Thread(target=churn, args=(s, kept)) for s in (1, 2, 3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for entry in kept:
        assert entry[0].shape == (entry[2],)
        assert all(e == entry[1] for e in entry[0].tolist())
    del entry
    kept.clear()  # blocks made on the workers, freed here
    import gc
    gc.collect()
    assert dl._core._allocator_stats("cpu")["bytes_in_use"] == base


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
