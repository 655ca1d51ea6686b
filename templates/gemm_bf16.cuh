// bf16 GEMM on tensor cores (sm_80+), fp32 accumulate and fp32 output:
//
//   C[m][n] = sum over k of A[m][k] · B[n][k]
//
//   A  M×K bf16, row-major (k contiguous)             — activations
//   B  N×K bf16, row-major (k contiguous): B is stored  — weights, as nn.Linear keeps them
//      transposed, i.e. the K×N operand column-major
//   C  M×N fp32, row-major
//
// B is k-contiguous because mma's B operand is ".col" (PTX ISA, "Matrix Fragments for
// mma.m16n8k16 with floating point type": b0,b1 of a thread are two consecutive k of one
// column n). With both operands k-contiguous, one 16-byte row of shared memory is 8
// consecutive k of one m (for A) or one n (for B), and ldmatrix without .trans hands each
// thread exactly its mma fragment.
//
// A block computes a BM×BN tile of C; its (BM/WM)·(BN/WN) warps each compute a WM×WN
// tile as (WM/16)·(WN/8) mma.m16n8k16 tiles. K is walked in slices of BK through a
// STAGES-deep ring of shared-memory buffers filled by cp.async (16-byte copies that bypass
// the registers), so STAGES−1 slices are in flight while one is computed.
//
// Requirements (kernels/gemm_bf16.toml states them as constraints): N % BN == 0,
// K % BK == 0 (so every row is 16-byte aligned: K is a multiple of 8), WM and WN multiples
// of 16, BK 32 or 64. M is free: rows at or past M are loaded as zeros (cp.async with a
// source size of 0) and never stored, so any M ≥ 1 works (decode-time M = 1..256 included).
// The launch: grid (N / BN, ceil(M / BM)), block 32·(BM/WM)·(BN/WN) threads, dynamic shared
// memory STAGES·(BM + BN)·ROW_BYTES (see SharedTile); above 48 KB the launcher must raise
// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (the tuner's measure stage does).
#pragma once

// cuda_bf16.h's type (so the mangled name and a consumer's pointer type match). The kernel
// only moves bf16 bits, but the type must be complete under nvcc: NVRTC's IR gives
// __nv_bfloat16 its 2-byte layout even where the source only declares it, and a sized
// element type changes how NVVM folds the address arithmetic on A and B — with a mere
// declaration, nvcc built other machine code than the tuner (docs/fidelity.md). NVRTC
// has no cuda_bf16.h without the toolkit's include directory, and needs none.
#if defined(__CUDACC_RTC__)
struct __nv_bfloat16;
#else
#include <cuda_bf16.h>
#endif

namespace autotune_kernels {

namespace gemm_bf16_detail {

// A shared-memory pointer as the 32-bit .shared address that cp.async and ldmatrix take.
__device__ __forceinline__ unsigned shared_address(const void* p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// PTX ISA, "cp.async": copies 16 bytes global → shared without the registers (.cg: cached
// in L2 only; the tile is reused from shared memory, not L1). src_bytes < 16 fills the rest
// with zeros; 0 reads nothing, which is how rows past M become zeros.
__device__ __forceinline__ void copy_16_bytes_async(unsigned shared_dst, const void* global_src, unsigned src_bytes)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_dst), "l"(global_src), "r"(src_bytes)
                 : "memory");
}

// PTX ISA, "cp.async.commit_group": the copies issued so far form one group.
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

// PTX ISA, "cp.async.wait_group": wait until at most PENDING of this thread's most recent
// groups are still in flight (their writes are then visible to this thread; a barrier
// makes them visible to the block).
template <int PENDING>
__device__ __forceinline__ void wait_copies()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING) : "memory");
}

