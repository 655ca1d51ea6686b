// "forest": surrogate-model search by Thompson sampling from a random forest. After an
// initial design that covers the parameters' values, each step fits one randomized
// regression tree (a bootstrap sample of the measurements, random feature subsets at each
// split: one draw from the forest's distribution of models) to the log times measured so
// far and measures the unevaluated point that tree predicts fastest (ties at random).
#include "strategy/regression_forest.hpp"
#include "strategy/strategies.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace autotune {
namespace {

double log_time(double seconds) { return std::log(std::max(seconds, 1e-300)); }

} // namespace

void forest_search(SearchRun& run, const SpaceGeometry& geometry, RandomSource& random)
{
    const std::size_t budget = run.evaluations_left();
    // A tenth of the budget, 5 to 20 points: enough for a first tree, little spent blind.
    const std::size_t initial = std::clamp<std::size_t>(budget / 10, 5, 20);
    // The initial design covers the parameters' values: each point is the one, of a few
    // random candidates, that brings the most values not yet seen.
    std::vector<std::vector<bool>> seen(geometry.parameters());
    for (std::size_t k = 0; k < geometry.parameters(); ++k)
        seen[k].assign(geometry.list_size(k), false);
    constexpr std::size_t candidates_per_pick = 32;
    while (!run.exhausted() && run.trace().evaluated.size() < initial) {
        std::optional<std::size_t> pick;
        std::size_t pick_new = 0;
        for (std::size_t c = 0; c < candidates_per_pick; ++c) {
            const auto q = run.random_unevaluated(random);
            if (!q)
                break;
            std::size_t fresh = 0;
            for (std::size_t k = 0; k < geometry.parameters(); ++k)
                fresh += seen[k][geometry.positions(*q)[k]] ? 0 : 1;
            if (!pick || fresh > pick_new) {
                pick = q;
                pick_new = fresh;
            }
        }
        if (!pick)
            return;
        for (std::size_t k = 0; k < geometry.parameters(); ++k)
            seen[k][geometry.positions(*pick)[k]] = true;
        run.evaluate(*pick);
    }
    if (run.exhausted())
        return;

    const PointFeatures features(run.space(), true);
    ForestSettings settings;
    settings.trees = 1; // one tree per step: a draw from the forest's distribution of models
    settings.min_leaf = 1;
    settings.feature_fraction = 0.5;
    settings.bootstrap = true;
    std::vector<std::size_t> open;
    while (!run.exhausted()) {
        const auto& trace = run.trace();
        const std::size_t n = trace.evaluated.size();
        std::vector<std::size_t> points;
        std::vector<double> targets;
        double worst = -std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < n; ++i)
            if (trace.times[i])
                worst = std::max(worst, log_time(*trace.times[i]));
        if (!std::isfinite(worst)) { // nothing has a time yet: keep sampling
            run.evaluate(*run.random_unevaluated(random));
            continue;
        }
        // A failed point teaches the tree nothing about time; it is only never proposed again.
        for (std::size_t i = 0; i < n; ++i)
            if (trace.times[i]) {
                points.push_back(trace.evaluated[i]);
                targets.push_back(log_time(*trace.times[i]));
            }
        open.clear();
        if (open.empty())
            for (std::size_t p = 0; p < run.size(); ++p)
                if (!run.evaluated(p))
                    open.push_back(p);
        if (open.empty())
            return;
        RegressionForest tree;
        tree.fit(features, points, targets, settings, random);
        const auto leaves = tree.leaves(features, open, false);
        double lowest = std::numeric_limits<double>::infinity();
        std::vector<std::size_t> tied;
        for (std::size_t i = 0; i < open.size(); ++i) {
            const double v = tree.value(0, leaves[i]);
            if (v < lowest - 1e-12) {
                lowest = v;
                tied.clear();
            }
            if (v <= lowest + 1e-12)
                tied.push_back(open[i]);
        }
        if (tied.empty())
            tied = open;
        run.evaluate(tied[random.below(tied.size())]);
    }
}

} // namespace autotune
