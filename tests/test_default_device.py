"""The default device of creation functions: set_default_device (process), the default_device
context manager (thread), DLARRAY_DEFAULT_DEVICE (import), reported by the inspection namespace.
Checked with the fake GPU backend's rocm:N devices."""
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import dlarray as dl


@pytest.fixture(autouse=True)
def reset():
    yield
    dl.set_default_device(None)


CREATORS = {
    "arange": lambda: dl.arange(4), "empty": lambda: dl.empty((2,)), "eye": lambda: dl.eye(2),
    "full": lambda: dl.full((2,), 7), "linspace": lambda: dl.linspace(0, 1, 3), "ones": lambda: dl.ones(2),
    "zeros": lambda: dl.zeros(2), "asarray(list)": lambda: dl.asarray([1.0, 2.0]),
    "asarray(scalar)": lambda: dl.asarray(3), "asarray(np scalar)": lambda: dl.asarray(np.float32(1.5)),
}


def test_cpu_unless_told(fake):
    assert str(dl.get_default_device()) == "cpu"
    assert str(dl.__array_namespace_info__().default_device()) == "cpu"
    assert all(str(make().device) == "cpu" for make in CREATORS.values())


@pytest.mark.parametrize("name", sorted(CREATORS))
def test_creation_follows_the_context_manager(fake, name):
    want = np.from_dlpack(CREATORS[name]())
    with dl.default_device("rocm:1") as d:
        assert str(d) == "rocm:1"
        assert str(dl.__array_namespace_info__().default_device()) == "rocm:1"
        x = CREATORS[name]()
    assert str(x.device) == "rocm:1"
    got = np.from_dlpack(x.to_device("cpu"))
    assert got.shape == want.shape and got.dtype == want.dtype
    if name != "empty":
        np.testing.assert_array_equal(got, want)
    assert str(CREATORS[name]().device) == "cpu"  # restored after the block


def test_arrays_stay_where_they_are(fake):
    c = dl.ones(3)
    with dl.default_device("rocm:0"):
        assert str(dl.asarray(np.ones(3)).device) == "cpu"  # another library's array: its device
        assert str(dl.asarray(c).device) == "cpu"
        assert str(dl.zeros_like(c).device) == "cpu"
        assert str((c + 1).device) == "cpu"
        assert str(dl.ones(2, device="cpu").device) == "cpu"  # an explicit device wins


def test_setter_is_process_wide_and_the_context_is_per_thread(fake):
    dl.set_default_device("rocm:0")
    seen = {}
    with dl.default_device("rocm:1"):
        t = threading.Thread(target=lambda: seen.update(other=str(dl.zeros(1).device)))
        t.start()
        t.join()
        seen["here"] = str(dl.zeros(1).device)
        with dl.default_device(None):  # None inside a block: back to the process default
            seen["inner"] = str(dl.zeros(1).device)
    assert seen == {"other": "rocm:0", "here": "rocm:1", "inner": "rocm:0"}
    assert str(dl.get_default_device()) == "rocm:0"


def test_a_computation_runs_where_it_was_created(fake):
    with dl.default_device("rocm:0"):
        x = dl.linspace(0, 1, 5)
        y = dl.sum(x * x)
    assert str(y.device) == "rocm:0"
    assert float(y) == pytest.approx(np.sum(np.linspace(0, 1, 5) ** 2))


def test_bad_devices_are_refused():
    with pytest.raises(ValueError, match="unknown device"):
        dl.set_default_device("tpu:0")
    with pytest.raises(ValueError, match="unknown device"):
        with dl.default_device("nope"):
            pass
    assert str(dl.get_default_device()) == "cpu"


def test_environment_variable():
    code = "import dlarray as dl; print(dl.get_default_device(), dl.ones(1).device)"
    env = dict(os.environ, DLARRAY_DEFAULT_DEVICE="cpu")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["cpu", "cpu"], out.stderr
    env["DLARRAY_DEFAULT_DEVICE"] = "gpu7"
    out = subprocess.run([sys.executable, "-c", "import dlarray"], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode != 0 and "DLARRAY_DEFAULT_DEVICE='gpu7'" in out.stderr
