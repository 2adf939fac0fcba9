"""The oneapi device kind and the SYCL protocols: __sycl_usm_array_interface__ (SUAI v1) and
DLPack kDLOneAPI, checked against dpnp/dpctl on a SYCL device (the OpenCL CPU device of
`pip install dpnp intel-opencl-rt`; conftest points OCL_ICD_FILENAMES at it). Malformed
dictionaries are refused before any SYCL runtime is needed, so those tests run everywhere;
the rest skip cleanly without dpnp or a SYCL device.
"""
import gc
import weakref

import numpy as np
import pytest

import dlarray as dl

NAME = "__sycl_usm_array_interface__"


class Producer:
    """An object offering only a SUAI dictionary (as dpctl.memory objects do)."""

    def __init__(self, interface, keep=None):
        self.__sycl_usm_array_interface__ = interface
        self.keep = keep


def test_cpu_arrays_have_no_suai():
    assert not hasattr(dl.arange(3), NAME)


GOOD = {"version": 1, "shape": (2,), "typestr": "|f8", "data": (4096, False), "strides": None, "offset": 0,
        "syclobj": "opencl:cpu:0"}


@pytest.mark.parametrize("change, error, match", [
    ({"version": None}, ValueError, "lacks the required key 'version'"),
    ({"shape": None}, ValueError, "lacks the required key 'shape'"),
    ({"data": None}, ValueError, "lacks the required key 'data'"),
    ({"syclobj": None}, ValueError, "lacks the required key 'syclobj'"),
    ({"version": 2}, ValueError, "version 2 is not supported"),
    ({"shape": (-1,)}, ValueError, "negative"),
    ({"shape": "2"}, TypeError, "shape must be a tuple"),
    ({"typestr": "<U4"}, BufferError, "has no dlarray dtype"),
    ({"typestr": ">i4"}, BufferError, "big-endian"),
    ({"data": (0, False)}, ValueError, "NULL"),
    ({"data": 4096}, TypeError, r"data must be a \(pointer"),
    ({"strides": (1, 1)}, TypeError, "one integer per dimension"),
    ({"offset": -1}, ValueError, "offset is negative"),
    ({"offset": 1.5}, TypeError, "offset must be an integer"),
    ({"mask": (1,)}, BufferError, "mask"),
])
@pytest.mark.parametrize("entry", ["asarray", "from_dlpack"])
def test_malformed_interfaces_are_refused(entry, change, error, match):
    iface = dict(GOOD)
    for key, value in change.items():
        if value is None:
            del iface[key]
        else:
            iface[key] = value
    with pytest.raises(error, match=match) as info:
        getattr(dl, entry)(Producer(iface))
    assert NAME in str(info.value)


@pytest.mark.skipif(dl.oneapi.device_count() > 0, reason="a SYCL device is available")
def test_without_a_sycl_device_a_well_formed_interface_is_a_buffer_error():
    with pytest.raises(BufferError, match="no SYCL device is available"):
        dl.asarray(Producer(dict(GOOD)))
    with pytest.raises(ValueError, match="oneapi:0"):
        dl.zeros(3, device="oneapi:0")


def test_inspection_lists_exactly_the_sycl_devices_dpctl_sees():
    info = dl.__array_namespace_info__()
    sycl = [d for d in info.devices() if str(d).startswith("oneapi")]
    assert sycl == [dl.Device("oneapi", i) for i in range(dl.oneapi.device_count())]
    for d in sycl:
        assert info.dtypes(device=d)["float32"] == dl.float32
    if not sycl:
        with pytest.raises(ValueError, match="not available"):
            info.dtypes(device="oneapi:0")


def test_device_names():
    assert str(dl.Device("oneapi:1")) == "oneapi:1"
    with pytest.raises(ValueError, match="oneapi"):
        dl.Device("sycl:0")


# ---- on a SYCL device, with dpnp -----------------------------------------------------------------

@pytest.fixture(scope="module")
def dpnp():
    mod = pytest.importorskip("dpnp")
    if dl.oneapi.device_count() == 0:
        pytest.skip("no SYCL device: " + dl.oneapi.why_unavailable())
    return mod


def suai_ptr(x):
    return x.__sycl_usm_array_interface__["data"][0]


def host(x):
    return np.from_dlpack(x.to_device("cpu"))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "int64", "float32", "float64", "complex64",
                                   "complex128"])
