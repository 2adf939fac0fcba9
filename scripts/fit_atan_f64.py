"""Fits the polynomial of the float64 atan kernel of src/backends/cpu/math_avx512_f64.cpp and
prints it as C++.

The kernel reduces atan a to atan(c) + atan(z) with |z| <= 0.0626 (c = j/16 of a or of 1/a,
the latter picked by a 14-bit estimate of 1/a) and needs atan z = z + z^3 Q(t), t = z^2, with
z^3 Q(t) to well below 2^-60 of atan z. Q has five terms, fitted for the relative error of
atan z - z on [0, Z^2], Z = 0.0627: the first coefficient is -1/3 rounded, the rest by least
squares on 200 Chebyshev nodes in 200-bit arithmetic (mpmath), reweighted by Lawson's method
towards minimax, each coefficient rounded to double in turn and the rest refitted (the Taylor
terms to z^13, six, were what the kernel used before). Prints the worst relative error of
the rounded fit, of atan z - z and of atan z.

usage: python3 scripts/fit_atan_f64.py   (mpmath; a few seconds)
"""
import mpmath as mp

from minimax import lawson

mp.mp.prec = 200
Z = mp.mpf("0.0627")
NODES = 200
TERMS = 5


def main():
    ts = [Z**2 * (1 + mp.cos(mp.pi * (k + mp.mpf(1) / 2) / NODES)) / 2 for k in range(NODES)]
    ys = [(mp.atan(mp.sqrt(t)) - mp.sqrt(t)) / (mp.sqrt(t) * t) for t in ts]
    c = [float(mp.mpf(-1) / 3)]
    while len(c) < TERMS:
        c.append(float(lawson(ts, ys, c, TERMS)[0]))
    q = lambda t: sum(mp.mpf(v) * t**p for p, v in enumerate(c))
    worst_q = max(abs(q(t) - y) / abs(y) for t, y in zip(ts, ys))
    worst = max(abs(mp.sqrt(t) * t * (q(t) - y)) / mp.atan(mp.sqrt(t)) for t, y in zip(ts, ys))
    print(f"constexpr double kAtanQ[{TERMS}] = {{{', '.join(v.hex() for v in c)}}};")
    print(f"// relative error 2^{float(mp.log(worst_q, 2)):.1f} of atan z - z, 2^{float(mp.log(worst, 2)):.1f} of atan z")


if __name__ == "__main__":
    main()
