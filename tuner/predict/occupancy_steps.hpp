// Where registers cost occupancy: the register counts per thread at which a kernel's
// blocks per SM drop, every other part of its footprint held. The launch-bound
// trade-off reads off these steps: a cap just below one keeps a block per SM.
#pragma once

#include "predict/occupancy.hpp"

#include <vector>

namespace autotune {

struct OccupancyStep {
    int registers = 0;     // from this many registers per thread on ...
    int blocks_per_sm = 0; // ... this many blocks fit (0: none)
};

// The first step is at 1 register; each further one where a block or more is lost, up to
// the arch's registers per thread (ending at 0 blocks when a block stops fitting at all).
// `kernel.registers_per_thread` is ignored.
[[nodiscard]] std::vector<OccupancyStep> occupancy_steps(const ArchSpec& arch, KernelFootprint kernel);

} // namespace autotune
