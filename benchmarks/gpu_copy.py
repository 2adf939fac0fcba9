"""Host<->device copy bandwidth (256 MiB float32): dlarray vs PyTorch, pageable and pinned.
Prints GB/s for each and the ratio ours / PyTorch's (above 1 is faster)."""
import numpy as np
from gpu_common import best_time, optional, require_cuda

import dlarray

require_cuda()
torch = optional("torch")
if torch is None or not torch.cuda.is_available():
    print("skipped: needs torch with CUDA")
    raise SystemExit(0)

n = 64 << 20
nbytes = 4 * n
a = np.ones(n, dtype=np.float32)
ta = torch.from_numpy(a)
sync = dlarray.cuda.synchronize


def line(case, ours_s, peer_s):
    g_ours, g_peer = nbytes / ours_s / 1e9, nbytes / peer_s / 1e9
    print(f"{case:<34} dlarray {g_ours:7.2f} GB/s  torch {g_peer:7.2f} GB/s  ratio {g_ours / g_peer:5.2f}")


x_dev = dlarray.asarray(a, device="cuda:0")
t_dev = ta.cuda()
line("H2D pageable", best_time(lambda: dlarray.asarray(a, device="cuda:0"), sync=sync),
     best_time(lambda: ta.cuda(), sync=torch.cuda.synchronize))
line("D2H pageable", best_time(lambda: x_dev.to_device("cpu"), sync=sync),
     best_time(lambda: t_dev.cpu(), sync=torch.cuda.synchronize))
x_pin = dlarray.asarray(a, device="cuda_host:0")
t_pin = ta.pin_memory()
line("H2D pinned", best_time(lambda: x_pin.to_device("cuda:0"), sync=sync),
     best_time(lambda: t_pin.cuda(non_blocking=True), sync=torch.cuda.synchronize))
line("D2H pinned (into fresh pinned)", best_time(lambda: x_dev.to_device("cuda_host:0"), sync=sync),
     best_time(lambda: torch.empty(n, dtype=torch.float32, pin_memory=True).copy_(t_dev, non_blocking=True),
               sync=torch.cuda.synchronize))
