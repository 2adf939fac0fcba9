"""DLPack exchange cost, side by side with NumPy and PyTorch in one run.

Every line is one direction of exchange: the time dlarray takes ("ours") next to the
fastest peer doing the same job ("peer"), and ours / peer. Goal: every ratio <= 1.0, and
an import through a peer's C exchange table under 100 ns.

    PYTHONPATH=python python3 benchmarks/exchange.py [--quick]

Times are the best of several repeats of a tight loop, in nanoseconds per exchange; the
machine is shared and noisy, so compare ratios, not absolute figures, across runs.
"""
import argparse
import itertools
import sys
import time

import numpy as np

import dlarray as dl
from dlarray import _core

try:
    import torch
except ImportError:  # the PyTorch rows are skipped
    torch = None
try:
    import tvm_ffi  # a consumer that reads producers' C exchange tables
except ImportError:
    tvm_ffi = None


class Timer:
    """Best-of-rounds time of one exchange, in ns. Rounds interleave all cases, so a burst of
    load on the (shared, noisy) machine hits every case alike instead of one."""

    def __init__(self, fn, arg, c_level=False):
        self.fn, self.arg, self.c_level = fn, arg, c_level
        self.best = float("inf")

    def run(self, number):
        if self.c_level:  # fn is a C++ loop: time it whole
            t0 = time.perf_counter_ns()
            self.fn(self.arg, number)
            dt = time.perf_counter_ns() - t0
        else:
            fn, arg = self.fn, self.arg
            t0 = time.perf_counter_ns()
            for _ in itertools.repeat(None, number):
                fn(arg)
            dt = time.perf_counter_ns() - t0
        self.best = min(self.best, dt / number)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer iterations (smoke run)")
    args = ap.parse_args()
    number, repeat = (2_000, 3) if args.quick else (20_000, 15)

    x_np = np.arange(12, dtype=np.float32).reshape(3, 4)
    ours = dl.from_dlpack(x_np)
    x_t = torch.arange(12, dtype=torch.float32).reshape(3, 4) if torch else None

    def t(fn, arg):
        return Timer(fn, arg)

    def c(obj, what):
        return Timer(lambda o, n: _core._exchange_loop(o, n, what), obj, c_level=True)

    def peers(*candidates):  # (name, timer) pairs whose library is installed
        return [p for p in candidates if p is not None]

    have_t, have_tvm = torch is not None, tvm_ffi is not None
    # (case, our timer, [(peer name, peer timer), ...]); the ratio is ours / fastest peer
    # doing the same exchange.
    rows = [
        # Consumers: who imports a NumPy array / a PyTorch tensor fastest.
        ("import a NumPy array: dl.from_dlpack(np)", t(dl.from_dlpack, x_np),
         peers(("np.from_dlpack(np)", t(np.from_dlpack, x_np)),  # NumPy importing its own
               have_t and ("torch.from_dlpack(np)", t(torch.from_dlpack, x_np)) or None,
               have_tvm and ("tvm_ffi.from_dlpack(np)", t(tvm_ffi.from_dlpack, x_np)) or None)),
        # Producers: whose arrays NumPy imports fastest.
        ("NumPy imports ours: np.from_dlpack(dl)", t(np.from_dlpack, ours),
         peers(have_t and ("np.from_dlpack(torch)", t(np.from_dlpack, x_t)) or None)),
        ("asarray of a NumPy array: dl.asarray(np)", t(dl.asarray, x_np),
         peers(have_t and ("torch.asarray(np)", t(torch.asarray, x_np)) or None)),
    ]
    if have_t:
        rows += [
            ("import a torch tensor: dl.from_dlpack(torch)", t(dl.from_dlpack, x_t),
             peers(("np.from_dlpack(torch)", t(np.from_dlpack, x_t)),
                   have_tvm and ("tvm_ffi.from_dlpack(torch)", t(tvm_ffi.from_dlpack, x_t)) or None)),
            ("PyTorch imports ours: torch.from_dlpack(dl)", t(torch.from_dlpack, ours),
             [("torch.from_dlpack(np)", t(torch.from_dlpack, x_np))]),
            ("asarray of a torch tensor: dl.asarray(torch)", t(dl.asarray, x_t),
             [("np.asarray(torch)", t(np.asarray, x_t))]),
        ]
        if have_tvm:  # a consumer that uses C tables: ours against PyTorch's
            rows.append(("tvm-ffi imports ours: tvm_ffi.from_dlpack(dl)", t(tvm_ffi.from_dlpack, ours),
                         [("tvm_ffi.from_dlpack(torch)", t(tvm_ffi.from_dlpack, x_t))]))
        rows += [
            # Our two consumer paths for a torch tensor: its C table vs its __dlpack__.
            ("torch via its C table (vs via __dlpack__)", t(dl.from_dlpack, x_t),
             [("dl._from_dlpack_protocol(torch)", t(_core._from_dlpack_protocol, x_t))]),
            # The tables at C level, no Python call around them.
            ("C: our managed_from_py + deleter", c(ours, "managed"),
             [("C: torch managed_from_py + deleter", c(x_t, "managed"))]),
            ("C: our dltensor_from_py (borrowed)", c(ours, "borrowed"),
             [("C: torch dltensor_from_py", c(x_t, "borrowed"))]),
        ]
    else:
        rows += [("C: our managed_from_py + deleter", c(ours, "managed"), []),
                 ("C: our dltensor_from_py (borrowed)", c(ours, "borrowed"), [])]
    # Not a comparison: what dlarray adds on top of a peer's table in a C-level import
    # (building the Array, wrapping it, releasing it).
    breakdown = []
    if have_t:
        breakdown = [("C: torch's table alone (managed_from_py + deleter)", c(x_t, "managed")),
                     ("C: our whole import through it (+ Array, wrap, release)", c(x_t, "import"))]

    timers = [r[1] for r in rows] + [p[1] for r in rows for p in r[2]] + [b[1] for b in breakdown]
    for timer in timers:  # warm up: caches, interned names, first-call lookups
        timer.run(max(number // 50, 10))
        timer.best = float("inf")
    for _ in range(repeat):
        for timer in timers:
            timer.run(number * 4 if timer.c_level else number)

    print(f"numpy {np.__version__}, torch {torch.__version__ if torch else '-'}, "
          f"tvm_ffi {getattr(tvm_ffi, '__version__', '-') if tvm_ffi else '-'}, python {sys.version.split()[0]}; "
          f"ns per exchange, best of {repeat} interleaved rounds of {number}")
    w = max(len(r[0]) for r in rows + breakdown)
    pw = max((len(p[0]) for r in rows for p in r[2]), default=4)
    print(f"{'case':<{w}}  {'ours':>8}  {'fastest peer':<{pw}}  {'peer':>8}  {'ratio':>6}")
    worst = 0.0
    for case, ours_timer, peer_list in rows:
        ours_ns = ours_timer.best
        if not peer_list:
            print(f"{case:<{w}}  {ours_ns:8.1f}  {'-':<{pw}}  {'-':>8}  {'-':>6}")
            continue
        name, peer_ns = min(((n, p.best) for n, p in peer_list), key=lambda p: p[1])
        ratio = ours_ns / peer_ns
        worst = max(worst, ratio)
        print(f"{case:<{w}}  {ours_ns:8.1f}  {name:<{pw}}  {peer_ns:8.1f}  {ratio:6.2f}")
    print(f"worst ratio {worst:.2f} (goal <= 1.00)")
    for case, timer in breakdown:
        print(f"{case:<{w}}  {timer.best:8.1f}")


if __name__ == "__main__":
    main()
