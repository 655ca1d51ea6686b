// forest's Gaussian-process move on its own: the process interpolates what it was fitted
// on and doubts what lies far from it, expected improvement trades mean against spread, and
// the move sends a search to the unmeasured ground between fast measurements.
#include "strategy/gaussian_process.hpp"
#include "strategy/improvement_pick.hpp"
#include "strategy/search_run.hpp"
#include "strategy/space_geometry.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <stdexcept>

using namespace autotune;

TEST(GaussianProcess, InterpolatesItsMeasurementsAndDoubtsFarFromThem)
{
    std::vector<std::vector<double>> inputs;
    std::vector<double> targets;
    for (const double x : {0.0, 0.1, 0.2, 0.3, 0.4}) {
        inputs.push_back({x, 0.0});
        targets.push_back(std::sin(6 * x));
    }
    const GaussianProcess process(inputs, targets, 0.5, 1e-6);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const Posterior at = process.predict(inputs[i]);
        EXPECT_NEAR(at.mean, targets[i], 1e-3) << i;
        EXPECT_LT(at.sd, 0.01) << i;
    }
    // Between two measurements: near the smooth function, with little doubt.
    EXPECT_NEAR(process.predict({0.15, 0.0}).mean, std::sin(0.9), 0.02);
    // Far from every measurement the prior returns: mean near 0, spread near 1.
    const Posterior far = process.predict({1.0, 1.0});
    EXPECT_NEAR(far.mean, 0.0, 0.2);
    EXPECT_GT(far.sd, 0.9);
    EXPECT_GT(far.sd, process.predict({0.45, 0.0}).sd);
}

TEST(GaussianProcess, RefusesWhatItCannotFit)
{
    EXPECT_THROW(GaussianProcess({}, {}, 1.0, 1e-3), std::invalid_argument);
    EXPECT_THROW(GaussianProcess({{0.0}}, {1.0, 2.0}, 1.0, 1e-3), std::invalid_argument);
    EXPECT_THROW(GaussianProcess({{0.0}, {0.0, 1.0}}, {1.0, 2.0}, 1.0, 1e-3), std::invalid_argument);
    EXPECT_THROW(GaussianProcess({{0.0}}, {1.0}, 0.0, 1e-3), std::invalid_argument);
    EXPECT_THROW(GaussianProcess({{0.0}}, {1.0}, 1.0, 0.0), std::invalid_argument);
    const GaussianProcess one({{0.0}}, {1.0}, 1.0, 1e-3);
    EXPECT_THROW((void)one.predict({0.0, 0.0}), std::invalid_argument);
}

TEST(ExpectedImprovement, WeighsTheMeanAgainstTheSpread)
{
    // Certain: the improvement is the gain beyond the margin, or nothing.
    EXPECT_NEAR(expected_improvement({-1.0, 1e-9}, 0.0, 0.1), 0.9, 1e-9);
    EXPECT_NEAR(expected_improvement({1.0, 1e-9}, 0.0, 0.1), 0.0, 1e-9);
    // At the best with unit spread: sd · φ(0) less the margin's share.
    EXPECT_NEAR(expected_improvement({0.0, 1.0}, 0.0, 0.0), 1 / std::sqrt(2 * M_PI), 1e-12);
    // Lower mean, more improvement; more spread, more improvement (the upside of doubt).
    EXPECT_GT(expected_improvement({-0.5, 0.3}, 0.0, 0.01), expected_improvement({0.5, 0.3}, 0.0, 0.01));
    EXPECT_GT(expected_improvement({0.5, 1.0}, 0.0, 0.01), expected_improvement({0.5, 0.1}, 0.0, 0.01));
}

