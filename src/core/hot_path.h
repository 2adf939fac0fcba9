// hot_path.h — DLA_HOT: marks the functions of the per-call paths measured against peers;
// DLA_NOINLINE keeps a rare path out of them.
//
// GCC places functions marked hot in .text.hot, next to each other. Left where the linker put
// them, the dozen functions of one DLPack import (capsule, checks, Array, Python object, and
// the deallocation after) lie spread over a module of some 50 MB: dl.from_dlpack(numpy) took
// 1.06-1.17x the time of np.from_dlpack(numpy), grouped 0.93-0.97x (alternated processes,
// the same instructions).
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define DLA_HOT __attribute__((hot))
#else
#define DLA_HOT
#endif

// A slow path inlined into a tiny hot function gives the hot one a stack frame and saved
// registers on every call (len(x) took 14 instructions where NumPy's takes 5).
#if defined(__GNUC__) || defined(__clang__)
#define DLA_NOINLINE __attribute__((noinline))
#else
#define DLA_NOINLINE
#endif
