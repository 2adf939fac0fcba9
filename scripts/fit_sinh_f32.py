"""The polynomial of the float32 sinh kernel's small-argument form (src/backends/cpu/math_avx512_f32.cpp).

sinh a = a + a t P(t), t = a^2, for 0 <= a < 1 (a little past 1 for the blend's slack): P of
degree 3 fitted near-minimax (Lawson's method, scripts/minimax.py) for its relative error, then
rounded to float32; prints the coefficients as float32 hex and the worst relative error of P
with them (2^-24.9; P's share of the result is at most 0.15, so this adds a few hundredths of
an ulp).

usage: python3 scripts/fit_sinh_f32.py   (mpmath and numpy)
"""
import os
import sys

import mpmath as mp
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from minimax import lawson  # noqa: E402

mp.mp.dps = 40
TERMS = 4
T = (mp.mpf(1) * mp.mpf("1.0001")) ** 2
N = 300
ts = [T * (1 - mp.cos(mp.pi * (i + 0.5) / N)) / 2 for i in range(N)]  # Chebyshev nodes
ys = [(mp.sinh(mp.sqrt(t)) / mp.sqrt(t) - 1) / t for t in ts]
coeffs = [np.float32(float(v)) for v in lawson(ts, ys, [], TERMS)]
worst = mp.mpf(0)
for i in range(1500):
    t = T * (i + 0.5) / 1500
    exact = (mp.sinh(mp.sqrt(t)) / mp.sqrt(t) - 1) / t
    approx = sum(mp.mpf(float(v)) * t**p for p, v in enumerate(coeffs))
    worst = max(worst, abs(approx / exact - 1))
print("P:", ", ".join(float(v).hex() for v in coeffs))
print("worst relative error of P: 2^%.1f" % float(mp.log(worst, 2)))
