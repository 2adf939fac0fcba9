"""Sphinx configuration for dlarray's documentation site (docs/; built by scripts/build-docs).

The guide is Markdown (myst-parser), written here: README.md is the front page and links into it;
each measured figure lives on one page (performance.md, its history in measurement-history.md).
The API reference is generated at build time from the package itself (api_reference.py): every
public name of the namespace, `linalg` and `fft`, and the Array type, documented from their
docstrings and signatures. The performance page shows the charts of the last recorded benchmark
runs (benchmarks/results/*.svg, next to their JSON); the sentence that dates them takes the date
and machine from that JSON ({{ report_run }} and {{ accuracy_run }}), so charts and sentence
cannot disagree.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import dlarray  # noqa: E402  (the installed package, or python/ on PYTHONPATH)

import api_reference  # noqa: E402

project = "dlarray"
release = dlarray.__version__
version = release
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]  # napoleon: NumPy-style docstrings
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "requirements.txt"]
html_theme = "alabaster"
html_theme_options = {"description": "Array API standard and DLPack exchange, C++ core", "page_width": "1100px"}
html_title = f"dlarray {release}"
myst_heading_anchors = 3
myst_enable_extensions = ["substitution"]


def _recorded_run(name):
    """Which run benchmarks/results/<name> records: date, machine, versions, in words."""
    path = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "results", name)
    with open(path) as f:
        doc = json.load(f)
    m = doc["machine"]
    cpu = m.get("cpu") or m.get("platform") or "an unknown CPU"
    cpu += f" with {m['simd']}" if m.get("simd") else ""
    words = [f"{doc['date']} on {m.get('cpu_count')}-CPU {cpu}", f"NumPy {m['numpy']}"]
    if doc.get("kind") == "report":
        words.insert(1, f"{doc['threads']} threads")
        words.append(f"PyTorch {m['torch']}" if m.get("torch") else "no PyTorch")
        if doc.get("quick"):
            words.append("a `--quick` run, so noisy")
    else:
        words.insert(1, f"{doc['n']:,} inputs per function")
    return ", ".join(words)


myst_substitutions = {"report_run": _recorded_run("report.json"), "accuracy_run": _recorded_run("accuracy.json")}
autodoc_docstring_signature = True

api_reference.write(os.path.join(os.path.dirname(__file__), "api"))
