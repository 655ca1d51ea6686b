// "forest": surrogate-model search. After an initial design that covers the parameters'
// values, each step makes one of three moves:
// - model (most steps): Thompson sampling. One randomized regression tree (a bootstrap
//   sample of the measurements, random feature subsets at each split: one draw from the
//   forest's distribution of models) is fitted to the log times (capped at their median:
//   cap_at_median), and the unevaluated point
//   it predicts fastest is measured. A leaf ties many points the tree cannot tell apart;
//   of those, the one farthest from everything measured teaches the most.
// - explore (every 6th step): the point farthest from everything measured, of a few random
//   candidates. A tree only knows where it has looked: a fast region whose neighbours are
//   slow (pnpoly's use_method 0 is slow at tile 12 and fastest at tile 20) is found only
//   by looking elsewhere. SMAC interleaves random configurations for the same reason.
// - polish (every 2nd step, unless it explores): of the best point's one-parameter
//   neighbours, the one the tree predicts fastest. One changed value from the best is the
//   likeliest improvement, and a tree ranks such points poorly when the changed value was
//   never measured together with the others. With a guess, each parameter is first tried
//   once around the best point (polish_candidates).
// - expected improvement (every 2nd model move, when nothing is guessed): the point a
//   Gaussian process over the measurements expects to improve on the best the most
//   (most_expected_improvement). A tree's leaf ties a whole region it never split; the
//   process tells its points apart by their distance to fast and slow measurements, and
//   sends the search to unmeasured ground beside fast points. With a guess the tree models
//   the corrections to it, and the guess already ranks what a leaf ties.
// What is known before measuring (the space's facts: compiled facts, another GPU's times)
// are features of the tree beside the parameters; the space's guess (its baseline where it
// has one: the model's and another GPU's times blended) chooses half of the initial design
// (spread over its first 1 %), and the tree then models the measured time relative to it
// for as long as the fastest point measured is one of those first 1 % (follows_guess).
// The cadences were chosen on the three replayed Kernel Tuner spaces; docs/search-benchmark.md
// shows what the neighbouring settings give (polish matters most) and a leave-one-out check.
#include "strategy/capped_times.hpp"
#include "strategy/improvement_pick.hpp"
#include "strategy/regression_forest.hpp"
#include "strategy/strategies.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace autotune {
namespace {

constexpr std::size_t explore_every = 6;
constexpr std::size_t polish_every = 2;
constexpr std::size_t improvement_every = 2; // of the model moves
constexpr std::size_t explore_candidates = 64;
constexpr std::size_t tie_candidates = 32;
constexpr std::size_t model_candidates = 50000;

double log_time(double seconds) { return std::log(std::max(seconds, 1e-300)); }

// Of `candidates`, the one farthest from every evaluated point (the first on ties).
std::size_t farthest(const SearchRun& run, const SpaceGeometry& geometry, const std::vector<std::size_t>& candidates)
{
    std::size_t pick = candidates.front();
    double far = -1;
    for (const std::size_t q : candidates)
        if (const double d = geometry.distance_to_nearest(q, run.trace().evaluated); d > far) {
            far = d;
            pick = q;
        }
    return pick;
}

// The guessed time the tree corrects and the guided picks follow: the space's baseline where
// it has one (another GPU's times and the model's, blended), else its guess.
const std::vector<double>& guess_of(const SearchSpace& space)
{
    return space.baseline.empty() ? space.guess : space.baseline;
}

// The points with the lowest guessed time: the first 1 % of the space (at least `at_least`),
// fastest first. 1 % was chosen on the two spaces with compiled facts (pnpoly and the
// convolution, both GPUs; docs/search-benchmark.md): each alone chooses it, and scores the other.
std::vector<std::size_t> guessed_top(const SearchSpace& space, std::size_t at_least)
{
    constexpr double share = 0.01;
    const std::vector<double>& guess = guess_of(space);
    std::vector<std::size_t> top;
    for (std::size_t p = 0; p < guess.size(); ++p)
        if (!std::isnan(guess[p]))
            top.push_back(p);
    const std::size_t keep = std::min(top.size(), std::max(at_least, static_cast<std::size_t>(share * static_cast<double>(space.points.size()))));
    std::partial_sort(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(keep), top.end(), [&](std::size_t a, std::size_t b) {
        return guess[a] < guess[b] || (guess[a] == guess[b] && a < b);
    });
    top.resize(keep);
    return top;
}

// A tenth of the budget, 5 to 20 points, each the one of a few random candidates that
// brings the most parameter values not yet seen: enough for a first tree, little spent blind.
void initial_design(SearchRun& run, const SpaceGeometry& geometry, RandomSource& random)
{
    const std::size_t initial = std::clamp<std::size_t>(run.evaluations_left() / 10, 5, 20);
    std::vector<std::vector<bool>> seen(geometry.parameters());
    for (std::size_t k = 0; k < geometry.parameters(); ++k)
        seen[k].assign(geometry.list_size(k), false);
    // Half of it, where the space has a guessed time (another GPU's measurement, the
    // model's prediction), is guided: the point guessed fastest, then each time the one
    // farthest from what was measured among the guess's first 1 % (guessed_top). A good
    // guess is found at once, a bad one costs half the design, and the tree learns from the
    // guess as a feature anyway. The guess's very first points are often one family (one
    // method, one block shape, differing in a parameter that matters little), and a guess
    // wrong about that family then spends every guided pick on it; spread over the top 1 %,
    // they look at the other families the guess also rates highly.
    const std::size_t guided = guess_of(run.space()).empty() ? 0 : (initial + 1) / 2;
    const std::vector<std::size_t> top = guided == 0 ? std::vector<std::size_t>{} : guessed_top(run.space(), guided);
    while (!run.exhausted() && run.trace().evaluated.size() < guided) {
        std::vector<std::size_t> open;
        for (const std::size_t p : top)
            if (!run.evaluated(p))
                open.push_back(p);
        if (open.empty())
            break;
        const std::size_t q = run.trace().evaluated.empty() ? open.front() : farthest(run, geometry, open);
        for (std::size_t k = 0; k < geometry.parameters(); ++k)
            seen[k][geometry.positions(q)[k]] = true;
        run.evaluate(q);
    }
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
}

// Up to `count` distinct members of `from`, drawn at random (all of them when few).
std::vector<std::size_t> sample(std::vector<std::size_t> from, std::size_t count, RandomSource& random)
{
    if (from.size() > count) {
        for (std::size_t i = 0; i < count; ++i)
            std::swap(from[i], from[i + random.below(from.size() - i)]);
        from.resize(count);
    }
    return from;
}

// The fastest point measured so far.
std::optional<std::size_t> incumbent(const SearchTrace& trace)
{
    std::optional<std::size_t> best;
    double best_time = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < trace.evaluated.size(); ++i)
        if (trace.times[i] && *trace.times[i] < best_time) {
            best_time = *trace.times[i];
            best = trace.evaluated[i];
        }
    return best;
}

