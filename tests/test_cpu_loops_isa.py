"""The elementwise and cast loops compiled for AVX2 give the same bytes as the baseline (SSE2) ones.

The CPU kernel table is built twice on x86-64 (elementwise_loops.h) and the AVX2 copy is picked
at run time; a result must never depend on the CPU it ran on. Every op of the table runs here on
awkward values (NaN, infinities, signed zeros, extremes, ties) in every real dtype it takes, in a
child process per table (DLARRAY_CPU_LOOPS=baseline selects the baseline one, =avx2 what a CPU
without AVX-512 runs), contiguous and strided, and so do astype between every pair of real dtypes
and the reductions; the digests of the results must agree.
"""
import hashlib
import os
import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"),
                                reason="the AVX2 copy of the loops exists on x86-64 only")

CHILD = r'''
import hashlib, math, sys
import numpy as np
import dlarray as dl
rng = np.random.default_rng(7)
REAL = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]
KIND = {"bool": "boolean", "float32": "real floating", "float64": "real floating"}
def kind(dt):
    return KIND.get(dt, "unsigned integer" if dt.startswith("uint") else "signed integer")
def values(dt, n):
    if dt == "bool":
        return rng.random(n) < 0.5
    if dt.startswith(("int", "uint")):
        info = np.iinfo(dt)
        special = np.array([info.min, info.max, 0, 1, -1 if info.min < 0 else 2, info.min + 1, info.max - 1, 7], dtype=object)
        v = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        v[:len(special)] = special.astype(dt)
        return v
    f = np.finfo(dt)
    special = [np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, f.max, -f.max, f.tiny, f.smallest_subnormal,
               1e-30, -1.0, 1.0, 3.0, np.pi, 1e30]
    v = (rng.standard_normal(n) * 10.0 ** rng.integers(-5, 6, n)).astype(dt)
    v[:len(special)] = np.array(special, dtype=dt)
    return v
digest = hashlib.sha256()
n = 203  # odd: vector bodies and scalar tails both run
for op in dl._core._elementwise_ops():
    fn = getattr(dl, op["name"], None)
    if fn is None:
        continue
    for dt in REAL:
        if kind(dt) not in op["kinds"]:
            continue
        args = [values(dt, n) for _ in range(op["arity"])]
        if op["sig"] == "where":
            args[0] = rng.random(n) < 0.5
        for step in (1, 3):
            xs = [dl.asarray(a[::step]) if step == 1 else dl.asarray(a)[::step] for a in args]
            try:
                r = fn(*xs)
            except Exception as e:
                digest.update(f"{op['name']} {dt} {type(e).__name__}".encode())
                continue
            digest.update(f"{op['name']} {dt} {step}".encode())
            digest.update(np.asarray(r).tobytes())
            if op["arity"] == 2:  # a Python scalar on the right: the stride-0 loops
                try:
                    r = fn(xs[0], 3 if dt != "bool" else True)
                    digest.update(np.asarray(r).tobytes())
                except Exception as e:
                    digest.update(type(e).__name__.encode())
for src in REAL:  # the cast rows (cast_kernels.h), also compiled for AVX2
    a = values(src, n)
    for dst in REAL:
        for step in (1, 3):
            x = dl.asarray(a) if step == 1 else dl.asarray(a)[::step]
            digest.update(f"astype {src} {dst} {step}".encode())
            digest.update(np.asarray(dl.astype(x, dst)).tobytes())
for dt in REAL[1:]:  # reductions: vector bodies per level (integer sums and max/min, float sums)
    for n_red in (31, 64, 257, 4100):
        a = values(dt, n_red)
        for step in (1, 3):
            x = dl.asarray(a) if step == 1 else dl.asarray(a)[::step]
            for name in ("sum", "min", "max"):
                if name == "sum" and dt.startswith("float"):
                    x = dl.where(dl.isfinite(x), x, dl.zeros_like(x))  # sums of finite values only
                digest.update(f"{name} {dt} {n_red} {step}".encode())
                digest.update(np.asarray(getattr(dl, name)(x)).tobytes())
print(digest.hexdigest())
'''


