"""GPU matrix products and LAPACK forms vs PyTorch (and CuPy when installed) in the same run (CUDA device 0).

matmul of float32 and float64 8192 x 8192 matrices, a batch of 4096 float32 64 x 64 products, and
complex64 4096 x 4096: all through cuBLAS (dlarray loads it at run time; PyTorch and CuPy link
theirs). TF32 is off on every side (dlarray never uses it; torch.backends.cuda.matmul.allow_tf32
is set False), so the figures compare the same arithmetic. Ratios are peer time / ours (above 1:
dlarray is faster); TFLOP/s counts 2mnk (8mnk for complex) per product.
Then solve, cholesky, qr, svd and eigh of one float32 4096 x 4096 matrix (cuSOLVER's per-matrix
routines) and of 10^4 float32 16 x 16 matrices (the batched routines), against torch.linalg.
Run: PYTHONPATH=python python benchmarks/gpu_linalg.py
"""
import numpy as np
from gpu_common import best_time, optional, require_cuda

import dlarray as dl

require_cuda()
torch = optional("torch")
cupy = optional("cupy")
if torch is not None and not torch.cuda.is_available():
    torch = None
if torch is not None:
    torch.backends.cuda.matmul.allow_tf32 = False
    print(f"device: {torch.cuda.get_device_name(0)}")
sync = dl.cuda.synchronize


def operands(shape_a, shape_b, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a, b = rng.standard_normal(shape_a).astype(dtype), rng.standard_normal(shape_b).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a += 1j * rng.standard_normal(shape_a).astype(dtype)
        b += 1j * rng.standard_normal(shape_b).astype(dtype)
    return a, b


def case(label, shape_a, shape_b, dtype):
    a, b = operands(shape_a, shape_b, dtype)
    batch = int(np.prod(shape_a[:-2], dtype=np.int64))
    m, k, n = shape_a[-2], shape_a[-1], shape_b[-1]
    flops = (8 if np.dtype(dtype).kind == "c" else 2) * batch * m * n * k
    da, db = dl.asarray(a).to_device("cuda:0"), dl.asarray(b).to_device("cuda:0")
    da @ db  # loads cuBLAS, creates the handle: not timed
    ours = best_time(lambda: da @ db, sync=sync)
    text = f"{label:<36} dlarray {ours * 1e3:9.3f} ms ({flops / ours / 1e12:6.2f} TFLOP/s)"
    if torch is not None:
        ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
        ta @ tb
        t = best_time(lambda: ta @ tb, sync=torch.cuda.synchronize)
        text += f"  torch {t * 1e3:9.3f} ms ratio {t / ours:5.2f}"
    if cupy is not None:
        ca, cb = cupy.asarray(a), cupy.asarray(b)
        ca @ cb
        t = best_time(lambda: ca @ cb, sync=cupy.cuda.runtime.deviceSynchronize)
        text += f"  cupy {t * 1e3:9.3f} ms ratio {t / ours:5.2f}"
    print(text, flush=True)


case("matmul float32 8192^2", (8192, 8192), (8192, 8192), "float32")
case("matmul float64 8192^2", (8192, 8192), (8192, 8192), "float64")
case("matmul float32 4096 x 64x64 (batched)", (4096, 64, 64), (4096, 64, 64), "float32")
case("matmul complex64 4096^2", (4096, 4096), (4096, 4096), "complex64")


def spd(shape, dtype, seed=1):
    a = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return (a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1], dtype=dtype)).astype(dtype)


def lapack_case(label, make, ours_fn, torch_fn, repeat):
    """Times ours_fn(*dlarray operands) and torch_fn(*torch operands), after one untimed call each."""
    host = make()
    ours_args = [dl.asarray(h).to_device("cuda:0") for h in host]
    ours_fn(*ours_args)  # loads cuSOLVER / cuBLAS, creates handles and workspace: not timed
    ours = best_time(lambda: ours_fn(*ours_args), repeat=repeat, sync=sync)
    text = f"{label:<36} dlarray {ours * 1e3:9.3f} ms"
    if torch is not None:
        targs = [torch.from_numpy(h).cuda() for h in host]
        torch_fn(*targs)
        t = best_time(lambda: torch_fn(*targs), repeat=repeat, sync=torch.cuda.synchronize)
        text += f"  torch {t * 1e3:9.3f} ms ratio {t / ours:5.2f}"
    print(text, flush=True)


rng = np.random.default_rng(2)
for shape, repeat in (((4096, 4096), 3), ((10**4, 16, 16), 5)):
    size = "4096^2" if len(shape) == 2 else "10^4 x 16x16"
    general = rng.standard_normal(shape).astype("float32") + 4 * np.eye(shape[-1], dtype="float32")
    rhs = rng.standard_normal(shape[:-1] + (1,)).astype("float32")
    lapack_case(f"solve float32 {size}", lambda: (general, rhs), dl.linalg.solve, torch.linalg.solve if torch else None,
                repeat)
    lapack_case(f"cholesky float32 {size}", lambda: (spd(shape, "float32"),), dl.linalg.cholesky,
                torch.linalg.cholesky if torch else None, repeat)
    lapack_case(f"qr float32 {size}", lambda: (general,), dl.linalg.qr, torch.linalg.qr if torch else None, repeat)
    lapack_case(f"svd float32 {size}", lambda: (general,), lambda x: dl.linalg.svd(x, full_matrices=False),
                (lambda x: torch.linalg.svd(x, full_matrices=False)) if torch else None, repeat)
    lapack_case(f"eigh float32 {size}", lambda: (spd(shape, "float32"),), dl.linalg.eigh,
                torch.linalg.eigh if torch else None, repeat)
