// Vectorized copy (the seeds' CUDA Pro Tip kernel): each thread moves VEC ints per
// access through int/int2/int4, in a grid-stride loop, with a scalar tail so any N is
// copied exactly. Plain CUDA C++: NVRTC compiles it at tuning time, nvcc in consumer builds.
#pragma once

namespace autotune_kernels {

template <int VEC> struct int_vector;
template <> struct int_vector<1> { using type = int; };
template <> struct int_vector<2> { using type = int2; };
template <> struct int_vector<4> { using type = int4; };

// MAX_THREADS and MIN_BLOCKS are the launch bounds; 0 leaves the kernel unbounded.
template <int VEC, int MAX_THREADS, int MIN_BLOCKS>
__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS)
copy(const int* __restrict__ in, int* __restrict__ out, long long n)
{
    static_assert(VEC == 1 || VEC == 2 || VEC == 4, "VEC must be 1, 2 or 4");
    using vec_t = typename int_vector<VEC>::type;
    const long long first = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    const long long vectors = n / VEC;
    const vec_t* in_v = reinterpret_cast<const vec_t*>(in);
    vec_t* out_v = reinterpret_cast<vec_t*>(out);
    for (long long i = first; i < vectors; i += stride)
        out_v[i] = in_v[i];
    // The n % VEC trailing elements, one per thread of the first threads.
    const long long tail = vectors * VEC + first;
    if (tail < n)
        out[tail] = in[tail];
}

} // namespace autotune_kernels
