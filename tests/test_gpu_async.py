"""GPU ordering bugs that only an asynchronous device shows, caught over the fake backend run
lazily (dlarray._fake_gpu.set_mode("lazy"): queued work runs only when the host waits for it,
so the host gets as far ahead of the device as it ever can): host reads of pinned memory before
the copy that fills it, pinned blocks handed out again while a copy still reads them, device
memory freed while another stream still uses it, copies between two devices' memory pools, and
the fake's own guarantees (device memory unreadable from the host, faults reported, the legacy
default stream's ordering)."""
import gc
import operator
import os

import numpy as np
import pytest

import dlarray as dl
from helpers.gpu_util import clean, host, run_with_fake_gpu  # noqa: F401  (clean: autouse, fresh log per test)


@pytest.fixture
def lazy(fake):
    """The fake backend in lazy mode for one test; faults must all have been expected."""
    before = fake.set_mode("lazy")
    fake.clear_faults()
    yield fake
    fake.set_mode(before)
    dl.rocm.set_stream(dl.rocm.Stream(0, handle=0))
    gc.collect()
    fake.synchronize_all()
    assert fake.faults() == [], fake.faults()


def rocm_streams():
    return [dl.rocm.current_stream(0), dl.rocm.current_stream(1)]


# ---- finding 1: host reads of pinned memory wait for the copy that fills it ------------------------

def test_scalar_reads_of_a_pinned_copy_see_the_copied_values(lazy):
    x = dl.asarray(np.array([1.5, -2.0, 3.0, 1.0]), device="rocm:0")
    h = x.to_device("rocm_host:0")
    assert float(h[0]) == 1.5
    assert int(h[1]) == -2 and bool(h[3]) and complex(h[2]) == 3 + 0j
    i = dl.asarray(np.array([7, 8]), device="rocm:1").to_device("rocm_host:0")
    assert operator.index(i[1]) == 8 and [7, 8][operator.index(i[0]) - 7] == 7


def test_host_kernels_on_a_pinned_copy_see_the_copied_values(lazy):
    a = np.arange(1, 65, dtype=np.float64)
    h = dl.asarray(a, device="rocm:0").to_device("rocm_host:0")
    assert float(dl.sum(h)) == a.sum()
    np.testing.assert_array_equal(np.asarray(dl.astype(h, dl.float32)), a.astype(np.float32))
    np.testing.assert_array_equal(np.asarray(dl.full((3,), h[5], device="rocm_host:0")), [6.0] * 3)
    np.testing.assert_array_equal(np.asarray(h), a)


# ---- finding 2: a pinned block is reused only after every stream that touched it ---------------------

def test_a_pinned_block_is_not_reused_while_another_device_copies_from_it(lazy):
    dl.rocm.empty_cache(0)  # no other cached block of the size class to hand out instead
    a = np.arange(1000.0)
    h = dl.asarray(a, device="rocm_host:0")
    y = dl.asarray(h, device="rocm:1")  # queued on device 1's stream
    del h
    gc.collect()
    other = dl.asarray(np.full(1000, -1.0), device="rocm_host:0")  # the same size class
    np.testing.assert_array_equal(host(y), a)
    np.testing.assert_array_equal(np.asarray(other), np.full(1000, -1.0))


def test_a_pinned_block_is_not_reused_while_a_users_stream_copies_from_it(lazy):
    dl.rocm.empty_cache(0)
    a = np.arange(500.0)
    s = dl.rocm.Stream(0, non_blocking=True)
    h = dl.asarray(a, device="rocm_host:0")
    with dl.rocm.stream(s):
        y = h.to_device("rocm:0")
    del h
    gc.collect()
    other = dl.asarray(np.full(500, 9.0), device="rocm_host:0")
    s.synchronize()
    np.testing.assert_array_equal(host(y), a)
    np.testing.assert_array_equal(np.asarray(other), np.full(500, 9.0))


