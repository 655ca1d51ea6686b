// The search strategies through run_strategy: every named strategy keeps the budget, never
// repeats a point or leaves the space, is reproducible from its seed, handles failing
// points, and with the whole space as budget finds the optimum.
#include "strategy/search_run.hpp"
#include "strategy/search_space.hpp"
#include "strategy/space_geometry.hpp"
#include "support/budgets.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <numeric>
#include <set>
#include <stdexcept>
#include <thread>

using namespace autotune;
using autotune::test::evaluations;
using ::testing::HasSubstr;

namespace {

// A constrained space over A ∈ {1,2,4,8,16}, B ∈ {1..6}, C ∈ {0,1}: A·B ≤ 64 and no C=1
// at A=1 (50 of 60 combinations). Time (ms) is smooth with one optimum at A=8,B=4,C=0;
// A=16,B=4 and A=2,B=6 fail.
SearchSpace small_space()
{
    SearchSpace s;
    s.parameter_names = {"A", "B", "C"};
    s.parameter_values = {{1, 2, 4, 8, 16}, {1, 2, 3, 4, 5, 6}, {0, 1}};
    for (const std::int64_t a : s.parameter_values[0])
        for (const std::int64_t b : s.parameter_values[1])
            for (const std::int64_t c : s.parameter_values[2])
                if (a * b <= 64 && !(a == 1 && c == 1))
                    s.points.push_back({a, b, c});
    return s;
}

bool fails(const std::vector<std::int64_t>& p)
{
    return (p[0] == 16 && p[1] == 4) || (p[0] == 2 && p[1] == 6);
}

double time_of(const std::vector<std::int64_t>& p)
{
    const double a = std::log2(static_cast<double>(p[0])) - 3;
    const double b = static_cast<double>(p[1]) - 4;
    return 1e-3 * (1 + a * a + 0.5 * b * b + 0.3 * static_cast<double>(p[2]));
}

std::size_t optimum_of(const SearchSpace& s)
{
    std::size_t best = s.points.size();
    for (std::size_t p = 0; p < s.points.size(); ++p)
        if (!fails(s.points[p]) && (best == s.points.size() || time_of(s.points[p]) < time_of(s.points[best])))
            best = p;
    return best;
}

// A larger space (4 parameters, a constraint, ~1500 points) with a bumpy landscape, for
// telling seeds apart.
SearchSpace big_space()
{
    SearchSpace s;
    s.parameter_names = {"W", "X", "Y", "Z"};
    s.parameter_values = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
                          {1, 2, 4, 8, 16, 32, 64, 128},
                          {0, 1, 2, 3, 4},
                          {1, 2, 3, 4}};
    for (const std::int64_t w : s.parameter_values[0])
        for (const std::int64_t x : s.parameter_values[1])
            for (const std::int64_t y : s.parameter_values[2])
                for (const std::int64_t z : s.parameter_values[3])
                    if ((w * x) % 5 != 3)
                        s.points.push_back({w, x, y, z});
    return s;
}

double bumpy_time(const std::vector<std::int64_t>& p)
{
    const double w = static_cast<double>(p[0]), x = std::log2(static_cast<double>(p[1]));
    const double y = static_cast<double>(p[2]), z = static_cast<double>(p[3]);
    return 1 + std::abs(w - 7) + 0.3 * std::sin(3 * w) + (x - 4) * (x - 4) + 0.2 * y * (5 - y) + 0.1 * z * z;
}

// An evaluation that answers from a function of the point and records every call.
struct Recorder {
    const SearchSpace& space;
    std::vector<std::size_t> calls;
    bool failing = true;

    Evaluate evaluate()
    {
        return [this](std::size_t p) -> std::optional<double> {
            calls.push_back(p);
            if (p >= space.points.size())
                ADD_FAILURE() << "evaluated point " << p << " outside a space of " << space.points.size();
            if (failing && fails(space.points.at(p)))
                return std::nullopt;
            return time_of(space.points.at(p));
        };
    }
};

const std::set<std::string> stochastic{"random", "ils", "annealing", "forest"};

