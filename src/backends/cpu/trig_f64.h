// trig_f64.h — the constants of the float64 sin, cos, tan, asin, acos, atan and atan2 kernels
// (trig_kernels_f64.h, which holds their derivations and which the AVX-512 and AVX2 rows share)
// and of the float32 sin and cos evaluated in float64 (math_avx512_f32.cpp, float32_math.cpp),
// so that every ISA gives the same values.
#pragma once

namespace dla::cpu::trig_f64 {

// pi/4 = C1 + C2 + C3 + C4 (199 bits): C1 the double nearest, C2 with its low 21 bits zero, so
// that n C2 is exact for |n| < 2^21 (the reduction's range).
constexpr double kPio4C[4] = {0x1.921fb54442d18p-1, 0x1.1a62633200000p-55, -0x1.747f23e32ed70p-88, 0x1.27044533e63a0p-143};

// fdlibm's __kernel_sin (S1 and S: sin r = r + r^3 (S1 + t S(t)), t = r^2) and __kernel_cos
// (C: cos r = 1 - t/2 + t^2 C(t)) on [-pi/4, pi/4], within 2^-58 there.
constexpr double kSinS1 = -1.66666666666666324348e-01;
constexpr double kSinS[5] = {8.33333333332248946124e-03, -1.98412698298579493134e-04, 2.75573137070700676789e-06,
                             -2.50507602534068634195e-08, 1.58969099521155010221e-10};
constexpr double kCosC[6] = {4.16666666666666019037e-02,  -1.38888888888741095749e-03, 2.48015872894767294178e-05,
                             -2.75573143513906633035e-07, 2.08757232129817482790e-09,  -1.13596475577881948265e-11};
constexpr double kInvPio2 = 0x1.45f306dc9c883p-1;


// tan r = r + r^3 T(r^2) on |r| <= pi/8 (a little more), fitted to 2^-54 of itself.
constexpr double kInvPio4 = 0x1.45f306dc9c883p+0;
constexpr double kTanT[10] = {0x1.5555555555555p-2, 0x1.1111111111135p-3, 0x1.ba1ba1ba140e5p-5, 0x1.664f4887a9574p-6,
                              0x1.226e33c205c76p-7, 0x1.d6d46bfc63b4dp-9, 0x1.7d91b3d336040p-10, 0x1.3695cbd43e3f9p-11,
                              0x1.dae2562213d7ep-13, 0x1.17dbfab95225ep-13};

// pi/2 = kPio2Hi + kPio2Lo, pi = kPiHi + kPiLo.
constexpr double kPio2Hi = 0x1.921fb54442d18p0, kPio2Lo = 0x1.1a62633145c07p-54;
constexpr double kPiHi = 0x1.921fb54442d18p1, kPiLo = 0x1.1a62633145c07p-53;
// asin a = a + a t P(t), t = a^2 <= 1/4, fitted to 2^-52.8 of itself.
constexpr double kAsinP[13] = {0x1.5555555555556p-3, 0x1.3333333332ec8p-4, 0x1.6db6db6e3229fp-5, 0x1.f1c71c1d8e48bp-6,
                               0x1.6e8bb1cd66907p-6, 0x1.1c4d3554d4a60p-6, 0x1.c9cf1583f4f8ap-7, 0x1.7825c969117d2p-7,
                               0x1.5245788818a3bp-7, 0x1.658cae98b8d36p-8, 0x1.1d2c1dd0ab0adp-6, -0x1.e6e6e68f1d446p-7,
                               0x1.d73f773c8915ap-6};
// atan(z) - z = z^3 Q(z^2), fitted on |z| <= 0.0627 (scripts/fit_atan_f64.py): 2^-60.5 of atan z.
constexpr double kAtanQ[5] = {-0x1.5555555555555p-2, 0x1.999999998dc8fp-3, -0x1.249248b62d146p-3, 0x1.c719e27def660p-4,
                              -0x1.715986b66d03fp-4};

// float32 sin and cos evaluated in float64 (math_avx512_f32.cpp, float32_math.cpp): x = m pi/2 + r
// with m = round(x / pi) doubled (sin) or made odd (cos), |r| <= pi/2, sin r = r + r^3 P(r^2), P
// near-minimax from scripts/fit_sin_f32.py, within 2^-33.2 of sin r.
constexpr double kInvPi = 0x1.45f306dc9c883p-2;
constexpr double kSinF32P[5] = {-0x1.555555545224bp-3, 0x1.11110fcf51677p-7, -0x1.a01900006d60fp-13,
                                0x1.7195a49b77214p-19, -0x1.9d99d582ca12ep-26};

}  // namespace dla::cpu::trig_f64
