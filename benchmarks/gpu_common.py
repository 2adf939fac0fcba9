"""Shared by the GPU benchmarks: skipping without a device, timing, and the ratio line."""
import sys
import time

import dlarray


def require_cuda():
    """Exits 0 with a message when no CUDA device is visible (benchmarks are optional)."""
    if dlarray.cuda.device_count() == 0:
        print(f"skipped: no CUDA device visible ({sys.argv[0]})")
        sys.exit(0)


def optional(name):
    try:
        return __import__(name)
    except ImportError:
        return None


def best_time(fn, repeat=5, sync=None):
    """Best wall time of fn() over `repeat` runs, each followed by sync() when given."""
    best = float("inf")
    for _ in range(repeat):
        if sync:
            sync()
        t0 = time.perf_counter()
        fn()
        if sync:
            sync()
        best = min(best, time.perf_counter() - t0)
    return best


def report(case, ours, peer_name, peer, unit="us", scale=1e6):
    """One line: case, ours, peer, ratio (ours / peer: below 1 is faster, for times)."""
    print(f"{case:<44} dlarray {ours * scale:10.2f} {unit}  {peer_name:<14} {peer * scale:10.2f} {unit}"
          f"  ratio {ours / peer:6.2f}")