TEST(StrategyNames, ListsTheSixStrategies)
{
    EXPECT_EQ(strategy_names(),
              (std::vector<std::string>{"exhaustive", "random", "model", "ils", "annealing", "forest"}));
}

TEST(Strategies, KeepTheBudgetAndUseItAllWithoutRepeatsOrLeavingTheSpace)
{
    const SearchSpace space = small_space();
    ASSERT_EQ(space.points.size(), 50u);
    for (const std::string& name : strategy_names())
        for (const std::size_t budget : {1u, 2u, 7u, 20u, 49u}) {
            Recorder r{space, {}};
            const SearchTrace trace = run_strategy(name, space, r.evaluate(), evaluations(budget), 11);
            EXPECT_EQ(r.calls.size(), budget) << name << " budget " << budget;
            EXPECT_EQ(trace.evaluated, r.calls) << name;
            EXPECT_EQ(trace.times.size(), trace.evaluated.size()) << name;
            EXPECT_EQ(std::set<std::size_t>(r.calls.begin(), r.calls.end()).size(), r.calls.size())
                << name << ": a point evaluated twice";
            for (const std::size_t p : r.calls)
                EXPECT_LT(p, space.points.size()) << name;
        }
}

TEST(Strategies, WithTheWholeSpaceAsBudgetEvaluateEveryPointAndFindTheOptimum)
{
    const SearchSpace space = small_space();
    const std::size_t optimum = optimum_of(space);
    ASSERT_EQ(space.points[optimum], (std::vector<std::int64_t>{8, 4, 0}));
    for (const std::string& name : strategy_names())
        for (const std::size_t budget : {space.points.size(), space.points.size() + 10, std::numeric_limits<std::size_t>::max()}) {
            Recorder r{space, {}};
            const SearchTrace trace = run_strategy(name, space, r.evaluate(), evaluations(budget), 5);
            std::vector<std::size_t> sorted = r.calls;
            std::sort(sorted.begin(), sorted.end());
            std::vector<std::size_t> all(space.points.size());
            std::iota(all.begin(), all.end(), std::size_t{0});
            EXPECT_EQ(sorted, all) << name << " budget " << budget;
            ASSERT_TRUE(trace.best.has_value()) << name;
            EXPECT_EQ(*trace.best, optimum) << name;
        }
}

TEST(Strategies, FailuresCostAnEvaluationAndAreNeverTheBest)
{
    const SearchSpace space = small_space();
    for (const std::string& name : strategy_names())
        for (const std::uint64_t seed : {1u, 2u, 3u}) {
            Recorder r{space, {}};
            const SearchTrace trace = run_strategy(name, space, r.evaluate(), evaluations(30), seed);
            ASSERT_EQ(trace.evaluated.size(), 30u) << name;
            std::optional<std::size_t> fastest;
            for (std::size_t i = 0; i < trace.evaluated.size(); ++i) {
                const auto& point = space.points[trace.evaluated[i]];
                EXPECT_EQ(trace.times[i].has_value(), !fails(point)) << name;
                if (trace.times[i]) {
                    EXPECT_DOUBLE_EQ(*trace.times[i], time_of(point)) << name;
                    if (!fastest || *trace.times[i] < time_of(space.points[*fastest]))
                        fastest = trace.evaluated[i];
                }
            }
            EXPECT_EQ(trace.best, fastest) << name << " seed " << seed;
            if (trace.best)
                EXPECT_FALSE(fails(space.points[*trace.best])) << name;
        }
}

TEST(Strategies, WhenEveryPointFailsSpendTheBudgetAndFindNothing)
{
    const SearchSpace space = small_space();
    for (const std::string& name : strategy_names()) {
        std::size_t calls = 0;
        const Evaluate fail_all = [&](std::size_t) -> std::optional<double> {
            ++calls;
            return std::nullopt;
        };
        const SearchTrace trace = run_strategy(name, space, fail_all, evaluations(25), 4);
        EXPECT_EQ(calls, 25u) << name;
        EXPECT_FALSE(trace.best.has_value()) << name;
        EXPECT_TRUE(std::none_of(trace.times.begin(), trace.times.end(), [](const auto& t) { return t.has_value(); }));
    }
}

