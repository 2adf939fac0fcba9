"""Weighted minimax fitting for the float64 polynomial fit scripts (fit_atan_f64.py,
fit_coshsinh_f64.py): Lawson's iteratively reweighted least squares at mpmath precision, with
leading coefficients already fixed (rounded to double) and the rest refitted."""
import mpmath as mp


def lawson(ts, ys, fixed, terms):
    """The free coefficients (those past len(fixed)) of the weighted minimax fit."""
    n, free = len(ts), range(len(fixed), terms)
    rest = [ys[i] - sum(mp.mpf(v) * ts[i] ** p for p, v in enumerate(fixed)) for i in range(n)]
    u = [mp.mpf(1)] * n
    for _ in range(20):
        w = [mp.sqrt(u[i]) / abs(ys[i]) for i in range(n)]
        A = mp.matrix([[w[i] * ts[i] ** p for p in free] for i in range(n)])
        c = mp.qr_solve(A, mp.matrix([w[i] * rest[i] for i in range(n)]))[0]
        err = [abs(sum(c[q] * ts[i] ** p for q, p in enumerate(free)) - rest[i]) / abs(ys[i]) for i in range(n)]
        s = sum(u[i] * err[i] for i in range(n))
        u = [u[i] * err[i] / s for i in range(n)]
    return c