// PTX ISA, "ldmatrix" (.m8n8.x4.b16): four 8×8 b16 matrices. Lanes 8j..8j+7 give the
// 16-byte row addresses of matrix j (rows 0..7 in lane order); every lane receives in
// d[j] row (lane / 4), elements 2·(lane % 4) and 2·(lane % 4) + 1 of matrix j — the same
// (groupID, 2·threadID_in_group) pattern as mma's A, B and C fragments.
__device__ __forceinline__ void load_matrices_x4(unsigned (&d)[4], unsigned shared_row_address)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(shared_row_address)
                 : "memory");
}

// PTX ISA, "mma" (.m16n8k16.row.col.f32.bf16.bf16.f32): D = A·B + D for a 16×16 A
// fragment (a[0..3]), a 16×8 B fragment (b0, b1) and a 16×8 fp32 accumulator (d[0..3]).
// Fragment layouts, "Matrix Fragments for mma.m16n8k16 with floating point type", with
// g = lane / 4 (groupID) and t = lane % 4 (threadID_in_group):
//   a[0]: A[g][2t, 2t+1]      a[1]: A[g+8][2t, 2t+1]
//   a[2]: A[g][2t+8, 2t+9]    a[3]: A[g+8][2t+8, 2t+9]
//   b0:   B[k = 2t, 2t+1][n = g]      b1: B[k = 2t+8, 2t+9][n = g]
//   d[0], d[1]: C[g][2t, 2t+1]        d[2], d[3]: C[g+8][2t, 2t+1]
// (lower k or n in the lower 16 bits of each register).
__device__ __forceinline__ void mma_16x8x16(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// One operand's slice in shared memory: ROWS rows (m for A, n for B) of BK bf16, stored
// as 16-byte chunks of 8 consecutive k. ldmatrix reads one chunk from each of 8
// consecutive rows per phase; it is free of bank conflicts when those 8 chunks lie in 8
// different 16-byte columns of the 128-byte bank line. Row-major with 64- or 128-byte rows
// would put them all in one or two columns (8- or 4-way conflicts), so:
//   SWIZZLE = 1: chunk c of row r is stored at chunk c ^ ((r / ROWS_PER_LINE) % CHUNKS)
//     (XOR swizzle, no padding). With CHUNKS = 8 (BK 64) a row fills a line and the XOR
//     with r % 8 spreads 8 rows over 8 columns; with CHUNKS = 4 (BK 32) two rows share a
//     line, r % 2 picks its half and the XOR with (r / 2) % 4 the column within it.
//   SWIZZLE = 0: rows padded by 16 bytes (a row is an odd number of chunks, 5 or 9), so
//     consecutive rows shift by one column; costs 25% (BK 32) or 12.5% (BK 64) more memory.
// The cp.async writes are conflict-free either way: a warp writes whole rows, and a row's
// chunks are a permutation of its line's columns.
template <int ROWS, int BK, int SWIZZLE>
struct SharedTile {
    static constexpr int CHUNKS = BK / 8;
    static constexpr int ROWS_PER_LINE = 8 / CHUNKS;
    static constexpr int ROW_BYTES = BK * 2 + (SWIZZLE ? 0 : 16);
    static constexpr int BYTES = ROWS * ROW_BYTES;

    // Byte offset of chunk `chunk` (k = 8·chunk .. 8·chunk + 7) of row `row`.
    __device__ static __forceinline__ unsigned offset(int row, int chunk)
    {
        if constexpr (SWIZZLE != 0)
            return row * ROW_BYTES + ((chunk ^ ((row / ROWS_PER_LINE) % CHUNKS)) << 4);
        else
            return row * ROW_BYTES + (chunk << 4);
    }
};

// Copies the ROWS×BK slice of a k-contiguous matrix starting at row `first_row`, column k0
// into `tile` (a shared address): THREADS threads, one 16-byte chunk each per step, in
// order along the rows so a warp reads whole 64- or 128-byte row segments. Rows at or past
// `rows` (only A's M is ragged) are filled with zeros and their source clamped to row 0,
// so no address past the matrix is formed.
template <int ROWS, int BK, int SWIZZLE, int THREADS>
__device__ __forceinline__ void copy_slice_async(unsigned tile, const __nv_bfloat16* matrix, int first_row, int rows,
                                                 int row_length, int k0, int tid)
{
    using Tile = SharedTile<ROWS, BK, SWIZZLE>;
    constexpr int CHUNKS = ROWS * Tile::CHUNKS;
    const char* base = reinterpret_cast<const char*>(matrix);
#pragma unroll
    for (int i = 0; i < (CHUNKS + THREADS - 1) / THREADS; ++i) {
        const int index = tid + i * THREADS;
        if (CHUNKS % THREADS != 0 && index >= CHUNKS)
            break;
        const int row = index / Tile::CHUNKS;
        const int chunk = index % Tile::CHUNKS;
        const bool inside = first_row + row < rows;
        const long long source_row = inside ? first_row + row : 0;
        const char* source = base + (source_row * row_length + k0 + chunk * 8) * 2;
        copy_16_bytes_async(tile + Tile::offset(row, chunk), source, inside ? 16u : 0u);
    }
}

} // namespace gemm_bf16_detail