TEST(Strategies, ANonFiniteOrNegativeTimeCountsAsAFailure)
{
    const SearchSpace space = small_space();
    for (const std::string& name : strategy_names()) {
        const Evaluate odd = [&](std::size_t p) -> std::optional<double> {
            if (p % 3 == 0)
                return std::numeric_limits<double>::quiet_NaN();
            if (p % 3 == 1)
                return -1.0;
            return time_of(space.points[p]);
        };
        const SearchTrace trace = run_strategy(name, space, odd, evaluations(space.points.size()), 9);
        for (std::size_t i = 0; i < trace.evaluated.size(); ++i)
            EXPECT_EQ(trace.times[i].has_value(), trace.evaluated[i] % 3 == 2) << name;
        ASSERT_TRUE(trace.best.has_value());
        EXPECT_EQ(*trace.best % 3, 2u) << name;
    }
}

TEST(Strategies, TheSameSeedGivesTheSameTrace)
{
    for (const SearchSpace& space : {small_space(), big_space()})
        for (const std::string& name : strategy_names()) {
            const auto run = [&](std::uint64_t seed) {
                Recorder r{space, {}, space.points.size() == 50};
                const Evaluate e = space.points.size() == 50
                                       ? r.evaluate()
                                       : Evaluate([&](std::size_t p) -> std::optional<double> { return bumpy_time(space.points[p]); });
                return run_strategy(name, space, e, evaluations(40), seed);
            };
            const SearchTrace first = run(17), second = run(17);
            EXPECT_EQ(first.evaluated, second.evaluated) << name;
            EXPECT_EQ(first.times, second.times) << name;
            EXPECT_EQ(first.best, second.best) << name;
        }
}

TEST(Strategies, StochasticOnesFollowTheSeedDeterministicOnesIgnoreIt)
{
    const SearchSpace space = big_space();
    ASSERT_GT(space.points.size(), 1000u);
    const Evaluate e = [&](std::size_t p) -> std::optional<double> { return bumpy_time(space.points[p]); };
    for (const std::string& name : strategy_names()) {
        const SearchTrace a = run_strategy(name, space, e, evaluations(40), 1);
        const SearchTrace b = run_strategy(name, space, e, evaluations(40), 2);
        if (stochastic.count(name) != 0)
            EXPECT_NE(a.evaluated, b.evaluated) << name;
        else
            EXPECT_EQ(a.evaluated, b.evaluated) << name;
    }
}

TEST(Strategies, OnABigSpaceTheGuidedOnesBeatTheirFirstGuess)
{
    // Not a speed claim: with 150 of ~1500 points, every strategy that moves by the
    // answers ends better than its first evaluation, on every seed tried.
    const SearchSpace space = big_space();
    const Evaluate e = [&](std::size_t p) -> std::optional<double> { return bumpy_time(space.points[p]); };
    for (const std::string& name : {"ils", "annealing", "forest"})
        for (const std::uint64_t seed : {1u, 2u, 3u}) {
            const SearchTrace t = run_strategy(name, space, e, evaluations(150), seed);
            ASSERT_TRUE(t.best.has_value());
            EXPECT_LT(bumpy_time(space.points[*t.best]), *t.times.front()) << name << " seed " << seed;
        }
}

TEST(Strategies, ExhaustiveGoesInTheSpacesOrder)
{
    const SearchSpace space = small_space();
    Recorder r{space, {}};
    (void)run_strategy("exhaustive", space, r.evaluate(), evaluations(12), 3);
    std::vector<std::size_t> first(12);
    std::iota(first.begin(), first.end(), std::size_t{0});
    EXPECT_EQ(r.calls, first);
}

