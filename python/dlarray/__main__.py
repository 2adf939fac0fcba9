"""`python -m dlarray`: a short demo: the devices found, a computation, and zero-copy exchange with
NumPy both ways (and PyTorch / CuPy when they are installed)."""
import numpy as np

import dlarray as dl


def main():
    print(f"dlarray {dl.__version__}, array API {dl.__array_api_version__}, DLPack {dl.DLPACK_VERSION}")
    print("devices:", ", ".join(str(d) for d in dl._core._visible_devices()))

    x = dl.reshape(dl.arange(6, dtype=dl.float64), (2, 3))
    print("x =", x.tolist(), " sum(x * x, axis=1) =", dl.sum(x * x, axis=1).tolist())

    a = np.from_dlpack(x)            # NumPy views dlarray's memory: no copy ...
    a *= 2                           # ... so NumPy's in-place write shows up in x
    print("NumPy doubled x in place: x =", x.tolist())
    b = np.linspace(0.0, 1.0, 4)
    y = dl.asarray(b)                # dlarray views NumPy's memory
    b[0] = -1.0
    print("dlarray over NumPy's memory (after NumPy wrote -1):", y.tolist())

    try:
        import torch
    except ImportError:
        print("PyTorch: not installed (pip install torch to see the exchange)")
    else:
        t = torch.from_dlpack(x)     # PyTorch views the same memory
        t.add_(1)
        print("PyTorch added 1 in place: x =", x.tolist())
    try:
        import cupy
    except ImportError:
        pass
    else:
        if dl.cuda.device_count() > 0:
            g = dl.asarray(x, device="cuda:0")
            print("CuPy over a dlarray CUDA array:", cupy.from_dlpack(g).sum().item())


if __name__ == "__main__":
    main()
