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


def per_call_ns(fn, arg, number, repeat):
    """Best-of-`repeat` time of fn(arg), in ns per call, over loops of `number` calls."""
    fn(arg)  # warm caches (type lookups, interned names)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        for _ in itertools.repeat(None, number):
            fn(arg)
        best = min(best, (time.perf_counter_ns() - t0) / number)
    return best


def loop_ns(obj, what, number, repeat):
    """Best-of-`repeat` C-level cost of one _exchange_loop operation, in ns."""
    _core._exchange_loop(obj, 1000, what)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        _core._exchange_loop(obj, number, what)
        best = min(best, (time.perf_counter_ns() - t0) / number)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer iterations (smoke run)")
    args = ap.parse_args()
    number, repeat = (2_000, 3) if args.quick else (50_000, 7)

    x_np = np.arange(12, dtype=np.float32).reshape(3, 4)
    ours = dl.from_dlpack(x_np)
    x_t = torch.arange(12, dtype=torch.float32).reshape(3, 4) if torch else None

    def t(fn, arg):
        return per_call_ns(fn, arg, number, repeat)

    rows = []  # (case, ours_ns, [(peer_name, peer_ns), ...])
    # Consumers: who imports a NumPy array / a PyTorch tensor fastest.
    peers = [("torch.from_dlpack(np)", t(torch.from_dlpack, x_np))] if torch else []
    rows.append(("import a NumPy array: dl.from_dlpack(np)", t(dl.from_dlpack, x_np), peers))
    if torch:
        rows.append(("import a torch tensor: dl.from_dlpack(torch)", t(dl.from_dlpack, x_t),
                     [("np.from_dlpack(torch)", t(np.from_dlpack, x_t))]))
    # Producers: whose arrays NumPy / PyTorch import fastest.
    peers = [("np.from_dlpack(torch)", t(np.from_dlpack, x_t))] if torch else []
    rows.append(("NumPy imports ours: np.from_dlpack(dl)", t(np.from_dlpack, ours), peers))
    if torch:
        rows.append(("PyTorch imports ours: torch.from_dlpack(dl)", t(torch.from_dlpack, ours),
                     [("torch.from_dlpack(np)", t(torch.from_dlpack, x_np))]))
    # asarray of a peer array (the everyday entry point).
    peers = [("torch.asarray(np)", t(torch.asarray, x_np))] if torch else []
    rows.append(("asarray of a NumPy array: dl.asarray(np)", t(dl.asarray, x_np), peers))
    if torch:
        rows.append(("asarray of a torch tensor: dl.asarray(torch)", t(dl.asarray, x_t),
                     [("np.asarray(torch)", t(np.asarray, x_t))]))

    # Our two consumer paths for a torch tensor: its C table vs its __dlpack__.
    if torch:
        rows.append(("torch tensor via its C table (vs via __dlpack__)", t(dl.from_dlpack, x_t),
                     [("dl._from_dlpack_protocol(torch)", t(_core._from_dlpack_protocol, x_t))]))
    # C level, no Python call around it.
    cn = number * 4
    if torch:
        rows.append(("C: import torch via its table (import+wrap+free)", loop_ns(x_t, "import", cn, repeat),
                     [("C: torch managed_from_py+deleter", loop_ns(x_t, "managed", cn, repeat))]))
        rows.append(("C: our managed_from_py+deleter", loop_ns(ours, "managed", cn, repeat),
                     [("C: torch managed_from_py+deleter", loop_ns(x_t, "managed", cn, repeat))]))
        rows.append(("C: our dltensor_from_py (borrowed)", loop_ns(ours, "borrowed", cn, repeat),
                     [("C: torch dltensor_from_py", loop_ns(x_t, "borrowed", cn, repeat))]))
    else:
        rows.append(("C: our managed_from_py+deleter", loop_ns(ours, "managed", cn, repeat), []))
        rows.append(("C: our dltensor_from_py (borrowed)", loop_ns(ours, "borrowed", cn, repeat), []))

    print(f"numpy {np.__version__}, torch {torch.__version__ if torch else '-'}, "
          f"python {sys.version.split()[0]}; ns per exchange, best of {repeat} x {number}")
    w = max(len(r[0]) for r in rows)
    pw = max((len(p[0]) for r in rows for p in r[2]), default=4)
    print(f"{'case':<{w}}  {'ours':>8}  {'fastest peer':<{pw}}  {'peer':>8}  {'ratio':>6}")
    worst = 0.0
    for case, ours_ns, peer_list in rows:
        if not peer_list:
            print(f"{case:<{w}}  {ours_ns:8.1f}  {'-':<{pw}}  {'-':>8}  {'-':>6}")
            continue
        name, peer_ns = min(peer_list, key=lambda p: p[1])
        ratio = ours_ns / peer_ns
        worst = max(worst, ratio)
        print(f"{case:<{w}}  {ours_ns:8.1f}  {name:<{pw}}  {peer_ns:8.1f}  {ratio:6.2f}")
    print(f"worst ratio {worst:.2f} (goal <= 1.00)")


if __name__ == "__main__":
    main()