# ---- finding 3: a free waits for every stream that used the block -----------------------------------

def test_a_free_waits_for_a_second_stream_that_reads_the_block(lazy):
    a = np.arange(1000.0)
    x = dl.asarray(a, device="rocm:0")
    s = dl.rocm.Stream(0, non_blocking=True)  # no implicit ordering with the default stream
    with dl.rocm.stream(s):
        y = x * 2
    del x
    gc.collect()  # freed on the default stream, its stream
    reuse = dl.full(1000, 7.0, device="rocm:0")  # the pool may hand x's range out at once
    dl.rocm.current_stream(0).synchronize()  # the default stream runs first: the free, the fill
    s.synchronize()  # then y's kernel, which reads x
    np.testing.assert_array_equal(host(y), 2 * a)
    np.testing.assert_array_equal(host(reuse), np.full(1000, 7.0))


def test_a_free_waits_for_a_copy_queued_on_the_other_device(lazy):
    a = np.arange(300, dtype=np.int32)
    x = dl.asarray(a, device="rocm:0")
    y = x.to_device("rocm:1")  # queued on device 1, reading device 0's memory
    del x
    gc.collect()
    dl.rocm.current_stream(0).synchronize()
    np.testing.assert_array_equal(host(y), a)


def test_a_free_waits_for_another_threads_stream(lazy):
    import threading

    a = np.arange(64.0)
    x = dl.asarray(a, device="rocm:0")
    out = {}

    def worker():
        s = dl.rocm.Stream(0, non_blocking=True)
        dl.rocm.set_stream(s)
        out["y"] = dl.sqrt(x)
        out["s"] = s

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    del x
    gc.collect()
    dl.rocm.current_stream(0).synchronize()
    out["s"].synchronize()
    np.testing.assert_array_equal(host(out["y"]), np.sqrt(a))


def test_the_fake_reports_a_use_after_free_at_the_next_wait(lazy):
    # What the tests above would see without the core's ordering: the block freed on the default
    # stream (as a core that forgot the second stream would) while a kernel on s still reads it.
    x = dl.asarray(np.arange(10.0), device="rocm:0")
    s = dl.rocm.Stream(0, non_blocking=True)
    with dl.rocm.stream(s):
        y = x + 1
    assert lazy.free_async(x._data_ptr, 0, 0) == 0
    dl.rocm.current_stream(0).synchronize()  # the free runs
    with pytest.raises(RuntimeError, match="use after free: an elementwise kernel"):
        s.synchronize()  # then the kernel: reported here, as a device reports an illegal address
    assert len(lazy.faults()) == 1
    lazy.clear_faults()
    del x, y  # the core's own free of x now finds no block: dropped, as a deleter's errors are
    gc.collect()


# ---- finding 6: copies between two devices' pools ------------------------------------------------

def fresh_backend(fake):
    """The fake's table installed again: a new core backend that has granted nothing yet."""
    dl._core._uninstall_gpu_backend("rocm")
    fake.install()
    fake.clear_log()


def test_a_copy_between_devices_grants_peer_access_once(fake):
    fresh_backend(fake)
    a = np.arange(12.0)
    y = dl.asarray(a, device="rocm:0").to_device("rocm:1")
    z = y.to_device("rocm:0")
    np.testing.assert_array_equal(host(z), a)
    grants = [e for e in fake.log() if e[0] == "peer_access"]
    assert sorted((e[1], e[2]) for e in grants) == [(0, 1), (1, 0)]  # each pool to the other, once


def test_without_peer_access_copies_between_devices_go_through_pinned_memory(fake):
    fake.set_peer_access_possible(False)
    try:
        fresh_backend(fake)
        a = np.arange(20, dtype=np.int16)
        y = dl.asarray(a, device="rocm:0").to_device("rocm:1")
        back = y.to_device("rocm:0")
        np.testing.assert_array_equal(host(back), a)
        copies = [e for e in fake.log() if e[0] == "memcpy"]
        assert len(copies) >= 5  # up; then device 0 -> pinned -> device 1; and back the same way
    finally:
        fake.set_peer_access_possible(True)
        fresh_backend(fake)


