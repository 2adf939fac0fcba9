"""Correctness of the CPU kernels tuned for issue 10's benchmarks, at their edges.

- float32/float64 max/min (simd_minmax.h's AVX2 float body: groups of 8 vectors, NaNs found
  by unordered compares of vector pairs, the tail in vectors): NaN at group and pair
  boundaries and in the tail, the extreme at every tail position, every size around the group
  length, strided input, one and two threads;
- argmax/argmin over 32768-element blocks (search_cpu.cpp): the first NaN and the first of
  equal extremes on either side of a block boundary, in the tail, and across the per-thread
  chunks;
- contiguous float sums through the 2048-element AVX2 piece (reduce.cpp): bit for bit the same
  tree as the strided path, in address order;
- integer sums in vector lanes (reduce.cpp's int_sum_body: wrapping, so any grouping) and
  integer max/min through vpmin/vpmax (AVX-512, every lane width): every dtype, every size
  around the vector groups, the type's extremes anywhere, wrapping sums, strided input;
- a + b.T through tiles that transpose the mixed-order operand first (elementwise_cpu.cpp):
  4- and 8-byte items, other sizes that stay strided, ragged edges, in-place and broadcast.

(No timings here: performance lives in benchmarks/.)
"""
import math

import numpy as np
import pytest

import dlarray as dl


@pytest.fixture(params=[1, 2], ids=["1t", "2t"])
def threads(request):
    before = dl._core._num_threads()
    dl._core._set_num_threads(request.param)
    yield request.param
    dl._core._set_num_threads(before)


def np_of(x):
    return np.from_dlpack(x)


# ---- max / min ---------------------------------------------------------------------------------

# float32: 8 accumulators of 8 lanes (64-element groups); float64: 8 of 4 (32-element groups).
GROUP = {"float32": 64, "float64": 32}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["max", "min"])
def test_max_min_match_numpy_at_every_size_around_the_group(name, dtype):
    g = GROUP[dtype]
    rng = np.random.default_rng(g)
    for n in [1, 2, 7, g - 1, g, g + 1, 8 * g - 1, 8 * g, 8 * g + 1, 9 * g + 5, 16 * g, 16 * g + 3, 1000, 4097]:
        a = rng.standard_normal(n).astype(dtype)
        assert float(getattr(dl, name)(dl.asarray(a))) == float(getattr(np, name)(a)), n


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["max", "min"])
def test_max_min_nan_at_group_pair_and_tail_boundaries(name, dtype, threads):
    g = GROUP[dtype]
    w = g // 8
    n = 40 * g + 7  # whole groups and a tail of 7
    base = np.linspace(-5, 5, n).astype(dtype)
    positions = {0, 1, w - 1, w, 2 * w - 1, 2 * w, g - 1, g, g + 1, 8 * g - 1, 8 * g, 40 * g - 1, 40 * g, n - 1}
    for pos in sorted(positions):
        x = base.copy()
        x[pos] = np.nan
        assert math.isnan(float(getattr(dl, name)(dl.asarray(x)))), pos
    # Every element NaN, and NaN only in the last element of a long row (2 * 10^5: split over
    # threads when there are two).
    assert math.isnan(float(getattr(dl, name)(dl.full(n, math.nan, dtype=getattr(dl, dtype)))))
    long = np.arange(200_003, dtype=dtype)
    long[-1] = np.nan
    assert math.isnan(float(getattr(dl, name)(dl.asarray(long))))
    # Infinities are values, not NaNs.
    x = base.copy()
    x[g + 3] = np.inf
    x[2 * g + 1] = -np.inf
    assert float(getattr(dl, name)(dl.asarray(x))) == (np.inf if name == "max" else -np.inf)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["max", "min"])
