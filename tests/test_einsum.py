"""dlarray.einsum (python/dlarray/_einsum.py) against np.einsum(..., optimize=True): a table of
expressions (products, batches, traces, diagonals, outer products, transposes, ellipses with
broadcasting, chains, scalars, empty operands) over dtypes, on the CPU and the fake GPU; the
sublist form, optimize paths, dtype=, promotion; and the errors NumPy raises."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlarray as dl
from helpers.gpu_util import host

TOL = {"float32": 1e-5, "complex64": 1e-5, "float64": 1e-12, "complex128": 1e-12}

# (subscripts, operand shapes)
EXPRESSIONS = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("ij,kj->ik", [(3, 4), (5, 4)]),
    ("ji,jk->ik", [(4, 3), (4, 5)]),
    ("ji,kj->ik", [(4, 3), (5, 4)]),
    ("ij,jk->ki", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bij,bkj->bik", [(2, 3, 4), (2, 5, 4)]),
    ("bij,jbk->kbi", [(2, 3, 4), (4, 2, 5)]),
    ("i,ij,j", [(3,), (3, 4), (4,)]),
    ("i,ij,j->", [(3,), (3, 4), (4,)]),
    ("i,i", [(7,), (7,)]),
    ("i,i->i", [(7,), (7,)]),
    ("ij,j->i", [(3, 4), (4,)]),
    ("j,ij->i", [(4,), (3, 4)]),
    ("ij,ij->i", [(3, 4), (3, 4)]),
    ("ij,ij->", [(3, 4), (3, 4)]),
    ("ij,ji->", [(3, 4), (4, 3)]),
    ("ii", [(4, 4)]),
    ("ii->", [(4, 4)]),
    ("ii->i", [(4, 4)]),
    ("iij->j", [(3, 3, 4)]),
    ("iji->j", [(3, 4, 3)]),
    ("iii->i", [(3, 3, 3)]),
    ("ijji->ij", [(2, 3, 3, 2)]),
    ("ii,jj->ij", [(3, 3), (2, 2)]),
    ("ii,ij->j", [(3, 3), (3, 4)]),
    ("i,j->ij", [(3,), (4,)]),
    ("i,j", [(3,), (4,)]),
    ("ij,k->ijk", [(2, 3), (4,)]),
    ("ij,k->kji", [(2, 3), (4,)]),
    ("ij->ji", [(3, 4)]),
    ("ij", [(3, 4)]),
    ("ji", [(3, 4)]),
    ("ij->", [(3, 4)]),
    ("ij->i", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("ijk->kji", [(2, 3, 4)]),
    ("ijk->jk", [(2, 3, 4)]),
    ("ijk->", [(2, 3, 4)]),
    ("ij,k->i", [(3, 4), (5,)]),
    ("ij,jk->", [(3, 4), (4, 5)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("...ij,...jk", [(2, 3, 4), (4, 5)]),
    ("...ij,...jk", [(1, 3, 4), (6, 4, 5)]),
    ("...i,...i->...", [(3, 4), (4,)]),
    ("...i,...i", [(3, 4), (2, 1, 4)]),
    ("i...->...", [(3, 4, 5)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("i...i->...", [(3, 2, 3)]),
    ("...->...", [(2, 3)]),
    ("...", [(2, 3)]),
    ("...ij->...ji", [(2, 3, 4)]),
    ("...ij->j", [(2, 3, 4)]),
    ("ij...,jk...->ik...", [(3, 4, 2), (4, 5, 2)]),
    ("ij,ij->ij", [(1, 3), (2, 3)]),
    ("ij,jk->ik", [(2, 1), (3, 4)]),
    ("ij,ij->i", [(2, 1), (2, 5)]),
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]),
    ("ij,jk,kl,lm->im", [(2, 3), (3, 4), (4, 5), (5, 6)]),
    ("ab,bc,cd,de", [(2, 3), (3, 4), (4, 5), (5, 2)]),
    ("ij,ij,ij->ij", [(3, 4), (3, 4), (3, 4)]),
    ("i,i,i->", [(5,), (5,), (5,)]),
    ("ea,fb,abcd,gc,hd->efgh", [(2, 3), (2, 4), (3, 4, 2, 3), (3, 2), (2, 3)]),
    ("ab,cd,ef->abcdef", [(2, 1), (3, 2), (1, 2)]),
    ("ijk,jl,kl->il", [(2, 3, 4), (3, 5), (4, 5)]),
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    (",->", [(), ()]),
    ("i,->i", [(4,), ()]),
    (",ij->ij", [(), (2, 3)]),
    ("->", [()]),
    ("", [()]),
    ("Ab,bC->AC", [(3, 4), (4, 2)]),
    ("aA,Aa->", [(2, 3), (3, 2)]),
    ("aA", [(2, 3)]),
    ("Ba,aB", [(2, 3), (3, 2)]),
    ("ij,jk", [(0, 3), (3, 4)]),
    ("ij,jk", [(3, 0), (0, 4)]),
    ("ii", [(0, 0)]),
    ("i,i", [(0,), (0,)]),
    ("ij->", [(0, 3)]),
    ("bij,bjk->bik", [(0, 3, 4), (0, 4, 5)]),
]
DTYPES = ["float32", "float64", "int64", "complex128"]


def rand(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.startswith(("int", "uint")):
        return rng.integers(-3 if dtype.startswith("int") else 0, 4, size=shape).astype(dtype)
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def check(got, want, device="cpu"):
    want = np.asarray(want)
    assert isinstance(got, dl.Array)
    assert str(got.device) == device
    assert str(got.dtype) == want.dtype.name
    assert got.shape == want.shape
    g = host(got)
    if want.dtype.kind in "fc":
        tol = TOL[want.dtype.name]
        scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
        np.testing.assert_allclose(g, want, rtol=tol, atol=tol * scale)
    else:
        np.testing.assert_array_equal(g, want)


def operands(shapes, dtype):
    return [rand(s, dtype, seed) for seed, s in enumerate(shapes)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("subscripts,shapes", EXPRESSIONS, ids=[f"{s or 'empty'}:{sh}" for s, sh in EXPRESSIONS])
def test_against_numpy(subscripts, shapes, dtype):
    xs = operands(shapes, dtype)
    want = np.einsum(subscripts, *xs, optimize=True)
    check(dl.einsum(subscripts, *[dl.asarray(x) for x in xs]), want)


@st.composite
def expressions(draw):
    """Random subscripts over a few labels: repeats within a term, sizes 0-4 (some broadcast
    from 1), implicit or explicit output in any order."""
    pool = "abcdAB"
    sizes = {c: draw(st.integers(1, 4)) for c in pool}
    terms = [draw(st.lists(st.sampled_from(pool), max_size=3)) for _ in range(draw(st.integers(1, 4)))]
    shapes = [tuple(1 if draw(st.booleans()) and draw(st.booleans()) else sizes[c] for c in t) for t in terms]
    spec = ",".join("".join(t) for t in terms)
    if draw(st.booleans()):
        used = sorted({c for t in terms for c in t})
        spec += "->" + "".join(draw(st.permutations(used))[: draw(st.integers(0, len(used)))])
    return spec, shapes


@settings(max_examples=300)
@given(expressions(), st.sampled_from(["float64", "int64"]))
def test_random_expressions(expression, dtype):
    subscripts, shapes = expression
    xs = operands(shapes, dtype)
    try:
        want = np.einsum(subscripts, *xs, optimize=True)
    except ValueError:  # a size-1 repeat NumPy refuses; ours broadcasts it or refuses too
        return
    check(dl.einsum(subscripts, *[dl.asarray(x) for x in xs]), want)


@pytest.mark.parametrize("subscripts,shapes", EXPRESSIONS[::3] + [EXPRESSIONS[-1]])
def test_on_fake_gpu(fake, subscripts, shapes):
    xs = operands(shapes, "float64")
    got = dl.einsum(subscripts, *[dl.asarray(x, device="rocm:0") for x in xs])
    check(got, np.einsum(subscripts, *xs, optimize=True), device="rocm:0")


@pytest.mark.parametrize("dtype", ["int64", "complex128", "float32"])
def test_on_fake_gpu_dtypes(fake, dtype):
    xs = operands([(2, 3, 4), (2, 4, 5), (5,)], dtype)
    got = dl.einsum("bij,bjk,k->bi", *[dl.asarray(x, device="rocm:0") for x in xs])
    check(got, np.einsum("bij,bjk,k->bi", *xs, optimize=True), device="rocm:0")
    got = dl.einsum("ii->i", dl.asarray(xs[0][0, :3, :3], device="rocm:0"))
    check(got, np.einsum("ii->i", xs[0][0, :3, :3]), device="rocm:0")


@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("i,i", [(4,), (4,)]), ("ij->", [(3, 4)]), ("ii->i", [(3, 3)]),
    ("i,j->ij", [(3,), (4,)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
])
def test_bool(subscripts, shapes):
    xs = operands(shapes, "bool")
    check(dl.einsum(subscripts, *[dl.asarray(x) for x in xs]), np.einsum(subscripts, *xs, optimize=True))


@pytest.mark.parametrize("d1,d2", [
    ("int8", "uint8"), ("int8", "int16"), ("int32", "float32"), ("float32", "float64"),
    ("float32", "complex128"), ("uint16", "int64"), ("int8", "int8"), ("uint8", "uint8"), ("bool", "float32"),
    ("complex64", "float32"), ("uint32", "uint64"),
])
def test_promotion(d1, d2):
    a, b = rand((3, 4), d1, 0), rand((4, 2), d2, 1)
    check(dl.einsum("ij,jk->ik", dl.asarray(a), dl.asarray(b)), np.einsum("ij,jk->ik", a, b, optimize=True))
    check(dl.einsum("ij->", dl.asarray(a)), np.einsum("ij->", a, optimize=True))


def test_small_int_wraps_as_numpy():
    a = np.full((4, 100), 3, dtype=np.int8)
    check(dl.einsum("ij->i", dl.asarray(a)), np.einsum("ij->i", a))
    check(dl.einsum("ij,ij->i", dl.asarray(a), dl.asarray(a)), np.einsum("ij,ij->i", a, a))


def test_python_scalars():
    a = rand((3,), "float32", 0)
    check(dl.einsum("i,->i", dl.asarray(a), 2.5), np.einsum("i,->i", a, np.float32(2.5)))
    check(dl.einsum(",i->i", 2, dl.asarray(a)), np.einsum(",i->i", np.float32(2), a))
    check(dl.einsum(",->", 2, 3), np.einsum(",->", 2, 3))


def test_nan_and_inf_propagate():
    a = np.array([[1.0, np.nan], [2.0, 3.0]])
    b = np.array([[np.inf, 1.0], [0.5, 2.0]])
    for s in ("ij,jk", "ij,ij->i", "ii", "ij->"):
        check(dl.einsum(s, dl.asarray(a), dl.asarray(b)) if "," in s else dl.einsum(s, dl.asarray(a)),
              np.einsum(s, a, b) if "," in s else np.einsum(s, a))


@pytest.mark.parametrize("view", [
    lambda x: x.T, lambda x: x[::2, ::2], lambda x: x[:, ::-1], lambda x: x[1:, 1:], lambda x: x[::-1, ::3].T,
], ids=["transposed", "stepped", "reversed", "sliced", "mixed"])
@pytest.mark.parametrize("subscripts", ["ij,jk->ik", "ij,kj->ki", "ji,jk->ik", "ij,ij->j", "ij->", "ii->i", "ij,j"])
def test_strided_operands(view, subscripts):
    """Views of every layout as operands: the contraction reads them without losing values."""
    source = rand((6, 6), "float64", 0)
    x, dx = view(source), view(dl.asarray(source))
    terms = subscripts.split("->")[0].split(",")
    if terms[0] == "ii":
        m = min(x.shape)
        x, dx = x[:m, :m], dx[:m, :m]
    sizes = dict(zip(terms[0], x.shape))
    others = [rand(tuple(sizes.get(c, 4) for c in t), "float64", k + 1) for k, t in enumerate(terms[1:])]
    check(dl.einsum(subscripts, dx, *[dl.asarray(v) for v in others]), np.einsum(subscripts, x, *others))


def test_no_arithmetic_gives_views():
    """As NumPy's: transposes and diagonals are views of the operand (a later write shows)."""
    x = rand((3, 3), "float64", 0)
    a = dl.asarray(x)
    transposed, diagonal = dl.einsum("ij->ji", a), dl.einsum("ii->i", a)
    check(transposed, x.T)
    check(diagonal, np.diagonal(x))
    a[1, 1] = 100.0
    assert host(transposed)[1, 1] == 100.0 and host(diagonal)[1] == 100.0
    assert dl.einsum("ij->ij", a) is not a