def child_env(extra_env):
    """This environment without the loop settings, plus extra_env, importing this very dlarray."""
    import dlarray
    env = {k: v for k, v in os.environ.items() if k not in ("DLARRAY_CPU_LOOPS", "DLARRAY_VECTOR_MATH")}
    root = os.path.dirname(os.path.dirname(os.path.abspath(dlarray.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in [env.get("PYTHONPATH")] if p])
    env.update(extra_env)
    return env


def run_child(extra_env):
    env = child_env(extra_env)
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_avx2_and_baseline_loops_give_identical_bytes():
    baseline = run_child({"DLARRAY_CPU_LOOPS": "baseline", "DLARRAY_NUM_THREADS": "1"})
    default = run_child({"DLARRAY_NUM_THREADS": "1"})
    assert len(baseline) == 64
    assert default == baseline


def test_the_code_of_an_avx2_only_cpu_gives_the_same_bytes():
    # DLARRAY_CPU_LOOPS=avx2 turns AVX-512 off (cpu_features.h): the AVX2 loops without the
    # AVX-512 comparison and cast rows, the AVX2 reductions. With scalar libm for the
    # transcendental functions (whose policy differs by ISA on purpose), the baseline loops,
    # an AVX2-only CPU and this CPU's default must give the same bytes.
    one = {"DLARRAY_NUM_THREADS": "1", "DLARRAY_VECTOR_MATH": "0"}
    baseline = run_child(dict(one, DLARRAY_CPU_LOOPS="baseline"))
    avx2 = run_child(dict(one, DLARRAY_CPU_LOOPS="avx2"))
    default = run_child(one)
    assert len(baseline) == 64
    assert avx2 == baseline and default == baseline


def test_complex_product_rows_match_the_operator_bit_for_bit():
    # Contiguous complex multiply/square take vector rows (AVX2) that redo NaN-NaN products with
    # std::complex's operator; strided operands take the functor loop. Both must give the same
    # bytes, special values (the C99 recovery of infinities) and in-place updates included.
    import numpy as np

    import dlarray as dl

    v = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -2.5, 1e308, 5e-324, 1e-300])
    grid = (v[:, None] + 1j * v[None, :]).ravel()
    for dtype in (np.complex64, np.complex128):
        with np.errstate(all="ignore"):
            z = np.tile(grid.astype(dtype), 7)
        w = np.roll(z, 13)
        x, y = dl.asarray(z), dl.asarray(w)
        strided = lambda a: dl.asarray(a[::-1])[::-1]  # noqa: E731  (a reversed view: the functor loop)
        part = np.float32 if dtype == np.complex64 else np.float64
        same = lambda a, b: np.array_equal(np.asarray(a).view(part), np.asarray(b).view(part), equal_nan=True)  # noqa: E731
        assert same(x * y, strided(z) * strided(w))
        assert same(x * (2 - 3j), strided(z) * (2 - 3j))
        assert same(dl.square(x), dl.square(strided(z)))
        inplace = dl.asarray(z.copy())
        inplace *= y
        assert same(inplace, x * y)


def test_the_code_of_an_avx2_only_cpu_passes_the_kernel_tests():
    # The tests of the vector kernels (transcendental accuracy under the AVX2 policy, reductions,
    # sorting and searching) rerun with AVX-512 turned off, in a child pytest: CI's machine has
    # AVX-512, and these paths would otherwise run only on users' AVX2 CPUs.
    here = os.path.dirname(os.path.abspath(__file__))
    files = [os.path.join(here, f) for f in ("test_transcendental_accuracy.py", "test_reduce_kernels.py",
                                             "test_sorting.py", "test_searching.py")]
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files],
                         env=child_env({"DLARRAY_CPU_LOOPS": "avx2"}), capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert " passed" in out.stdout.splitlines()[-1]