namespace {

// One parameter X ∈ 0..100: 101 points, point p is X = p. One axis keeps the tests about
// where along it the move looks; a second, unmeasured axis would draw it there instead.
SearchSpace line_space()
{
    SearchSpace s;
    s.parameter_names = {"X"};
    s.parameter_values = {{}};
    for (std::int64_t x = 0; x <= 100; ++x) {
        s.parameter_values[0].push_back(x);
        s.points.push_back({x});
    }
    return s;
}

std::size_t point_of(std::int64_t x) { return static_cast<std::size_t>(x); }

// The pick after measuring `times` (point → time; nullopt: failed), in order.
std::optional<std::size_t> pick_after(const std::vector<std::pair<std::size_t, std::optional<double>>>& times,
                                      std::size_t max_points = 256)
{
    const SearchSpace space = line_space();
    const SpaceGeometry geometry(space);
    std::map<std::size_t, std::optional<double>> table(times.begin(), times.end());
    const Evaluate evaluate = [&](std::size_t p) { return table.at(p); };
    SearchRun run(space, evaluate, Budget{});
    for (const auto& [p, t] : times)
        (void)run.evaluate(p);
    std::vector<std::size_t> open;
    for (std::size_t p = 0; p < run.size(); ++p)
        if (!run.evaluated(p))
            open.push_back(p);
    return most_expected_improvement(run, geometry, open, max_points);
}

std::int64_t x_of(std::size_t point) { return static_cast<std::int64_t>(point); }

} // namespace

TEST(MostExpectedImprovement, GoesBetweenTheFastMeasurements)
{
    // Time = 1 + |X − 70|/10, measured every 20: the fastest two are 60 and 80.
    std::vector<std::pair<std::size_t, std::optional<double>>> times;
    for (std::int64_t x = 0; x <= 100; x += 20)
        times.emplace_back(point_of(x), 1.0 + std::abs(static_cast<double>(x - 70)) / 10.0);
    const auto pick = pick_after(times);
    ASSERT_TRUE(pick.has_value());
    EXPECT_GT(x_of(*pick), 55);
    EXPECT_LT(x_of(*pick), 85);
    EXPECT_EQ(pick_after({{point_of(70), 1.0}}), std::nullopt); // one time: nothing to fit
}

TEST(MostExpectedImprovement, AFailureCountsAsSlowAroundIt)
{
    // Equally fast at X = 30 and 70, slow at 0, 50 and 100: symmetric, until the points
    // beside 70 fail. The move then looks beside 30.
    std::vector<std::pair<std::size_t, std::optional<double>>> times{
        {point_of(0), 8.0}, {point_of(50), 8.0}, {point_of(100), 8.0}, {point_of(30), 1.0},
        {point_of(70), 1.0}, {point_of(65), std::nullopt}, {point_of(75), std::nullopt}};
    const auto pick = pick_after(times);
    ASSERT_TRUE(pick.has_value());
    EXPECT_LT(std::abs(x_of(*pick) - 30), 15) << "picked X = " << x_of(*pick);
}

TEST(MostExpectedImprovement, KeepsTheFastestWhenItFitsOnFewerPoints)
{
    // A smooth bowl, log time = 2 (X/100 − 0.45)², measured first around its bottom (30 to
    // 60), then at many points from 76 up. Fitted on 8 (the fastest 4 and the latest 4), the
    // bottom's neighbours stay in and the move looks between them; had they been dropped,
    // the kept times would fall towards lower X and the move would follow them out past it.
    const auto time_at = [](std::int64_t x) {
        const double u = static_cast<double>(x) / 100.0 - 0.45;
        return std::exp(2 * u * u);
    };
    std::vector<std::pair<std::size_t, std::optional<double>>> times{
        {point_of(30), time_at(30)}, {point_of(40), time_at(40)}, {point_of(50), time_at(50)},
        {point_of(60), time_at(60)}};
    for (std::int64_t x = 76; x <= 100; x += 2)
        times.emplace_back(point_of(x), time_at(x));
    const auto pick = pick_after(times, 8);
    ASSERT_TRUE(pick.has_value());
    EXPECT_GT(x_of(*pick), 40) << "picked X = " << x_of(*pick);
    EXPECT_LT(x_of(*pick), 50) << "picked X = " << x_of(*pick);
}