// The members of `points` with the lowest prediction (within rounding).
std::vector<std::size_t> lowest_predicted(const RegressionForest& tree, const PointFeatures& features,
                                          const std::vector<std::size_t>& points, const std::vector<double>& offset)
{
    const auto predictions = tree.predict(features, points);
    double lowest = std::numeric_limits<double>::infinity();
    std::vector<std::size_t> tied;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const double v = offset.empty() ? predictions[i].mean
                         : std::isnan(offset[points[i]]) ? std::numeric_limits<double>::infinity()
                                                         : predictions[i].mean + offset[points[i]];
        if (std::isinf(v))
            continue;
        if (v < lowest - 1e-12) {
            lowest = v;
            tied.clear();
        }
        if (v <= lowest + 1e-12)
            tied.push_back(points[i]);
    }
    return tied;
}

// The best point's one-parameter neighbours the polish move chooses from: unmeasured, and
// with a guess where a guess exists (`offset`: log guessed time, NaN where none). With a
// guess the tree's ranking of them is mostly the guess's, and a guess can be wrong along a
// whole parameter (pnpoly's model ranks its two fastest methods the wrong way round): until
// each parameter has a neighbour measured around this point, only the parameters without
// one are offered, so every parameter is tried against the guess once. Without a guess
// the tree knows only measurements and chooses among all of them.
std::vector<std::size_t> polish_candidates(const SearchRun& run, const SpaceGeometry& geometry, std::size_t best,
                                           const std::vector<double>& offset)
{
    const auto along = [&](std::size_t q) { // the parameter q changes
        std::size_t k = 0;
        while (k < geometry.parameters() && geometry.positions(q)[k] == geometry.positions(best)[k])
            ++k;
        return k;
    };
    const auto open = [&](std::size_t q) { return !run.evaluated(q) && (offset.empty() || !std::isnan(offset[q])); };
    const std::vector<std::size_t> neighbours = geometry.hamming(best);
    std::vector<bool> tried(geometry.parameters(), false);
    for (const std::size_t q : neighbours)
        if (run.evaluated(q))
            tried[along(q)] = true;
    const bool untried_left = !offset.empty() && std::any_of(neighbours.begin(), neighbours.end(), [&](std::size_t q) {
        return open(q) && !tried[along(q)];
    });
    std::vector<std::size_t> candidates;
    for (const std::size_t q : neighbours)
        if (open(q) && !(untried_left && tried[along(q)]))
            candidates.push_back(q);
    return candidates;
}

