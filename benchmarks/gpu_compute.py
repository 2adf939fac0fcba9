"""GPU computation vs PyTorch and CuPy in the same run (issue figures; CUDA device 0).

Elementwise a + b, a * 2.0, exp(a) on 2^28 float32 (effective bandwidth, and against the
device's HBM peak when the GPU is a known one), the transposed input; sum/max/mean of 2^28
float32, whole and along each axis of a 16384 x 16384 matrix; cumulative_sum likewise (one
vendor-library scan: CUB's, or the column kernel for axis 0, gpu_scan.cu); the per-call host time of a + b
on one-element arrays without synchronizing. Ratios are peer time / ours (above 1: faster).
"""
import time

from gpu_common import best_time, optional, require_cuda

import dlarray as dl

require_cuda()
torch = optional("torch")
cupy = optional("cupy")
if torch is not None and not torch.cuda.is_available():
    torch = None
PEAK_GBS = {"H100 80GB HBM3": 3350, "H100 PCIe": 2000, "H200": 4800, "A100-SXM4-80GB": 2039}
sync = dl.cuda.synchronize
n = 1 << 28


def peers_line(case, ours, peers, nbytes=None):
    text = f"{case:<34} dlarray {ours * 1e3:9.3f} ms"
    if nbytes:
        text += f" ({nbytes / ours / 1e9:7.1f} GB/s)"
    for name, t in peers.items():
        text += f"  {name} {t * 1e3:9.3f} ms ratio {t / ours:5.2f}"
    print(text)


def run(case, ours_fn, torch_fn=None, cupy_fn=None, nbytes=None):
    ours = best_time(ours_fn, sync=sync)
    peers = {}
    if torch is not None and torch_fn:
        peers["torch"] = best_time(torch_fn, sync=torch.cuda.synchronize)
    if cupy is not None and cupy_fn:
        peers["cupy"] = best_time(cupy_fn, sync=cupy.cuda.runtime.deviceSynchronize)
    peers_line(case, ours, peers, nbytes)
    return ours


a = dl.ones(n, dtype=dl.float32, device="cuda:0")
b = dl.ones(n, dtype=dl.float32, device="cuda:0")
ta = torch.ones(n, device="cuda") if torch else None
tb = torch.ones(n, device="cuda") if torch else None
ca = cupy.ones(n, dtype=cupy.float32) if cupy else None
cb = cupy.ones(n, dtype=cupy.float32) if cupy else None
if torch:
    name = torch.cuda.get_device_name(0)
    peak = next((v for k, v in PEAK_GBS.items() if k in name), None)
    print(f"device: {name}; HBM peak {peak or 'unknown'} GB/s")
t = run("a + b (2^28 float32)", lambda: a + b, lambda: ta + tb, lambda: ca + cb, 12 * n)
if torch and peak:
    print(f"  a + b at {12 * n / t / 1e9 / peak:.0%} of HBM peak")
run("a * 2.0", lambda: a * 2.0, lambda: ta * 2.0, lambda: ca * 2.0, 8 * n)
run("exp(a)", lambda: dl.exp(a), lambda: torch.exp(ta), lambda: cupy.exp(ca), 8 * n)
m = dl.reshape(a, (16384, 16384))
tm = ta.reshape(16384, 16384) if torch else None
cm = ca.reshape(16384, 16384) if cupy else None
run("m.T + 1 (transposed input)", lambda: m.T + 1.0, lambda: tm.T + 1.0, lambda: cm.T + 1.0, 8 * n)
for fname in ("sum", "max", "mean"):
    run(f"{fname}(2^28)", lambda: getattr(dl, fname)(a), lambda: getattr(torch, fname)(ta),
        lambda: getattr(cupy, fname)(ca), 4 * n)
    for axis in (0, 1):
        tf = (lambda: torch.amax(tm, dim=axis)) if fname == "max" else (lambda: getattr(torch, fname)(tm, dim=axis))
        run(f"{fname}(16384^2, axis={axis})", lambda: getattr(dl, fname)(m, axis=axis), tf,
            lambda: getattr(cupy, fname)(cm, axis=axis), 4 * n)
# A scan reads and writes every element once: 8 bytes per float32 element.
run("cumulative_sum(2^28)", lambda: dl.cumulative_sum(a), lambda: torch.cumsum(ta, dim=0),
    lambda: cupy.cumsum(ca), 8 * n)
for axis in (0, 1):
    run(f"cumulative_sum(16384^2, axis={axis})", lambda: dl.cumulative_sum(m, axis=axis),
        lambda: torch.cumsum(tm, dim=axis), lambda: cupy.cumsum(cm, axis=axis), 8 * n)
one = dl.ones(1, device="cuda:0")
tone = torch.ones(1, device="cuda") if torch else None
reps = 20000
for label, fn in (("dlarray", lambda: one + one), ("torch", (lambda: tone + tone) if torch else None)):
    if fn is None:
        continue
    fn()
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    print(f"per call a + b (1 element, no sync): {label} {(time.perf_counter() - t0) / reps * 1e6:.2f} us")
    sync()
