"""DLPack round trips with PyTorch, CuPy and JAX on CUDA, both directions, every shared dtype."""
import os

import numpy as np
import pytest

import dlarray
from helpers.gpu_util import host, needs_cuda, torch_cuda

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # JAX must not take the whole GPU

pytestmark = [pytest.mark.gpu, needs_cuda]

TORCH_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
NUMPY_DTYPES = [d for d in TORCH_DTYPES if d != "bfloat16"]


def sample(n=24):
    return (np.arange(n) % 5).reshape(2, 3, n // 6)


def torch_tensor(torch, dtype):
    """A CUDA tensor of `dtype` built without arithmetic (torch's uint16/32/64 have little of it)."""
    if dtype == "bfloat16":
        return torch.from_numpy(sample().astype(np.float32)).to(torch.bfloat16).cuda()
    return torch.from_numpy(sample().astype(dtype)).cuda()


def torch_bytes(t):
    """The tensor's elements in row-major order, as raw bytes on the host."""
    import torch
    return t.contiguous().cpu().reshape(-1).view(torch.uint8)


@pytest.mark.parametrize("dtype", TORCH_DTYPES)
def test_torch_to_dlarray_and_back(dtype):
    torch = torch_cuda()
    t = torch_tensor(torch, dtype)
    x = dlarray.from_dlpack(t)
    assert x.device == "cuda:0" and x.shape == tuple(t.shape) and x.dtype.name == dtype
    assert x._data_ptr == t.data_ptr()  # zero-copy
    back = torch.from_dlpack(x)
    assert back.device == t.device and back.dtype == t.dtype and back.data_ptr() == t.data_ptr()
    assert torch.equal(torch_bytes(back), torch_bytes(t))


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_dlarray_to_torch(dtype):
    torch = torch_cuda()
    a = sample().astype(dtype)
    x = dlarray.asarray(a, device="cuda:0")
    t = torch.from_dlpack(x)
    assert t.is_cuda and t.data_ptr() == x._data_ptr
    np.testing.assert_array_equal(torch_bytes(t).numpy(), a.view(np.uint8).reshape(-1))
    # Strided views export as views.
    tt = torch.from_dlpack(x.mT)
    assert tt.stride()[-2:] == t.stride()[-2:][::-1] and tt.data_ptr() == t.data_ptr()
    np.testing.assert_array_equal(torch_bytes(tt).numpy(),
                                  np.ascontiguousarray(np.swapaxes(a, -1, -2)).view(np.uint8).reshape(-1))


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_cupy_both_directions(dtype):
    cp = pytest.importorskip("cupy")
    a = sample().astype(dtype)
    c = cp.asarray(a)
    x = dlarray.from_dlpack(c)
    assert x.device == "cuda:0" and x._data_ptr == c.data.ptr
    np.testing.assert_array_equal(host(x), a)
    y = dlarray.asarray(a, device="cuda:0")
    c2 = cp.from_dlpack(y)
    assert c2.data.ptr == y._data_ptr
    np.testing.assert_array_equal(cp.asnumpy(c2), a)


@pytest.mark.parametrize("dtype", TORCH_DTYPES)
def test_jax_both_directions(dtype):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    jnp = pytest.importorskip("jax.numpy")
    try:
        gpu = jax.devices("gpu")[0]
    except RuntimeError:
        pytest.skip("this jax has no GPU")
    j = jax.device_put(jnp.asarray(sample(), dtype=getattr(jnp, dtype)), gpu)
    x = dlarray.from_dlpack(j)
    assert x.device == "cuda:0" and x.dtype.name == dtype
    j2 = jnp.from_dlpack(x)
    assert j2.dtype == j.dtype and bool((j2 == j).all())


def test_cross_device_exports_are_copies():
    torch = torch_cuda()
    a = np.arange(10.0)
    x = dlarray.asarray(a, device="cuda:0")
    h = np.from_dlpack(x, device="cpu")  # NumPy asks for the CPU: we copy and flag it
    np.testing.assert_array_equal(h, a)
    with pytest.raises(dlarray.CopyError):
        x.__dlpack__(dl_device=(1, 0), copy=False, max_version=(1, 0))
    t = torch.arange(5.0, device="cuda")
    y = dlarray.from_dlpack(t, device="cpu")
    assert y.device == "cpu"
    np.testing.assert_array_equal(np.from_dlpack(y), np.arange(5.0))
    with pytest.raises(dlarray.CopyError):
        dlarray.from_dlpack(t, device="cpu", copy=False)
    z = dlarray.from_dlpack(torch.arange(3), device="cuda:0")  # a CPU tensor moved by us
    assert z.device == "cuda:0"
    np.testing.assert_array_equal(host(z), np.arange(3))


def test_device_ids_on_every_gpu():
    torch = torch_cuda()
    for i in range(dlarray.cuda.device_count()):
        x = dlarray.zeros(4, device=f"cuda:{i}")
        assert x.__dlpack_device__() == (2, i)
        assert torch.from_dlpack(x).device == torch.device("cuda", i)
        assert dlarray.from_dlpack(torch.ones(2, device=f"cuda:{i}")).device == f"cuda:{i}"