TEST(Strategies, ModelEvaluatesInPriorOrderHighestFirstTiesByIndexNaNLast)
{
    SearchSpace space = small_space();
    space.predicted_score.resize(space.points.size());
    for (std::size_t p = 0; p < space.points.size(); ++p)
        space.predicted_score[p] = static_cast<double>((p * 7) % 10); // ties in groups of five
    space.predicted_score[3] = std::numeric_limits<double>::quiet_NaN();
    space.predicted_score[4] = 100;
    std::vector<std::size_t> expected(space.points.size());
    std::iota(expected.begin(), expected.end(), std::size_t{0});
    const auto score = [&](std::size_t p) { return p == 3 ? -1.0 : space.predicted_score[p]; };
    std::stable_sort(expected.begin(), expected.end(), [&](std::size_t a, std::size_t b) { return score(a) > score(b); });
    ASSERT_EQ(expected.front(), 4u);
    ASSERT_EQ(expected.back(), 3u);

    Recorder r{space, {}};
    (void)run_strategy("model", space, r.evaluate(), evaluations(space.points.size()), 1);
    EXPECT_EQ(r.calls, expected);

    Recorder partial{space, {}};
    (void)run_strategy("model", space, partial.evaluate(), evaluations(6), 1);
    EXPECT_EQ(partial.calls, std::vector<std::size_t>(expected.begin(), expected.begin() + 6));
}

TEST(Strategies, ModelWithoutAPriorGoesInTheSpacesOrder)
{
    const SearchSpace space = small_space();
    Recorder r{space, {}};
    (void)run_strategy("model", space, r.evaluate(), evaluations(5), 1);
    EXPECT_EQ(r.calls, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
}

TEST(Strategies, AZeroEvaluationBudgetEvaluatesNothing)
{
    const SearchSpace space = small_space();
    for (const std::string& name : strategy_names()) {
        Recorder r{space, {}};
        const SearchTrace trace = run_strategy(name, space, r.evaluate(), evaluations(0), 1);
        EXPECT_TRUE(r.calls.empty()) << name;
        EXPECT_TRUE(trace.evaluated.empty()) << name;
    }
}

TEST(Strategies, AZeroTimeBudgetEvaluatesNothing)
{
    const SearchSpace space = small_space();
    for (const std::string& name : strategy_names()) {
        Recorder r{space, {}};
        Budget budget;
        budget.max_seconds = 0;
        const SearchTrace trace = run_strategy(name, space, r.evaluate(), budget, 1);
        EXPECT_TRUE(r.calls.empty()) << name;
        EXPECT_FALSE(trace.best.has_value()) << name;
    }
}

TEST(Strategies, ATimeBudgetStopsTheSearch)
{
    // Each evaluation takes at least 2 ms, so 50 of them cannot fit into 20 ms.
    const SearchSpace space = small_space();
    for (const std::string& name : strategy_names()) {
        Recorder r{space, {}};
        const Evaluate inner = r.evaluate();
        const Evaluate slow = [&](std::size_t p) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            return inner(p);
        };
        Budget budget;
        budget.max_seconds = 0.02;
        const SearchTrace trace = run_strategy(name, space, slow, budget, 1);
        EXPECT_LT(r.calls.size(), space.points.size()) << name;
        EXPECT_EQ(trace.evaluated.size(), r.calls.size()) << name;
    }
}

TEST(Strategies, UnknownNameThrowsNamingItAndTheKnownOnes)
{
    const SearchSpace space = small_space();
    Recorder r{space, {}};
    try {
        (void)run_strategy("genetic", space, r.evaluate(), evaluations(5), 1);
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("'genetic'"));
        for (const std::string& name : strategy_names())
            EXPECT_THAT(e.what(), HasSubstr(name));
    }
    EXPECT_TRUE(r.calls.empty());
}

TEST(Strategies, AnEmptySpaceThrowsNamingTheStrategy)
{
    SearchSpace empty;
    empty.parameter_names = {"A"};
    empty.parameter_values = {{1, 2}};
    for (const std::string& name : strategy_names()) {
        try {
            (void)run_strategy(name, empty, [](std::size_t) { return std::optional<double>(1.0); }, evaluations(5), 1);
            ADD_FAILURE() << name << ": no exception";
        } catch (const std::invalid_argument& e) {
            EXPECT_THAT(e.what(), HasSubstr("'" + name + "'"));
            EXPECT_THAT(e.what(), HasSubstr("empty"));
        }
    }
}

