"""Scenarios that need SciPy's array API mode (SCIPY_ARRAY_API=1, read once when SciPy is first
imported; scikit-learn's array_api_dispatch requires it too).

Setting the variable here would change SciPy for the rest of the suite, so these files are only
collected when the variable is already set: tests/ecosystem/test_array_api_mode.py runs this
folder in a child pytest with it set, and `SCIPY_ARRAY_API=1 pytest tests/ecosystem/array_api_mode`
runs it directly.
"""
import os

collect_ignore_glob = [] if os.environ.get("SCIPY_ARRAY_API") == "1" else ["test_*.py"]
