"""Fits the float32 tanh tables of src/backends/cpu/math_avx512_f32.cpp and prints them as C++.

tanh(a), a = |x| in [0, 10], on 32 intervals: interval j >= 1 is [2^e (1 + h/2), 2^e (1 + (h+1)/2))
with e = j/2 - 12, h = j mod 2 (two per binade, numbered by a's bits >> 22); interval 0 takes
everything below 1.5 2^-12 (tanh a = a - a^3/3 there, to a relative 2^-25). On each, a
degree-7 polynomial in t = a - centre, fitted in long double for relative error (least squares
on Chebyshev nodes, reweighted by Lawson's method towards minimax), then rounded: c0 into
float32 hi + lo (the loop adds hi last), c1..c7 to float32 one at a time, refitting the rest
after each. Prints the fit's own worst relative error in 2^-24 units (0.09 at most; the
float32 evaluation adds about 0.65 ulp to that at the worst, benchmarks/accuracy.py).

usage: python3 scripts/fit_tanh_f32.py > tables.txt   (numpy only; about 10 s)
"""
import numpy as np

LD = np.longdouble
DEG = 7


def weighted_fit(t, y, w, fixed):
    free = [p for p in range(DEG + 1) if p not in fixed]
    r = y - sum((LD(v) * t**p for p, v in fixed.items()), LD(0))
    A = np.stack([t**p for p in free], axis=1)
    Aw = (A * w[:, None]).astype(np.float64)
    c = np.zeros(len(free), dtype=LD)
    for _ in range(3):  # iterative refinement: residuals in long double, steps in float64
        step, *_ = np.linalg.lstsq(Aw, ((r - A @ c) * w).astype(np.float64), rcond=None)
        c = c + step.astype(LD)
    return {**fixed, **dict(zip(free, c))}


def lawson(t, y, fixed, iters=30):
    w = 1 / np.abs(y)
    u = np.full(t.shape, LD(1) / t.size)
    for _ in range(iters):
        c = weighted_fit(t, y, w * np.sqrt(u), fixed)
        e = np.abs(sum(LD(c[p]) * t**p for p in c) - y) * w
        u = u * e
        u = u / u.sum()
    return c


def main():
    rows, worst = [], 0.0
    for j in range(1, 32):
        e, h = j // 2 - 12, j % 2
        lo = LD(2.0) ** e * (1 + LD(h) / 2)
        width = LD(2.0) ** e / 2
        centre = lo + width / 2
        k = np.arange(400, dtype=LD)
        x = centre + width / 2 * np.cos(np.pi * (k + LD(0.5)) / 400)
        t, y = x - centre, np.tanh(x)
        c0 = lawson(t, y, {})[0]
        hi = np.float32(c0)
        fixed = {0: LD(hi) + LD(np.float32(c0 - LD(hi)))}
        for p in range(1, DEG + 1):
            fixed[p] = LD(np.float32(lawson(t, y, fixed)[p]))
        err = np.abs(sum(fixed[p] * t**p for p in fixed) - y) / np.abs(y)
        worst = max(worst, float(err.max()) * 2**24)
        rows.append([np.float32(centre), hi, np.float32(fixed[0] - LD(hi))] + [np.float32(fixed[p]) for p in range(1, DEG + 1)])
    rows.insert(0, [np.float32(0), np.float32(0), np.float32(0), np.float32(1), np.float32(0), np.float32(-1 / 3)] + [np.float32(0)] * (DEG - 3))
    names = ["centre", "hi", "lo"] + [f"c{p}" for p in range(1, DEG + 1)]
    for i, name in enumerate(names):
        vals = ", ".join(float(r[i]).hex().replace("0000000000p", "p").rstrip() + "f" for r in rows)
        print(f"// {name}\n{{{vals}}},")
    print(f"// worst relative error of the rounded fits: {worst:.3f} x 2^-24")


if __name__ == "__main__":
    main()
