// fp32 sum, *out += Σ in: each thread sums VEC floats per load (float/float2/float4) in a
// grid-stride loop, with a scalar tail so any N is summed exactly once; a warp-shuffle
// tree folds each warp, the warps' sums meet in shared memory and the first warp folds
// them, and one atomicAdd per block adds the block's sum into *out. *out is not cleared:
// the caller sets the starting value. The block size is read at run time (blockDim.x); it
// must be a multiple of 32, at most 1024. Plain CUDA C++: NVRTC at tuning time, nvcc in
// consumer builds.
#pragma once

namespace autotune_kernels {

// Per-template names: a consumer may include several templates in one translation unit.
namespace reduce_detail {
template <int VEC> struct float_vector;
template <> struct float_vector<1> { using type = float; };
template <> struct float_vector<2> { using type = float2; };
template <> struct float_vector<4> { using type = float4; };

__device__ __forceinline__ float sum_of(float v) { return v; }
__device__ __forceinline__ float sum_of(float2 v) { return v.x + v.y; }
__device__ __forceinline__ float sum_of(float4 v) { return (v.x + v.y) + (v.z + v.w); }

// The sum of `value` over the 32 lanes of a full warp, in lane 0.
__device__ __forceinline__ float warp_sum(float value)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}
} // namespace reduce_detail

// MAX_THREADS and MIN_BLOCKS are the launch bounds; 0 leaves the kernel unbounded.
template <int VEC, int MAX_THREADS, int MIN_BLOCKS>
__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS)
reduce(const float* __restrict__ in, float* __restrict__ out, long long n)
{
    static_assert(VEC == 1 || VEC == 2 || VEC == 4, "VEC must be 1, 2 or 4");
    using vec_t = typename reduce_detail::float_vector<VEC>::type;
    const long long first = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    const long long vectors = n / VEC;
    const vec_t* in_v = reinterpret_cast<const vec_t*>(in);
    float sum = 0.0f;
    for (long long i = first; i < vectors; i += stride)
        sum += reduce_detail::sum_of(in_v[i]);
    // The n % VEC trailing elements, one per thread of the first threads.
    const long long tail = vectors * VEC + first;
    if (tail < n)
        sum += in[tail];

    __shared__ float warp_sums[32]; // one per warp of a block of up to 1024 threads
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    sum = reduce_detail::warp_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = reduce_detail::warp_sum(lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f);
        if (lane == 0)
            atomicAdd(out, sum);
    }
}

} // namespace autotune_kernels