def test_device_round_trip(dpnp, dtype):
    a = (np.arange(12) % 3).astype(dtype).reshape(3, 4)
    x = dl.asarray(a, device="oneapi:0")
    assert x.device == dl.Device("oneapi", 0) and x.__dlpack_device__() == (14, 0)
    np.testing.assert_array_equal(host(x), a)
    np.testing.assert_array_equal(host(x.mT), a.T)  # a strided view staged through the host
    y = x.to_device("oneapi:0")
    assert y is x


def test_fill_and_strided_copy_on_the_device(dpnp):
    x = dl.full((3, 4), 2.5, device="oneapi:0")
    np.testing.assert_array_equal(host(x), np.full((3, 4), 2.5))
    y = dl.asarray(x.mT, device="oneapi:0", copy=True)
    assert y._strides == (3, 1)


@pytest.mark.parametrize("usm", ["device", "shared", "host"])
def test_allocation_kinds(dpnp, usm):
    old = dl.oneapi.get_default_usm_type()
    dl.oneapi.set_default_usm_type(usm)
    try:
        x = dl.asarray(np.arange(4.0), device="oneapi:0")
    finally:
        dl.oneapi.set_default_usm_type(old)
    assert dl.oneapi.usm_type(x) == usm
    d = dpnp.from_dlpack(x)
    assert d.usm_type == usm and suai_ptr(d) == x._data_ptr
    with pytest.raises(ValueError, match="usm_type must be"):
        dl.oneapi.set_default_usm_type("pinned")


def test_dpnp_imports_ours_zero_copy(dpnp):
    x = dl.asarray(np.arange(6.0).reshape(2, 3), device="oneapi:0")
    d = dpnp.from_dlpack(x)  # DLPack, device (14, 0)
    assert suai_ptr(d) == x._data_ptr
    d[0, 0] = 42
    assert host(x)[0, 0] == 42
    t = dpnp.tensor.asarray(x, copy=False)  # SUAI
    assert suai_ptr(t) == x._data_ptr and t.shape == (2, 3)
    v = dpnp.tensor.asarray(x.mT, copy=False)  # strides in elements
    np.testing.assert_array_equal(dpnp.asnumpy(v), host(x).T)
    del x
    gc.collect()
    np.testing.assert_array_equal(dpnp.asnumpy(d), [[42, 1, 2], [3, 4, 5]])  # the consumer keeps ours alive


def test_our_suai_export(dpnp):
    x = dl.asarray(np.arange(6, dtype=np.int32).reshape(2, 3), device="oneapi:0")
    s = getattr(x, NAME)
    assert s["version"] == 1 and s["shape"] == (2, 3) and s["typestr"] == "<i4" and s["strides"] is None
    assert s["data"] == (x._data_ptr, False) and s["offset"] == 0
    assert getattr(x.mT, NAME)["strides"] == (1, 3)
    # The queue capsule is one dpctl can adopt.
    import dpctl
    q = dpctl.SyclQueue(s["syclobj"])
    assert q.sycl_device == dpctl.get_devices()[0]


def test_we_import_dpnp_by_dlpack_zero_copy_and_keep_it_alive(dpnp):
    d = dpnp.arange(10, dtype="f4")
    x = dl.from_dlpack(d)
    assert x.device == dl.Device("oneapi", 0) and x._data_ptr == suai_ptr(d)
    d[3] = -1
    assert host(x)[3] == -1
    del d
    gc.collect()
    np.testing.assert_array_equal(host(x)[:4], [0, 1, 2, -1])
    y = dl.from_dlpack(dpnp.arange(3.0), device="cpu")
    assert y.device == dl.Device("cpu") and y.tolist() == [0, 1, 2]


@pytest.mark.parametrize("usm", ["device", "shared", "host"])
def test_suai_import_onto_the_cpu_is_zero_copy(dpnp, usm):
    d = dpnp.arange(8, dtype="i8", usm_type=usm)
    p = Producer(d.__sycl_usm_array_interface__, keep=d)
    x = dl.asarray(p, device="cpu")
    assert x.device == dl.Device("cpu") and x._data_ptr == suai_ptr(d)
    d[1] = 100
    assert x.tolist()[1] == 100
    ref = weakref.ref(p)
    del p, d
    gc.collect()
    assert ref() is not None  # the array holds the producer
    assert x.tolist()[:2] == [0, 100]
    del x
    gc.collect()
    assert ref() is None


