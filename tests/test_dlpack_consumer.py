"""dlarray.from_dlpack against exact C-level inputs from hand-made producers.

Each producer here is built with ctypes (tests/helpers/dlpack_ctypes.py): the managed tensor's
fields are set one by one, the capsule is made with PyCapsule_New, and the deleter counts
its calls, so every rule a consumer must follow is checked on the exact bytes that break
it: old producers' NULL strides, byte offsets, NULL data and shapes, negative and zero
strides, foreign major versions, unknown type codes, consumed capsules, and deleters called
exactly once on every path.
"""
import numpy as np
import pytest

import dlarray as dl
from helpers import dlpack_ctypes as H


@pytest.fixture
def log():
    return H.DeleterLog()


def producer_of(log, legacy=False, **kw):
    """A producer whose every __dlpack__ call returns a fresh capsule for the same tensor spec."""
    return H.Producer(lambda: H.capsule_of(H.make_tensor(log, legacy=legacy, **kw)))


def as_numpy(a):
    return np.from_dlpack(a)


# ---- well-formed inputs -----------------------------------------------------------------

@pytest.mark.parametrize("legacy", [False, True])
def test_import_is_zero_copy_and_deleter_runs_once_when_array_dies(log, legacy):
    b = np.arange(6.0).reshape(2, 3)
    a = dl.from_dlpack(producer_of(log, legacy=legacy, backing=b, shape=b.shape))
    assert a.shape == (2, 3) and a.dtype == dl.float64
    assert a._data_ptr == b.ctypes.data
    assert a.tolist() == b.tolist()
    b[0, 0] = 42.0  # a write through the producer's memory is visible: same bytes
    assert a.tolist()[0][0] == 42.0
    assert log.calls == 0
    view = a.T  # views keep the import alive
    del a
    assert log.calls == 0
    del view
    assert log.calls == 1 and log.alive == 0


def test_consumer_asks_for_versioned_capsule_with_its_own_version(log):
    p = producer_of(log, backing=np.zeros(2), shape=(2,))
    dl.from_dlpack(p)
    assert p.calls == [dict(stream=None, max_version=(1, 3), dl_device=None, copy=None)]
    assert log.calls == 1


def test_newer_minor_version_is_accepted(log):
    b = np.arange(3.0)
    a = dl.from_dlpack(producer_of(log, backing=b, shape=(3,), version=(1, 99)))
    assert a.tolist() == [0.0, 1.0, 2.0]


def test_null_strides_mean_compact_row_major(log):
    # Producers older than DLPack 1.2 may send NULL strides for compact data (pitfall 8).
    b = np.arange(24.0).reshape(2, 3, 4)
    a = dl.from_dlpack(producer_of(log, backing=b, shape=b.shape, strides=None))
    assert a._strides == (12, 4, 1)
    assert a.tolist() == b.tolist()


def test_null_strides_whose_byte_strides_overflow_are_refused_and_released_once(log):
    # An empty tensor's compact strides still have to fit in bytes (checked_size.h): the
    # strides dlarray derives for NULL strides are checked like a producer's own.
    with pytest.raises(BufferError, match="address more than"):
        dl.from_dlpack(producer_of(log, data=None, shape=(0, 2**62, 2**62), strides=None, code=2, bits=32))
    assert log.calls == 1 and log.alive == 0