# ---- the fake itself ----------------------------------------------------------------------------

def test_device_memory_cannot_be_read_from_the_host():
    if "asan" in os.environ.get("LD_PRELOAD", ""):
        pytest.skip("AddressSanitizer catches the child's fault itself, and counts it as its report")
    out = run_with_fake_gpu(
        "import ctypes, numpy as np\n"
        "x = dlarray.asarray(np.arange(4.0), device='rocm:0')\n"
        "print('ready', flush=True)\n"
        "print(ctypes.c_double.from_address(x._data_ptr).value)\n")
    assert out.stdout.startswith("ready") and out.returncode != 0, (out.returncode, out.stdout, out.stderr[-500:])


def test_read_device_waits_for_the_queued_work(lazy):
    x = dl.full(4, 2.5, device="rocm:0")
    assert np.frombuffer(lazy.read_device(x._data_ptr, 32), np.float64).tolist() == [2.5] * 4
    with pytest.raises(ValueError, match="live device block"):
        lazy.read_device(x._data_ptr, 10**6)


def test_fresh_device_memory_is_garbage_not_zeros(lazy):
    x = dl.empty(16, dtype=dl.uint8, device="rocm:0")
    assert set(lazy.read_device(x._data_ptr, 16)) == {0xDB}


def test_legacy_default_stream_orders_blocking_streams(lazy):
    a = np.arange(50.0)
    x = dl.asarray(a, device="rocm:0")  # on the default stream
    s = dl.rocm.Stream(0)  # blocking: waits for the default stream's earlier work, and it for s's
    with dl.rocm.stream(s):
        y = x + 1
    np.testing.assert_array_equal(host(y), a + 1)  # read on the default stream: after y's kernel


def test_modes_and_delays_can_be_set_and_restored(fake):
    assert fake.mode() in ("eager", "lazy", "synchronous")
    before = fake.set_mode("synchronous")
    try:
        assert fake.mode() == "synchronous"
        x = dl.asarray(np.arange(5.0), device="rocm:0") * 3
        np.testing.assert_array_equal(host(x), np.arange(5.0) * 3)
        with pytest.raises(ValueError, match="eager"):
            fake.set_mode("sometimes")
    finally:
        fake.set_mode(before)
    prev = fake.set_delays(300, 5)
    try:
        ys = [dl.asarray(np.arange(8.0) + k, device=f"rocm:{k % 2}") * 2 for k in range(6)]
        for k, y in enumerate(ys):
            np.testing.assert_array_equal(host(y), (np.arange(8.0) + k) * 2)
    finally:
        fake.set_delays(prev, 0)


# ---- finding 7: an evicted FFT plan is destroyed on its own device --------------------------------

def test_an_fft_plan_evicted_by_another_device_is_destroyed_on_its_own(lazy):
    live0, made0 = lazy.fft_plans()
    for n in range(2, 2 + 64):  # 64 distinct plans on device 0: the cache is full
        dl.fft.fft(dl.asarray(np.ones(n, np.complex128), device="rocm:0"))
    y = dl.fft.fft(dl.asarray(np.arange(5, dtype=np.complex128), device="rocm:1"))  # evicts one of device 0
    np.testing.assert_allclose(host(y), np.fft.fft(np.arange(5)), atol=1e-12)
    lazy.synchronize_all()
    assert lazy.faults() == []  # not destroyed while device 1 was current
    live, made = lazy.fft_plans()
    assert made - made0 == 65 and live - live0 <= 65
    z = dl.fft.fft(dl.asarray(np.ones(7, np.complex128), device="rocm:0"))  # back on device 0: destroyed now
    np.testing.assert_allclose(host(z), np.fft.fft(np.ones(7)), atol=1e-12)
    assert lazy.faults() == []
