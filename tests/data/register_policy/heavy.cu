// A register-hungry kernel whose register policy arrives as preprocessor definitions
// (Kernel Tuner's convention). Both attributes are applied literally when asked for, so
// a variant with __maxnreg__ and __launch_bounds__ would be rejected by the compiler:
// the space must never produce one.
#if MAXNREG > 0
#define MAXNREG_ATTRIBUTE __maxnreg__(MAXNREG)
#else
#define MAXNREG_ATTRIBUTE
#endif
#if MAX_THREADS > 0
#define BOUNDS_ATTRIBUTE __launch_bounds__(MAX_THREADS, MIN_BLOCKS)
#else
#define BOUNDS_ATTRIBUTE
#endif

extern "C" __global__ void MAXNREG_ATTRIBUTE BOUNDS_ATTRIBUTE heavy(const float* __restrict__ in,
                                                                    float* __restrict__ out, int n)
{
    // WIDTH independent accumulators live across the loop: about WIDTH registers.
    float acc[WIDTH];
#pragma unroll
    for (int j = 0; j < WIDTH; ++j)
        acc[j] = in[j];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const float x = in[i];
#pragma unroll
        for (int j = 0; j < WIDTH; ++j)
            acc[j] = fmaf(acc[j], x, static_cast<float>(j));
    }
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < WIDTH; ++j)
        sum += acc[j] * acc[(j * 7) % WIDTH];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
