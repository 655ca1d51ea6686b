// Occupancy prediction: how many blocks of a kernel fit on one SM, what limits them,
// and how many registers per thread separate it from one block more or one fewer.
// Computed by NVIDIA's own calculator (cuda_occupancy.h, which runs on the CPU) fed
// from the arch table, so the rules are NVIDIA's, not ours.
#pragma once

#include "arch/arch_spec.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace autotune {

enum class OccupancyLimiter { warps, blocks, registers, shared_memory, barriers };
// "warps", "blocks", "registers", "shared_memory", "barriers"
[[nodiscard]] std::string to_string(OccupancyLimiter limiter);

// What one block of the kernel asks of an SM.
struct KernelFootprint {
    int threads_per_block = 0;
    int registers_per_thread = 0;
    std::int64_t static_shared_bytes = 0;
    std::int64_t dynamic_shared_bytes = 0;
    int barriers = 1; // named barriers the kernel uses; 0 switches the barrier limit off
};

struct Occupancy {
    int blocks_per_sm = 0;
    int active_warps = 0;  // blocks_per_sm × warps per block
    int max_warps = 0;     // the SM's maximum
    double fraction = 0;   // active_warps / max_warps, 0..1
    // The binding limit. When several bind at once the structural one is named (warps,
    // then blocks): freeing a resource would not add a block while it binds.
    OccupancyLimiter limiter = OccupancyLimiter::warps;
    std::vector<OccupancyLimiter> limiters; // every limit that binds
    // Blocks per SM each limit alone would allow (INT_MAX: that resource is unused).
    int blocks_by_warps = 0;
    int blocks_by_blocks = 0;
    int blocks_by_registers = 0;
    int blocks_by_shared_memory = 0;
    int blocks_by_barriers = 0;
    // Registers per thread that can be added before a block is lost (nullopt: none can be
    // lost to registers up to the architecture's maximum).
    std::optional<int> registers_to_lose_a_block;
    // Registers per thread that must be cut to gain a block (nullopt: cutting registers
    // alone cannot add one).
    std::optional<int> registers_to_gain_a_block;
};

// The footprint cannot run at all on the arch (no block fits, or it breaks a per-block
// limit); the message names the value and the limit.
class OccupancyError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

[[nodiscard]] Occupancy predict_occupancy(const ArchSpec& arch, const KernelFootprint& kernel);

// Blocks of `threads_per_block` threads that `registers_per_thread` registers alone allow
// on one SM (0 when even one block does not fit), by the calculator's allocation rules:
// per-warp granularity, warps spread over the SM's sub-partitions.
[[nodiscard]] int blocks_allowed_by_registers(const ArchSpec& arch, int threads_per_block, int registers_per_thread);

// The most registers per thread with which one block of `threads_per_block` threads fits an
// SM by its registers (up to the architecture's per-thread maximum); -1 when the block is
// larger than the architecture allows. A launch fails for registers exactly above it.
[[nodiscard]] int most_registers_for_one_block(const ArchSpec& arch, int threads_per_block);

} // namespace autotune
