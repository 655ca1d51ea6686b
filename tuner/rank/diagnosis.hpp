// Why a variant falls short of the roof, in the order the seeds give the ceilings
// (cheapest to break through first): spills and stack, occupancy below the
// latency-hiding floor, scalar global accesses where vectors were possible, a grid with
// fewer blocks than SMs, then — measured only — memory-bound below 80% of bandwidth or
// compute-bound below 50% of peak.
#pragma once

#include "compile/resource_usage.hpp"
#include "predict/occupancy.hpp"
#include "rank/ptx_memory_ops.hpp"
#include "rank/roofline.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace autotune {

struct VariantFacts {
    ResourceUsage resources;
    Occupancy occupancy;
    std::int64_t threads_per_block = 0;
    std::int64_t grid_blocks = 0;
    int sms = 0;                        // of the device the roofline is for
    GlobalMemoryOps memory_ops;
    bool vectors_possible = false;      // some variant of the same kernel uses vector accesses
    ProblemRoofline problem;
    Ceilings ceilings;
    std::optional<double> seconds;      // the measured median, when measured
};

[[nodiscard]] std::vector<std::string> diagnose(const VariantFacts& facts);

} // namespace autotune