@pytest.mark.parametrize("strides", ["given", None])
def test_rank_beyond_the_inline_dims_is_imported(log, strides):
    # Ranks above Dims' inline capacity (6) allocate their shape and strides.
    b = np.arange(2.0 * 3 ** 7).reshape((2,) + (3,) * 7)
    spec = dict(backing=b, shape=b.shape)
    if strides is None:
        spec["strides"] = None
    a = dl.from_dlpack(producer_of(log, **spec))
    assert a.shape == b.shape and a._strides == tuple(s // 8 for s in b.strides)
    assert a._data_ptr == b.ctypes.data and np.array_equal(as_numpy(a), b)
    del a
    assert log.calls == 1 and log.alive == 0


def test_nonzero_byte_offset_is_applied(log):
    # Pitfall 9: the first element is at data + byte_offset.
    b = np.arange(10, dtype=np.int32)
    a = dl.from_dlpack(producer_of(log, backing=b, data=b.ctypes.data, shape=(4,), byte_offset=3 * 4, code=0, bits=32))
    assert a.tolist() == [3, 4, 5, 6]
    assert a._data_ptr == b.ctypes.data + 12
    assert as_numpy(a).tolist() == [3, 4, 5, 6]  # re-exported with the offset folded in


def test_unaligned_data_pointer_is_accepted(log):
    # Pitfall 12: nothing may rely on 256-byte (or even natural) alignment of `data`.
    raw = np.arange(40, dtype=np.uint8)
    a = dl.from_dlpack(producer_of(log, backing=raw, data=raw.ctypes.data + 3, shape=(5,), code=1, bits=8))
    assert a._data_ptr % 2 == 1 and a.tolist() == [3, 4, 5, 6, 7]
    doubles = np.zeros(5)
    doubles[:] = [1.5, 2.5, 3.5, 4.5, 5.5]
    buf = np.zeros(48, dtype=np.uint8)
    buf[4:44] = doubles.view(np.uint8)
    a = dl.from_dlpack(producer_of(log, backing=buf, data=buf.ctypes.data + 4, shape=(5,), code=2, bits=64))
    assert a._data_ptr % 8 == 4
    assert a.tolist() == [1.5, 2.5, 3.5, 4.5, 5.5]


def test_negative_strides(log):
    # Pitfall 10: data points at element 0, which is the last one in memory.
    b = np.arange(5.0)[::-1]
    a = dl.from_dlpack(producer_of(log, backing=b, shape=(5,)))
    assert a._strides == (-1,)
    assert a.tolist() == [4.0, 3.0, 2.0, 1.0, 0.0]
    assert as_numpy(a).tolist() == [4.0, 3.0, 2.0, 1.0, 0.0]


def test_zero_strides(log):
    b = np.arange(3.0)
    a = dl.from_dlpack(producer_of(log, backing=b, shape=(2, 3), strides=(0, 1)))
    assert a._strides == (0, 1)
    assert a.tolist() == [[0.0, 1.0, 2.0]] * 2


def test_zero_size_tensor_with_null_data(log):
    # Pitfall 11: no elements, no memory.
    a = dl.from_dlpack(producer_of(log, data=None, shape=(0, 4)))
    assert a.shape == (0, 4) and a.size == 0
    assert as_numpy(a).shape == (0, 4)
    del a
    assert log.calls == 1


def test_zero_dimensional_tensor_with_null_shape_and_strides(log):
    b = np.array(7.5)
    a = dl.from_dlpack(producer_of(log, backing=b, shape=None, strides=None, ndim=0))
    assert a.shape == () and a.tolist() == 7.5


def test_read_only_flag_gives_read_only_array_that_re_exports_read_only(log):
    b = np.arange(4.0)
    a = dl.from_dlpack(producer_of(log, backing=b, shape=(4,), flags=H.READ_ONLY))
    assert a._readonly
    out = as_numpy(a)
    assert not out.flags.writeable
    assert out.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_is_copied_flag_is_trusted_for_copy_true(log):
    # The producer copied (IS_COPIED): dlarray must not copy a second time.
    b = np.arange(3.0)
    p = producer_of(log, backing=b, shape=(3,), flags=H.IS_COPIED)
    a = dl.from_dlpack(p, copy=True)
    assert p.calls[0]["copy"] is True
    assert a._data_ptr == b.ctypes.data


def test_copy_false_and_device_cpu_are_passed_on(log):
    b = np.arange(3.0)
    p = producer_of(log, backing=b, shape=(3,))
    a = dl.from_dlpack(p, device="cpu", copy=False)
    assert p.calls[0]["copy"] is False and p.calls[0]["dl_device"] == (1, 0)
    assert a._data_ptr == b.ctypes.data


def test_bare_capsule_is_accepted(log):
    b = np.arange(3.0)
    a = dl.from_dlpack(H.capsule_of(H.make_tensor(log, backing=b, shape=(3,))))
    assert a.tolist() == [0.0, 1.0, 2.0]
    del a
    assert log.calls == 1


@pytest.mark.parametrize(
    "code, bits, lanes, name",
    [(4, 16, 1, "bfloat16"), (2, 16, 1, "float16"), (6, 8, 1, "bool"), (7, 8, 1, "float8_e3m4"),
     (8, 8, 1, "float8_e4m3"), (9, 8, 1, "float8_e4m3b11fnuz"), (10, 8, 1, "float8_e4m3fn"),
     (11, 8, 1, "float8_e4m3fnuz"), (12, 8, 1, "float8_e5m2"), (13, 8, 1, "float8_e5m2fnuz"),
     (14, 8, 1, "float8_e8m0fnu"), (15, 6, 1, "float6_e2m3fn"), (16, 6, 1, "float6_e3m2fn"),
     (17, 4, 1, "float4_e2m1fn")],
)
def test_every_dlpack_type_code_is_kept(log, code, bits, lanes, name):
    # Pitfall 14: bool, bfloat16, fp8, fp6 and fp4 are neither refused nor relabelled.
    b = np.zeros(16, dtype=np.uint8)
    a = dl.from_dlpack(producer_of(log, backing=b, shape=(8,), strides=(1,), code=code, bits=bits, lanes=lanes))
    assert a.dtype == getattr(dl, name)
    assert a.dtype.dlpack == (code, bits, lanes)
    mt = H.DLManagedTensorVersioned.from_address(
        H.capsule_pointer(cap := a.__dlpack__(max_version=(1, 1)), "dltensor_versioned"))
    assert (mt.dl_tensor.dtype.code, mt.dl_tensor.dtype.bits, mt.dl_tensor.dtype.lanes) == (code, bits, lanes)
    del cap


def test_vector_lanes_such_as_torch_fp4x2_are_kept(log):
    # PyTorch sends float4_e2m1fn_x2 as code 17, bits 4, lanes 2: one byte per element.
    b = np.zeros(4, dtype=np.uint8)
    a = dl.from_dlpack(producer_of(log, backing=b, shape=(4,), code=17, bits=4, lanes=2))
    assert a.dtype.dlpack == (17, 4, 2) and a.nbytes == 4


# ---- malformed or undescribable inputs: BufferError, deleter exactly once ------------------

BAD_TENSORS = {
    "unknown type code": dict(code=18, bits=8),
    "type code 99": dict(code=99, bits=8),
    "zero bits": dict(code=2, bits=0),
    "zero lanes": dict(code=2, bits=32, lanes=0),
    "bool of 16 bits": dict(code=6, bits=16),
    "fp6 of 8 bits": dict(code=15, bits=8),
    "fp4 of 8 bits": dict(code=17, bits=8),
    "padded sub-byte": dict(code=17, bits=4, flags=H.IS_SUBBYTE_TYPE_PADDED),
    "strided sub-byte": dict(code=17, bits=4, shape=(2, 2), strides=(1, 2)),
    "NULL data with elements": dict(data=None, backing=None),
    "NULL shape with ndim 2": dict(shape=None, ndim=2),
    "negative dimension": dict(shape=(2, -1), strides=(1, 1)),
    "ndim 65": dict(shape=(1,) * 65, strides=(1,) * 65),
    "negative ndim": dict(shape=(), ndim=-1),
    "unsupported device type": dict(device=(4, 0)),
    "negative device id": dict(device=(1, -1)),
}


@pytest.mark.parametrize("legacy", [False, True])
@pytest.mark.parametrize("case", sorted(BAD_TENSORS))
def test_undescribable_tensor_raises_buffer_error_and_releases_once(log, case, legacy):
    spec = dict(backing=np.zeros(8), shape=(4,), code=2, bits=64)
    spec.update(BAD_TENSORS[case])
    if legacy and "flags" in spec:
        pytest.skip("legacy tensors have no flags")
    with pytest.raises(BufferError):
        dl.from_dlpack(producer_of(log, legacy=legacy, **spec))
    assert log.calls == 1 and log.alive == 0


def test_gpu_tensor_without_gpu_backend_is_refused(log):
    if any(str(d).startswith("cuda") for d in dl._core._visible_devices()):
        pytest.skip("a CUDA device is visible")
    with pytest.raises(BufferError, match="cuda:0"):
        dl.from_dlpack(producer_of(log, data=0x1000, shape=(4,), device=(H.kDLCUDA, 0)))
    assert log.calls == 1


@pytest.mark.parametrize("major", [0, 2, 255])
def test_major_version_mismatch_calls_deleter_once_and_touches_nothing_else(log, major):
    # Everything after `flags` may have moved in another major version: garbage there
    # (ndim -7, NULL shape) must not be read.
    p = producer_of(log, data=None, shape=None, ndim=-7, version=(major, 0))
    with pytest.raises(BufferError, match=f"major version {major}"):
        dl.from_dlpack(p)
    assert log.calls == 1


def test_consumed_capsule_cannot_be_imported_again(log):
    # Pitfall 3: the capsule is renamed on consumption; a second import must not reach
    # the (already released) tensor, and nothing is released twice.
    b = np.arange(3.0)
    cap = H.capsule_of(H.make_tensor(log, backing=b, shape=(3,)))
    same = H.Producer(lambda: cap)
    a = dl.from_dlpack(same)
    assert H.capsule_name(cap) == "used_dltensor_versioned"
    with pytest.raises(BufferError, match="already consumed"):
        dl.from_dlpack(same)
    del a
    del cap, same
    assert log.calls == 1


def test_failed_import_leaves_the_capsule_consumed(log):
    # After a refused import the deleter has run; the capsule's own destructor must not run it again.
    cap = H.capsule_of(H.make_tensor(log, backing=np.zeros(2), shape=(2,), code=99, bits=8))
    with pytest.raises(BufferError):
        dl.from_dlpack(H.Producer(lambda: cap))
    assert H.capsule_name(cap) == "used_dltensor_versioned"
    del cap
    assert log.calls == 1


def test_unconsumed_hand_made_capsule_is_released_by_its_destructor(log):
    cap = H.capsule_of(H.make_tensor(log, backing=np.zeros(2), shape=(2,)))
    del cap
    assert log.calls == 1


def test_capsule_with_another_name_is_refused():
    cap = H._api.PyCapsule_New(1, b"something_else", None)
    with pytest.raises(BufferError, match="something_else"):
        dl.from_dlpack(H.Producer(lambda: cap))


def test_dlpack_returning_a_non_capsule_is_a_type_error():
    with pytest.raises(TypeError, match="not a PyCapsule"):
        dl.from_dlpack(H.Producer(lambda: 42))


# ---- version negotiation and producers' own errors (pitfall 6) -----------------------------

def test_legacy_only_producer_is_retried_without_new_keywords(log):
    b = np.arange(4.0)
    p = H.LegacyProducer(lambda: H.capsule_of(H.make_tensor(log, legacy=True, backing=b, shape=(4,))))
    a = dl.from_dlpack(p)
    assert p.calls == 1 and a.tolist() == b.tolist()
    a2 = dl.from_dlpack(p, copy=True)  # the producer cannot copy: dlarray does
    assert a2._data_ptr != b.ctypes.data and a2.tolist() == b.tolist()


class _MaxVersionOnlyProducer:
    """A DLPack 1.0-era producer: knows max_version but not dl_device or copy."""

    def __init__(self, log, backing, flags=0):
        self.log, self.backing, self.flags = log, backing, flags
        self.calls = []

    def __dlpack__(self, *, stream=None, max_version=None):
        self.calls.append(max_version)
        return H.capsule_of(H.make_tensor(self.log, legacy=max_version is None, backing=self.backing,
                                          shape=self.backing.shape, flags=0 if max_version is None else self.flags))

    def __dlpack_device__(self):
        return (1, 0)


def test_producer_without_dl_device_and_copy_keeps_the_versioned_capsule(log):
    # The first retry drops only dl_device and copy: the versioned capsule still carries READ_ONLY.
    b = np.arange(3.0)
    p = _MaxVersionOnlyProducer(log, b, flags=H.READ_ONLY)
    a = dl.from_dlpack(p, device="cpu")
    assert p.calls == [(1, 3)] and a._readonly and a._data_ptr == b.ctypes.data
    c = dl.from_dlpack(p, copy=True)  # the producer could not be asked to copy: dlarray does
    assert c._data_ptr != b.ctypes.data and c.tolist() == [0.0, 1.0, 2.0] and not c._readonly
    assert p.calls == [(1, 3), (1, 3)]


class _TypeErrorProducer:
    def __init__(self, message):
        self.message = message
        self.calls = []

    def __dlpack__(self, **kwargs):
        self.calls.append(kwargs)
        if "max_version" in kwargs:
            raise TypeError(self.message)
        return H.capsule_of(H.make_tensor(H.DeleterLog(), backing=np.zeros(1), shape=(1,)))

    def __dlpack_device__(self):
        return (1, 0)


@pytest.mark.parametrize("message", ["this dtype cannot be exported", "cannot copy object arrays",
                                     "unsupported device for max version"])
def test_real_type_error_from_producer_is_not_hidden_by_the_retry(message):
    p = _TypeErrorProducer(message)
    with pytest.raises(TypeError, match=message):
        dl.from_dlpack(p)
    assert len(p.calls) == 1


def test_type_error_about_rejected_keyword_triggers_the_retry():
    p = _TypeErrorProducer("__dlpack__() got an unexpected keyword argument 'max_version'")
    assert dl.from_dlpack(p).shape == (1,)
    assert len(p.calls) == 2 and p.calls[1] == {}


def test_attribute_error_inside_dlpack_propagates_as_is():
    class Broken:
        def __dlpack__(self, **kwargs):
            raise AttributeError("internal attribute problem")

    with pytest.raises(AttributeError, match="internal attribute problem"):
        dl.from_dlpack(Broken())


@pytest.mark.parametrize("obj", [object(), [1, 2], 3.0, "abc", b"bytes", None])
def test_objects_without_dlpack_are_type_errors(obj):
    with pytest.raises(TypeError, match="do not support DLPack"):
        dl.from_dlpack(obj)


def test_from_dlpack_arguments_are_checked():
    a = dl.zeros(2)
    with pytest.raises(TypeError):
        dl.from_dlpack()
    with pytest.raises(TypeError):
        dl.from_dlpack(a, "cpu")
    with pytest.raises(TypeError, match="copy must be True, False or None"):
        dl.from_dlpack(a, copy="yes")
    with pytest.raises(ValueError, match="unknown device"):
        dl.from_dlpack(a, device="tpu")


def test_own_arrays_are_returned_without_a_capsule_round_trip():
    a = dl.arange(3)
    before = dl._core._dlpack_counters()["dlpack_exports"]
    assert dl.from_dlpack(a) is a
    b = dl.from_dlpack(a, copy=True)
    assert b is not a and b._data_ptr != a._data_ptr and b.tolist() == [0, 1, 2]
    assert dl.from_dlpack(a, device="cpu", copy=False) is a
    assert dl._core._dlpack_counters()["dlpack_exports"] == before


def test_imports_through_dlpack_are_counted(log):
    before = dl._core._dlpack_counters()["imports_via_protocol"]
    dl.from_dlpack(producer_of(log, backing=np.zeros(1), shape=(1,)))
    assert dl._core._dlpack_counters()["imports_via_protocol"] == before + 1


def test_cached_dlpack_method_respects_subclasses_and_instance_attributes():
    # The per-type shortcut to a C producer's __dlpack__ must not bypass Python-level overrides.
    import numpy as np

    import dlarray as dl

    calls = []

    class Sub(np.ndarray):
        def __dlpack__(self, **kw):
            calls.append("class")
            return np.asarray(self).__dlpack__(**kw)

    a = np.arange(3.0)
    assert dl.from_dlpack(a).tolist() == [0, 1, 2]  # primes the cache for ndarray
    assert dl.from_dlpack(a.view(Sub)).tolist() == [0, 1, 2] and calls == ["class"]

    class Plain(np.ndarray):
        pass

    p = a.view(Plain)

    def shadow(**kw):
        calls.append("instance")
        return a.__dlpack__(**kw)

    p.__dlpack__ = shadow
    assert dl.from_dlpack(p).tolist() == [0, 1, 2] and calls == ["class", "instance"]
