// STREAM triad, a = b + s·c in fp32: each thread moves VEC floats per access through
// float/float2/float4, in a grid-stride loop, with a scalar tail so any N is exact. The
// product and the sum are one fmaf, a single rounding of the exact b + s·c, so the result
// is within half an ulp of the double-precision reference whatever cancels.
// Plain CUDA C++: NVRTC compiles it at tuning time, nvcc in consumer builds.
#pragma once

namespace autotune_kernels {

// Per-template names: a consumer may include several templates in one translation unit.
namespace triad_detail {
template <int VEC> struct float_vector;
template <> struct float_vector<1> { using type = float; };
template <> struct float_vector<2> { using type = float2; };
template <> struct float_vector<4> { using type = float4; };

__device__ __forceinline__ float multiply_add(float b, float s, float c) { return fmaf(s, c, b); }
__device__ __forceinline__ float2 multiply_add(float2 b, float s, float2 c)
{
    return make_float2(multiply_add(b.x, s, c.x), multiply_add(b.y, s, c.y));
}
__device__ __forceinline__ float4 multiply_add(float4 b, float s, float4 c)
{
    return make_float4(multiply_add(b.x, s, c.x), multiply_add(b.y, s, c.y), multiply_add(b.z, s, c.z),
                       multiply_add(b.w, s, c.w));
}
} // namespace triad_detail

// MAX_THREADS and MIN_BLOCKS are the launch bounds; 0 leaves the kernel unbounded.
template <int VEC, int MAX_THREADS, int MIN_BLOCKS>
__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS)
triad(float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c, float s, long long n)
{
    static_assert(VEC == 1 || VEC == 2 || VEC == 4, "VEC must be 1, 2 or 4");
    using vec_t = typename triad_detail::float_vector<VEC>::type;
    const long long first = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    const long long vectors = n / VEC;
    vec_t* a_v = reinterpret_cast<vec_t*>(a);
    const vec_t* b_v = reinterpret_cast<const vec_t*>(b);
    const vec_t* c_v = reinterpret_cast<const vec_t*>(c);
    for (long long i = first; i < vectors; i += stride)
        a_v[i] = triad_detail::multiply_add(b_v[i], s, c_v[i]);
    // The n % VEC trailing elements, one per thread of the first threads.
    const long long tail = vectors * VEC + first;
    if (tail < n)
        a[tail] = triad_detail::multiply_add(b[tail], s, c[tail]);
}

} // namespace autotune_kernels
