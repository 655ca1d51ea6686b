// fp32 GEMM, C = A·B (C: M×N, row-major), tiled through shared memory. A is stored M×K
// row-major, or K×M when TRANS_A (column-major A, BLAS's 'T'); B is stored K×N row-major,
// or N×K when TRANS_B. A block computes a BM×BN tile of C, stepping through K in slices of
// BK; each thread owns a TM×TN sub-tile kept in registers. Global loads move VEC floats at
// a time. The spec (kernels/gemm.toml) guarantees M % BM == 0, N % BN == 0, K % BK == 0
// and that VEC divides the rows it loads, so there is no bounds check in the inner loop.
//
// Shared memory holds the slices k-major, As[k][m] and Bs[k][n], so a thread reads its TM
// values of A and TN values of B for one k contiguously (LDS.128 where 4 of them line up).
// An operand whose global rows run along k (row-major A, transposed B) is written there
// transposed, one float at a time; PAD floats at the end of every shared row keep those
// transposed stores off a single bank (see PAD below). With DOUBLE_BUFFER the slices have
// two stages: the next slice's global loads are issued into registers before the current
// slice's FMA loop and stored to the other stage after it, one __syncthreads per slice.
#pragma once

namespace autotune_kernels {

template <int VEC> struct float_vector;
template <> struct float_vector<1> { using type = float; };
template <> struct float_vector<2> { using type = float2; };
template <> struct float_vector<4> { using type = float4; };

template <int VEC>
__device__ __forceinline__ void load_floats(const float* __restrict__ src, float (&dst)[VEC])
{
    using vec_t = typename float_vector<VEC>::type;
    const vec_t v = *reinterpret_cast<const vec_t*>(src);
    const float* parts = reinterpret_cast<const float*>(&v);
#pragma unroll
    for (int i = 0; i < VEC; ++i)
        dst[i] = parts[i];
}

template <int VEC>
__device__ __forceinline__ void store_floats(float* __restrict__ dst, const float* src)
{
    using vec_t = typename float_vector<VEC>::type;
    vec_t v;
    float* parts = reinterpret_cast<float*>(&v);
#pragma unroll
    for (int i = 0; i < VEC; ++i)
        parts[i] = src[i];
    *reinterpret_cast<vec_t*>(dst) = v;
}

// One operand's slice for one K step as it lies in global memory: ROWS rows of COLS floats,
// `ld` floats apart, read as VEC-wide vectors spread over the block's threads (LOADS per
// thread, held in registers between load() and store()). store() writes it to a k-major
// shared tile whose rows are `pitch` floats apart: row r of the slice to shared row r
// (vector stores) or, with TRANSPOSE, column c of the slice to shared row c (scalar stores).
template <int ROWS, int COLS, int VEC, int THREADS, bool TRANSPOSE>
struct GlobalSlice {
    static constexpr int VECTORS_PER_ROW = COLS / VEC;
    static constexpr int VECTORS = ROWS * VECTORS_PER_ROW;
    static constexpr int LOADS = (VECTORS + THREADS - 1) / THREADS;
    static_assert(COLS % VEC == 0, "VEC must divide the loaded rows");

    float part[LOADS][VEC];

    __device__ __forceinline__ void load(const float* __restrict__ src, int ld, int tid)
    {
#pragma unroll
        for (int l = 0; l < LOADS; ++l) {
            const int v = tid + l * THREADS;
            if (VECTORS % THREADS == 0 || v < VECTORS)
                load_floats<VEC>(src + (long long)(v / VECTORS_PER_ROW) * ld + (v % VECTORS_PER_ROW) * VEC, part[l]);
        }
    }

    __device__ __forceinline__ void store(float* tile, int pitch, int tid) const
    {
#pragma unroll
        for (int l = 0; l < LOADS; ++l) {
            const int v = tid + l * THREADS;
            if (VECTORS % THREADS == 0 || v < VECTORS)
                store_one(tile, pitch, v, part[l]);
        }
    }

    // load() and store() vector by vector, nothing held in between (one stage).
    __device__ __forceinline__ static void copy(const float* __restrict__ src, int ld, float* tile, int pitch, int tid)
    {
#pragma unroll
        for (int l = 0; l < LOADS; ++l) {
            const int v = tid + l * THREADS;
            if (VECTORS % THREADS == 0 || v < VECTORS) {
                float one[VEC];
                load_floats<VEC>(src + (long long)(v / VECTORS_PER_ROW) * ld + (v % VECTORS_PER_ROW) * VEC, one);
                store_one(tile, pitch, v, one);
            }
        }
    }

