#include "strategy/search_measurements.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <stdexcept>

namespace autotune {

SearchSpace search_space_of(const std::vector<Variant>& variants, const std::vector<std::size_t>& candidates,
                            const std::vector<double>& predicted_score, const std::vector<CompiledFacts>& facts,
                            const std::optional<PriorResults>& prior_results)
{
    SearchSpace space;
    if (candidates.empty())
        return space;
    for (const auto& [name, value] : variants[candidates.front()].parameters)
        space.parameter_names.push_back(name);
    std::vector<std::set<std::int64_t>> values(space.parameter_names.size());
    for (const std::size_t i : candidates) {
        std::vector<std::int64_t> point;
        for (std::size_t k = 0; k < variants[i].parameters.size(); ++k) {
            point.push_back(variants[i].parameters[k].second);
            values[k].insert(variants[i].parameters[k].second);
        }
        space.points.push_back(std::move(point));
        if (!predicted_score.empty())
            space.predicted_score.push_back(predicted_score[i]);
    }
    for (const auto& v : values)
        space.parameter_values.emplace_back(v.begin(), v.end());
    if (!facts.empty()) {
        std::vector<CompiledFacts> of_candidates;
        for (const std::size_t i : candidates)
            of_candidates.push_back(facts.at(i));
        add_compiled_facts(space, of_candidates);
    }
    if (prior_results) {
        std::vector<nlohmann::ordered_json> params;
        for (const std::size_t i : candidates) {
            nlohmann::ordered_json p = nlohmann::ordered_json::object();
            for (const auto& [name, value] : variants[i].parameters)
                p[name] = value;
            params.push_back(std::move(p));
        }
        (void)add_prior_times(space, params, prior_results->view, prior_results->source);
    }
    return space;
}

std::optional<double> search_time(const VariantMeasurement& m)
{
    if (m.status != "ok" || !m.measurement || !m.measurement->verified)
        return std::nullopt;
    return m.measurement->time.median;
}

SearchOutcome search_and_measure(const std::vector<Variant>& variants, const std::vector<CompiledVariant>& compiled,
                                 const std::vector<PredictionOutcome>& predictions, const PruneReport& pruning,
                                 const std::vector<double>& predicted_score, const std::vector<CompiledFacts>& facts,
                                 VariantMeasurer& measurer, const SearchSettings& settings)
{
    SearchOutcome out;
    out.measurements.resize(variants.size());
    std::vector<std::size_t> candidates;
    for (std::size_t i = 0; i < variants.size(); ++i)
        if (compiled[i].status == CompileStatus::ok && predictions[i].prediction && !pruning.decisions[i].pruned &&
            !pruning.decisions[i].duplicate_of)
            candidates.push_back(i);
    out.candidates = candidates.size();
    if (candidates.empty())
        return out;

    const SearchSpace space = search_space_of(variants, candidates, predicted_score, facts, settings.prior);
    const std::size_t most = settings.budget.evaluations_for(candidates.size());
    const Evaluate evaluate = [&](std::size_t point) -> std::optional<double> {
        const std::size_t i = candidates[point];
        out.measurements[i] = measurer.measure(variants[i], compiled[i], predictions[i].prediction);
        ++out.evaluations;
        if (settings.progress)
            settings.progress(out.evaluations, most);
        return search_time(*out.measurements[i]);
    };
    (void)run_strategy(settings.strategy, space, evaluate, settings.budget, settings.seed);

    // A duplicate carries its group's measurement.
    for (std::size_t i = 0; i < variants.size(); ++i)
        if (const auto& of = pruning.decisions[i].duplicate_of; of && out.measurements[*of])
            out.measurements[i] = out.measurements[*of];
    return out;
}

} // namespace autotune
