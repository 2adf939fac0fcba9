"""Fits the float32 atanh polynomials of src/backends/cpu/math_avx512_f32.cpp and prints them.

Near-minimax fits in long double (weighted least squares on Chebyshev nodes, reweighted by
Lawson's method), coefficients rounded to float32 one at a time with the rest refitted:
  small   atanh a = a + a z P(z), z = a^2, a in [0, 1/2]: P for the relative error of atanh;
  log1p   log1p r = r + r^2 R(r), |r| <= 1/31 (r = m c_j - 1 of the 16-interval table): R for
          the absolute error;
  log2mb  log(1 - u/1.75) = u Q(u), u = b - 1/4 in [-1/4, 1/4] (b = 1 - a): Q for the absolute
          error (the term is added to about 1.1 or more).
Prints each fit's worst error (relative, or absolute) in units of 2^-24.

usage: python3 scripts/fit_atanh_f32.py [deg P = 5] [deg Q = 6]   (numpy only; a second)
"""
import sys

import numpy as np

LD = np.longdouble


def lawson_fit(x, y, powers, w, fixed, iters=40):
    """Coefficients for sum c_p x^p ~ y minimizing max |w (p(x) - y)|, with `fixed` ones held."""
    free = [p for p in powers if p not in fixed]
    r = y - sum((LD(v) * x**p for p, v in fixed.items()), LD(0))
    A = np.stack([x**p for p in free], axis=1)
    u = np.full(x.shape, LD(1) / x.size)
    for _ in range(iters):
        ww = w * np.sqrt(u)
        Aw = (A * ww[:, None]).astype(np.float64)
        c = np.zeros(len(free), dtype=LD)
        for _ in range(3):
            step, *_ = np.linalg.lstsq(Aw, ((r - A @ c) * ww).astype(np.float64), rcond=None)
            c = c + step.astype(LD)
        e = np.abs(A @ c - r) * w
        u = u * e
        u = u / u.sum()
    return {**fixed, **dict(zip(free, c))}


def fit_rounded(x, y, powers, w, fixed=None):
    fixed = dict(fixed or {})
    for p in powers:
        if p not in fixed:
            fixed[p] = LD(np.float32(lawson_fit(x, y, powers, w, fixed)[p]))
    err = np.abs(sum(LD(fixed[p]) * x**p for p in powers) - y) * w
    return [np.float32(fixed[p]) for p in powers], float(err.max()) * 2**24


def nodes(lo, hi, n=600):
    k = np.arange(n, dtype=LD)
    return (LD(lo) + LD(hi)) / 2 + (LD(hi) - LD(lo)) / 2 * np.cos(np.pi * (k + LD(0.5)) / n)


def show(name, coefs, err, what):
    print(f"{name}: {{" + ", ".join(float(c).hex() + "f" for c in coefs) + f"}}  // {what} {err:.4f} x 2^-24")


def main():
    deg_small = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    deg_q = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    # small: a + a^3 P(a^2); fitted in z with the target (atanh a - a) / a^3, weight z (relative
    # error of atanh ~ z dP since atanh a ~ a).
    a = nodes(LD(2) ** -12, 0.5)
    z = a * a
    y = (np.arctanh(a) - a) / (a * z)
    w = z * a / np.arctanh(a)
    coefs, err = fit_rounded(z, y, list(range(deg_small + 1)), w)
    show("small P(z)", coefs, err, "relative error")
    # log1p r = r + r^2 R(r): fitted as R = (log1p r - r) / r^2 with weight r^2.
    r = nodes(-1 / 33, 1 / 31)
    r = r[np.abs(r) > 1e-6]
    y = (np.log1p(r) - r) / (r * r)
    coefs, err = fit_rounded(r, y, [0, 1, 2], r * r, {0: LD(-0.5)})
    show("log1p R(r)", coefs, err, "absolute error")
    # log(1 - u/1.75) = u Q(u), weight |u|.
    u = nodes(-0.25, 0.25)
    u = u[np.abs(u) > 1e-6]
    y = np.log1p(-u / LD(1.75)) / u
    coefs, err = fit_rounded(u, y, list(range(deg_q + 1)), np.abs(u))
    show("log2mb Q(u)", coefs, err, "absolute error")


if __name__ == "__main__":
    main()
