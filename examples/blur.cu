// A 5×5 box blur written the way Kernel Tuner kernels are written: plain CUDA, extern "C",
// and every tunable parameter a macro the tuner defines (block_size_x, block_size_y,
// tile_size_x, tile_size_y, use_shared). The image size is baked in as macros too. Compiled
// outside a tuner (no kernel_tuner macro), it falls back to the defaults below.
//
// output is image_height × image_width floats; input is the same image with a border of
// radius pixels on every side, (image_height + 2·radius) × (image_width + 2·radius) floats.
// Each thread computes tile_size_x × tile_size_y output pixels, block_size_x apart in x and
// block_size_y apart in y, so neighbouring threads touch neighbouring pixels (coalesced).
#ifndef kernel_tuner
#define block_size_x 32
#define block_size_y 8
#define tile_size_x 1
#define tile_size_y 1
#define use_shared 1
#endif
#ifndef image_width
#define image_width 4096
#define image_height 4096
#endif

#define radius 2
#define input_width (image_width + 2 * radius)
#define block_width (block_size_x * tile_size_x)  // output pixels a block covers in x
#define block_height (block_size_y * tile_size_y) // and in y

extern "C" __global__ void blur(float* output, const float* input)
{
    const int x0 = blockIdx.x * block_width + threadIdx.x;
    const int y0 = blockIdx.y * block_height + threadIdx.y;
    float sum[tile_size_y][tile_size_x] = {};

#if use_shared
    // The block's input window, border included, staged once in shared memory.
    __shared__ float window[block_height + 2 * radius][block_width + 2 * radius];
    for (int y = threadIdx.y; y < block_height + 2 * radius; y += block_size_y)
        for (int x = threadIdx.x; x < block_width + 2 * radius; x += block_size_x)
            window[y][x] = input[(blockIdx.y * block_height + y) * input_width + blockIdx.x * block_width + x];
    __syncthreads();
#endif

#pragma unroll
    for (int ty = 0; ty < tile_size_y; ty++)
#pragma unroll
        for (int tx = 0; tx < tile_size_x; tx++)
            for (int i = 0; i < 2 * radius + 1; i++)
                for (int j = 0; j < 2 * radius + 1; j++) {
#if use_shared
                    sum[ty][tx] += window[threadIdx.y + ty * block_size_y + i][threadIdx.x + tx * block_size_x + j];
#else
                    sum[ty][tx] += input[(y0 + ty * block_size_y + i) * input_width + x0 + tx * block_size_x + j];
#endif
                }

#pragma unroll
    for (int ty = 0; ty < tile_size_y; ty++)
#pragma unroll
        for (int tx = 0; tx < tile_size_x; tx++)
            output[(y0 + ty * block_size_y) * image_width + x0 + tx * block_size_x] =
                sum[ty][tx] / ((2 * radius + 1) * (2 * radius + 1));
}