def test_sublist_form():
    a, b = rand((2, 3), "float64", 0), rand((3, 4), "float64", 1)
    da, db = dl.asarray(a), dl.asarray(b)
    check(dl.einsum(da, [0, 1], db, [1, 2]), np.einsum(a, [0, 1], b, [1, 2]))
    check(dl.einsum(da, [0, 1], db, [1, 2], [2, 0]), np.einsum(a, [0, 1], b, [1, 2], [2, 0]))
    check(dl.einsum(da, [0, 1], da, [27, 1]), np.einsum(a, [0, 1], a, [27, 1]))
    check(dl.einsum(da, [Ellipsis, 1], [1]), np.einsum(a, [Ellipsis, 1], [1], optimize=True))
    check(dl.einsum(da, [51, 0]), np.einsum(a, [51, 0]))


def test_sublist_errors():
    a = dl.asarray(rand((2, 3), "float64", 0))
    with pytest.raises(ValueError, match="range"):
        dl.einsum(a, [0, 52])
    with pytest.raises(ValueError, match="range"):
        dl.einsum(a, [-1, 0])
    with pytest.raises(TypeError, match="sublist"):
        dl.einsum(a, "ij")
    with pytest.raises(TypeError, match="labels"):
        dl.einsum(a, [0, 1.5])


