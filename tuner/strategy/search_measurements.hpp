// The search stage on a live GPU: which variants get GPU time. Pruned variants and
// duplicates never do; the strategy proposes among the rest, within the budget, and each
// proposal is measured; a duplicate then carries its group's measurement.
#pragma once

#include "compile/compiled_variant.hpp"
#include "measure/measure_variants.hpp"
#include "predict/variant_prediction.hpp"
#include "strategy/prune_variants.hpp"
#include "strategy/search_space.hpp"
#include "strategy/space_knowledge.hpp"

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace autotune {

// Another GPU's measurements of the same space (--prior): a results view of one problem.
struct PriorResults {
    nlohmann::ordered_json view;
    std::string source; // the file, for messages
};

struct SearchSettings {
    std::string strategy = "exhaustive";
    Budget budget;
    std::uint64_t seed = 1;
    std::optional<PriorResults> prior; // its times are a feature and the first guess (averaged with the predicted time, the forest's baseline)
    std::function<void(std::size_t, std::size_t)> progress; // (evaluations so far, most the budget allows)
};

struct SearchOutcome {
    std::vector<std::optional<VariantMeasurement>> measurements; // [i] belongs to variants[i]
    std::size_t evaluations = 0;                                 // proposals the strategy made
    std::size_t candidates = 0;                                  // variants it could choose from
    bool compiled_lazily = false; // --lazy-compile: only the proposals were compiled
};

// What a strategy learns of one measurement: its median time, or nothing when the variant
// failed or its outputs were wrong (a failure costs an evaluation and yields nothing).
[[nodiscard]] std::optional<double> search_time(const VariantMeasurement& measurement);

// `predicted_score[i]` is the model's score of variants[i] (higher is better; minus its
// predicted rank): the model strategy's order; `facts[i]` what the compiler and the model say of it (empty: nothing), which the
// strategies see as features, with the predicted time as the guess unless settings.prior
// gives measured times. Throws std::invalid_argument for an unknown strategy, or a --prior
// that matches no candidate (naming its file).
[[nodiscard]] SearchOutcome search_and_measure(const std::vector<Variant>& variants,
                                               const std::vector<CompiledVariant>& compiled,
                                               const std::vector<PredictionOutcome>& predictions,
                                               const PruneReport& pruning, const std::vector<double>& predicted_score,
                                               const std::vector<CompiledFacts>& facts, VariantMeasurer& measurer,
                                               const SearchSettings& settings);

// The search space of the candidates: their parameter values (in the spec's order), the model's scores,
// compiled facts (when given: one per variant) and the prior results' times.
[[nodiscard]] SearchSpace search_space_of(const std::vector<Variant>& variants, const std::vector<std::size_t>& candidates,
                                          const std::vector<double>& predicted_score, const std::vector<CompiledFacts>& facts = {},
                                          const std::optional<PriorResults>& prior_results = std::nullopt);

} // namespace autotune
