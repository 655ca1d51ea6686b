// "annealing": simulated annealing over the valid points, from the point guessed fastest
// (the space's guess) or a random one. Each step proposes a random
// unevaluated neighbour of the current point (one parameter, one step; any value in one
// parameter when those are all measured; a few parameters perturbed when even those are)
// and accepts it when faster, or when slower with probability exp(-Δ/T), Δ the difference
// in log time — so the schedule is scale-free: T falls geometrically from 0.3 (a 35 %
// slower point is accepted with p = 1/e) to 0.003 over the budget. Early on it wanders
// between basins; at the end it is a greedy descent. Failures are never accepted.
#include "strategy/strategies.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace autotune {
namespace {

constexpr double start_temperature = 0.3;
constexpr double end_temperature = 0.003;

std::optional<std::size_t> random_of(const std::vector<std::size_t>& points, const SearchRun& run, RandomSource& random)
{
    std::vector<std::size_t> open;
    for (const std::size_t q : points)
        if (!run.evaluated(q))
            open.push_back(q);
    if (open.empty())
        return std::nullopt;
    return open[random.below(open.size())];
}

double log_time(double seconds) { return std::log(std::max(seconds, 1e-300)); }

} // namespace

void simulated_annealing(SearchRun& run, const SpaceGeometry& geometry, RandomSource& random)
{
    if (run.exhausted())
        return;
    const std::size_t steps = std::max<std::size_t>(run.evaluations_left(), 2);
    const auto guessed = run.best_guess_unevaluated();
    std::size_t current = guessed ? *guessed : *run.random_unevaluated(random);
    std::optional<double> current_time = run.evaluate(current);
    for (std::size_t step = 1; !run.exhausted(); ++step) {
        auto next = random_of(geometry.adjacent(current), run, random);
        if (!next)
            next = random_of(geometry.hamming(current), run, random);
        if (!next)
            next = geometry.perturb(current, 3, random, [&](std::size_t q) { return !run.evaluated(q); });
        if (!next)
            next = run.random_unevaluated(random);
        if (!next)
            return;
        const std::optional<double> t = run.evaluate(*next);
        if (!t)
            continue;
        const double progress = std::min(1.0, static_cast<double>(step) / static_cast<double>(steps - 1));
        const double temperature = start_temperature * std::pow(end_temperature / start_temperature, progress);
        const double delta = current_time ? log_time(*t) - log_time(*current_time) : -1.0;
        if (delta <= 0 || random.uniform() < std::exp(-delta / temperature)) {
            current = *next;
            current_time = t;
        }
    }
}

} // namespace autotune
