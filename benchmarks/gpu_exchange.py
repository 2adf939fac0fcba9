"""DLPack exchange of CUDA arrays: dlarray <-> PyTorch and dlarray <-> CuPy, against
PyTorch <-> CuPy measured in the same run. Time per from_dlpack call; ratios ours / peer's."""
from gpu_common import best_time, optional, report, require_cuda

import dlarray

require_cuda()
N = 20_000
torch, cupy = optional("torch"), optional("cupy")
if torch is None or not torch.cuda.is_available() or cupy is None:
    print("skipped: needs torch with CUDA and cupy")
    raise SystemExit(0)

t = torch.ones(1024, device="cuda")
c = cupy.ones(1024)
x = dlarray.ones(1024, device="cuda:0")


def per_call(fn, arg):
    return best_time(lambda: [fn(arg) for _ in range(N)]) / N


torch_from_cupy = per_call(torch.from_dlpack, c)
cupy_from_torch = per_call(cupy.from_dlpack, t)
report("import a torch tensor", per_call(dlarray.from_dlpack, t), "cupy<-torch", cupy_from_torch)
report("import a cupy array", per_call(dlarray.from_dlpack, c), "torch<-cupy", torch_from_cupy)
report("torch imports ours", per_call(torch.from_dlpack, x), "torch<-cupy", torch_from_cupy)
report("cupy imports ours", per_call(cupy.from_dlpack, x), "cupy<-torch", cupy_from_torch)
