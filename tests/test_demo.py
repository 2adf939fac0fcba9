"""The README's first command ends with `python -m dlarray`: the demo must run and show real exchange."""
import os
import subprocess
import sys

import dlarray


def test_demo_runs_and_shows_zero_copy_exchange_with_numpy():
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-m", "dlarray"], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert f"dlarray {dlarray.__version__}" in text
    assert "sum(x * x, axis=1) = [5.0, 50.0]" in text
    assert "NumPy doubled x in place: x = [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]" in text
    assert "after NumPy wrote -1): [-1.0," in text
