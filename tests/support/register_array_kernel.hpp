// A kernel whose sums are an array indexed by a partly unrolled loop's counter, as in KTT's
// Coulomb sum: the PTX keeps them in a local array, and ptxas keeps them in registers,
// reading and writing each element through a chain of predicated moves inside the loop.
#pragma once

namespace autotune::test {

inline constexpr const char* register_array_kernel = R"(
extern "C" __global__ void k(const float4* atoms, float* out, int n) {
    float sums[16];
    for (int j = 0; j < 16; ++j) sums[j] = 0;
    for (int i = 0; i < n; ++i) {
        float4 a = atoms[i];
        float dz = a.z - threadIdx.x;
        #pragma unroll 4
        for (int j = 0; j < 16; ++j) {
            sums[j] += a.w * rsqrtf(a.x * a.x + a.y * a.y + dz * dz);
            dz += 0.5f;
        }
    }
    for (int j = 0; j < 16; ++j) out[j * blockDim.x + threadIdx.x] = sums[j];
})";

} // namespace autotune::test
