"""DLPack exchange with PyTorch (CPU) in both directions, for every dtype PyTorch has.

dlarray imports torch tensors through PyTorch's C exchange table; PyTorch imports ours
through __dlpack__. Both paths are checked against each other (dlarray._core.
_from_dlpack_protocol forces __dlpack__) and for zero-copy by data pointers and writes.
"""
import warnings

import numpy as np
import pytest

import dlarray as dl

torch = pytest.importorskip("torch")

# torch dtype -> dlarray dtype name (None: kept as an unnamed DLPack type)
TORCH_DTYPES = {
    "bool": "bool", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
    "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
    "float16": "float16", "bfloat16": "bfloat16", "float32": "float32", "float64": "float64",
    "complex64": "complex64", "complex128": "complex128", "complex32": None,
    "float8_e4m3fn": "float8_e4m3fn", "float8_e5m2": "float8_e5m2", "float8_e4m3fnuz": "float8_e4m3fnuz",
    "float8_e5m2fnuz": "float8_e5m2fnuz", "float8_e8m0fnu": "float8_e8m0fnu", "float4_e2m1fn_x2": None,
}

IMPORTS = {"table": dl.from_dlpack, "protocol": dl._core._from_dlpack_protocol}


def sample(name, shape=(3, 4)):
    """A tensor of dtype `name` with varied bytes (built bytewise: not every dtype has arange)."""
    dt = getattr(torch, name)
    itemsize = torch.empty((), dtype=dt).element_size()
    raw = torch.arange(int(np.prod(shape)) * itemsize, dtype=torch.int64).remainder(97).to(torch.uint8)
    if name == "bool":
        raw = raw.remainder(2)
    return raw.view(dt).reshape(shape)


def raw_bytes(t):
    return t.contiguous().view(torch.uint8).flatten().tolist() if t.dtype != torch.bool else t.flatten().tolist()


