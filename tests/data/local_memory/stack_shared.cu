// A kernel with a stack frame (a local array indexed at run time) and dynamic shared
// memory: its local loads hit L1 as far as the resident blocks' shared memory leaves room.
extern "C" __global__ void stack_shared(float* out, const float* in, int n)
{
    extern __shared__ float staged[];
    float local[64];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 64; ++k)
        local[k] = in[(i + k) % n];
    float sum = 0;
    for (int k = 0; k < 64; ++k)
        sum += local[(i * 7 + k * 5) % 64];
    staged[threadIdx.x] = sum;
    __syncthreads();
    if (i < n)
        out[i] = staged[(threadIdx.x + 1) % blockDim.x];
}