// Whether the tree models the corrections to the guess this step: only while the fastest
// point measured is one of the guess's first 1 % (`top`). A guess right at the top is worth
// following closely; once a point outside that share measures faster, the guess is wrong
// where it matters, and its corrections are as hard to learn as the times themselves. The
// tree then models the times (the guess stays one of its features), as with nothing known.
// With the RTX 3090's times as the 3060 Laptop's prior on the GEMM, the 3060's fastest
// shapes rank 650th to 1,100th on the 3090, and a tree of corrections kept every search
// among the 3090's fastest shapes, at 0.96 of the optimum (docs/search-benchmark.md).
bool follows_guess(const SearchTrace& trace, const std::vector<bool>& top)
{
    const auto best = incumbent(trace);
    return best && top[*best];
}

} // namespace

void forest_search(SearchRun& run, const SpaceGeometry& geometry, RandomSource& random)
{
    initial_design(run, geometry, random);

    const PointFeatures features(run.space(), true);
    ForestSettings settings;
    settings.trees = 1; // one tree per step: a draw from the forest's distribution of models
    settings.min_leaf = 1;
    settings.feature_fraction = 0.5;
    settings.bootstrap = true;
    // With a guessed time, while it holds at the top (follows_guess), the tree learns the
    // correction to it (log measured − log guessed): another GPU's times or the model's are
    // right about most of the space and wrong by factors that depend on a few parameters,
    // which a tree finds from few measurements. A point without a guess (it failed
    // elsewhere) is left to the explore move.
    std::vector<double> guessed;
    for (const double g : guess_of(run.space()))
        guessed.push_back(std::isfinite(g) && g > 0 ? std::log(g) : std::numeric_limits<double>::quiet_NaN());
    std::vector<bool> top(run.size(), false);
    if (!guessed.empty())
        for (const std::size_t p : guessed_top(run.space(), 1))
            top[p] = true;
    const std::vector<double> none;
    std::size_t model_moves = 0;
    for (std::size_t step = 1; !run.exhausted(); ++step) {
        const std::vector<double>& offset = follows_guess(run.trace(), top) ? guessed : none;
        if (step % explore_every == 0) {
            std::vector<std::size_t> candidates;
            for (std::size_t c = 0; c < explore_candidates; ++c)
                if (const auto q = run.random_unevaluated(random))
                    candidates.push_back(*q);
            if (candidates.empty())
                return;
            run.evaluate(farthest(run, geometry, candidates));
            continue;
        }

        // A failed point teaches the tree nothing about time; it is only never proposed again.
        const auto& trace = run.trace();
        std::vector<std::size_t> points;
        std::vector<double> targets;
        for (std::size_t i = 0; i < trace.evaluated.size(); ++i)
            if (trace.times[i] && (offset.empty() || !std::isnan(offset[trace.evaluated[i]]))) {
                points.push_back(trace.evaluated[i]);
                targets.push_back(log_time(*trace.times[i]) - (offset.empty() ? 0.0 : offset[trace.evaluated[i]]));
            }
        if (points.empty()) { // nothing has a time yet: keep sampling
            const auto q = run.random_unevaluated(random);
            if (!q)
                return;
            run.evaluate(*q);
            continue;
        }
        if (offset.empty())
            cap_at_median(targets);
        RegressionForest tree;
        tree.fit(features, points, targets, settings, random);

        if (step % polish_every == 0) {
            const auto near = polish_candidates(run, geometry, *incumbent(trace), offset);
            if (const auto best = lowest_predicted(tree, features, near, offset); !best.empty()) {
                run.evaluate(best.front());
                continue;
            }
        }

        std::vector<std::size_t> open;
        for (std::size_t p = 0; p < run.size(); ++p)
            if (!run.evaluated(p))
                open.push_back(p);
        if (open.empty())
            return;
        // A space of millions (a full GEMM space) is searched through a fresh random share
        // each step: the tree's prediction of every point each step would cost more than
        // the measurements it saves. The replayed spaces (up to 18k) are searched whole.
        open = sample(std::move(open), model_candidates, random);
        if (offset.empty() && ++model_moves % improvement_every == 0)
            if (const auto q = most_expected_improvement(run, geometry, open)) {
                run.evaluate(*q);
                continue;
            }
        const auto lowest = lowest_predicted(tree, features, open, offset);
        if (lowest.empty()) { // nothing the model can rank is left
            run.evaluate(open[random.below(open.size())]);
            continue;
        }
        run.evaluate(farthest(run, geometry, sample(lowest, tie_candidates, random)));
    }
}

} // namespace autotune
