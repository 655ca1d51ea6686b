// The predict stage for one compiled variant: its occupancy, what its launch bounds
// oblige ptxas to, and the flags a user should see (spills under a cap, an unreachable
// min-blocks bound, ptxas choosing a cap other than the computed one).
#pragma once

#include "arch/arch_spec.hpp"
#include "compile/compiled_variant.hpp"
#include "compile/resource_usage.hpp"
#include "predict/launch_bounds.hpp"
#include "predict/occupancy.hpp"
#include "space/variant.hpp"

#include <optional>
#include <string>
#include <vector>

namespace autotune {

struct VariantPrediction {
    Occupancy occupancy;
    std::optional<LaunchBoundCap> launch_bound; // computed from the variant's __launch_bounds__
    std::vector<std::string> flags;             // one sentence each
};

// Throws OccupancyError when no block of the variant fits an SM of the arch.
[[nodiscard]] VariantPrediction predict_variant(const ArchSpec& arch, const Variant& variant,
                                                const ResourceUsage& resources);

// A prediction, or why there is none: the variant did not compile, or cannot run.
struct PredictionOutcome {
    std::optional<VariantPrediction> prediction;
    std::string error; // empty when predicted or not compiled
};

// The predict stage over a compiled space: compiled[i] belongs to variants[i].
[[nodiscard]] std::vector<PredictionOutcome> predict_variants(const ArchSpec& arch,
                                                              const std::vector<Variant>& variants,
                                                              const std::vector<CompiledVariant>& compiled);

} // namespace autotune
