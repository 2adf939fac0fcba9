"""array-api-compat recognises dlarray as an array API namespace that needs no wrapping."""
import numpy as np
import pytest

import dlarray

compat = pytest.importorskip("array_api_compat")


def test_array_namespace_is_dlarray_itself():
    x = dlarray.asarray([1.0, 2.0])
    assert compat.array_namespace(x) is dlarray
    assert compat.array_namespace(x, dlarray.asarray([1])) is dlarray
    assert compat.array_namespace(x, None, 3.0) is dlarray  # Python scalars and None are ignored


def test_mixing_with_numpy_is_refused():
    with pytest.raises(TypeError, match="Multiple namespaces"):
        compat.array_namespace(dlarray.asarray([1.0]), np.asarray([1.0]))


def test_predicates_and_helpers():
    x = dlarray.asarray(np.arange(6.0).reshape(2, 3))
    assert compat.is_array_api_obj(x)
    assert not compat.is_numpy_array(x)
    assert compat.device(x) == x.device
    assert compat.size(x) == 6
    assert compat.is_writeable_array(x)
    assert compat.is_lazy_array(x) is False
    y = compat.to_device(x, "cpu")
    np.testing.assert_array_equal(np.asarray(y), np.asarray(x))


def test_array_api_strict_flag_and_version():
    x = dlarray.asarray([1.0])
    assert compat.array_namespace(x, api_version="2024.12") is dlarray
