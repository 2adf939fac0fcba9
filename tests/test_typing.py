"""Typing: the stubs (python/dlarray/_core.pyi, py.typed) let mypy check code using dlarray,
and every public name has a docstring for help()."""
import inspect
import os
import pathlib
import subprocess
import sys

import pytest

import dlarray

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _mypy(path):
    pytest.importorskip("mypy")
    env = dict(os.environ, MYPYPATH=str(ROOT / "python"))
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--follow-imports=silent",
                           "--cache-dir", os.devnull, str(path)], env=env, capture_output=True, text=True,
                          timeout=600)


def test_typed_example_passes_mypy():
    proc = _mypy(ROOT / "tests/typing/example.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_type_error_is_caught_by_mypy():
    proc = _mypy(ROOT / "tests/typing/bad_example.py")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert 'Incompatible types in assignment (expression has type "Array", variable has type "int")' in proc.stdout
    assert '"Array" has no attribute "nope"' in proc.stdout


def test_stubs_and_marker_ship_in_the_package():
    pkg = pathlib.Path(dlarray.__file__).parent
    assert (pkg / "py.typed").exists() and (pkg / "_core.pyi").exists()


def test_stub_declares_every_public_core_function():
    stub = (pathlib.Path(dlarray.__file__).parent / "_core.pyi").read_text()
    core = dlarray._core
    public = [n for n in dir(core) if not n.startswith("_") and callable(getattr(core, n))
              and not isinstance(getattr(core, n), type)]
    missing = [n for n in public if f"def {n}(" not in stub]
    assert not missing, f"regenerate with scripts/gen-stubs.py: {missing}"


@pytest.mark.parametrize("name", sorted(n for n in dir(dlarray) if not n.startswith("_")
                                        and callable(getattr(dlarray, n))
                                        and not isinstance(getattr(dlarray, n), dlarray.DType)))
def test_public_callable_has_docstring(name):
    assert (inspect.getdoc(getattr(dlarray, name)) or "").strip(), f"dlarray.{name} has no docstring"