TEST(Strategies, AMalformedSpaceOrPriorThrows)
{
    SearchSpace wrong_prior = small_space();
    wrong_prior.predicted_score = {1.0, 2.0};
    const Evaluate e = [](std::size_t) { return std::optional<double>(1.0); };
    EXPECT_THROW((void)run_strategy("model", wrong_prior, e, evaluations(5), 1), std::invalid_argument);
    SearchSpace stray = small_space();
    stray.points[7][1] = 99; // not among B's values
    try {
        (void)run_strategy("ils", stray, e, evaluations(5), 1);
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("B=99"));
    }
    EXPECT_THROW((void)run_strategy("random", small_space(), Evaluate{}, evaluations(5), 1), std::invalid_argument);
}

TEST(Strategies, ASinglePointSpaceIsEvaluatedOnce)
{
    SearchSpace one;
    one.parameter_names = {"A", "B"};
    one.parameter_values = {{4}, {1, 2}};
    one.points = {{4, 2}};
    for (const std::string& name : strategy_names()) {
        std::size_t calls = 0;
        const Evaluate e = [&](std::size_t) {
            ++calls;
            return std::optional<double>(0.5);
        };
        const SearchTrace trace = run_strategy(name, one, e, Budget{}, 1);
        EXPECT_EQ(calls, 1u) << name;
        EXPECT_EQ(trace.best, std::optional<std::size_t>(0)) << name;
    }
}

// SearchRun is the guard every strategy evaluates through.
TEST(SearchRun, RefusesRepeatsPointsOutsideAndEvaluationsPastTheBudget)
{
    const SearchSpace space = small_space();
    Recorder r{space, {}};
    const Evaluate e = r.evaluate();
    SearchRun run(space, e, evaluations(2));
    EXPECT_FALSE(run.exhausted());
    EXPECT_EQ(run.evaluations_left(), 2u);
    EXPECT_THROW((void)run.evaluate(space.points.size()), std::logic_error);
    (void)run.evaluate(5);
    EXPECT_TRUE(run.evaluated(5));
    EXPECT_THROW((void)run.evaluate(5), std::logic_error);
    (void)run.evaluate(6);
    EXPECT_TRUE(run.exhausted());
    EXPECT_EQ(run.evaluations_left(), 0u);
    EXPECT_THROW((void)run.evaluate(7), std::logic_error);
    EXPECT_EQ(r.calls, (std::vector<std::size_t>{5, 6}));
}

TEST(SearchRun, AnEvaluationAfterTheDeadlineThatWasCheckedBeforeItIsAllowed)
{
    // A strategy checks exhausted(), then spends time choosing (fitting a model) before it
    // evaluates: the wall-time budget is checked at exhausted(), so that evaluation must
    // not be refused as a strategy bug.
    const SearchSpace space = small_space();
    Recorder r{space, {}};
    const Evaluate e = r.evaluate();
    Budget budget;
    budget.max_seconds = 0.05;
    SearchRun run(space, e, budget);
    ASSERT_FALSE(run.exhausted());
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    EXPECT_TRUE(run.exhausted());
    EXPECT_NO_THROW((void)run.evaluate(0));
    EXPECT_EQ(r.calls, (std::vector<std::size_t>{0}));
}

TEST(SearchRun, RandomUnevaluatedFindsTheLastOpenPoint)
{
    const SearchSpace space = small_space();
    Recorder r{space, {}};
    const Evaluate e = r.evaluate();
    SearchRun run(space, e, Budget{});
    for (std::size_t p = 0; p < space.points.size(); ++p)
        if (p != 31)
            (void)run.evaluate(p);
    RandomSource random(8);
    EXPECT_EQ(run.random_unevaluated(random), std::optional<std::size_t>(31));
    (void)run.evaluate(31);
    EXPECT_EQ(run.random_unevaluated(random), std::nullopt);
    EXPECT_TRUE(run.exhausted());
}

} // namespace