// BM×BN block tile, BK slice (32 or 64), WM×WN warp tile, STAGES (2..4) buffers, SWIZZLE
// (1: XOR-swizzled shared rows, 0: padded); MAX_THREADS and MIN_BLOCKS are the launch
// bounds, 0 leaving the kernel unbounded.
template <int BM, int BN, int BK, int WM, int WN, int STAGES, int SWIZZLE, int MAX_THREADS, int MIN_BLOCKS>
__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS)
gemm_bf16(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B, float* __restrict__ C, int M, int N,
          int K)
{
    using namespace gemm_bf16_detail;
    static_assert(BK == 32 || BK == 64, "BK is 32 or 64: 4 or 8 chunks of 16 bytes per row");
    static_assert(WM % 16 == 0 && WN % 16 == 0, "a warp tile is whole m16 tiles and whole pairs of n8 tiles");
    static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles must divide the block tile");
    static_assert(STAGES >= 2, "a pipeline needs at least two buffers");
    constexpr int WARPS_N = BN / WN;
    constexpr int THREADS = 32 * (BM / WM) * WARPS_N;
    constexpr int M_TILES = WM / 16; // mma tiles per warp along m
    constexpr int N_TILES = WN / 8;  // ... along n
    using TileA = SharedTile<BM, BK, SWIZZLE>;
    using TileB = SharedTile<BN, BK, SWIZZLE>;
    constexpr int STAGE_BYTES = TileA::BYTES + TileB::BYTES;

    extern __shared__ __align__(128) unsigned char shared[];
    const unsigned shared_base = shared_address(shared);
    const auto stage_a = [&](int stage) { return shared_base + stage * STAGE_BYTES; };
    const auto stage_b = [&](int stage) { return shared_base + stage * STAGE_BYTES + TileA::BYTES; };

    const int tid = threadIdx.x;
    const int lane = tid % 32;
    const int warp = tid / 32;
    const int warp_m = warp / WARPS_N;
    const int warp_n = warp % WARPS_N;
    const int block_m = blockIdx.y * BM;
    const int block_n = blockIdx.x * BN;
    const int slices = K / BK;

    const auto copy_slice = [&](int slice, int stage) {
        const int k0 = slice * BK;
        copy_slice_async<BM, BK, SWIZZLE, THREADS>(stage_a(stage), A, block_m, M, K, k0, tid);
        copy_slice_async<BN, BK, SWIZZLE, THREADS>(stage_b(stage), B, block_n, N, K, k0, tid);
    };

    // The rows this lane addresses for ldmatrix (see load_matrices_x4):
    //   A, one x4 per m16×k16 tile: matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7),
    //     (rows 0-7, k 8-15), (rows 8-15, k 8-15) = a[0..3]; lane → row lane % 16, chunk
    //     lane / 16.
    //   B, one x4 per two n8 tiles (n16×k16): matrices (n 0-7, k 0-7), (n 0-7, k 8-15),
    //     (n 8-15, k 0-7), (n 8-15, k 8-15) = b0, b1 of the first n8 tile, b0, b1 of the
    //     second; lane → row (lane % 8) + 8·(lane / 16), chunk (lane / 8) % 2.
    // An 8×8 matrix with rows = n and columns = k gives lane l the elements (n = l / 4,
    // k = 2·(l % 4), +1): exactly b0/b1's (k = 2t, 2t+1; n = g). Hence no .trans.
    const int a_row = warp_m * WM + lane % 16;
    const int a_chunk = lane / 16;
    const int b_row = warp_n * WN + lane % 8 + 8 * (lane / 16);
    const int b_chunk = (lane / 8) % 2;

    float acc[M_TILES][N_TILES][4];
#pragma unroll
    for (int i = 0; i < M_TILES; ++i)
#pragma unroll
        for (int j = 0; j < N_TILES; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r)
                acc[i][j][r] = 0.0f;

    // Prologue: slices 0..STAGES-2 in flight, one group each. A group is committed even
    // when there is no slice left to load, so that "group s holds slice s" stays true and
    // the wait below counts right for any number of slices.
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < slices)
            copy_slice(s, s);
        commit_copies();
    }

    for (int slice = 0; slice < slices; ++slice) {
        // slice + STAGES − 1 groups are committed; allowing STAGES − 2 pending means groups
        // 0..slice are complete: this thread's part of `slice` has landed. The barrier
        // makes every thread's part visible, and tells that every warp has finished
        // computing on slice − 1, whose buffer the copy below overwrites.
        wait_copies<STAGES - 2>();
        __syncthreads();
        const int next = slice + STAGES - 1;
        if (next < slices)
            copy_slice(next, next % STAGES);
        commit_copies();

        const int stage = slice % STAGES;
        const unsigned tile_a = stage_a(stage);
        const unsigned tile_b = stage_b(stage);
#pragma unroll
        for (int kk = 0; kk < BK / 16; ++kk) {
            unsigned a[M_TILES][4];
            unsigned b[N_TILES / 2][4];
#pragma unroll
            for (int i = 0; i < M_TILES; ++i)
                load_matrices_x4(a[i], tile_a + TileA::offset(a_row + 16 * i, 2 * kk + a_chunk));
#pragma unroll
            for (int j = 0; j < N_TILES / 2; ++j)
                load_matrices_x4(b[j], tile_b + TileB::offset(b_row + 16 * j, 2 * kk + b_chunk));
#pragma unroll
            for (int i = 0; i < M_TILES; ++i)
#pragma unroll
                for (int j = 0; j < N_TILES; ++j)
                    mma_16x8x16(acc[i][j], a[i], b[j / 2][2 * (j % 2)], b[j / 2][2 * (j % 2) + 1]);
        }
    }
    // Only empty groups can still be pending (the last real slice was waited for above),
    // and nothing reads shared memory from here on.

    // Epilogue: d[0], d[1] are C[g][2t, 2t+1] and d[2], d[3] are C[g+8][2t, 2t+1] of each
    // m16n8 tile — two adjacent floats, stored as one 8-byte float2 (N is even, so aligned).
    const int g = lane / 4;
    const int t = lane % 4;
#pragma unroll
    for (int i = 0; i < M_TILES; ++i) {
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const int row = block_m + warp_m * WM + 16 * i + g + 8 * half;
            if (row >= M)
                continue;
            float* out = C + static_cast<long long>(row) * N + block_n + warp_n * WN + 2 * t;
#pragma unroll
            for (int j = 0; j < N_TILES; ++j)
                *reinterpret_cast<float2*>(out + 8 * j) = make_float2(acc[i][j][2 * half], acc[i][j][2 * half + 1]);
        }
    }
}

} // namespace autotune_kernels
