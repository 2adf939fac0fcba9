"""Allocation + free of 1 MiB on cuda:0, 10^4 times: dlarray's stream-ordered pool vs
PyTorch's caching allocator and CuPy's default pool. Prints per-pair times and ratios."""
from gpu_common import best_time, optional, report, require_cuda

import dlarray

require_cuda()
N, SIZE = 10_000, 1 << 20
torch, cupy = optional("torch"), optional("cupy")


def ours():
    for _ in range(N):
        x = dlarray.empty(SIZE, dtype=dlarray.uint8, device="cuda:0")
        del x


t_ours = best_time(ours, sync=dlarray.cuda.synchronize) / N
if torch is not None and torch.cuda.is_available():
    def peer():
        for _ in range(N):
            t = torch.empty(SIZE, dtype=torch.uint8, device="cuda")
            del t
    report("alloc+free 1 MiB (per pair)", t_ours, "torch", best_time(peer, sync=torch.cuda.synchronize) / N)
if cupy is not None:
    def peer():
        for _ in range(N):
            c = cupy.empty(SIZE, dtype=cupy.uint8)
            del c
    report("alloc+free 1 MiB (per pair)", t_ours, "cupy", best_time(peer, sync=cupy.cuda.Device().synchronize) / N)
if torch is None and cupy is None:
    print(f"alloc+free 1 MiB (per pair): dlarray {t_ours * 1e6:.2f} us (no torch or cupy to compare)")
