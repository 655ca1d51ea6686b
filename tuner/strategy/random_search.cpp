// "random": the points in a seeded random order, without repeats. The reference every
// other strategy must beat: its expected result depends only on the budget's fraction.
#include "strategy/strategies.hpp"

#include <numeric>

namespace autotune {

void random_search(SearchRun& run, const SpaceGeometry&, RandomSource& random)
{
    std::vector<std::size_t> order(run.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    // A partial Fisher–Yates: only as many draws as evaluations happen.
    for (std::size_t i = 0; i < order.size() && !run.exhausted(); ++i) {
        std::swap(order[i], order[i + random.below(order.size() - i)]);
        run.evaluate(order[i]);
    }
}

} // namespace autotune
