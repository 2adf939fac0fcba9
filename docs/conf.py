"""Sphinx configuration for dlarray's documentation site (docs/; built by scripts/build-docs).

The user guide is Markdown (myst-parser); the figures "as measured" are included from README.md
between marker comments, so each number lives in one place. The API reference is generated at
build time from the package itself (api_reference.py): every public name of the namespace,
`linalg` and `fft`, and the Array type, documented from their docstrings and signatures.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import dlarray  # noqa: E402  (the installed package, or python/ on PYTHONPATH)

import api_reference  # noqa: E402

project = "dlarray"
release = dlarray.__version__
version = release
extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "requirements.txt"]
html_theme = "alabaster"
html_theme_options = {"description": "Array API standard and DLPack exchange, C++ core", "page_width": "1100px"}
html_title = f"dlarray {release}"
myst_heading_anchors = 3
# README sections are included into pages whose own first heading is level 1.
suppress_warnings = ["myst.header"]
autodoc_docstring_signature = True

api_reference.write(os.path.join(os.path.dirname(__file__), "api"))
