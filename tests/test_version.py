"""One version: dlarray.__version__, the installed package metadata and the changelog agree."""
import importlib.metadata
import pathlib
import re

import pytest

import dlarray

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_version_is_pep440_and_from_the_version_module():
    from dlarray import _version

    assert dlarray.__version__ == _version.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.dev\d+)?", dlarray.__version__)


def test_installed_metadata_matches_when_installed():
    imported = pathlib.Path(dlarray.__file__).resolve()
    if imported.is_relative_to(ROOT / "python"):
        pytest.skip("dlarray is imported from the source tree; its metadata may belong to another install")
    try:
        dist = importlib.metadata.distribution("dlarray")
    except importlib.metadata.PackageNotFoundError:
        dist = None
    if dist is None or not any(pathlib.Path(dist.locate_file(f)).resolve() == imported for f in dist.files or ()):
        # A copy of the package (scripts/sanitize imports one from a temporary directory).
        pytest.skip(f"dlarray is imported from {imported.parent}, which no installed distribution owns")
    assert dist.version == dlarray.__version__


def test_changelog_has_an_entry_for_this_version():
    changelog = ROOT / "CHANGELOG.md"
    if not changelog.exists():
        pytest.skip("not a source checkout")
    base = re.match(r"\d+\.\d+\.\d+", dlarray.__version__).group(0)
    assert re.search(rf"^## {re.escape(base)}\b", changelog.read_text(), re.M)
