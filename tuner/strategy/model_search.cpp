// "model": the points by the prior (the model's predicted fraction of the roof), best
// first, ties by index; the space's own order when there is no prior. Spends the budget
// where the model expects the winner, and measures how good the model's ranking is.
#include "strategy/strategies.hpp"

#include <algorithm>
#include <numeric>

namespace autotune {

void model_search(SearchRun& run, const SpaceGeometry&, RandomSource&)
{
    const auto& prior = run.space().prior;
    std::vector<std::size_t> order(run.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    if (!prior.empty()) {
        // A NaN prior ranks last.
        const auto score = [&](std::size_t p) { return prior[p] == prior[p] ? prior[p] : -std::numeric_limits<double>::infinity(); };
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return score(a) > score(b); });
    }
    for (std::size_t i = 0; i < order.size() && !run.exhausted(); ++i)
        run.evaluate(order[i]);
}

} // namespace autotune
