// Before any GPU time: variants that cannot launch on the arch are dropped, and variants
// that would run the same machine code the same way are grouped so each group is measured
// once. The key of a group is the SASS (the .text of the kernel: whole-cubin bytes differ
// in metadata where the code does not), the registers, the static and dynamic shared
// memory, the block and grid shape and the arguments — a grid-stride kernel with another
// grid is another run, even with the same code.
#pragma once

#include "compile/compiled_variant.hpp"
#include "predict/variant_prediction.hpp"
#include "space/enumerate_space.hpp"
#include "space/variant.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <optional>
#include <string>
#include <vector>

namespace autotune {

struct PruneDecision {
    bool pruned = false;                      // never measured: it cannot launch, or could not bring anything
    std::string reason;                       // why, when pruned
    std::optional<std::size_t> duplicate_of;  // position (in the variants) of the member measured for it
};

struct PruneReport {
    std::vector<PruneDecision> decisions;     // [i] belongs to variants[i]
    std::vector<RuleRemoval> removals;        // how many each rule took out of the measurement
};

// What makes two runs of a kernel the same run: the key duplicates share.
[[nodiscard]] std::string run_identity(const KernelSpec& spec, const Problem& problem, const Variant& variant,
                                       const std::string& sass_sha256, int registers, std::int64_t shared_static);

[[nodiscard]] PruneReport prune_variants(const KernelSpec& spec, const Problem& problem,
                                         const std::vector<Variant>& variants,
                                         const std::vector<CompiledVariant>& compiled,
                                         const std::vector<PredictionOutcome>& predictions);

} // namespace autotune
