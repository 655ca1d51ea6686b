// fp32 GEMM, C = A·B, all row-major (A: M×K, B: K×N, C: M×N), tiled through shared
// memory. A block computes a BM×BN tile of C, stepping through K in slices of BK; each
// thread owns a TM×TN sub-tile kept in registers. Global loads move VEC floats at a time.
// The spec (kernels/gemm.toml) guarantees M % BM == 0, N % BN == 0, K % BK == 0 and
// that VEC divides the rows it loads, so there is no bounds check in the inner loop.
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

// MAX_THREADS and MIN_BLOCKS are the launch bounds; 0 leaves the kernel unbounded.
template <int BM, int BN, int BK, int TM, int TN, int VEC, int MAX_THREADS, int MIN_BLOCKS>
__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS)
gemm(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
     int M, int N, int K)
{
    constexpr int THREADS_X = BN / TN;           // threads along a row of the C tile
    constexpr int THREADS = (BM / TM) * THREADS_X;
    static_assert(BM % TM == 0 && BN % TN == 0, "thread tile must divide block tile");
    static_assert(BK % VEC == 0 && BN % VEC == 0, "VEC must divide the loaded rows");

    // A is kept transposed (k-major) so a thread reads its TM values of a column contiguously.
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];

    const int tid = threadIdx.x;
    const int thread_row = tid / THREADS_X;
    const int thread_col = tid % THREADS_X;
    const int tile_row = blockIdx.y * BM;
    const int tile_col = blockIdx.x * BN;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        constexpr int A_VECTORS = BM * BK / VEC;
#pragma unroll
        for (int v = tid; v < A_VECTORS; v += THREADS) {
            const int r = v / (BK / VEC);
            const int c = (v % (BK / VEC)) * VEC;
            float part[VEC];
            load_floats<VEC>(A + (long long)(tile_row + r) * K + k0 + c, part);
#pragma unroll
            for (int i = 0; i < VEC; ++i)
                As[c + i][r] = part[i];
        }
        constexpr int B_VECTORS = BK * BN / VEC;
#pragma unroll
        for (int v = tid; v < B_VECTORS; v += THREADS) {
            const int r = v / (BN / VEC);
            const int c = (v % (BN / VEC)) * VEC;
            float part[VEC];
            load_floats<VEC>(B + (long long)(k0 + r) * N + tile_col + c, part);
#pragma unroll
            for (int i = 0; i < VEC; ++i)
                Bs[r][c + i] = part[i];
        }
        __syncthreads();

#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                a[i] = As[k][thread_row * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j)
                b[j] = Bs[k][thread_col * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

    constexpr int STORE_VEC = (TN % VEC == 0) ? VEC : 1;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        float* row = C + (long long)(tile_row + thread_row * TM + i) * N + tile_col + thread_col * TN;
#pragma unroll
        for (int j = 0; j < TN; j += STORE_VEC)
            store_floats<STORE_VEC>(row + j, &acc[i][j]);
    }
}

} // namespace autotune_kernels
