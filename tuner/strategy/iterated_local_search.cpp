// "ils": greedy iterated local search. From the point guessed fastest (the space's guess:
// another GPU's time or the model's), else a random one, move to the first neighbour
// (one parameter one step along its value list, or any value of a short list; tried in
// random order) that is faster; at a local optimum, perturb the best point found so far
// in a few parameters to a valid unevaluated point and climb again. Neighbours measured
// earlier count with their known time and cost nothing. Local search suits tuning spaces
// because performance changes mostly smoothly along one parameter at a time.
#include "strategy/strategies.hpp"

#include <limits>

namespace autotune {
namespace {

constexpr std::size_t perturbed_parameters = 3;

double cost(const SearchRun& run, std::size_t point)
{
    return run.time_of(point).value_or(std::numeric_limits<double>::infinity());
}

} // namespace

void iterated_local_search(SearchRun& run, const SpaceGeometry& geometry, RandomSource& random)
{
    if (run.exhausted())
        return;
    const auto guessed = run.best_guess_unevaluated();
    std::size_t current = guessed ? *guessed : *run.random_unevaluated(random);
    run.evaluate(current);
    while (!run.exhausted()) {
        // Climb: first improvement among the neighbours, in random order.
        std::vector<std::size_t> neighbours = geometry.adjacent(current);
        random.shuffle(neighbours);
        bool moved = false;
        for (const std::size_t q : neighbours) {
            if (!run.evaluated(q)) {
                if (run.exhausted())
                    return;
                run.evaluate(q);
            }
            if (cost(run, q) < cost(run, current)) {
                current = q;
                moved = true;
                break;
            }
        }
        if (moved)
            continue;
        // A local optimum: perturb the incumbent into unexplored territory.
        const std::size_t from = run.trace().best.value_or(current);
        auto next = geometry.perturb(from, perturbed_parameters, random,
                                     [&](std::size_t q) { return !run.evaluated(q); });
        if (!next)
            next = run.random_unevaluated(random);
        if (!next || run.exhausted())
            return;
        current = *next;
        run.evaluate(current);
    }
}

} // namespace autotune
