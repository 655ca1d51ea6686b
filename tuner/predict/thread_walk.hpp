// How often each instruction of a kernel runs for one warp, found by running
// the PTX's integer and control-flow instructions for sample threads of a
// block. What the static loop analysis (warp_work.cpp) can only estimate comes
// out exact here wherever the control flow depends on thread and block indices,
// constants and known parameters: loops that start at a thread index (for (i =
// threadIdx.y; i < N; i += blockDim.y)), the remainder and main parts NVVM
// splits a partly unrolled loop into (the main part is often never entered),
// bounds checks. Floating-point results and loaded values are unknown: a
// forward branch on an unknown predicate falls through (the caller weighs such
// code), and a backward one — a loop the data ends — ends the walk without an
// answer.
#pragma once

#include "predict/lane_addresses.hpp"
#include "predict/ptx_kernel.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace autotune {

// The launch's grid in blocks: gridDim, for loops that stride by it.
struct GridShape {
    std::int64_t x = 1;
    std::int64_t y = 1;
    std::int64_t z = 1;
};

// A loop as the body's positions of its head label and its backward branch.
struct LoopRange {
    std::size_t head = 0;
    std::size_t latch = 0;
};

struct ExecutionCounts {
    // Per instruction of the body: how often one warp issues it (for each sampled
    // warp the most any of its sampled lanes ran it, averaged over the sampled
    // warps).
    std::vector<double> runs;
    // Per loop range, in the order given: how often one warp entered it from
    // outside.
    std::vector<double> entries;
};

// Walks threads 0 and 31 of every warp of the block (threads of one warp differ in where
// index-strided loops start; warps differ in threadIdx), or where that would take more than
// a tenth of `step_limit`, of the first, middle and last warps; each block at blockIdx 0;
// gridDim is known where `grid` is given. nullopt when a backward branch
// depends on an unknown value, or when the walk would take more than `step_limit` steps
// in all (a long loop the static analysis counts as well).
[[nodiscard]] std::optional<ExecutionCounts> walk_threads(const PtxKernel& kernel, const ParameterValues& parameters,
                                                          const BlockShape& block, const std::vector<LoopRange>& loops,
                                                          const std::optional<GridShape>& grid = std::nullopt,
                                                          std::size_t step_limit = 4'000'000);

} // namespace autotune
