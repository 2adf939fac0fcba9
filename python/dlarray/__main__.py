"""`python -m dlarray`: a short demo that trades arrays with NumPy (and PyTorch when installed)."""
import dlarray as dl


def main():
    print(f"dlarray {dl.__version__}, array API {dl.__array_api_version__}, DLPack {dl.DLPACK_VERSION}")
    print("devices:", ", ".join(str(d) for d in dl._core._visible_devices()))

    x = dl.arange(6, dtype=dl.float64)
    print("x =", repr(x))
    try:
        import numpy as np
    except ImportError:
        np = None
    if np is not None:
        a = np.from_dlpack(x)                  # NumPy views dlarray's memory
        a *= 2                                 # ... so writes show up in x
        print("after NumPy doubled it in place:", x.tolist())
        b = dl.from_dlpack(np.linspace(0.0, 1.0, 5))
        print("from NumPy, zero-copy:", repr(b))
        print("sum computed by NumPy over dlarray memory:", float(np.asarray(x).sum()))
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        t = torch.from_dlpack(x)               # PyTorch views the same memory
        t.add_(1)
        print("after PyTorch added 1 in place:", x.tolist())
        back = dl.from_dlpack(torch.ones(2, 3, dtype=torch.bfloat16))
        print("bfloat16 from PyTorch:", repr(back))
    else:
        print("(PyTorch not installed: skipping the PyTorch exchange)")


if __name__ == "__main__":
    main()
