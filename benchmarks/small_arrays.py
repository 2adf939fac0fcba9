"""Small arrays next to NumPy's: resident memory per array, and per-call times on them.

Memory: 200,000 float64 arrays of 1, 2, 3 and 4 elements are kept alive in a list, made three
ways (ones(n), asarray of a Python list, and a slice x[i:i + n] of one larger array, a view),
and the growth of the resident set (RSS, /proc/self/statm) is divided by their number. Each
library and case runs in a fresh subprocess, so neither sees the other's heap. The list's own
8 bytes a slot are in both numbers.

Times: per-call cost of x[0], float(x[0]), int(x[0]), x.T (2 x 2), x.shape, x.dtype, x.device
and len(x) on a 4-element array (and a few creations, to show nothing got slower), dlarray
and NumPy timed in alternation in thread CPU time (time slices lost to other processes on a
shared machine do not count), keeping the minimum over batches and over several processes.

Each line ends with the ratio dlarray / NumPy; at most 1.00 is the goal.

usage: PYTHONPATH=python python3 benchmarks/small_arrays.py [--quick]
"""
import os
import subprocess
import sys
import time
import timeit

N_ARRAYS = 200_000
SIZES = (1, 2, 3, 4)
MAKERS = ("ones", "asarray", "slice")


def _rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _bytes_per_array(lib, how, n, count):
    """Runs in the subprocess: RSS growth per array for `count` arrays of n float64."""
    import gc

    if lib == "numpy":
        import numpy as xp
    else:
        import dlarray as xp
    src = [1.0] * n
    base = xp.ones(count + n)
    make = {
        "ones": lambda i: xp.ones(n),
        "asarray": lambda i: xp.asarray(src),
        "slice": lambda i: base[i:i + n],
    }[how]
    # Warm up first: the allocators' first arenas and any caches are not per-array costs.
    warm = [make(i) for i in range(2000)]
    del warm
    gc.collect()
    gc.disable()  # arrays are not tracked by the GC, but a collection would disturb the heap
    keep = []
    before = _rss()
    for i in range(count):
        keep.append(make(i))
    return (_rss() - before) / count


def _memory_table(count):
    print(f"bytes per array, RSS over {count:,} float64 arrays (fresh process each)")
    print(f"{'case':16s} {'dlarray':>9s} {'numpy':>9s} {'ratio':>7s}")
    env = dict(os.environ)
    here = os.path.abspath(__file__)
    for how in MAKERS:
        for n in SIZES:
            got = {}
            for lib in ("dlarray", "numpy"):
                out = subprocess.run(
                    [sys.executable, here, "--rss", lib, how, str(n), str(count)],
                    env=env, check=True, capture_output=True, text=True,
                ).stdout
                got[lib] = float(out.split()[-1])
            case = f"{how}({n})" if how != "slice" else f"x[i:i+{n}]"
            print(f"{case:16s} {got['dlarray']:9.1f} {got['numpy']:9.1f} {got['dlarray'] / got['numpy']:7.2f}")


CASES = [
    # (case, statement): x is [1., 2., 3., 4.], m is 2 x 2, lst a Python list of 4 floats
    ("x[0]", "x[0]"),
    ("float(x[0])", "float(x[0])"),
    ("int(x[0])", "int(x[0])"),
    ("m.T", "m.T"),
    ("x.shape", "x.shape"),
    ("x.dtype", "x.dtype"),
    ("x.device", "x.device"),
    ("len(x)", "len(x)"),
    ("x[1:3]", "x[1:3]"),
    ("ones(4)", "xp.ones(4)"),
    ("asarray(lst)", "xp.asarray(lst)"),
    ("x + x", "x + x"),
]


def _per_call(stmt, env, number):
    t = timeit.Timer(stmt, globals=env, timer=time.thread_time)
    return t.timeit(number=number) / number * 1e9


def _times(number, repeat):
    """Runs in the subprocess: per case, the minimum ns per call of each library."""
    import numpy as np

    import dlarray as dl

    lst = [1.0, 2.0, 3.0, 4.0]
    envs = {}
    for name, xp in (("dlarray", dl), ("numpy", np)):
        envs[name] = {"xp": xp, "lst": lst, "x": xp.asarray(lst), "m": xp.reshape(xp.asarray(lst), (2, 2))}
    out = {}
    for name, stmt in CASES:
        ours = theirs = float("inf")
        for _ in range(repeat):  # alternate so both see the same machine state
            ours = min(ours, _per_call(stmt, envs["dlarray"], number))
            theirs = min(theirs, _per_call(stmt, envs["numpy"], number))
        out[name] = (ours, theirs)
    return out


def _time_table(number, repeat, processes):
    # Several processes: where the objects and the interpreter's caches land differs from
    # process to process and stays put within one, so one process's minimum can sit a few
    # percent off for one library; the minimum over processes does not.
    print(f"per call, ns (minimum over {processes} processes x {repeat} alternating batches of {number:,} calls)")
    print(f"{'case':16s} {'dlarray':>9s} {'numpy':>9s} {'ratio':>7s}")
    here = os.path.abspath(__file__)
    best = {name: [float("inf"), float("inf")] for name, _ in CASES}
    for _ in range(processes):
        out = subprocess.run([sys.executable, here, "--times", str(number), str(repeat)],
                             check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            name, ours, theirs = line.rsplit(" ", 2)
            best[name][0] = min(best[name][0], float(ours))
            best[name][1] = min(best[name][1], float(theirs))
    for name, _ in CASES:
        ours, theirs = best[name]
        print(f"{name:16s} {ours:9.1f} {theirs:9.1f} {ours / theirs:7.2f}")


def main(argv):
    if argv[:1] == ["--rss"]:
        lib, how, n, count = argv[1], argv[2], int(argv[3]), int(argv[4])
        print(_bytes_per_array(lib, how, n, count))
        return
    if argv[:1] == ["--times"]:
        for name, (ours, theirs) in _times(int(argv[1]), int(argv[2])).items():
            print(name, ours, theirs)
        return
    quick = "--quick" in argv
    _memory_table(N_ARRAYS)
    print()
    # Short batches, many of them: on a shared machine the load changes within seconds, and
    # the minimum of many short alternating batches finds both libraries in the same state.
    if quick:
        _time_table(number=5_000, repeat=11, processes=2)
    else:
        _time_table(number=20_000, repeat=21, processes=5)


if __name__ == "__main__":
    main(sys.argv[1:])