@pytest.mark.parametrize("path", sorted(IMPORTS))
@pytest.mark.parametrize("name", sorted(TORCH_DTYPES))
def test_torch_to_dlarray_to_torch_round_trip(name, path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # complex32 is "experimental"
        t = sample(name)
        a = IMPORTS[path](t)
        assert a._data_ptr == t.data_ptr()
        expected = TORCH_DTYPES[name]
        if expected is not None:
            assert a.dtype == getattr(dl, expected)
        back = torch.from_dlpack(a)
        assert back.dtype == t.dtype and back.shape == t.shape
        assert back.data_ptr() == t.data_ptr()
        assert raw_bytes(back) == raw_bytes(t)


@pytest.mark.parametrize("name", ["bool", "int8", "uint16", "uint64", "float32", "float64", "complex128"])
def test_values_match_numpy_oracle(name):
    t = sample(name)
    a = dl.from_dlpack(t)
    assert a.tolist() == t.numpy().tolist()


LAYOUTS = {
    "0-d": lambda t: t[1, 1],
    "zero-size": lambda t: t[:0],
    "non-contiguous": lambda t: t[:, ::2],
    "offset view": lambda t: t[1:, 1:],
    "transposed": lambda t: t.t(),
    "expanded (zero strides)": lambda t: t[:1].expand(5, 4),
    "size-1 dims": lambda t: t[:, None, :1],
}


@pytest.mark.parametrize("path", sorted(IMPORTS))
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_layouts_both_directions(layout, path):
    t = LAYOUTS[layout](torch.arange(12, dtype=torch.float64).reshape(3, 4))
    a = IMPORTS[path](t)
    assert a.shape == tuple(t.shape)
    assert a._strides == tuple(t.stride())
    assert a.tolist() == t.tolist()
    if t.numel():
        assert a._data_ptr == t.data_ptr()
    back = torch.from_dlpack(a)
    assert back.tolist() == t.tolist() and back.stride() == t.stride()
    if t.numel():
        assert back.data_ptr() == t.data_ptr()


def test_writes_are_shared_both_ways():
    t = torch.zeros(4)
    a = dl.from_dlpack(t)
    t[1] = 5.0
    assert a.tolist()[1] == 5.0
    b = dl.arange(4, dtype=dl.float32)
    tb = torch.from_dlpack(b)
    tb[2] = -1.0
    assert b.tolist()[2] == -1.0


@pytest.mark.parametrize("copy", [None, False, True])
def test_copy_semantics_dlarray_importing_torch(copy):
    t = torch.arange(4.0)
    a = dl.from_dlpack(t, copy=copy)
    assert (a._data_ptr != t.data_ptr()) == bool(copy)
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_copy_true_from_torch_copies_exactly_once():
    # PyTorch's table cannot be asked for a copy (and PyTorch never sets IS_COPIED): the
    # table import is zero-copy and dlarray makes the one copy.
    t = torch.arange(4.0)
    before = dl._core._allocator_stats("cpu")["allocations"]
    a = dl.from_dlpack(t, copy=True)
    assert dl._core._allocator_stats("cpu")["allocations"] == before + 1
    assert a._data_ptr != t.data_ptr()


@pytest.mark.parametrize("copy", [None, False, True])
def test_copy_semantics_torch_importing_dlarray(copy):
    a = dl.arange(4, dtype=dl.float32)
    t = torch.from_dlpack(a, copy=copy)
    assert (t.data_ptr() != a._data_ptr) == bool(copy)
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_torch_imports_with_device_cpu():
    a = dl.arange(3)
    t = torch.from_dlpack(a, device="cpu")
    assert t.data_ptr() == a._data_ptr


def test_torch_legacy_capsule_is_accepted():
    t = torch.arange(3.0)
    cap = torch.utils.dlpack.to_dlpack(t)
    a = dl.from_dlpack(cap)
    assert a._data_ptr == t.data_ptr() and a.tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(BufferError, match="already consumed"):
        dl.from_dlpack(cap)


def test_torch_imports_our_legacy_capsule():
    a = dl.arange(3)
    t = torch.utils.dlpack.from_dlpack(a.__dlpack__())
    assert t.data_ptr() == a._data_ptr and t.tolist() == [0, 1, 2]


def test_tensor_requiring_grad_imports_through_the_table():
    # PyTorch's __dlpack__ refuses such tensors (to protect autograd); its C table exports
    # the data, which is what a consumer reading the values needs.
    t = torch.arange(3.0, requires_grad=True)
    assert dl.from_dlpack(t).tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(BufferError, match="require gradient"):
        dl._core._from_dlpack_protocol(t)


@pytest.mark.parametrize("path", sorted(IMPORTS))
def test_conjugate_view_is_refused_not_silently_unconjugated(path):
    # PyTorch 2.13's C table exports a conjugate view's memory as is; dlarray checks.
    c = torch.tensor([1 + 2j, 3 - 1j], dtype=torch.complex64)
    with pytest.raises(BufferError, match="conjugate"):
        IMPORTS[path](c.conj())
    assert dl.from_dlpack(c.conj().resolve_conj()).tolist() == [1 - 2j, 3 + 1j]


@pytest.mark.parametrize("path", IMPORTS)
@pytest.mark.parametrize("view", [
    lambda z: z.conj().imag, lambda z: z.conj().imag[1:], lambda z: z.conj().imag.T,
    lambda z: z.conj().imag[0, 1], lambda z: z.to(torch.complex64).conj().imag[:, 1:],
], ids=["imag", "sliced", "transposed", "0-d", "complex64"])
def test_negative_view_is_refused_not_silently_unnegated(path, view):
    # The imaginary part of a conjugate view carries PyTorch's negative bit: both its __dlpack__
    # and its C table export the memory as is (NumPy reads the wrong sign). dlarray refuses it,
    # and copy=True takes the producer's copy, which resolves the bit.
    z = torch.tensor([[1 + 2j, 3 - 1j], [5 + 6j, -7 - 8j]], dtype=torch.complex128)
    t = view(z)
    assert t.is_neg()
    with pytest.raises(BufferError, match="negative view"):
        IMPORTS[path](t)
    with pytest.raises(BufferError, match="negative view"):
        dl.asarray(t)
    assert IMPORTS[path](t, copy=True).tolist() == t.tolist()
    assert dl.asarray(t.resolve_neg()).tolist() == t.tolist()
    plain = torch.arange(6.0, dtype=torch.float64)[1:]  # at an odd element offset, no negative bit
    assert not plain.is_neg() and dl.from_dlpack(plain)._data_ptr == plain.data_ptr()


@pytest.mark.parametrize("path", sorted(IMPORTS))
def test_tensors_dlpack_cannot_describe_are_buffer_errors(path):
    # PyTorch's table raises RuntimeError for these; dlarray falls back to __dlpack__,
    # which answers with the standard BufferError (pitfall 15).
    with pytest.raises(BufferError):
        IMPORTS[path](torch.eye(3).to_sparse())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        q = torch.quantize_per_tensor(torch.ones(2), 0.1, 0, torch.qint8)
    with pytest.raises(BufferError):
        IMPORTS[path](q)


def test_imported_memory_outlives_the_torch_tensor():
    t = torch.arange(1000, dtype=torch.int64)
    a = dl.from_dlpack(t)
    del t
    import gc
    gc.collect()
    assert a.tolist()[-3:] == [997, 998, 999]


def test_torch_and_numpy_agree_on_our_exports():
    # (Not with negative strides: PyTorch 2.13 aborts the process on those, from any producer.)
    a = dl.from_dlpack(np.arange(12, dtype=np.int32).reshape(3, 4)[::2, 1::2])
    assert torch.from_dlpack(a).tolist() == np.from_dlpack(a).tolist() == [[1, 3], [9, 11]]
