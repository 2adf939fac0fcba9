"""repr() and str() lay arrays out exactly as NumPy does (with "Array(" for "array(")."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as npst

import dlarray as dl

CASES = [
    np.array([0.0, 0.25, 0.5]),
    np.arange(2000),
    np.arange(2000.0).reshape(40, 50),
    np.array([1e-5, 1e10, -np.inf, np.nan]),
    np.array([1 + 2j, -3.5 - 0.25j, np.nan + 1j]),
    np.array([True, False]),
    np.array(True),
    np.zeros((0, 3)),
    np.zeros(0, dtype=np.int8),
    np.array([0.1, 0.2], dtype=np.float32),
    np.array(1.0),
    np.array(0.1, dtype=np.float32),
    np.arange(30, dtype=np.int8),
    np.linspace(0, 1, 30),
    np.arange(24).reshape(2, 3, 4),
    np.array([-0.0, 1.5]),
    np.array([1e6, 1.0], dtype=np.float32),
    np.array([2**63], dtype=np.uint64),
    np.arange(3000, dtype=np.float32).reshape(10, 10, 30),
    np.array([0.1, 2e-44], dtype=np.float32),
    np.array(3 + 4j, dtype=np.complex64),
]


@pytest.mark.parametrize("a", CASES, ids=lambda a: f"{a.dtype}{a.shape}")
def test_repr_and_str_match_numpy(a):
    x = dl.asarray(a)
    assert repr(x) == repr(a).replace("array(", "Array(")
    assert str(x) == str(a)


@settings(max_examples=150, deadline=None)
@given(
    npst.arrays(
        st.sampled_from([np.float64, np.float32, np.complex128, np.complex64, np.int16, np.uint64, np.bool_]),
        npst.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=12),
    )
)
def test_random_arrays_print_like_numpy(a):
    x = dl.asarray(a)
    assert repr(x) == repr(a).replace("array(", "Array(")
    assert str(x) == str(a)


def test_large_arrays_are_summarised_by_indexing_only_the_edges():
    x = dl.reshape(dl.arange(10**6, dtype=dl.float64), (1000, 1000))
    text = repr(x)
    assert "..." in text and text.endswith("shape=(1000, 1000))")
    assert text.count("\n") < 20
