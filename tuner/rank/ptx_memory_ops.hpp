// How a variant's PTX touches global memory: scalar or vector loads and stores. A
// kernel that could move 8 or 16 bytes per instruction and moves 4 pays in instructions
// (the seeds: the vectorized-access pro tip).
#pragma once

#include <cstddef>
#include <string_view>

namespace autotune {

struct GlobalMemoryOps {
    std::size_t scalar_loads = 0;  // ld.global without .v2/.v4
    std::size_t vector_loads = 0;  // ld.global.*.v2 / .v4
    std::size_t scalar_stores = 0;
    std::size_t vector_stores = 0;
    // Other instructions that may write global memory: stores through a generic address
    // (st.f32 [%rd1]: no state space), global or generic atomics and reductions, bulk
    // copies to global memory. With no store at all, a kernel's outputs are never written.
    std::size_t other_writes = 0;
    [[nodiscard]] bool writes_global() const { return scalar_stores + vector_stores + other_writes > 0; }
};

[[nodiscard]] GlobalMemoryOps count_global_memory_ops(std::string_view ptx);

} // namespace autotune
