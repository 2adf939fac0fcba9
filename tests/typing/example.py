"""A typed use of dlarray, checked by mypy in tests/test_typing.py against dlarray's stubs."""
import dlarray as xp


def standardize(x: xp.Array, axis: int = 0) -> xp.Array:
    mean = xp.mean(x, axis=axis, keepdims=True)
    std = xp.std(x, axis=axis, keepdims=True)
    return (x - mean) / std


data: xp.Array = xp.reshape(xp.arange(12, dtype=xp.float64), (3, 4))
z = standardize(data)
shape: tuple[int, ...] = z.shape
kind: xp.DType = z.dtype
total: float = float(xp.sum(z @ z.T))
parts: tuple[xp.Array, ...] = xp.nonzero(z > 0)
ok: bool = xp.isdtype(kind, "real floating")