@pytest.mark.parametrize("optimize", [True, False, "greedy", "optimal",
                                      ["einsum_path", (1, 2), (0, 1)], [(0, 2), (0, 1)], ["einsum_path", (0, 1, 2)]])
def test_optimize_choices(optimize):
    xs = operands([(3, 4), (4, 5), (5, 2)], "float64")
    check(dl.einsum("ij,jk,kl->il", *[dl.asarray(x) for x in xs], optimize=optimize),
          np.einsum("ij,jk,kl->il", *xs))


def test_numpy_path_is_followed():
    xs = operands([(2, 3), (3, 4), (4, 5), (5, 2)], "float64")
    path, _ = np.einsum_path("ij,jk,kl,lm->im", *xs, optimize="greedy")
    check(dl.einsum("ij,jk,kl,lm->im", *[dl.asarray(x) for x in xs], optimize=path),
          np.einsum("ij,jk,kl,lm->im", *xs, optimize=path))


def test_bad_optimize():
    a = dl.asarray(rand((2, 2), "float64", 0))
    with pytest.raises(ValueError, match="optimize"):
        dl.einsum("ij,jk", a, a, optimize="fastest")
    with pytest.raises(TypeError, match="optimize"):
        dl.einsum("ij,jk", a, a, optimize=3)
    with pytest.raises(ValueError, match="path step"):
        dl.einsum("ij,jk", a, a, optimize=[(0, 2)])


