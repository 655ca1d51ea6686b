// fp32 transpose through shared memory: out (cols × rows) = in^T, in (rows × cols), both
// row-major. A block of TILE × (TILE / ROWS) threads moves one TILE × TILE tile; each
// thread handles ROWS rows of it. Reading in's rows and writing out's rows are both
// coalesced; the turn happens in shared memory, where reading a tile column strides by
// TILE + PAD floats: with PAD = 0 a warp's column hits the same bank over and over, with
// PAD = 1 consecutive rows fall in consecutive banks. Edge tiles are bounds-checked, so
// any rows × cols is exact. Plain CUDA C++: NVRTC at tuning time, nvcc in consumer builds.
#pragma once

namespace autotune_kernels {

// MAX_THREADS and MIN_BLOCKS are the launch bounds; 0 leaves the kernel unbounded.
// Launch with block (TILE, TILE / ROWS) and grid (ceil(cols / TILE), ceil(rows / TILE)).
template <int TILE, int ROWS, int PAD, int MAX_THREADS, int MIN_BLOCKS>
__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS)
transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    static_assert(TILE % ROWS == 0, "ROWS must divide TILE");
    static_assert(PAD == 0 || PAD == 1, "PAD is 0 or 1");
    constexpr int BLOCK_ROWS = TILE / ROWS;
    __shared__ float tile[TILE][TILE + PAD];

    // Load: thread (x, y) reads in[row][col] for rows y, y + BLOCK_ROWS, ... of the tile.
    const long long col = (long long)blockIdx.x * TILE + threadIdx.x;
    const long long row = (long long)blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (row + j < rows && col < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(row + j) * cols + col];
    __syncthreads();

    // Store: the tile's column threadIdx.x becomes out's row; out's tile sits at the
    // mirrored block position, and out has `rows` columns.
    const long long out_col = (long long)blockIdx.y * TILE + threadIdx.x;
    const long long out_row = (long long)blockIdx.x * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (out_row + j < cols && out_col < rows)
            out[(out_row + j) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
}

} // namespace autotune_kernels
