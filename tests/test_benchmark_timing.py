"""The timing helpers the CPU benchmarks share (benchmarks/cpu_peers.py's alternate,
alternate_rounds and paired_ratio) on trivial functions, and benchmarks/report.py's run()
driving them through one stand-in case: the calls each function gets and the report's fields.
Nothing here compares times: they are only checked to be positive and finite (a performance
figure belongs to benchmarks/, never to a test)."""
import math
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import cpu_peers  # noqa: E402
import report  # noqa: E402


def counting(seconds=0.0):
    calls = []

    def fn(*args):
        calls.append(args)
        if seconds:
            time.sleep(seconds)
        return 1

    return fn, calls


def test_alternate_times_each_function_in_every_round():
    # A call of 3 ms is longer than a block (2 ms): one call per block, so the counts are exact.
    (f, f_calls), (g, g_calls) = counting(0.003), counting(0.003)
    times = cpu_peers.alternate([f, g], 3)
    assert len(times) == 2 and all(t > 0 and math.isfinite(t) for t in times)
    assert len(f_calls) == len(g_calls) == 2 + 3  # sizing (a warm-up, a timed call), 3 blocks


def test_alternate_settles_and_warms_before_each_block():
    (f, f_calls), = [counting(0.003)]
    t0 = time.perf_counter()
    cpu_peers.alternate([f], 2, settle=0.01)
    assert len(f_calls) == 2 + 2 * 2  # an untimed block (one call here) after each sleep, then the timed one
    assert time.perf_counter() - t0 >= 2 * 0.01


def test_alternate_rounds_give_each_function_a_time_in_every_round():
    (f, f_calls), (g, g_calls) = counting(0.003), counting(0.003)
    rounds = cpu_peers.alternate_rounds([f, g], 4)
    assert len(rounds) == 4 and all(len(r) == 2 and all(t > 0 and math.isfinite(t) for t in r) for r in rounds)
    assert len(f_calls) == len(g_calls) == 2 + 4


def test_paired_ratio_is_the_median_of_the_ratios_within_rounds():
    # Round 2 is a burst of load on the first function only (ratio 2.25), round 3 a machine
    # twice as slow for all (the same ratios as round 1): the median ignores the burst.
    rounds = [[2.0, 4.0, 5.0], [9.0, 4.0, 4.5], [4.0, 8.0, 10.0]]
    assert cpu_peers.paired_ratio(rounds, 0, [1]) == 0.5
    assert cpu_peers.paired_ratio(rounds, 0, [2]) == 0.4
    assert cpu_peers.paired_ratio(rounds, 0, [1, 2]) == 0.5  # the faster of the two each round
    assert cpu_peers.median([3.0, 1.0, 2.0, 10.0]) == 2.5


def test_report_run_drives_alternate_with_each_case(monkeypatch):
    ours, our_calls = counting()
    theirs, their_calls = counting()

    def one_case(dl, np, torch):
        return [("stand-in", "elementwise", lambda: ("a", "b", "c"), ours, theirs, theirs if torch else None)]

    import dlarray as dl

    monkeypatch.setattr(report, "build_cases", one_case)
    try:
        import torch
    except ImportError:
        torch = None
    before = dl._core._num_threads(), torch.get_num_threads() if torch else None
    try:
        result = report.run(threads=1, quick=True)
    finally:  # run() sets dlarray's and PyTorch's thread counts
        dl._core._set_num_threads(before[0])
        if torch:
            torch.set_num_threads(before[1])
    (case,) = result["cases"]
    assert case["name"] == "stand-in" and case["family"] == "elementwise"
    assert case["times"]["dlarray"] > 0 and math.isfinite(case["ratio_numpy"])
    assert our_calls and all(args == ("a",) for args in our_calls)
    assert result["repeat"] == 3 and result["threads"] == 1
