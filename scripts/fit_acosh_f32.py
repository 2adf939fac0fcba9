"""Fits the float32 acosh polynomials of src/backends/cpu/math_avx512_f32.cpp and prints them
(the fitting helpers of fit_atanh_f32.py):
  near 1  acosh(1 + d) = sqrt(2d) (1 + d G(d)), d in [0, 1]: G for the relative error;
  x >= 2  acosh x = log x + ln2 + v K(v), v = 1/x^2 in [0, 1/4] (log(1 + sqrt(1 - v)) - ln2
          = v K(v)): K for the absolute error (the term is added to 1.3 or more).
usage: python3 scripts/fit_acosh_f32.py [deg G = 6] [deg K = 5]
"""
import sys

import numpy as np

from fit_atanh_f32 import LD, fit_rounded, nodes, show


def main():
    deg_g = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    deg_k = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    d = nodes(LD(2) ** -20, 1)
    f = np.arccosh(1 + d) / np.sqrt(2 * d) - 1
    coefs, err = fit_rounded(d, f / d, list(range(deg_g + 1)), d)
    show("near1 G(d)", coefs, err, "relative error")
    v = nodes(LD(2) ** -30, 0.25)
    y = (np.log1p(np.sqrt(1 - v)) - np.log(LD(2))) / v
    coefs, err = fit_rounded(v, y, list(range(deg_k + 1)), v)
    show("large K(v)", coefs, err, "absolute error")


if __name__ == "__main__":
    main()
