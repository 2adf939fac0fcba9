"""Sphinx configuration for dlarray's documentation site (docs/; built by scripts/build-docs).

The guide is Markdown (myst-parser), written here: README.md is the front page and links into it;
each measured figure lives on one page (performance.md, its history in measurement-history.md).
The API reference is generated at build time from the package itself (api_reference.py): every
public name of the namespace, `linalg` and `fft`, and the Array type, documented from their
docstrings and signatures.
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
autodoc_docstring_signature = True

api_reference.write(os.path.join(os.path.dirname(__file__), "api"))
