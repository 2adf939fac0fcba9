"""GPU sort and argsort vs PyTorch's and CuPy's in the same run (CUDA device 0).

Stable float32/int32 sorts of one long row (the device-wide radix sort path), of many short
and of a few medium rows (the segmented sort), and along axis 0 of a matrix (the transposed
key pass and gather). Ratios are peer time / ours (above 1: faster). Unmeasured on this
project's VM (no GPU); scripts/gpu-test --bench runs it.
"""
import numpy as np

from gpu_common import best_time, optional, require_cuda

import dlarray as dl

require_cuda()
torch = optional("torch")
cupy = optional("cupy")
if torch is not None and not torch.cuda.is_available():
    torch = None
sync = dl.cuda.synchronize
CASES = [("one row 2^24", (1 << 24,), -1), ("2^14 rows of 1000", (1 << 14, 1000), -1),
         ("64 rows of 2^16", (64, 1 << 16), -1), ("4096x4096 axis 0", (4096, 4096), 0)]

rng = np.random.default_rng(0)
for dtype in ("float32", "int32"):
    for name, shape, axis in CASES:
        a_np = (rng.standard_normal(shape) * 1000).astype(dtype)
        a = dl.asarray(a_np).to_device("cuda:0")
        for fn in ("sort", "argsort"):
            ours = best_time(lambda: getattr(dl, fn)(a, axis=axis), sync=sync)
            text = f"{fn:<8} {dtype:<8} {name:<20} dlarray {ours * 1e3:8.3f} ms"
            if torch is not None:
                t = torch.from_numpy(a_np).cuda()
                tf = (lambda: torch.sort(t, dim=axis, stable=True)) if fn == "sort" else \
                     (lambda: torch.argsort(t, dim=axis, stable=True))
                tt = best_time(tf, sync=torch.cuda.synchronize)
                text += f"  torch {tt * 1e3:8.3f} ms ratio {tt / ours:5.2f}"
            if cupy is not None:
                c = cupy.asarray(a_np)
                cf = getattr(cupy, fn)
                ct = best_time(lambda: cf(c, axis=axis), sync=cupy.cuda.runtime.deviceSynchronize)
                text += f"  cupy {ct * 1e3:8.3f} ms ratio {ct / ours:5.2f}"
            print(text)
