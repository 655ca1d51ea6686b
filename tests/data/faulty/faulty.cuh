// A copy kernel that misbehaves on purpose, one way per MODE, for the GPU tests of the
// measure stage: 0 and 4 copy correctly, 1 skips the last element (wrong result),
// 2 writes far out of bounds (an illegal address: the context is lost), 3 never ends.
#pragma once

template <int MODE>
__global__ void faulty_copy(const int* __restrict__ in, int* __restrict__ out, long long n)
{
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (MODE == 3) {
        volatile int spin = 1;
        while (spin) {
        }
    }
    if (MODE == 2 && i == 0)
        out[1LL << 40] = 1;
    const long long last = MODE == 1 ? n - 1 : n;
    if (i < last)
        out[i] = in[i];
}