def test_dtype_argument():
    a, b = rand((3, 4), "int32", 0), rand((4, 2), "int32", 1)
    check(dl.einsum("ij,jk", dl.asarray(a), dl.asarray(b), dtype=dl.float64),
          np.einsum("ij,jk", a, b, dtype=np.float64))
    f = rand((3, 4), "float32", 2)
    check(dl.einsum("ij->i", dl.asarray(f), dtype=dl.complex128), np.einsum("ij->i", f, dtype=np.complex128))
    i16 = rand((3,), "int16", 3)
    check(dl.einsum("i->", dl.asarray(i16), dtype=dl.float32), np.einsum("i->", i16, dtype=np.float32))
    with pytest.raises(TypeError, match="safely"):
        dl.einsum("ij->", dl.asarray(f), dtype=dl.int64)
    with pytest.raises(TypeError, match="safely"):
        dl.einsum("ij->", dl.asarray(a), dtype=dl.float32)  # NumPy: int32 -> float32 is not 'safe'
    with pytest.raises(TypeError, match="dtype"):
        dl.einsum("ij->", dl.asarray(a), dtype="float64")


@pytest.mark.parametrize("subscripts,shapes,match", [
    ("ij,jk", [(2, 3)], "operand"),
    ("ij", [(2, 3), (3, 2)], "operand"),
    ("i", [(2, 3)], "dimension"),
    ("ijk", [(2, 3)], "dimension"),
    ("ij...k", [(2, 3)], "dimension"),
    ("ij->k", [(2, 3)], "'k'"),
    ("ij->ii", [(2, 3)], "more than once"),
    ("...ij->......", [(2, 3)], r"'\.\.\.'"),
    ("ij,jk", [(2, 3), (2, 4)], "'j'.*3.*2|'j'.*2.*3"),
    ("ii", [(2, 3)], "'i'"),
    ("...i,...i", [(2, 3), (4, 3)], r"'\.\.\.'"),
    ("i1", [(2, 3)], "invalid subscript '1'"),
    ("i.j", [(2, 3)], "ellipsis"),
    ("......", [(2, 3)], "more than one"),
    ("ij->->", [(2, 3)], "'->'"),
    ("ij-", [(2, 3)], "'->'"),
    ("i>j", [(2, 3)], "'->'"),
    ("ij->i,j", [(2, 3)], "invalid subscript ','"),
    ("ij,,jk", [(2, 3), (3, 2)], "operand"),
])
def test_value_errors(subscripts, shapes, match):
    xs = [dl.asarray(rand(s, "float64", 0)) for s in shapes]
    with pytest.raises(ValueError, match=match):
        dl.einsum(subscripts, *xs)
    with pytest.raises(ValueError):  # NumPy agrees (its optimize=True parser lets "->......" pass)
        np.einsum(subscripts, *[rand(s, "float64", 0) for s in shapes], optimize=False)


