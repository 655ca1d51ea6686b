// N statements, unrolled at compile time by template recursion: each doubling of N roughly
// doubles the compile, and N = 65536 runs for hours (the compile-timeout tests' slow variant).
#pragma once

template <int N> struct Statements {
    static __device__ __forceinline__ void run(float* x)
    {
        Statements<N / 2>::run(x);
        Statements<N - N / 2>::run(x);
    }
};
template <> struct Statements<1> {
    static __device__ __forceinline__ void run(float* x) { x[threadIdx.x % 64] = x[(threadIdx.x * 13) % 64] * 1.0001f + 1.0f; }
};
template <> struct Statements<0> {
    static __device__ __forceinline__ void run(float*) {}
};

template <int N> __global__ void unrolled(float* x) { Statements<N>::run(x); }
