// templates/gemm.cuh run on the CPU, where there is no GPU: the template is plain CUDA C++,
// so with a few shims (an OS thread per CUDA thread, a std::barrier for __syncthreads,
// function-static arrays for __shared__, blocks run one after another) the real kernel code
// computes C, and is checked against a double-precision product for every operand layout,
// with and without padding and double buffering, on tile shapes that exercise the edges of
// the indexing: non-square problems, 16 columns per thread (four chunks of 4), one, fewer
// loads than threads, scalar and 8-byte vectors. It checks indexing and the stage logic,
// not timing; a barrier missing in the template can still go unnoticed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <barrier>
#include <cmath>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

struct HostDim {
    unsigned x = 0, y = 0, z = 0;
};
thread_local HostDim threadIdx, blockIdx;
std::barrier<>* block_barrier = nullptr;
inline void __syncthreads() { block_barrier->arrive_and_wait(); }

} // namespace

struct alignas(8) float2 {
    float x, y;
};
struct alignas(16) float4 {
    float x, y, z, w;
};

#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(max_threads, min_blocks)
#define __restrict__ __restrict
#include "../../templates/gemm.cuh"
#undef __global__
#undef __device__
#undef __forceinline__
#undef __shared__
#undef __align__
#undef __launch_bounds__
#undef __restrict__

namespace {

// The largest |C - A·B| over all of C, after one launch over the whole grid.
template <int BM, int BN, int BK, int TM, int TN, int VEC, int PAD, int DOUBLE_BUFFER, int TRANS_A, int TRANS_B>
double max_error(int m, int n, int k)
{
    std::mt19937 rng(static_cast<unsigned>(m * 31 + n * 17 + k));
    std::uniform_real_distribution<float> value(-1, 1);
    std::vector<float> a(static_cast<std::size_t>(m) * k), b(static_cast<std::size_t>(k) * n);
    std::vector<float> c(static_cast<std::size_t>(m) * n, NAN);
    for (auto& x : a)
        x = value(rng);
    for (auto& x : b)
        x = value(rng);
    constexpr int threads = (BM / TM) * (BN / TN);
    for (int by = 0; by < m / BM; ++by)
        for (int bx = 0; bx < n / BN; ++bx) {
            std::barrier<> barrier(threads);
            block_barrier = &barrier;
            std::vector<std::thread> block;
            for (int t = 0; t < threads; ++t)
                block.emplace_back([&, t] {
                    threadIdx = {static_cast<unsigned>(t), 0, 0};
                    blockIdx = {static_cast<unsigned>(bx), static_cast<unsigned>(by), 0};
                    autotune_kernels::gemm<BM, BN, BK, TM, TN, VEC, 0, 0, PAD, DOUBLE_BUFFER, TRANS_A, TRANS_B>(
                        a.data(), b.data(), c.data(), m, n, k);
                });
            for (auto& t : block)
                t.join();
        }
    double worst = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double sum = 0;
            for (int l = 0; l < k; ++l)
                sum += double(TRANS_A ? a[l * m + i] : a[i * k + l]) * double(TRANS_B ? b[j * k + l] : b[l * n + j]);
            const double error = std::fabs(sum - c[i * n + j]);
            worst = std::isnan(error) ? INFINITY : std::max(worst, error); // NaN: an element never written
        }
    return worst;
}

template <int TRANS_A, int TRANS_B>
void check_layout()
{
    const double tolerance = 1e-4; // sums of ≤ 80 products of values in [-1, 1], in fp32
    EXPECT_LT((max_error<128, 128, 8, 8, 8, 4, 4, 1, TRANS_A, TRANS_B>(256, 256, 64)), tolerance) << "the Hopper tile";
    EXPECT_LT((max_error<128, 128, 8, 8, 8, 4, 0, 0, TRANS_A, TRANS_B>(256, 128, 48)), tolerance) << "one stage";
    EXPECT_LT((max_error<64, 128, 16, 8, 4, 4, 4, 1, TRANS_A, TRANS_B>(128, 256, 80)), tolerance) << "8×4, BK 16";
    EXPECT_LT((max_error<64, 64, 16, 4, 16, 4, 4, 1, TRANS_A, TRANS_B>(128, 128, 48)), tolerance) << "TN 16";
    EXPECT_LT((max_error<16, 64, 4, 1, 2, 4, 4, 1, TRANS_A, TRANS_B>(32, 128, 16)), tolerance) << "loads < threads";
    EXPECT_LT((max_error<32, 32, 8, 2, 1, 2, 0, 1, TRANS_A, TRANS_B>(64, 64, 24)), tolerance) << "TN 1, VEC 2";
    EXPECT_LT((max_error<32, 64, 32, 4, 4, 1, 4, 0, TRANS_A, TRANS_B>(64, 128, 64)), tolerance) << "VEC 1, BK 32";
}

TEST(GemmOnHost, RowMajorOperands) { check_layout<0, 0>(); }
TEST(GemmOnHost, TransposedA) { check_layout<1, 0>(); }
TEST(GemmOnHost, TransposedB) { check_layout<0, 1>(); }
TEST(GemmOnHost, BothTransposed) { check_layout<1, 1>(); }

} // namespace
