// A template that fails to compile on purpose for V == 3 (tests: compile_error for
// those variants, the others compile, the run succeeds).
#pragma once

template <int V>
__global__ void scale(float* x, int n)
{
    static_assert(V != 3, "V = 3 is broken on purpose");
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= V;
}
