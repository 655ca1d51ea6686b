// What __launch_bounds__(maxThreads, minBlocks) obliges ptxas to: the register cap
// under which minBlocks blocks of maxThreads threads are resident on one SM (the seeds'
// arithmetic — registers allocated per warp in units of 256 — with the warps spread over
// the SM's sub-partitions), and whether that many blocks can be resident at all.
#pragma once

#include "arch/arch_spec.hpp"

#include <cstdint>
#include <optional>

namespace autotune {

struct LaunchBoundCap {
    int register_cap = 0;             // registers per thread
    bool min_blocks_resident = true;  // false: the SM can never hold min_blocks such blocks
                                      // (ptxas then ignores min blocks, with a warning)
    int blocks_assumed = 1;           // the block count the cap was computed for
};

// nullopt when max_threads is 0 (no bound).
[[nodiscard]] std::optional<LaunchBoundCap> launch_bound_register_cap(const ArchSpec& arch, std::int64_t max_threads,
                                                                      std::int64_t min_blocks);

} // namespace autotune
