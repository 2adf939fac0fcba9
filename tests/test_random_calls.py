"""Bad input never crashes and never raises an exception the standard does not name: thousands of
random calls (tests/helpers/random_calls.py) in a child process, on the CPU and over the fake GPU backend.
The seeds are fixed, so a failure reproduces with the command the assertion prints."""
import os
import subprocess
import sys

import pytest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "helpers", "random_calls.py")


def child_env():
    """This environment, importing this very dlarray (a stale install elsewhere must not answer)."""
    import dlarray
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(dlarray.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in [env.get("PYTHONPATH")] if p])
    if "asan" in env.get("LD_PRELOAD", ""):
        # Under AddressSanitizer the child cannot limit its address space (helpers/random_calls.py); the
        # sanitizer's allocator refuses what the limit would have (MemoryError, not 16 GiB filled).
        env["ASAN_OPTIONS"] = ":".join(o for o in [env.get("ASAN_OPTIONS"), "allocator_may_return_null=1",
                                                   "max_allocation_size_mb=3072"] if o)
    return env


# The fake GPU's calls cost more (every launch runs on the host under the fake's lock): fewer.
@pytest.mark.parametrize("seed, device, calls", [(1, None, 20000), (2, None, 20000), (3, "rocm:0", 10000)])
def test_random_calls_raise_only_what_the_standard_names(seed, device, calls, tmp_path):
    if device:
        pytest.importorskip("dlarray._fake_gpu", exc_type=ModuleNotFoundError)
    log = tmp_path / "calls.log"
    argv = [sys.executable, SCRIPT, str(seed), str(calls), str(log)] + ([device] if device else [])
    out = subprocess.run(argv, env=child_env(), capture_output=True, text=True, timeout=600)
    last = log.read_text().splitlines()[-1:] if log.exists() else []
    rerun = " ".join(argv[1:4] + ["calls.log"] + argv[5:])
    assert out.returncode == 0, f"crashed (rc {out.returncode}) at {last}; rerun: python {rerun}\n{out.stderr[-3000:]}"
    assert out.stdout.strip().endswith(f"done {calls} calls, 0 bad"), f"rerun: python {rerun}\n{out.stdout[-5000:]}"