    __device__ __forceinline__ static void store_one(float* tile, int pitch, int v, const float (&values)[VEC])
    {
        const int r = v / VECTORS_PER_ROW;
        const int c = (v % VECTORS_PER_ROW) * VEC;
        if constexpr (TRANSPOSE) {
#pragma unroll
            for (int i = 0; i < VEC; ++i)
                tile[(c + i) * pitch + r] = values[i];
        } else {
            store_floats<VEC>(tile + r * pitch + c, values);
        }
    }
};

// MAX_THREADS and MIN_BLOCKS are the launch bounds; 0 leaves the kernel unbounded.
//
// PAD: floats of padding after every shared row (0 or 4). Padding rather than an XOR
// swizzle: a pitch of BM + 4 (BN + 4) keeps every shared row 16-byte aligned, so the
// fragment reads stay LDS.128 and the untransposed stores STS.128, and the addressing stays
// plain. In a transposed store a warp writes 32·VEC/BK consecutive rows r of the slice for
// each of BK/VEC values of c (one float of each vector per instruction); with BM a multiple
// of 32 and no padding all c land in the same banks (a BK/VEC-way conflict). A pitch of
// BM + 4 moves shared row c + 1 four banks further, which spreads them over distinct banks
// when BK = 8 (the classic 128×128×8 tile) and leaves BK/8-way conflicts above it: at
// BK = 16, 2-way instead of 4-way (VEC = 4) or 16-way (VEC = 1).
//
// DOUBLE_BUFFER: 0, one stage (load, sync, compute, sync per K step); 1, two stages with
// the next slice prefetched into registers during the current slice's FMAs.
//
// TRANS_A, TRANS_B: the operands' layouts (above), fixed by the problem, not tuned.
//
// A thread's TN columns are taken as TN/4 chunks of 4 (TN ≥ 4), chunk q at column
// q·BN/(TN/4) + 4·thread_col: the 8 lanes of one LDS.128 phase read 8 consecutive float4s
// of a B row (no bank conflict; contiguous columns of TN = 8 would put lanes 0 and 4 in
// the same banks), and the C stores of consecutive lanes are consecutive 16-byte pieces.
template <int BM, int BN, int BK, int TM, int TN, int VEC, int MAX_THREADS, int MIN_BLOCKS, int PAD = 0,
          int DOUBLE_BUFFER = 0, int TRANS_A = 0, int TRANS_B = 0>
__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS)
gemm(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
     int M, int N, int K)
{
    constexpr int THREADS_X = BN / TN;           // threads along a row of the C tile
    constexpr int THREADS = (BM / TM) * THREADS_X;
    constexpr int STAGES = DOUBLE_BUFFER ? 2 : 1;
    constexpr int A_PITCH = BM + PAD;            // floats from one shared row (one k) to the next
    constexpr int B_PITCH = BN + PAD;
    constexpr int B_CHUNK = TN < 4 ? TN : 4;     // a thread's columns: TN / B_CHUNK chunks
    constexpr int B_CHUNK_STRIDE = THREADS_X * B_CHUNK;
    constexpr int STORE_VEC = (B_CHUNK % VEC == 0) ? VEC : 1;
    static_assert(BM % TM == 0 && BN % TN == 0, "thread tile must divide block tile");
    static_assert(TN % B_CHUNK == 0, "TN must be whole chunks of 4 columns");
    static_assert(PAD % 4 == 0, "PAD must keep shared rows 16-byte aligned");

    // As[k][m] and Bs[k][n], per stage.
    __shared__ __align__(16) float As[STAGES][BK][A_PITCH];
    __shared__ __align__(16) float Bs[STAGES][BK][B_PITCH];

    const int tid = threadIdx.x;
    const int thread_row = tid / THREADS_X;
    const int thread_col = tid % THREADS_X;
    const int tile_row = blockIdx.y * BM;
    const int tile_col = blockIdx.x * BN;

    // Where the block's slices start and how far one K step moves them, per layout.
    using ASlice = GlobalSlice<TRANS_A ? BK : BM, TRANS_A ? BM : BK, VEC, THREADS, !TRANS_A>;
    using BSlice = GlobalSlice<TRANS_B ? BN : BK, TRANS_B ? BK : BN, VEC, THREADS, TRANS_B != 0>;
    const int lda = TRANS_A ? M : K;
    const int ldb = TRANS_B ? K : N;
    const float* a_src = TRANS_A ? A + tile_row : A + (long long)tile_row * K;
    const float* b_src = TRANS_B ? B + (long long)tile_col * K : B + tile_col;
    const long long a_step = TRANS_A ? (long long)BK * M : BK;
    const long long b_step = TRANS_B ? BK : (long long)BK * N;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    // The FMAs of one K step on one stage.
    auto multiply = [&](int stage) {
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                a[i] = As[stage][k][thread_row * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j)
                b[j] = Bs[stage][k][(j / B_CHUNK) * B_CHUNK_STRIDE + thread_col * B_CHUNK + j % B_CHUNK];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
    };

    if constexpr (!DOUBLE_BUFFER) {
        for (int k0 = 0; k0 < K; k0 += BK) {
            ASlice::copy(a_src, lda, &As[0][0][0], A_PITCH, tid);
            BSlice::copy(b_src, ldb, &Bs[0][0][0], B_PITCH, tid);
            __syncthreads();
            multiply(0);
            __syncthreads();
            a_src += a_step;
            b_src += b_step;
        }
    } else {
        ASlice a_slice;
        BSlice b_slice;
        a_slice.load(a_src, lda, tid);
        b_slice.load(b_src, ldb, tid);
        a_slice.store(&As[0][0][0], A_PITCH, tid);
        b_slice.store(&Bs[0][0][0], B_PITCH, tid);
        __syncthreads();
        int stage = 0;
        for (int k0 = 0; k0 < K; k0 += BK) {
            const bool next = k0 + BK < K;
            if (next) { // in flight during the FMAs below
                a_src += a_step;
                b_src += b_step;
                a_slice.load(a_src, lda, tid);
                b_slice.load(b_src, ldb, tid);
            }
            multiply(stage);
            // The other stage was last read before the previous step's barrier: free to fill.
            if (next) {
                a_slice.store(&As[stage ^ 1][0][0], A_PITCH, tid);
                b_slice.store(&Bs[stage ^ 1][0][0], B_PITCH, tid);
            }
            __syncthreads();
            stage ^= 1;
        }
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        float* row = C + (long long)(tile_row + thread_row * TM + i) * N + tile_col + thread_col * B_CHUNK;
#pragma unroll
        for (int j = 0; j < TN; j += STORE_VEC)
            store_floats<STORE_VEC>(row + (j / B_CHUNK) * B_CHUNK_STRIDE + j % B_CHUNK, &acc[i][j]);
    }
}

} // namespace autotune_kernels
