// About 2N distinct class templates instantiated for one kernel: the front end's memory
// grows with N, and N = 65536 needs more than a few hundred MiB (the compile memory-limit
// tests' hungry variant), while N = 2 needs next to nothing.
#pragma once

template <int A, int B> struct Range {
    static __device__ __forceinline__ void run(float* x)
    {
        Range<A, (A + B) / 2>::run(x);
        Range<(A + B) / 2, B>::run(x);
    }
};
template <int A> struct Range<A, A + 1> {
    static __device__ __forceinline__ void run(float* x) { x[(threadIdx.x + A) % 64] += A; }
};

template <int N> __global__ void instantiations(float* x) { Range<0, N>::run(x); }
