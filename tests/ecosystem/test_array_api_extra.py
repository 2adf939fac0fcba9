"""Every public function of array-api-extra with xp=dlarray gives the NumPy namespace's answer
(array-api-extra run on NumPy is the oracle; where it has a NumPy equivalent, that agrees too)."""
import numpy as np
import pytest

import dlarray

xpx = pytest.importorskip("array_api_extra")
# expand_dims and broadcast_shapes are deprecated in array-api-extra (now in the standard): still public, still tested.
pytestmark = pytest.mark.filterwarnings("ignore:`xpx.*is deprecated:DeprecationWarning")

RNG = np.random.default_rng(1)
V = RNG.standard_normal(12)
VN = V.copy()
VN[[2, 7]] = np.nan
M = RNG.standard_normal((4, 6))
MN = M.copy()
MN[1, 2] = np.nan
Z = V[:6] + 1j * V[6:]
I1 = np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=np.int64)
I2 = np.array([1, 5, 8, 9, 7], dtype=np.int64)
SORTED = np.sort(V)
CLASSES = np.array([0, 2, 1, 2], dtype=np.int64)
FLAT_IDX = np.array([0, 5, 11, 23], dtype=np.int64)

# name -> (function of (xp, *arrays), arrays); each array is passed in xp's own form.
CASES = {
    "angle": (lambda xp, z: xpx.angle(z, xp=xp), Z),
    "angle(deg)": (lambda xp, z: xpx.angle(z, deg=True, xp=xp), Z),
    "apply_where": (lambda xp, v: xpx.apply_where(v > 0, v, xp.sqrt, fill_value=-1.0, xp=xp), V),
    "apply_where(f2)": (lambda xp, v: xpx.apply_where(v > 0, (v,), xp.log, xp.exp, xp=xp), V),
    "argpartition": (lambda xp, v: xp.take(v, xpx.argpartition(v, 4, xp=xp))[4], V),
    "atleast_nd": (lambda xp, v: xpx.atleast_nd(v, ndim=3, xp=xp), V),
    "cov": (lambda xp, m: xpx.cov(m, xp=xp), M),
    "create_diagonal": (lambda xp, v: xpx.create_diagonal(v, offset=1, xp=xp), V),
    "deg2rad": (lambda xp, v: xpx.deg2rad(v, xp=xp), V),
    "expand_dims": (lambda xp, m: xpx.expand_dims(m, axis=(0, 2), xp=xp), M),
    "isclose": (lambda xp, v: xpx.isclose(v, v + 1e-9, xp=xp), V),
    "isin": (lambda xp, a, b: xpx.isin(a, b, xp=xp), I1, I2),
    "kron": (lambda xp, m: xpx.kron(m, m[:2, :2], xp=xp), M),
    "nan_to_num": (lambda xp, v: xpx.nan_to_num(v, fill_value=7.0, xp=xp), VN),
    "nanmax": (lambda xp, m: xpx.nanmax(m, axis=1, xp=xp), MN),
    "nanmin": (lambda xp, m: xpx.nanmin(m, axis=0, xp=xp), MN),
    "nanmean": (lambda xp, m: xpx.nanmean(m, axis=1, xp=xp), MN),
    "nansum": (lambda xp, m: xpx.nansum(m, xp=xp), MN),
    "nunique": (lambda xp, a: xpx.nunique(a, xp=xp), I1),
    "one_hot": (lambda xp, c: xpx.one_hot(c, 3, xp=xp), CLASSES),
    "pad": (lambda xp, m: xpx.pad(m, 2, constant_values=3.0, xp=xp), M),
    "pad(pairs)": (lambda xp, m: xpx.pad(m, ((1, 0), (0, 2)), xp=xp), M),
    "partition": (lambda xp, v: xpx.partition(v, 4, xp=xp)[4], V),
    "rad2deg": (lambda xp, v: xpx.rad2deg(v, xp=xp), V),
    "searchsorted": (lambda xp, s, v: xpx.searchsorted(s, v, side="right", xp=xp), SORTED, V),
    "setdiff1d": (lambda xp, a, b: xpx.setdiff1d(a, b, xp=xp), I1, I2),
    "sinc": (lambda xp, v: xpx.sinc(v, xp=xp), V),
    "union1d": (lambda xp, a, b: xpx.union1d(a, b, xp=xp), I1, I2),
    "unravel_index": (lambda xp, i: xpx.unravel_index(i, (4, 6), xp=xp), FLAT_IDX),
    "at.set": (lambda xp, v: xpx.at(v, slice(2, 5)).set(0.5), V),
    "at.add(mask)": (lambda xp, v: xpx.at(v, v > 0).add(10.0), V),
    "at.multiply(int idx)": (lambda xp, v: xpx.at(v, 3).multiply(-2.0), V),
    "at.min": (lambda xp, v: xpx.at(v, slice(None)).min(0.0), V),
    "at.max": (lambda xp, v: xpx.at(v, slice(None)).max(0.0), V),
    "at.power": (lambda xp, v: xpx.at(v, slice(0, 3)).power(2.0), V),
    "at.subtract": (lambda xp, v: xpx.at(v, slice(0, 3)).subtract(1.0), V),
    "at.divide": (lambda xp, v: xpx.at(v, slice(0, 3)).divide(4.0), V),
    "lazy_apply": (lambda xp, v: xpx.lazy_apply(lambda t: t * 2.0, v, xp=xp), V),
    "lazy_apply(as_numpy)": (lambda xp, v: xpx.lazy_apply(lambda t: np.cumsum(t), v, as_numpy=True,
                                                          shape=v.shape, dtype=v.dtype, xp=xp), V),
}
# Functions that take no array: (function of xp) compared across namespaces.
NO_ARRAY = {
    "broadcast_shapes": lambda xp: xpx.broadcast_shapes((3, 1), (1, 4), xp=xp),
    "default_dtype": lambda xp: str(xpx.default_dtype(xp, "integral")),
    "diag_indices": lambda xp: xpx.diag_indices(3, xp=xp),
    "tril_indices": lambda xp: xpx.tril_indices(4, offset=1, m=5, xp=xp),
    "triu_indices": lambda xp: xpx.triu_indices(4, offset=-1, xp=xp),
}


