// run_strategy: validates the space, builds its geometry and the seeded generator, and
// hands the search to the named strategy (one file each, strategies.hpp).
#include "strategy/search_space.hpp"
#include "strategy/strategies.hpp"

#include <stdexcept>

namespace autotune {
namespace {

using StrategyFunction = void (*)(SearchRun&, const SpaceGeometry&, RandomSource&);

struct NamedStrategy {
    const char* name;
    StrategyFunction run;
};

constexpr NamedStrategy strategies[] = {
    {"exhaustive", exhaustive_search},   {"random", random_search},         {"model", model_search},
    {"ils", iterated_local_search},      {"annealing", simulated_annealing}, {"forest", forest_search},
};

} // namespace

std::vector<std::string> strategy_names()
{
    std::vector<std::string> names;
    for (const auto& s : strategies)
        names.emplace_back(s.name);
    return names;
}

SearchTrace run_strategy(const std::string& name, const SearchSpace& space, const Evaluate& evaluate,
                         const Budget& budget, std::uint64_t seed)
{
    const NamedStrategy* chosen = nullptr;
    for (const auto& s : strategies)
        if (name == s.name)
            chosen = &s;
    if (chosen == nullptr) {
        std::string known;
        for (const auto& s : strategies)
            known += (known.empty() ? "" : ", ") + std::string(s.name);
        throw std::invalid_argument("unknown strategy '" + name + "' (known: " + known + ")");
    }
    if (space.points.empty())
        throw std::invalid_argument("strategy '" + name + "': the search space is empty");
    if (!space.predicted_score.empty() && space.predicted_score.size() != space.points.size())
        throw std::invalid_argument("strategy '" + name + "': " + std::to_string(space.predicted_score.size()) +
                                    " predicted scores for " + std::to_string(space.points.size()) + " points");
    for (const auto& fact : space.facts)
        if (fact.values.size() != space.points.size())
            throw std::invalid_argument("strategy '" + name + "': fact '" + fact.name + "' has " +
                                        std::to_string(fact.values.size()) + " values for " +
                                        std::to_string(space.points.size()) + " points");
    if (!space.guess.empty() && space.guess.size() != space.points.size())
        throw std::invalid_argument("strategy '" + name + "': " + std::to_string(space.guess.size()) +
                                    " guessed times for " + std::to_string(space.points.size()) + " points");
    if (!space.baseline.empty() && space.baseline.size() != space.points.size())
        throw std::invalid_argument("strategy '" + name + "': " + std::to_string(space.baseline.size()) +
                                    " baseline times for " + std::to_string(space.points.size()) + " points");
    if (!evaluate)
        throw std::invalid_argument("strategy '" + name + "': no evaluation function");
    const SpaceGeometry geometry(space);
    RandomSource random(seed);
    SearchRun run(space, evaluate, budget);
    chosen->run(run, geometry, random);
    return run.finish();
}

} // namespace autotune
