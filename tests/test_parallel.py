"""How the CPU thread pool splits work, checked at thread counts this machine may lack.

parallel_for's split (src/backends/cpu/parallel.cpp, plan_chunks) decides whether a 16-core
machine uses 16 cores: a rounding of chunks to 64 elements once turned a reduction's per-thread
chunks into one task, so sum, max and a + b.T ran on one thread at any thread count (issue 10's
"no thread scaling"). Timing cannot show that on a 2-core VM; the split can be read directly.
Last, a worker that shares its caller's CPU moves off it and leaves no thread pinned.
"""
import os
import threading
import time

import numpy as np
import pytest

import dlarray as dl

core = dl._core
GRAIN = 32768  # kGrainSize in parallel.h


@pytest.fixture
def threads16():
    before = core._num_threads()
    core._set_num_threads(16)
    yield
    core._set_num_threads(before)


def check_split(n, grain, threads):
    tasks = core._parallel_chunks(n, grain, threads)
    if n <= 0:
        assert tasks == []
        return tasks
    # Contiguous, in order, non-empty, covering [0, n) exactly.
    assert tasks[0][0] == 0 and tasks[-1][1] == n
    for (b, e), (b2, _) in zip(tasks, tasks[1:]):
        assert e == b2
    assert all(b < e for b, e in tasks), tasks
    # As many tasks as threads, unless there are fewer grains than threads; whole chunks may
    # cover the range in fewer (65 elements on 16 threads: 13 chunks of 5), never under half.
    most = 1 if threads < 2 or n // max(grain, 1) < 2 else min(threads, n // max(grain, 1))
    assert most / 2 < len(tasks) <= most, (n, grain, threads, tasks)
    if n % most == 0 and (n // most) % 64 == 0:
        assert len(tasks) == most
    sizes = [e - b for b, e in tasks]
    assert all(s == sizes[0] for s in sizes[:-1]) and sizes[-1] <= sizes[0]  # equal but the last
    return tasks


def test_split_of_a_few_coarse_items_keeps_one_item_a_task():
    # A reduction's per-thread chunks: parallel_for(chunks, 1) must run chunks tasks.
    assert core._parallel_chunks(2, 1, 16) == [(0, 1), (1, 2)]
    assert core._parallel_chunks(16, 1, 16) == [(i, i + 1) for i in range(16)]
    # 50 row blocks on 16 threads: no split does better than 4 blocks on the busiest thread.
    tasks = core._parallel_chunks(50, 1, 16)
    assert max(e - b for b, e in tasks) == 4 and tasks[-1][1] == 50


def test_split_of_element_ranges_keeps_cache_line_boundaries():
    tasks = check_split(10**7, GRAIN, 16)
    assert all(b % 64 == 0 for b, _ in tasks)
    sizes = [e - b for b, e in tasks]
    assert max(sizes) - min(sizes) <= 64 * 16  # balanced but for the rounding


@pytest.mark.parametrize("threads", [1, 2, 3, 7, 16, 64, 192])
def test_split_covers_the_range_at_every_thread_count(threads):
    rng = np.random.default_rng(threads)
    for n in [0, 1, 2, 63, 64, 65, 127, 1000, GRAIN, 2 * GRAIN - 1, 2 * GRAIN, 10**6 + 7, 2**62, 2**63 - 1]:
        for grain in [1, 2, 64, 1000, GRAIN]:
            check_split(n, grain, threads)
    for n, grain in zip(rng.integers(1, 10**8, 200), rng.integers(1, 10**5, 200)):
        check_split(int(n), int(grain), threads)


@pytest.mark.parametrize("name", ["sum", "max", "min", "mean", "prod"])
def test_whole_array_reductions_use_every_thread(threads16, name):
    x = dl.asarray(np.random.default_rng(0).standard_normal(10**6))
    getattr(dl, name)(x)
    assert core._last_parallel_tasks() == 16


def test_mixed_order_add_uses_every_thread(threads16):
    a = dl.ones((1024, 1024), dtype=dl.float32)
    b = dl.ones((1024, 1024), dtype=dl.float32)
    out = a + b.T
    assert core._last_parallel_tasks() == 16
    assert float(dl.min(out)) == float(dl.max(out)) == 2.0


def test_argmax_of_one_long_row_uses_every_thread(threads16):
    x = np.random.default_rng(1).standard_normal(16 * 8 * GRAIN)
    assert int(dl.argmax(dl.asarray(x))) == int(np.argmax(x))
    assert core._last_parallel_tasks() == 16


def test_a_worker_on_its_callers_cpu_moves_off_and_keeps_the_process_affinity():
    # A worker that finds itself on its caller's CPU moves off by narrowing its affinity for a
    # moment (parallel.cpp, move_off_cpu). Put the awake worker there (pinned to the caller's
    # CPU and unpinned at once: a running thread stays where it was moved), post a job, let it
    # run, and check that it moved and that every thread may again run on every CPU it could.
    allowed = os.sched_getaffinity(0)
    if len(allowed) < 2:
        pytest.skip("one CPU: nothing to move to")
    before = core._num_threads()
    core._set_num_threads(2)
    try:
        x = np.random.default_rng(2).standard_normal(10**6)
        d = dl.asarray(x)
        dl.sum(d)  # the pool starts with every CPU allowed (its threads inherit this thread's mask)
        here = min(allowed)
        os.sched_setaffinity(0, {here})  # this thread, the caller
        moves = core._worker_moves()
        for _ in range(100):  # until it happens (other processes on the CPUs may get there first)
            if core._worker_moves() > moves:
                break
            assert float(dl.sum(d)) == pytest.approx(float(np.sum(x)), rel=1e-12, abs=1e-9)  # workers awake
            others = [int(t) for t in os.listdir("/proc/self/task") if int(t) != threading.get_native_id()]
            for tid in others:
                os.sched_setaffinity(tid, {here})
                os.sched_setaffinity(tid, allowed)
            assert float(dl.sum(d)) == pytest.approx(float(np.sum(x)), rel=1e-12, abs=1e-9)
            assert core._last_parallel_tasks() == 2
            time.sleep(0.001)  # the CPU to the worker, which sees the job (done or not)
        assert core._worker_moves() > moves
        for tid in os.listdir("/proc/self/task"):
            if int(tid) != threading.get_native_id():
                assert os.sched_getaffinity(int(tid)) == allowed, tid
    finally:
        os.sched_setaffinity(0, allowed)
        core._set_num_threads(before)
