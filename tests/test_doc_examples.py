"""The Python examples of README.md and docs/*.md run as printed: each ```python block that imports
what it uses (a whole example, not a fragment continuing the prose) runs in a fresh interpreter.
A block that needs a GPU (it names cuda:0 without asking dl.cuda.device_count() first) is marked
gpu and runs where one is visible."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

import dlarray

ROOT = pathlib.Path(__file__).resolve().parent.parent
FILES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def examples():
    out = []
    for path in FILES:
        blocks = re.findall(r"^```python\n(.*?)^```", path.read_text(encoding="utf-8"), re.S | re.M)
        for k, code in enumerate(blocks):
            if not re.search(r"^(import|from) ", code, re.M):
                continue  # a fragment of the surrounding prose
            needs_gpu = '"cuda:0"' in code and "device_count() > 0" not in code
            marks = [pytest.mark.gpu] if needs_gpu else []
            out.append(pytest.param(code, id=f"{path.relative_to(ROOT)}:{k}", marks=marks))
    return out


@pytest.mark.parametrize("code", examples())
def test_example_runs(code, tmp_path):
    env = dict(os.environ)
    package_root = str(pathlib.Path(dlarray.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([package_root] + [p for p in [env.get("PYTHONPATH")] if p])
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]


def test_the_examples_are_found():
    ids = [p.id for p in examples()]
    assert "README.md:0" in ids and any(i.startswith("docs/ecosystem.md") for i in ids)
    assert len(ids) >= 7
