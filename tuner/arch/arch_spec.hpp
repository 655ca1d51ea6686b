// ArchSpec: what one compute capability allows per SM and per block — the inputs of
// occupancy prediction. One table (arch_table.cpp) for every architecture the tuner
// knows, sourced from the CUDA C++ Programming Guide.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace autotune {

struct ArchSpec {
    int compute_capability = 0;        // 90 for sm_90 (compute capability 9.0)
    std::string name;                  // "sm_90"
    std::string example_gpus;          // "H100, H200, GH200"
    int max_threads_per_sm = 0;
    int max_blocks_per_sm = 0;
    int registers_per_sm = 0;          // 32-bit registers
    int max_registers_per_block = 0;
    int max_registers_per_thread = 0;
    int register_allocation_unit = 256; // registers, allocated per warp in these units
    int max_threads_per_block = 1024;
    std::int64_t shared_per_sm = 0;               // bytes, the largest carveout
    std::int64_t max_shared_per_block = 0;        // bytes without opt-in (48 KB)
    std::int64_t max_shared_per_block_optin = 0;  // bytes with cudaFuncAttributeMaxDynamicSharedMemorySize
    std::int64_t reserved_shared_per_block = 0;   // bytes the system reserves per resident block
    int warp_size = 32;
    bool nvrtc_compiles = true;        // false: the calculator knows it, this NVRTC cannot target it
    std::string source;                // where the numbers come from
    std::string note;                  // where NVIDIA's own sources disagree, and which we follow

    [[nodiscard]] int max_warps_per_sm() const { return max_threads_per_sm / warp_size; }
};

// Every known architecture, ordered by compute capability.
[[nodiscard]] const std::vector<ArchSpec>& arch_table();

// The entry for compute capability `cc` (90 for sm_90 and sm_90a); throws ArchError
// (arch_target.hpp) naming it and listing the known ones.
[[nodiscard]] const ArchSpec& find_arch_spec(int compute_capability);

} // namespace autotune