def _as_numpy(r):
    if isinstance(r, tuple):
        return tuple(_as_numpy(t) for t in r)
    return np.asarray(r) if isinstance(r, (dlarray.Array, np.ndarray)) else r


def _assert_same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _assert_same(g, w)
        return
    if isinstance(want, (np.ndarray, np.generic)):
        assert isinstance(got, dlarray.Array), f"dlarray input gave {type(got).__name__}"
        g = np.asarray(got)
        assert g.dtype == np.asarray(want).dtype
        np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-14)
    else:
        assert got == want


def test_every_public_function_has_a_case():
    covered = {name.split("(")[0].split(".")[0] for name in [*CASES, *NO_ARRAY]}
    public = {n for n in xpx.__all__ if callable(getattr(xpx, n)) and n != "testing"}
    assert public <= covered, f"add cases for {sorted(public - covered)}"


@pytest.mark.parametrize("name", list(CASES))
def test_function(name):
    fn, *arrays = CASES[name]
    got = fn(dlarray, *[dlarray.asarray(a, copy=True) for a in arrays])  # xpx.at may write in place
    want = fn(np, *[a.copy() for a in arrays])
    _assert_same(got, want)


@pytest.mark.parametrize("name", list(NO_ARRAY))
def test_function_without_array_input(name):
    _assert_same(NO_ARRAY[name](dlarray), NO_ARRAY[name](np))


def test_at_with_copy_true_leaves_its_input_alone():
    x = dlarray.asarray(V, copy=True)
    y = xpx.at(x, slice(0, 3)).set(0.0, copy=True)
    np.testing.assert_array_equal(np.asarray(x), V)
    assert np.all(np.asarray(y)[:3] == 0.0)


def test_testing_assertions_accept_dlarray():
    x = dlarray.asarray(V)
    xpx.testing.assert_close(x, dlarray.asarray(V + 1e-12))
    xpx.testing.assert_equal(x, dlarray.asarray(V, copy=True))
    xpx.testing.assert_less(x, dlarray.asarray(V + 1.0))
    with pytest.raises(AssertionError):
        xpx.testing.assert_close(x, dlarray.asarray(V + 1.0))
    with pytest.raises(AssertionError):
        xpx.testing.assert_equal(x, dlarray.asarray(V, dtype=dlarray.float32))
