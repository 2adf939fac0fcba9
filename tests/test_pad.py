"""dlarray.pad (dlarray/_pad.py) against numpy.pad: every mode, the forms of pad_width and
constant_values, pads wider than their axis, dtypes, empty and 0-d arrays, errors, and the fake
GPU device."""
import numpy as np
import pytest

import dlarray as dl
from helpers.gpu_util import host

MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]


def check(a, pad_width, mode="constant", device="cpu", **kwargs):
    got = dl.pad(dl.asarray(a, device=device), pad_width, mode, **kwargs)
    want = np.pad(a, pad_width, mode, **kwargs)
    assert str(got.device) == device
    got = host(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape,pad_width", [
    ((5,), 2), ((5,), (1, 3)), ((5,), ((0, 4),)), ((5,), [[3]]), ((3, 4), 1), ((3, 4), (2, 1)),
    ((3, 4), ((1, 2), (3, 0))), ((3, 4), ((1,), (2,))), ((3, 4), ((2, 3),)), ((2, 3, 4), 1),
    ((2, 3, 4), ((0, 0), (1, 2), (2, 1))), ((3, 4), 0), ((3, 4), ((0, 0), (0, 0))),
])
def test_modes_and_pad_width_forms(mode, shape, pad_width):
    a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) ** 1.5
    check(a, pad_width, mode)


@pytest.mark.parametrize("mode", ["reflect", "symmetric", "wrap", "edge"])
@pytest.mark.parametrize("n", [1, 2, 3, 5])
@pytest.mark.parametrize("widths", [(7, 0), (0, 9), (11, 13), (4, 4)])
def test_pads_wider_than_the_axis(mode, n, widths):
    a = np.arange(1, n + 1, dtype=np.int64) * 10
    check(a, widths, mode)
    check(np.stack([a, -a, 2 * a]), ((5, 6), widths), mode)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int64, np.float32,
                                   np.complex128])
@pytest.mark.parametrize("mode", MODES)
def test_dtypes(dtype, mode):
    a = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    check(a, ((1, 2), (2, 1)), mode)


@pytest.mark.parametrize("constant_values", [
    7, 2.5, (1, 2), ((1, 2),), ((1, 2), (3, 4)), ((5,), (6,)), [[-1, -2], [-3, -4]], -0.0,
])
def test_constant_values_forms(constant_values):
    a = np.arange(12.0).reshape(3, 4)
    check(a, ((2, 1), (1, 3)), "constant", constant_values=constant_values)


def test_constant_values_cast_into_the_dtype():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    check(a, 1, "constant", constant_values=2.7)
    check(a, 1, "constant", constant_values=((-1.9, 3), (4, 5)))
    check(np.array([True, False]), 1, "constant", constant_values=1)


def test_constant_nan_and_inf():
    a = np.arange(4.0)
    check(a, (1, 2), "constant", constant_values=(np.nan, np.inf))


def test_views_and_non_contiguous_input():
    base = np.arange(60.0).reshape(6, 10)
    for mode in MODES:
        got = dl.pad(dl.asarray(base)[::2, 1::3], ((1, 2), (3, 1)), mode)
        np.testing.assert_array_equal(host(got), np.pad(base[::2, 1::3], ((1, 2), (3, 1)), mode))
        got = dl.pad(dl.asarray(base).T, 2, mode)
        np.testing.assert_array_equal(host(got), np.pad(base.T, 2, mode))


def test_empty_arrays():
    check(np.zeros((0, 3)), 2, "constant")
    check(np.zeros((0, 3)), ((0, 0), (1, 2)), "edge")
    check(np.zeros((0,)), 0, "wrap")
    for mode in ["edge", "reflect", "symmetric", "wrap"]:
        with pytest.raises(ValueError, match="empty axis 0"):
            dl.pad(dl.asarray(np.zeros((0, 3))), 1, mode)
        with pytest.raises(ValueError):
            np.pad(np.zeros((0, 3)), 1, mode)


def test_zero_dimensional():
    for mode in MODES:
        check(np.array(3.5), 2, mode)


def test_the_result_is_a_new_array():
    x = dl.asarray(np.arange(4.0))
    out = dl.pad(x, 0)
    out[0] = 10.0
    assert float(x[0]) == 0.0


def test_errors():
    x = dl.asarray(np.arange(6.0).reshape(2, 3))
    with pytest.raises(ValueError, match="mode 'mean' is not supported"):
        dl.pad(x, 1, "mean")
    with pytest.raises(ValueError, match="not supported"):
        dl.pad(x, 1, "empty")
    with pytest.raises(ValueError, match="negative"):
        dl.pad(x, -1)
    with pytest.raises(ValueError, match="negative"):
        dl.pad(x, ((1, 2), (0, -1)))
    with pytest.raises(TypeError, match="integral"):
        dl.pad(x, 1.5)
    with pytest.raises(TypeError, match="integral"):
        dl.pad(x, "1")
    with pytest.raises(ValueError, match="broadcast"):
        dl.pad(x, ((1, 2), (3, 4), (5, 6)))
    with pytest.raises(ValueError, match="broadcast"):
        dl.pad(x, (1, 2, 3))
    with pytest.raises(ValueError, match="rectangular"):
        dl.pad(x, ((1, 2), (3,)))
    with pytest.raises(ValueError, match="constant_values"):
        dl.pad(x, 1, "edge", constant_values=3)
    with pytest.raises(TypeError, match="constant_values"):
        dl.pad(x, 1, constant_values="a")
    with pytest.raises(TypeError, match="dlarray.Array"):
        dl.pad(np.ones(3), 1)
    for bad in [((1, 2), (3, 4), (5, 6)), (1, 2, 3)]:
        with pytest.raises(ValueError):
            np.pad(np.ones((2, 3)), bad)


def test_pad_width_given_as_arrays():
    a = np.arange(6.0).reshape(2, 3)
    check(a, np.array([[1, 0], [2, 1]]), "reflect")
    got = dl.pad(dl.asarray(a), dl.asarray([[1, 0], [2, 1]]), "wrap")
    np.testing.assert_array_equal(host(got), np.pad(a, [[1, 0], [2, 1]], "wrap"))


# ---- on the fake GPU device ---------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_on_the_fake_gpu(fake, mode):
    a = np.arange(20.0).reshape(4, 5) - 7
    check(a, ((2, 1), (0, 3)), mode, device="rocm:0")
    check(a, ((6, 9), (11, 0)), mode, device="rocm:0")
    if mode == "constant":
        check(a, 1, mode, device="rocm:0", constant_values=((1, 2), (3, 4)))
