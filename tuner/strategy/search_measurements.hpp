// The search stage on a live GPU: which variants get GPU time. Pruned variants and
// duplicates never do; the strategy proposes among the rest, within the budget, and each
// proposal is measured; a duplicate then carries its group's measurement.
#pragma once

#include "compile/compiled_variant.hpp"
#include "measure/measure_variants.hpp"
#include "predict/variant_prediction.hpp"
#include "strategy/prune_variants.hpp"
#include "strategy/search_space.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace autotune {

struct SearchSettings {
    std::string strategy = "exhaustive";
    Budget budget;
    std::uint64_t seed = 1;
    std::function<void(std::size_t, std::size_t)> progress; // (evaluations so far, most the budget allows)
};

struct SearchOutcome {
    std::vector<std::optional<VariantMeasurement>> measurements; // [i] belongs to variants[i]
    std::size_t evaluations = 0;                                 // proposals the strategy made
    std::size_t candidates = 0;                                  // variants it could choose from
};

// `prior[i]` is the model's score of variants[i] (higher is better): the model strategy's
// order. Throws std::invalid_argument for an unknown strategy.
[[nodiscard]] SearchOutcome search_and_measure(const std::vector<Variant>& variants,
                                               const std::vector<CompiledVariant>& compiled,
                                               const std::vector<PredictionOutcome>& predictions,
                                               const PruneReport& pruning, const std::vector<double>& prior,
                                               VariantMeasurer& measurer, const SearchSettings& settings);

// The search space of the candidates: their parameter values (in the spec's order) and prior.
[[nodiscard]] SearchSpace search_space_of(const std::vector<Variant>& variants, const std::vector<std::size_t>& candidates,
                                          const std::vector<double>& prior);

} // namespace autotune
