"""Shared pytest setup: GPU tests are skipped unless a CUDA or ROCm device is visible."""
import pytest

import dlarray


def _gpu_visible():
    return any(str(d) != "cpu" for d in dlarray._core._visible_devices())


def pytest_collection_modifyitems(config, items):
    if _gpu_visible():
        return
    skip = pytest.mark.skip(reason="no CUDA or ROCm device visible")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
