// "exhaustive": every point in the space's order. The baseline that always finds the
// optimum given the whole space as budget.
#include "strategy/strategies.hpp"

namespace autotune {

void exhaustive_search(SearchRun& run, const SpaceGeometry&, RandomSource&)
{
    for (std::size_t p = 0; p < run.size() && !run.exhausted(); ++p)
        run.evaluate(p);
}

} // namespace autotune
