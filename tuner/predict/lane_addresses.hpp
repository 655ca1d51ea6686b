// How a warp's 32 lanes address memory, from the PTX: each register is followed as a
// uniform part (the same in every lane: pointers, block offsets, loop counters) plus
// multiples of threadIdx.x and threadIdx.y. For a load or store whose address is such an
// affine form, the lanes' addresses follow from the block's shape, and with them the
// memory traffic the instruction really causes: the 32-byte sectors a global access
// touches (coalescing) and the shared-memory wavefronts its bank conflicts cost.
#pragma once

#include "predict/ptx_kernel.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace autotune {

// A value's per-lane part: x · threadIdx.x + y · threadIdx.y (bytes, for addresses).
struct LaneAffine {
    std::int64_t x = 0;
    std::int64_t y = 0;
};

// For each instruction of the body, the per-lane part of its address operand where the
// instruction accesses memory and the address is affine in the thread index; nullopt for
// other instructions and for addresses the analysis cannot follow (loaded from memory,
// scaled by a value known only at run time).
[[nodiscard]] std::vector<std::optional<LaneAffine>> lane_addresses(const PtxKernel& kernel);

struct BlockShape {
    std::int64_t x = 1;
    std::int64_t y = 1;
    std::int64_t z = 1;
};

// The first warp's lanes (threadIdx from lane 0 up, x fastest) for a block of `shape`.
// What a global access of `bytes` per lane at these per-lane offsets touches: its 32-byte
// sectors, and the 128-byte cache lines they lie in (L1 passes one line's sectors a wavefront).
struct GlobalFootprint {
    int sectors = 0;
    int lines = 0;
};
[[nodiscard]] GlobalFootprint global_footprint(const LaneAffine& address, const BlockShape& shape, int bytes);
// Shared-memory wavefronts: the most distinct 4-byte words any of the 32 banks serves, at
// least one per 128 bytes the warp moves.
[[nodiscard]] int shared_wavefronts(const LaneAffine& address, const BlockShape& shape, int bytes);

// What a shared access costs the SM, in wavefronts (the time model charges each
// instruction at least the clocks its LD/ST units take for a warp). `replay_pass_clocks`
// 0: the wavefronts. Otherwise (Turing: PipeRates::shared_conflicts_replay) a bank conflict
// replays the warp's pass of that many clocks once more per way; a conflict-free access
// costs its wavefronts all the same (the bandwidth microbenchmarks of Turing, conflict-free
// by design, say nothing against the rule).
[[nodiscard]] int shared_access_wavefronts(const LaneAffine& address, const BlockShape& shape, int bytes,
                                           int replay_pass_clocks);

} // namespace autotune
