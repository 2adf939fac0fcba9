"""The layering rule of docs/architecture.md as CI checks it (.ci/check-layers): the source tree
passes, and the checker does catch an include that looks up and Python below bindings."""
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHECKER = ROOT / ".ci" / "check-layers"

pytestmark = pytest.mark.skipif(not (CHECKER.is_file() and (ROOT / "src").is_dir()),
                                reason="needs the source tree (.ci/check-layers and src/)")


def run(src):
    return subprocess.run([sys.executable, str(CHECKER), str(src)], capture_output=True, text=True)


def test_the_source_tree_looks_only_down():
    out = run(ROOT / "src")
    assert out.returncode == 0, out.stdout
    assert out.stdout.strip().endswith("0 include(s) against the layers")


def test_the_checker_catches_includes_that_look_up(tmp_path):
    (tmp_path / "core").mkdir()
    (tmp_path / "dlpack").mkdir()
    (tmp_path / "backends").mkdir()
    (tmp_path / "core" / "up.cpp").write_text('#include "core/array.h"\n#include "backends/cpu/x.h"\n')
    (tmp_path / "dlpack" / "py.cpp").write_text('#include <pybind11/pybind11.h>\n#include "dlpack/dlpack.h"\n')
    (tmp_path / "backends" / "ok.cpp").write_text('#include "core/array.h"\n#include "dlpack/dlpack.h"\n')
    out = run(tmp_path)
    assert out.returncode == 1
    lines = out.stdout.splitlines()
    assert lines[:2] == ["core/up.cpp:2: core includes backends/cpu/x.h (backends is a higher layer)",
                         "dlpack/py.cpp:1: dlpack includes pybind11/pybind11.h (Python belongs in bindings/)"]
    assert lines[-1] == "check-layers: 2 include(s) against the layers"
