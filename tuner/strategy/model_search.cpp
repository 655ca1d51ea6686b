// "model": the points by the predicted score (the model's rank: by predicted time, ties as
// the ranking breaks them; the roof fraction in files without a rank), best first, ties by
// index; without one by the guessed time, fastest first (unguessed last); the space's own
// order when there is neither. Spends the budget where the model expects the winner, and
// measures how good the model's ranking is.
#include "strategy/strategies.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace autotune {

void model_search(SearchRun& run, const SpaceGeometry&, RandomSource&)
{
    const auto& score_of = run.space().predicted_score;
    std::vector<std::size_t> order(run.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    if (!score_of.empty()) {
        // A NaN score ranks last.
        const auto score = [&](std::size_t p) { return score_of[p] == score_of[p] ? score_of[p] : -std::numeric_limits<double>::infinity(); };
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return score(a) > score(b); });
    }
    else if (!run.space().guess.empty()) {
        const auto& guess = run.space().guess;
        const auto key = [&](std::size_t p) { return std::isnan(guess[p]) ? std::numeric_limits<double>::infinity() : guess[p]; };
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    }
    for (std::size_t i = 0; i < order.size() && !run.exhausted(); ++i)
        run.evaluate(order[i]);
}

} // namespace autotune
