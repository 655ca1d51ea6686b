// A block stages its part of the input in shared memory, waits for every thread's loads,
// then works on the tile: the barrier splits the block's run into two phases.
extern "C" __global__ void staged(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float tile[BLOCK * 4];
    const int base = blockIdx.x * BLOCK * 4;
    for (int k = threadIdx.x; k < BLOCK * 4; k += BLOCK)
        tile[k] = base + k < n ? in[base + k] : 0.0f;
    __syncthreads();
    float sum = 0.0f;
    for (int k = 0; k < 64; ++k)
        sum = fmaf(tile[(threadIdx.x * 4 + k) % (BLOCK * 4)], 1.0001f, sum);
    if (base + threadIdx.x < n)
        out[base + threadIdx.x] = sum;
}