def test_max_min_of_strided_and_offset_input(name, dtype, threads):
    rng = np.random.default_rng(3)
    a = rng.standard_normal(100_001).astype(dtype)
    x = dl.asarray(a)
    for view, nview in ((x[1:], a[1:]), (x[3:-5], a[3:-5]), (x[::2], a[::2]), (x[::-1], a[::-1]), (x[7::3], a[7::3])):
        assert float(getattr(dl, name)(view)) == float(getattr(np, name)(nview))
    m = rng.standard_normal((37, 1031)).astype(dtype)
    for axis in (0, 1):
        assert np.array_equal(np_of(getattr(dl, name)(dl.asarray(m), axis=axis)), getattr(np, name)(m, axis=axis))
    m[5, 700] = np.nan
    got = np_of(getattr(dl, name)(dl.asarray(m), axis=1))
    assert math.isnan(got[5]) and not np.isnan(np.delete(got, 5)).any()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["max", "min"])
def test_max_min_find_the_extreme_or_nan_anywhere_in_the_tail(name, dtype):
    # The tail after the last whole group is folded in whole vectors and one vector ending at
    # the row's end, which overlaps the groups: every tail length, the extreme (and a NaN) at
    # each tail position, also as rows of a 2-D array folded along axis 1.
    g = GROUP[dtype]
    sign = 1 if name == "max" else -1
    for tail in range(g):
        n = 8 * g + tail
        for pos in range(8 * g - 1, n):
            x = np.linspace(-1, 1, n).astype(dtype)[::-1] * sign  # the extreme first
            x[pos] = 2 * sign
            assert float(getattr(dl, name)(dl.asarray(x))) == 2 * sign, (tail, pos)
            x[pos] = np.nan
            assert math.isnan(float(getattr(dl, name)(dl.asarray(x)))), (tail, pos)
    rows = np.random.default_rng(7).standard_normal((50, 8 * g + 5)).astype(dtype)
    rows[np.arange(50), 8 * g + np.arange(50) % 5] = 9 * sign
    assert np.array_equal(np_of(getattr(dl, name)(dl.asarray(rows), axis=1)), np.full(50, 9 * sign, dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_max_min_of_signed_zeros_are_zero(dtype):
    for n in (1000, 4099):
        a = np.where(np.arange(n) % 3 == 0, -0.0, 0.0).astype(dtype)
        a[n // 2] = -1.0
        assert float(dl.max(dl.asarray(a))) == 0.0
        assert float(dl.min(dl.asarray(a))) == -1.0


# ---- argmax / argmin ---------------------------------------------------------------------------

BLOCK = 32768  # extreme_row's block


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_extreme_first_nan_at_block_boundaries(name, dtype, threads):
    n = 3 * BLOCK + 1001
    base = np.sin(np.arange(n)).astype(dtype)
    for pos in (0, 31, 32, 63, 64, BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK, 3 * BLOCK - 1, 3 * BLOCK, n - 1):
        x = base.copy()
        x[pos] = np.nan
        x[min(pos + 5, n - 1)] = np.nan  # a later NaN must not win
        assert int(getattr(dl, name)(dl.asarray(x))) == pos, pos


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_extreme_first_of_equal_extremes_across_blocks(name, dtype, threads):
    n = 4 * BLOCK + 77
    base = (np.arange(n) % 1000).astype(dtype) / 1000
    v = 5.0 if name == "argmax" else -5.0
    for first, second in ((BLOCK - 1, BLOCK), (10, 3 * BLOCK + 5), (BLOCK, 2 * BLOCK), (2 * BLOCK - 1, n - 1),
                          (n - 2, n - 1), (0, n - 1)):
        x = base.copy()
        x[first] = v
        x[second] = v
        assert int(getattr(dl, name)(dl.asarray(x))) == first, (first, second)
    # The extreme only in the tail after the last whole block.
    x = base.copy()
    x[n - 3] = v
    assert int(getattr(dl, name)(dl.asarray(x))) == n - 3


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_extreme_matches_numpy_small_strided_and_by_axis(name, dtype, threads):
    rng = np.random.default_rng(11)
    for n in (1, 2, 31, 32, 33, 63, 64, 65, 255, 256, 257, 1000, BLOCK + 3, 10**6 + 9):
        a = rng.standard_normal(n).astype(dtype)
        assert int(getattr(dl, name)(dl.asarray(a))) == int(getattr(np, name)(a)), n
    a = rng.standard_normal(200_001).astype(dtype)
    x = dl.asarray(a)
    for view, nview in ((x[1:], a[1:]), (x[::3], a[::3]), (x[::-1], a[::-1])):
        assert int(getattr(dl, name)(view)) == int(getattr(np, name)(nview))
    m = rng.standard_normal((9, 40_000)).astype(dtype)
    m[4, 35_000] = np.nan
    assert np.array_equal(np_of(getattr(dl, name)(dl.asarray(m), axis=1)), getattr(np, name)(m, axis=1))
    # Signed zeros compare equal: the first zero is the extreme.
    z = np.zeros(5000, dtype=dtype)
    z[::2] = -0.0
    z[-1] = -1.0 if name == "argmax" else 1.0
    assert int(getattr(dl, name)(dl.asarray(z))) == 0


# ---- contiguous float sums ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_contiguous_sum_is_the_strided_paths_tree_bit_for_bit(dtype, threads):
    # The contiguous row takes the 2048-element AVX2 piece; the same values every other
    # element of a twice-as-long array take the strided loop over the same pairwise tree.
    rng = np.random.default_rng(5)
    for n in (31, 32, 33, 63, 64, 65, 100, 1023, 1024, 1025, 2000, 2047, 2048, 2049, 4096, 6143, 6144, 10_000,
              2048 * 37 + 5, 1_000_003):
        a = (rng.standard_normal(n) * 10.0 ** rng.uniform(-4, 4, n)).astype(dtype)
        wide = np.zeros(2 * n, dtype=dtype)
        wide[::2] = a
        s_contig = dl.sum(dl.asarray(a))
        s_strided = dl.sum(dl.asarray(wide)[::2])
        assert np_of(s_contig).tobytes() == np_of(s_strided).tobytes(), n
        assert math.isclose(float(s_contig), math.fsum(a.astype(np.float64)), rel_tol=1e-3 if dtype == "float32" else 1e-9,
                            abs_tol=1e-3)


def documented_sum_tree(x):
    """The float sum's tree as docs/numerics.md states it, in NumPy arithmetic of x's dtype (each
    vector operation rounds elementwise, as the kernels' lanes do)."""
    lanes = 256 // x.itemsize
    leaf = 32 * lanes
    if x.size > leaf:
        half = ((x.size + leaf - 1) // leaf // 2) * leaf
        return documented_sum_tree(x[:half]) + documented_sum_tree(x[half:])
    if x.size < lanes:
        acc = x[0]
        for v in x[1:]:
            acc = acc + v
        return acc
    groups = x.size // lanes
    acc = x[:lanes].copy()
    for g in range(1, groups):
        acc = acc + x[g * lanes:(g + 1) * lanes]
    tail = x[groups * lanes:]
    acc[:tail.size] = acc[:tail.size] + tail
    while acc.size > 1:
        acc = acc[:acc.size // 2] + acc[acc.size // 2:]
    return acc[0]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sum_is_the_documented_tree_bit_for_bit(dtype):
    # One thread: the first element is taken apart (the output starts as it), then the rest's tree.
    rng = np.random.default_rng(17)
    before = dl._core._num_threads()
    dl._core._set_num_threads(1)
    try:
        for n in (2, 33, 64, 65, 97, 1024, 1025, 2000, 2049, 4097, 20_000, 100_001):
            a = (rng.standard_normal(n) * 10.0 ** rng.uniform(-6, 6, n)).astype(dtype)
            expected = a[0] + documented_sum_tree(a[1:])
            got = np_of(dl.sum(dl.asarray(a)))
            assert got.tobytes() == np.asarray(expected, dtype=dtype).tobytes(), n
            m = a[: (n // 7) * 7].reshape(7, -1) if n >= 14 else a.reshape(1, -1)
            rows = np_of(dl.sum(dl.asarray(m), axis=1))
            assert [r.tobytes() for r in rows] == [np.asarray(r[0] + documented_sum_tree(r[1:]), dtype=dtype).tobytes()
                                                   for r in m], n
    finally:
        dl._core._set_num_threads(before)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_contiguous_sum_propagates_nan_and_inf_from_any_block(dtype):
    n = 2048 * 3
    for pos in (0, 255, 256, 2047, 2048, 4095, n - 1):
        a = np.ones(n, dtype=dtype)
        a[pos] = np.nan
        assert math.isnan(float(dl.sum(dl.asarray(a)))), pos
        a[pos] = np.inf
        assert float(dl.sum(dl.asarray(a))) == np.inf


# ---- mixed-order elementwise (a + b.T) ----------------------------------------------------------

MIXED_SHAPES = [(130, 131), (200, 67 * 3), (257, 129), (1000, 70)]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint32", "complex64", "int8",
                                   "int16", "complex128", "float16"])
def test_mixed_order_add_matches_numpy(dtype, threads):
    rng = np.random.default_rng(7)
    for rows, cols in MIXED_SHAPES:
        a = (rng.standard_normal((rows, cols)) * 50).astype(dtype)
        b = (rng.standard_normal((cols, rows)) * 50).astype(dtype)
        x, y = dl.asarray(a), dl.asarray(b)
        assert np.array_equal(np_of(x + y.T), a + b.T), (rows, cols)
        assert np.array_equal(np_of(y.T + x), b.T + a), (rows, cols)
        assert np.array_equal(np_of(x.T * y), a.T * b), (rows, cols)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_mixed_order_other_operations_and_outputs(dtype, threads):
    rng = np.random.default_rng(8)
    a = (rng.standard_normal((300, 170)) * 9).astype(dtype)
    b = (rng.standard_normal((170, 300)) * 9).astype(dtype)
    x, y = dl.asarray(a), dl.asarray(b)
    # bool output from 4- or 8-byte inputs; a three-operand where with two transposed inputs.
    assert np.array_equal(np_of(x < y.T), a < b.T)
    c = rng.standard_normal((300, 170)) > 0
    assert np.array_equal(np_of(dl.where(dl.asarray(c), y.T, x)), np.where(c, b.T, a))
    assert np.array_equal(np_of(dl.where(dl.asarray(c.T.copy()).T, y.T, y.T)), b.T)
    # Broadcast and scalar operands beside a transposed one.
    row = (rng.standard_normal(170) * 9).astype(dtype)
    assert np.array_equal(np_of(y.T - dl.asarray(row)), b.T - row)
    assert np.array_equal(np_of(y.T * 3), b.T * 3)
    # A strided view of the transposed operand (inner stride not one item) stays strided.
    big = (rng.standard_normal((340, 600)) * 9).astype(dtype)
    v, nv = dl.asarray(big)[::2, ::2], big[::2, ::2]
    assert np.array_equal(np_of(x + v.T), a + nv.T)
    # In place: the output is x itself.
    z = dl.asarray(a.copy())
    z += y.T
    assert np.array_equal(np_of(z), a + b.T)
    # A NaN payload and signed zero survive the transposing copy bit for bit.
    if dtype != "int64":
        b2 = b.copy()
        b2[3, 5] = np.nan
        b2[4, 6] = -0.0
        got = np_of(dl.asarray(np.full_like(a, -0.0)) + dl.asarray(b2).T)  # -0 + -0 = -0
        assert math.isnan(got[5, 3]) and math.copysign(1.0, got[6, 4]) == -1.0


INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


@pytest.mark.parametrize("dtype", INTS)
def test_integer_sum_min_max_match_numpy_at_every_size(dtype, threads):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(5)
    for n in (1, 2, 15, 16, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 1000, 4097, 70001):
        x = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        d = dl.asarray(x)
        # The same dtype wraps (an explicit dtype=), the default widens to the 64-bit type.
        assert int(dl.sum(d, dtype=getattr(dl, dtype))) == int(np.sum(x, dtype=dtype)), n
        assert int(dl.sum(d)) == int(np.sum(x, dtype="uint64" if dtype.startswith("u") else "int64")), n
        assert int(dl.max(d)) == int(x.max()) and int(dl.min(d)) == int(x.min()), n
        # The extremes at the last element and at the first, where a lane merge could miss them.
        for pos in (0, n - 1, n // 2):
            y = x.copy()
            y[pos] = info.max
            assert int(dl.max(dl.asarray(y))) == info.max, (n, pos)
            y[pos] = info.min
            assert int(dl.min(dl.asarray(y))) == info.min, (n, pos)
        assert int(dl.sum(dl.asarray(x)[::3], dtype=getattr(dl, dtype))) == int(np.sum(x[::3], dtype=dtype)), n
