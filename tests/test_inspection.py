"""__array_namespace_info__(): capabilities, devices and dtypes."""
import pytest

import dlarray as dl
from helpers.oracle import DTYPE_NAMES


def test_capabilities():
    caps = dl.__array_namespace_info__().capabilities()
    assert caps == {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}


def test_devices_and_default_device():
    info = dl.__array_namespace_info__()
    devices = info.devices()
    assert isinstance(devices, tuple)
    assert info.default_device() in devices
    for d in devices:
        assert dl.zeros(1, device=d).device == d


def test_default_dtypes():
    info = dl.__array_namespace_info__()
    expected = {"real floating": dl.float64, "complex floating": dl.complex128, "integral": dl.int64,
                "indexing": dl.int64}
    assert info.default_dtypes() == expected
    for d in info.devices():
        assert info.default_dtypes(device=d) == expected
    with pytest.raises(ValueError):
        info.default_dtypes(device="cuda:99")


@pytest.mark.parametrize(
    "kind, names",
    [
        (None, DTYPE_NAMES),
        ("bool", ["bool"]),
        ("signed integer", ["int8", "int16", "int32", "int64"]),
        ("unsigned integer", ["uint8", "uint16", "uint32", "uint64"]),
        ("integral", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]),
        ("real floating", ["float32", "float64"]),
        ("complex floating", ["complex64", "complex128"]),
        ("numeric", DTYPE_NAMES[1:]),
        (("bool", "complex floating"), ["bool", "complex64", "complex128"]),
    ],
)
def test_dtypes_by_kind(kind, names):
    out = dl.__array_namespace_info__().dtypes(kind=kind)
    assert sorted(out) == sorted(names)
    assert all(out[n] == getattr(dl, n) for n in names)


def test_dtypes_rejects_unknown_kinds():
    with pytest.raises(ValueError):
        dl.__array_namespace_info__().dtypes(kind="float")
