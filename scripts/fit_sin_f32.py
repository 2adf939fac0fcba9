"""The polynomial of the float32 sin/cos kernel (src/backends/cpu/math_avx512_f32.cpp).

sin r = r + r^3 P(r^2) for |r| <= pi/2, P of degree 4 fitted near-minimax (Lawson's method,
scripts/minimax.py) for the relative error of P; prints P's coefficients as float64 hex and the
worst relative error of sin r with the coefficients rounded to float64 (2^-33.2: far below the
2^-24 of a float32 ulp, so the final rounding to float32 is the only one that counts).

usage: python3 scripts/fit_sin_f32.py
"""
import os
import sys

import mpmath as mp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from minimax import lawson  # noqa: E402

mp.mp.dps = 40
TERMS = 5
T = (mp.pi / 2) ** 2 * mp.mpf("1.0001")  # t = r^2, a little past (pi/2)^2 for the reduction's slack
N = 400
ts = [T * (1 - mp.cos(mp.pi * (i + 0.5) / N)) / 2 for i in range(N)]  # Chebyshev nodes
ys = [(mp.sin(mp.sqrt(t)) / mp.sqrt(t) - 1) / t for t in ts]
coeffs = [float(v) for v in lawson(ts, ys, [], TERMS)]
worst = mp.mpf(0)
for i in range(4000):
    t = T * (i + 0.5) / 4000
    r = mp.sqrt(t)
    approx = r + r**3 * sum(mp.mpf(v) * t**p for p, v in enumerate(coeffs))
    worst = max(worst, abs(approx / mp.sin(r) - 1))
print("P:", ", ".join(v.hex() for v in coeffs))
print("worst relative error of sin r: 2^%.1f" % float(mp.log(worst, 2)))