def test_asarray_of_dpnp_onto_cpu_reads_in_place(dpnp):
    d = dpnp.arange(5.0)
    x = dl.asarray(d, device="cpu")
    assert x._data_ptr == suai_ptr(d)
    y = dl.asarray(d)  # DLPack: a oneapi array
    assert y.device == dl.Device("oneapi", 0) and y._data_ptr == suai_ptr(d)


def test_suai_import_onto_the_device(dpnp):
    d = dpnp.arange(12, dtype="f8").reshape(3, 4)[1:, ::2]
    s = d.__sycl_usm_array_interface__
    x = dl.from_dlpack(Producer(s, keep=d))  # no __dlpack__: SUAI
    assert x.device == dl.Device("oneapi", 0)
    np.testing.assert_array_equal(host(x), dpnp.asnumpy(d))


@pytest.mark.parametrize("form", ["queue", "capsule", "context_capsule", "filter"])
def test_syclobj_forms(dpnp, form):
    d = dpnp.arange(4.0)
    s = dict(d.__sycl_usm_array_interface__)
    q = d.sycl_queue
    s["syclobj"] = {"queue": q, "capsule": q._get_capsule(), "context_capsule": q.sycl_context._get_capsule(),
                    "filter": q.sycl_device.filter_string}[form]
    x = dl.asarray(Producer(s, keep=d), device="cpu")
    assert x.tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("syclobj, error, match", [
    (5, TypeError, "syclobj must be a filter string"),
    ("level_zero:gpu:7", ValueError, "selects no SYCL device"),
])
def test_bad_syclobj(dpnp, syclobj, error, match):
    d = dpnp.arange(4.0)
    s = dict(d.__sycl_usm_array_interface__, syclobj=syclobj)
    with pytest.raises(error, match=match):
        dl.asarray(Producer(s, keep=d))


def test_a_pointer_that_is_not_usm_is_refused(dpnp):
    h = np.arange(4.0)
    s = dict(GOOD, shape=(4,), data=(h.ctypes.data, False))
    with pytest.raises(BufferError, match="not USM memory"):
        dl.asarray(Producer(s, keep=h))


def test_read_only_flag_and_offset(dpnp):
    d = dpnp.arange(6.0)
    s = dict(d.__sycl_usm_array_interface__, data=(suai_ptr(d), True), offset=2, shape=(2,), strides=(2,))
    x = dl.asarray(Producer(s, keep=d), device="cpu")
    assert x._readonly and x.tolist() == [2, 4]


def test_dlpack_export_to_oneapi_from_cpu(dpnp):
    a = np.arange(3.0)
    x = dl.from_dlpack(a, device="oneapi:0")
    assert x.device == dl.Device("oneapi", 0) and host(x).tolist() == [0, 1, 2]
    d = dpnp.from_dlpack(x)
    assert dpnp.asnumpy(d).tolist() == [0, 1, 2]
    cap = dl.asarray(a).__dlpack__(dl_device=(14, 0), max_version=(1, 3))
    y = dl.from_dlpack(cap)
    assert y.device == dl.Device("oneapi", 0)


@pytest.mark.parametrize("max_version", [(1, 3), None])
def test_our_oneapi_capsules_carry_what_dpnp_needs(dpnp, max_version):
    # dpnp 0.20 segfaults on device-14 capsules with NULL strides (on import) or a NULL deleter
    # (when it frees the array): ours always fill both, even for contiguous arrays.
    import ctypes

    from helpers import dlpack_ctypes as dc

    x = dl.asarray(np.arange(6.0).reshape(2, 3), device="oneapi:0")
    cap = x.__dlpack__(max_version=max_version)
    name = dc.capsule_name(cap)
    cls = dc.DLManagedTensorVersioned if name == "dltensor_versioned" else dc.DLManagedTensor
    mt = cls.from_address(dc.capsule_pointer(cap, name))
    t = mt.dl_tensor
    assert (t.device.device_type, t.device.device_id) == (14, 0)
    assert ctypes.cast(t.strides, ctypes.c_void_p).value and [t.strides[i] for i in range(2)] == [3, 1]
    assert ctypes.cast(mt.deleter, ctypes.c_void_p).value
    d = dpnp.from_dlpack(dl.from_dlpack(cap))  # consumed by us, then handed on: no crash, same memory
    assert suai_ptr(d) == x._data_ptr
