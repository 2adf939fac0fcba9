"""Fits the two short polynomials of the float64 sinh and cosh kernels of
src/backends/cpu/math_avx512_f64.cpp and prints them as C++.

With a = k ln2/16 + r, |r| <= ln2/32 (a little more where a 16/ln2 rounds), the kernels need
cosh r - 1 = t C(t) and sinh r - r = r t S(t), t = r^2, each to well below 2^-60 of the
result they enter. C and S have three terms each, fitted for relative error on [0, R^2],
R = 0.0218: the first coefficient is the Taylor one (1/2, 1/6 rounded), the rest by least
squares on 200 Chebyshev nodes in 200-bit arithmetic (mpmath), reweighted by Lawson's method
towards minimax, each coefficient rounded to double in turn and the rest refitted. Prints
the worst relative error of the rounded fits (of cosh r - 1 and of sinh r - r: 2^-52 and
2^-53, i.e. below 2^-64 of cosh r and of sinh r).

usage: python3 scripts/fit_coshsinh_f64.py   (mpmath; a few seconds)
"""
import mpmath as mp

from minimax import lawson

mp.mp.prec = 200
R = mp.mpf("0.0218")
NODES = 200
TERMS = 3


def fit(target, c0):
    """sum c_i t^i (i < TERMS) ~ target(t) for relative error on [0, R^2], c_0 = c0 rounded;
    each further coefficient rounded to double in turn, the rest refitted after it."""
    ts = [R**2 * (1 + mp.cos(mp.pi * (k + mp.mpf(1) / 2) / NODES)) / 2 for k in range(NODES)]
    ys = [target(t) for t in ts]
    c = [float(c0)]
    while len(c) < TERMS:
        c.append(float(lawson(ts, ys, c, TERMS)[0]))
    worst = max(abs(sum(mp.mpf(c[p]) * t**p for p in range(TERMS)) - y) / abs(y) for t, y in zip(ts, ys))
    return c, worst


def main():
    # C(t) = (cosh r - 1) / t, S(t) = (sinh r - r) / (r t), r = sqrt(t)
    cc, ec = fit(lambda t: (mp.cosh(mp.sqrt(t)) - 1) / t, mp.mpf(1) / 2)
    sc, es = fit(lambda t: (mp.sinh(mp.sqrt(t)) - mp.sqrt(t)) / (mp.sqrt(t) * t), mp.mpf(1) / 6)
    fmt = lambda cs: ", ".join(v.hex() for v in cs)
    print(f"constexpr double kCoshC[{TERMS}] = {{{fmt(cc)}}};  // relative error 2^{float(mp.log(ec, 2)):.1f}")
    print(f"constexpr double kSinhS[{TERMS}] = {{{fmt(sc)}}};  // relative error 2^{float(mp.log(es, 2)):.1f}")


if __name__ == "__main__":
    main()