def test_type_errors():
    a = dl.asarray(rand((2, 2), "float64", 0))
    with pytest.raises(TypeError, match="subscripts"):
        dl.einsum(3, a)
    with pytest.raises(TypeError, match="subscripts"):
        dl.einsum(None, a)
    with pytest.raises(TypeError, match="operand 1"):
        dl.einsum("ij,jk", a, [[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(TypeError, match="operand 0"):
        dl.einsum("ij", np.ones((2, 2)))
    with pytest.raises(ValueError, match="no operands"):
        dl.einsum("")


def test_mixed_devices_raise(fake):
    a = dl.asarray(rand((2, 2), "float64", 0))
    b = dl.asarray(rand((2, 2), "float64", 1), device="rocm:0")
    with pytest.raises(ValueError, match="different devices"):
        dl.einsum("ij,jk", a, b)


def test_python_scalar_joins_the_device(fake):
    x = rand((3,), "float64", 0)
    check(dl.einsum("i,->i", dl.asarray(x, device="rocm:0"), 2.0), 2.0 * x, device="rocm:0")


def test_exported():
    assert dl.einsum.__module__ == "dlarray._einsum"
    assert "einsum" in dir(dl)


def test_replayed_plans_follow_values_and_layouts():
    """A second call with operands of the same shapes, strides and dtypes replays the first's
    plan: new values give new results; another layout (or dtype) gets a plan of its own."""
    for seed in range(3):
        xs = operands([(3, 4), (4, 5), (5, 2)], "float64")
        xs = [x + seed for x in xs]
        check(dl.einsum("ij,jk,kl->il", *[dl.asarray(x) for x in xs]), np.einsum("ij,jk,kl->il", *xs))
    x, y = rand((4, 4), "float64", 0), rand((4, 4), "float64", 1)
    for a, b in ((x, y), (x.T, y), (x, y.T), (x[::-1], y[:, ::-1])):
        check(dl.einsum("ij,jk->ik", dl.asarray(np.ascontiguousarray(a)), dl.asarray(b)), a @ b)
    check(dl.einsum("ij,jk->ik", dl.asarray(x).mT, dl.asarray(y)), x.T @ y)
    check(dl.einsum("ij,jk->ik", dl.asarray(x)[::-1], dl.asarray(y).mT), x[::-1] @ y.T)
    da, db = dl.asarray(x), dl.asarray(y)
    check(dl.einsum("ij,jk->ik", da, da), x @ x)  # one object twice, then two of that look
    check(dl.einsum("ij,jk->ik", da, db), x @ y)
    check(dl.einsum("ij,jk->ik", db, db), y @ y)
    xi = rand((4, 4), "int64", 2)
    check(dl.einsum("ij,jk->ik", dl.asarray(xi), dl.asarray(xi)), xi @ xi)
    check(dl.einsum("ii->i", dl.asarray(x)), np.diagonal(x))
    check(dl.einsum("ii->i", dl.asarray(x + 1)), np.diagonal(x + 1))


def test_many_plans_evict_the_oldest():
    for n in range(300):
        a, b = rand((n % 17 + 1, n % 19 + 1), "float64", n), rand((n % 19 + 1,), "float64", n + 1)
        check(dl.einsum("ij,j->i", dl.asarray(a), dl.asarray(b), optimize=n % 2 == 0), a @ b)
    from dlarray import _einsum
    assert len(_einsum._PLANS) == _einsum._PLANS_KEPT  # 300 keys seen, the newest kept


def test_numpy_einsum_dispatches_to_dlarray():
    # np.einsum(*operands) reaches dl.einsum through __array_function__ with its operands spread.
    a = np.arange(6.0).reshape(2, 3)
    r = np.einsum("ij,kj->ik", dl.asarray(a), dl.asarray(a))
    assert isinstance(r, dl.Array)
    np.testing.assert_array_equal(np.from_dlpack(r), a @ a.T)
