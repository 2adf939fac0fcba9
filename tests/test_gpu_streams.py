"""CUDA streams: the stream API, DLPack stream values, and ordering against real races."""
import numpy as np
import pytest

import dlarray
from helpers.gpu_util import host, needs_cuda, torch_cuda

pytestmark = [pytest.mark.gpu, needs_cuda]

N = 1 << 22
SLEEP_CYCLES = 500_000_000  # a few hundred ms of GPU spinning: the host is long done by then


def test_stream_api_on_cuda():
    s = dlarray.cuda.Stream(non_blocking=True)
    assert s.handle != 0 and s.__cuda_stream__() == (0, s.handle)
    assert dlarray.cuda.current_stream().handle == 0
    with dlarray.cuda.stream(s):
        assert dlarray.cuda.current_stream() == s
        x = dlarray.full(1000, 3.0, device="cuda:0")
        dlarray.cuda.synchronize()
        assert s.query()
    assert dlarray.cuda.current_stream().handle == 0
    np.testing.assert_array_equal(host(x), np.full(1000, 3.0))


def test_dlpack_stream_values_on_cuda():
    x = dlarray.zeros(3, device="cuda:0")
    with pytest.raises(ValueError, match="ambiguous"):
        x.__dlpack__(stream=0)
    other = dlarray.cuda.Stream()  # alive while its handle is in use
    for ok in (None, -1, 1, 2, other.handle):
        x.__dlpack__(stream=ok)
    other.synchronize()


def test_we_wait_for_a_producer_side_stream():
    """torch writes on a side stream behind a long kernel; we read at once on ours."""
    torch = torch_cuda()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        t = torch.zeros(N, device="cuda")
        torch.cuda._sleep(SLEEP_CYCLES)
        t.fill_(1.0)
        # The control first: the same import without any wait reads while `side` sleeps.
        # (After the real import our stream waits for `side`, and so would the control.)
        control = host(dlarray.from_dlpack(_NoSync(t)))
        x = dlarray.from_dlpack(t)  # torch's current stream is `side`: we must wait for it
    assert (host(x) == 1.0).all()
    assert not (control == 1.0).all(), "the control did not race: the test would not catch a missing wait"
    side.synchronize()


class _NoSync:
    """A producer view that asks for no synchronisation (stream=-1), whatever we pass."""

    def __init__(self, t):
        self.t = t

    def __dlpack__(self, **kw):
        kw["stream"] = -1
        return self.t.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()


def test_consumers_wait_for_our_stream():
    """We write on our own stream behind a long kernel; torch reads on its stream."""
    torch = torch_cuda()
    s = dlarray.cuda.Stream(non_blocking=True)
    with dlarray.cuda.stream(s):
        with torch.cuda.stream(torch.cuda.ExternalStream(s.handle)):
            torch.cuda._sleep(SLEEP_CYCLES)
        x = dlarray.full(N, 1.0, dtype=dlarray.float32, device="cuda:0")
        consumer = torch.cuda.current_stream()  # torch's default stream: DLPack spells it 1
        cap = x.__dlpack__(stream=consumer.cuda_stream or 1)  # a legacy capsule: any torch reads it
    t = torch.utils.dlpack.from_dlpack(cap)
    assert bool((t == 1.0).all())


def test_to_device_on_a_stream():
    s = dlarray.cuda.Stream()
    a = np.arange(1000.0)
    x = dlarray.asarray(a).to_device("cuda:0", stream=s)
    s.synchronize()
    np.testing.assert_array_equal(host(x), a)
    with pytest.raises(ValueError, match="ambiguous"):
        dlarray.asarray(a).to_device("cuda:0", stream=0)