TEST(Strategies, ForestSpreadsItsMeasurementsWhereTheModelCannotTellPointsApart)
{
    // All times equal: every tree is one leaf and ties everything, so the forest's choices
    // come from its tie-break and its exploration, both of which spread by distance. Its
    // measurements then lie farther apart than random sampling's, seed for seed.
    const SearchSpace space = big_space();
    const SpaceGeometry geometry(space);
    const Evaluate flat = [](std::size_t) -> std::optional<double> { return 1e-3; };
    const auto mean_nearest = [&](const std::vector<std::size_t>& points) {
        double sum = 0;
        for (std::size_t i = 0; i < points.size(); ++i) {
            std::vector<std::size_t> others(points);
            others.erase(others.begin() + static_cast<std::ptrdiff_t>(i));
            sum += geometry.distance_to_nearest(points[i], others);
        }
        return sum / static_cast<double>(points.size());
    };
    for (const std::uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
        const double forest = mean_nearest(run_strategy("forest", space, flat, evaluations(40), seed).evaluated);
        const double random = mean_nearest(run_strategy("random", space, flat, evaluations(40), seed).evaluated);
        EXPECT_GT(forest, random) << "seed " << seed;
    }
}

TEST(Strategies, ForestSearchesASpaceOfMoreThanItPredictsPerStep)
{
    // 64,000 points: more than the forest's tree predicts per step, so each step looks at a
    // random share. It still keeps the budget, never repeats a point, follows its seed, and
    // moves by the answers (ends better than its first measurement).
    SearchSpace space;
    space.parameter_names = {"A", "B", "C"};
    std::vector<std::int64_t> values(40);
    std::iota(values.begin(), values.end(), std::int64_t{1});
    space.parameter_values = {values, values, values};
    for (const std::int64_t a : values)
        for (const std::int64_t b : values)
            for (const std::int64_t c : values)
                space.points.push_back({a, b, c});
    const Evaluate bowl = [&](std::size_t p) -> std::optional<double> {
        const auto& x = space.points[p];
        return 1.0 + std::pow(double(x[0] - 31), 2) + std::pow(double(x[1] - 7), 2) + std::pow(double(x[2] - 22), 2);
    };
    const SearchTrace t = run_strategy("forest", space, bowl, evaluations(60), 4);
    EXPECT_EQ(t.evaluated.size(), 60u);
    EXPECT_EQ(std::set<std::size_t>(t.evaluated.begin(), t.evaluated.end()).size(), 60u);
    ASSERT_TRUE(t.best.has_value());
    EXPECT_LT(*bowl(*t.best), *t.times.front());
    EXPECT_EQ(run_strategy("forest", space, bowl, evaluations(60), 4).evaluated, t.evaluated);
}

TEST(Strategies, ForestLeavesAGuessThatIsWrongAtTheTop)
{
    // A guess right about most of the space and wrong at its top: it rates mediocre points
    // (W >= 11, X <= 2) fastest, and the true basin (W 5..9, X 4..64) slow and upside down,
    // its best point guessed its worst. Corrections to such a guess are as hard to learn as
    // the times: once a point outside the guess's first 1 % measures faster than those, the
    // forest models the times themselves. Following the guess throughout, it found the
    // optimum on none of these seeds.
    SearchSpace space = big_space();
    const auto in_basin = [](const std::vector<std::int64_t>& p) { return p[0] >= 5 && p[0] <= 9 && p[1] >= 4 && p[1] <= 64; };
    const auto decoy = [](const std::vector<std::int64_t>& p) { return p[0] >= 11 && p[1] <= 2; };
    double optimum = std::numeric_limits<double>::infinity(), worst_in_basin = 0;
    for (const auto& p : space.points) {
        optimum = std::min(optimum, bumpy_time(p));
        if (in_basin(p))
            worst_in_basin = std::max(worst_in_basin, bumpy_time(p));
    }
    for (const auto& p : space.points)
        space.guess.push_back(decoy(p) ? 0.5 : in_basin(p) ? 2 * (worst_in_basin + 1 - bumpy_time(p)) : bumpy_time(p));
    const Evaluate measure = [&](std::size_t p) -> std::optional<double> { return bumpy_time(space.points[p]); };
    std::size_t found = 0;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        const SearchTrace t = run_strategy("forest", space, measure, evaluations(60), seed);
        ASSERT_TRUE(t.best.has_value());
        found += *measure(*t.best) <= optimum ? 1 : 0;
    }
    EXPECT_GE(found, 8u) << "seeds of 10 that found the optimum";
}
