// A program that launches the tuned kernels: the configuration for the running device and
// problem comes from the generated header, the kernels from autotune's templates.
#include "autotune_tuned.hpp"
#include "copy.cuh"
#include "gemm.cuh"

#include <cstdio>
#include <cuda_runtime.h>

namespace tuned = autotune_tuned;

// Every tuned entry is instantiated (each architecture's fatbin carries all of them); the
// lookup picks the one for this device and problem at run time.
// Row-major A and B: layouts 1 (gemm.toml's A_LAYOUT, B_LAYOUT), TRANS_A = TRANS_B = 0.
void launch_gemm(int compute_capability, const float* a, const float* b, float* c, int m, int n, int k)
{
    tuned::gemm::visit(tuned::gemm::entry_index(compute_capability, m, n, k, 1, 1), [&](auto i) {
        constexpr tuned::gemm::Config t = tuned::gemm::entries[decltype(i)::value].config;
        autotune_kernels::gemm<t.BM, t.BN, t.BK, t.TM, t.TN, t.VEC, t.MAX_THREADS, t.MIN_BLOCKS, t.PAD,
                               t.DOUBLE_BUFFER, 0, 0>
            <<<dim3(n / t.BN, m / t.BM), t.block_threads>>>(a, b, c, m, n, k);
    });
}

void launch_copy(int compute_capability, const int* in, int* out, long long n)
{
    tuned::copy::visit(tuned::copy::entry_index(compute_capability, n), [&](auto i) {
        constexpr tuned::copy::Config t = tuned::copy::entries[decltype(i)::value].config;
        const long long vectors = (n + t.VEC - 1) / t.VEC;
        const unsigned blocks = static_cast<unsigned>((vectors + t.BLOCK * t.ITEMS - 1) / (t.BLOCK * t.ITEMS));
        autotune_kernels::copy<t.VEC, t.MAX_THREADS, t.MIN_BLOCKS><<<blocks, t.block_threads>>>(in, out, n);
    });
}

// A plain kernel carrying the architecture's tuned register policy (the device-side
// selection by __CUDA_ARCH__).
__global__ void AUTOTUNE_GEMM_REGISTER_POLICY policy_probe(float* p)
{
    p[threadIdx.x] = 1.0f;
}

int main()
{
    int device = 0, major = 0, minor = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
        std::puts("no GPU: built, not run");
        return 0;
    }
    const tuned::gemm::Config& c = tuned::gemm::lookup(10 * major + minor, 4096, 4096, 4096, 1, 1);
    std::printf("sm_%d%d: gemm BM=%d BN=%d with %d threads\n", major, minor, c.BM, c.BN, c.block_threads);
    return 0;
}
