// What a search knows before measuring: compiled facts and another GPU's times joined to a
// space by parameters, and the strategies starting from (and learning relative to) the guess.
#include "strategy/space_knowledge.hpp"

#include <algorithm>
#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <set>

using namespace autotune;
using json = nlohmann::ordered_json;
using ::testing::HasSubstr;

namespace {

// X = 1..10, Y = 0..1: 20 points, parameters in X, Y order.
struct Line {
    SearchSpace space;
    std::vector<json> params;
    Line()
    {
        space.parameter_names = {"X", "Y"};
        space.parameter_values = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {0, 1}};
        for (std::int64_t x = 1; x <= 10; ++x)
            for (std::int64_t y = 0; y <= 1; ++y) {
                space.points.push_back({x, y});
                params.push_back({{"X", x}, {"Y", y}});
            }
    }
};

json measured(double seconds) { return {{"time_seconds", {{"median", seconds}}}}; }

} // namespace

TEST(ParameterKey, IntegralNumbersMatchWhateverTheirSpellingAndKeyOrderDoesNotMatter)
{
    const std::vector<std::string> names{"A", "B"};
    EXPECT_EQ(parameter_key(json{{"A", 4}, {"B", "x"}}, names), parameter_key(json{{"B", "x"}, {"A", 4.0}}, names));
    EXPECT_NE(parameter_key(json{{"A", 4}, {"B", "x"}}, names), parameter_key(json{{"A", 4.5}, {"B", "x"}}, names));
    EXPECT_EQ(parameter_key(json{{"A", 4}}, names), ""); // B missing: matches nothing
}

TEST(CompiledFacts, ReadFromAVariantRecordAndNoneForACompileError)
{
    const json record = {{"status", "ok"},          {"registers", 40},      {"spill_stores", 8},
                         {"spill_loads", 4},         {"shared_static", 2048}, {"occupancy", {{"fraction", 0.5}}},
                         {"predicted_time", {{"seconds", 2e-5}}}};
    const CompiledFacts f = compiled_facts_of(record);
    EXPECT_EQ(f.registers, 40);
    EXPECT_EQ(f.spilled_bytes, 12);
    EXPECT_EQ(f.shared_bytes, 2048);
    EXPECT_EQ(f.occupancy, 0.5);
    EXPECT_EQ(f.predicted_seconds, 2e-5);
    const CompiledFacts failed = compiled_facts_of({{"status", "compile_error"}, {"registers", 40}});
    EXPECT_TRUE(std::isnan(failed.registers));
    EXPECT_TRUE(std::isnan(failed.predicted_seconds));
}

TEST(StaticFacts, JoinByParametersAndThePredictedTimeIsTheGuess)
{
    Line line;
    json compiled = {{"variants", json::array()}};
    for (std::int64_t x = 10; x >= 2; --x) // X = 1 is missing; keys in another order
        for (std::int64_t y = 0; y <= 1; ++y)
            compiled["variants"].push_back({{"params", {{"Y", y}, {"X", static_cast<double>(x)}}},
                                            {"status", "ok"},
                                            {"registers", 32 + x},
                                            {"predicted_time", {{"seconds", 1e-3 * static_cast<double>(x)}}}});
    EXPECT_EQ(add_static_facts(line.space, line.params, compiled, "compiled.json"), 18u);
    ASSERT_EQ(line.space.facts.size(), 5u);
    EXPECT_EQ(line.space.facts[0].name, "registers");
    EXPECT_TRUE(std::isnan(line.space.facts[0].values[0])); // X = 1
    EXPECT_EQ(line.space.facts[0].values[19], 42);          // X = 10, Y = 1
    ASSERT_EQ(line.space.guess.size(), 20u);
    EXPECT_DOUBLE_EQ(line.space.guess[6], 4e-3); // X = 4, Y = 0

    Line other;
    try {
        (void)add_static_facts(other.space, other.params, json{{"variants", {{{"params", {{"Z", 1}}}}}}}, "other.json");
        FAIL() << "a file that matches no point was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("other.json"));
    }
}

TEST(StaticFacts, AFileOfMeasurementsWithoutCompiledFactsIsRefused)
{
    Line line;
    json measured_only = {{"variants", json::array()}};
    for (std::int64_t x = 1; x <= 10; ++x)
        measured_only["variants"].push_back(
            {{"params", {{"X", x}, {"Y", 0}}}, {"status", "ok"}, {"measurement", measured(1e-3)}});
    try {
        (void)add_static_facts(line.space, line.params, measured_only, "imported.json");
        FAIL() << "measurements were taken for compiled facts";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("'imported.json' holds no compiled facts"));
    }
    EXPECT_TRUE(line.space.facts.empty());
    EXPECT_TRUE(line.space.guess.empty());
}

TEST(PriorTimes, AFileOfAnotherSpaceSaysItsParametersMatchNoPoint)
{
    Line line;
    const json elsewhere = {{"variants", {{{"params", {{"Q", 1}}}, {"status", "ok"}, {"measurement", measured(1e-3)}}}}};
    try {
        (void)add_prior_times(line.space, line.params, elsewhere, "elsewhere.json");
        FAIL() << "a prior of another space was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("'elsewhere.json' has no variant with the parameters of a point"));
    }
}

TEST(RequireKernel, AnotherKernelsResultsAreRefusedNamingBothKernelsAndTheFile)
{
    EXPECT_NO_THROW(require_kernel(json{{"kernel", "pnpoly"}}, "pnpoly", "p.json"));
    try {
        require_kernel(json{{"kernel", "gemm"}}, "pnpoly", "g.json");
        FAIL() << "another kernel's results were accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "'g.json' holds results of kernel 'gemm', not 'pnpoly'");
    }
    EXPECT_THROW(require_kernel(json{{"variants", json::array()}}, "pnpoly", "unnamed.json"), std::invalid_argument);
}

TEST(PriorTimes, FailedThereHasNoGuessAndUnrunPointsArePredictedFromTheRest)
{
    Line line;
    json other = {{"variants", json::array()}};
    for (std::int64_t x = 1; x <= 10; ++x)
        for (std::int64_t y = 0; y <= 1; ++y) {
            if (x == 5 && y == 0)
                continue; // the other GPU's sample did not run it
            json v = {{"params", {{"X", x}, {"Y", y}}}, {"status", x == 9 ? "launch_error" : "ok"}};
            if (x != 9)
                v["measurement"] = measured(1e-3 * static_cast<double>(x));
            other["variants"].push_back(v);
        }
    EXPECT_EQ(add_prior_times(line.space, line.params, other, "other.json"), 17u); // 20 − unrun − 2 failed
    ASSERT_EQ(line.space.facts.size(), 1u);
    EXPECT_EQ(line.space.facts[0].name, "prior_seconds");
    EXPECT_DOUBLE_EQ(line.space.guess[0], 1e-3);
    EXPECT_TRUE(std::isnan(line.space.guess[16])); // X = 9 failed there
    const double unrun = line.space.guess[8];      // X = 5, Y = 0
    EXPECT_GE(unrun, 3e-3);
    EXPECT_LE(unrun, 7e-3);

    Line nothing;
    try {
        (void)add_prior_times(nothing.space, nothing.params, json{{"variants", json::array()}}, "empty.json");
        FAIL() << "a prior without times was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("empty.json"));
    }
}

TEST(StaticFactsAndPriorTimes, TheGuessIsTheOtherGpusAndTheBaselineBothAveragedInLogTime)
{
    // The model is right along X (fastest at 7) and wrong along Y (it predicts Y = 1 a
    // little faster); the other GPU is right along Y (Y = 0 twice as fast) and wrong along
    // X (fastest at 3). Alone, each puts its own mistake first; averaged in log time, the
    // baseline is fastest at X = 7, Y = 0. X = 2 failed to compile here and X = 9 failed
    // there: each keeps its one time, averaged with the other's median.
    const auto predicted = [](std::int64_t x, std::int64_t y) { return (1.0 + std::abs(static_cast<double>(x) - 7)) * (y == 1 ? 0.9 : 1.0); };
    const auto there = [](std::int64_t x, std::int64_t y) { return 1e-3 * (1.0 + 0.1 * std::abs(static_cast<double>(x) - 3)) * (y == 0 ? 0.5 : 1.0); };
    json compiled = {{"variants", json::array()}}, other = {{"variants", json::array()}};
    for (std::int64_t x = 1; x <= 10; ++x)
        for (std::int64_t y = 0; y <= 1; ++y) {
            compiled["variants"].push_back({{"params", {{"X", x}, {"Y", y}}},
                                            {"status", x == 2 ? "compile_error" : "ok"},
                                            {"predicted_time", {{"seconds", predicted(x, y)}}}});
            json v = {{"params", {{"X", x}, {"Y", y}}}, {"status", x == 9 ? "launch_error" : "ok"}};
            if (x != 9)
                v["measurement"] = measured(there(x, y));
            other["variants"].push_back(v);
        }
    Line facts_first, prior_first, facts_only;
    (void)add_static_facts(facts_first.space, facts_first.params, compiled, "compiled.json");
    (void)add_prior_times(facts_first.space, facts_first.params, other, "other.json");
    (void)add_prior_times(prior_first.space, prior_first.params, other, "other.json");
    (void)add_static_facts(prior_first.space, prior_first.params, compiled, "compiled.json");
    (void)add_static_facts(facts_only.space, facts_only.params, compiled, "compiled.json");
    EXPECT_TRUE(facts_only.space.baseline.empty()); // one source: the guess is the baseline
    for (const Line* line : {&facts_first, &prior_first}) {
        const auto& space = line->space;
        EXPECT_DOUBLE_EQ(space.guess[0], there(1, 0)); // the walking strategies' first guess
        EXPECT_TRUE(std::isnan(space.guess[16]));      // X = 9 failed there
        const auto& baseline = space.baseline;
        ASSERT_EQ(baseline.size(), 20u);
        std::size_t best = 0;
        for (std::size_t p = 1; p < baseline.size(); ++p)
            if (baseline[p] < baseline[best])
                best = p;
        EXPECT_EQ(space.points[best], (std::vector<std::int64_t>{7, 0}));
        // Known to both: the geometric mean, up to one factor for the whole space.
        const double scale = baseline[0] / std::sqrt(predicted(1, 0) * there(1, 0));
        for (const std::int64_t x : {4, 7, 10})
            EXPECT_NEAR(baseline[2 * (x - 1) + 1] / scale, std::sqrt(predicted(x, 1) * there(x, 1)), 1e-12) << x;
        // A lone time meets the other's median (upper medians of their 18 values: the
        // model's 3, the other GPU's 1 ms).
        EXPECT_NEAR(baseline[2] / scale, std::sqrt(3.0 * there(2, 0)), 1e-12);       // X = 2: there only
        EXPECT_NEAR(baseline[16] / scale, std::sqrt(predicted(9, 0) * 1e-3), 1e-12); // X = 9: here only
    }
}

namespace {

// 12 × 8 × 5 points; the other GPU's time and this GPU's differ by a factor that depends on
// Z alone, so this GPU's optimum (W=7, X=16, Z=4) is not the other's (Z=0).
SearchSpace guessed_space()
{
    SearchSpace s;
    s.parameter_names = {"W", "X", "Z"};
    s.parameter_values = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {1, 2, 4, 8, 16, 32, 64, 128}, {0, 1, 2, 3, 4}};
    for (const auto w : s.parameter_values[0])
        for (const auto x : s.parameter_values[1])
            for (const auto z : s.parameter_values[2])
                s.points.push_back({w, x, z});
    return s;
}

double other_gpu(const std::vector<std::int64_t>& p)
{
    const double w = static_cast<double>(p[0]), x = std::log2(static_cast<double>(p[1]));
    return 1 + std::abs(w - 7) + (x - 4) * (x - 4) + 0.1 * static_cast<double>(p[2]);
}

double this_gpu(const std::vector<std::int64_t>& p) { return other_gpu(p) * (1.0 - 0.15 * static_cast<double>(p[2])); }

} // namespace

TEST(GuessedSpace, EveryStrategyButRandomStartsFromTheBestGuess)
{
    SearchSpace space = guessed_space();
    for (const auto& p : space.points)
        space.guess.push_back(other_gpu(p));
    space.guess[0] = std::numeric_limits<double>::quiet_NaN(); // no guess: never first
    std::size_t best_guess = 1;
    for (std::size_t p = 1; p < space.points.size(); ++p)
        if (space.guess[p] < space.guess[best_guess])
            best_guess = p;
    const Evaluate evaluate = [&](std::size_t p) -> std::optional<double> { return this_gpu(space.points[p]); };
    Budget budget;
    budget.max_evaluations = 10;
    for (const std::string strategy : {"model", "ils", "annealing", "forest"})
        EXPECT_EQ(run_strategy(strategy, space, evaluate, budget, 3).evaluated.front(), best_guess) << strategy;
}

TEST(GuessedSpace, ForestLearnsTheCorrectionToTheGuessAndFindsThisGpusOptimum)
{
    SearchSpace space = guessed_space();
    for (const auto& p : space.points)
        space.guess.push_back(other_gpu(p));
    space.facts.push_back({"prior_seconds", space.guess});
    const Evaluate evaluate = [&](std::size_t p) -> std::optional<double> { return this_gpu(space.points[p]); };
    double optimum = std::numeric_limits<double>::infinity();
    for (const auto& p : space.points)
        optimum = std::min(optimum, this_gpu(p));
    Budget budget;
    budget.max_evaluations = 12; // 2.5 % of the space
    for (const std::uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
        const SearchTrace t = run_strategy("forest", space, evaluate, budget, seed);
        ASSERT_TRUE(t.best.has_value());
        EXPECT_DOUBLE_EQ(this_gpu(space.points[*t.best]), optimum) << "seed " << seed;
    }
}

TEST(GuessedSpace, ForestTriesEveryParameterAroundItsBestBeforeFollowingTheGuess)
{
    // A guess that is right along most parameters and wrong along one with few values (the
    // model's time for two methods of which the other compiler made one heavier): the
    // neighbours along that parameter look worse than the plateau along the block size, and
    // a polish that follows the guess stays on the plateau. Trying each parameter around the
    // best point once before following the guess finds the other method.
    SearchSpace space;
    space.parameter_names = {"B", "M", "T"};
    space.parameter_values = {{}, {0, 1}, {1, 2, 3, 4, 5, 6}};
    for (std::int64_t b = 1; b <= 16; ++b)
        space.parameter_values[0].push_back(32 * b);
    for (const auto b : space.parameter_values[0])
        for (const auto m : space.parameter_values[1])
            for (const auto t : space.parameter_values[2])
                space.points.push_back({b, m, t});
    const auto shape = [](const std::vector<std::int64_t>& p) {
        const double b = static_cast<double>(p[0] / 32), t = static_cast<double>(p[2]);
        return (1 + 0.3 * (6 - t)) * (1 + 0.002 * std::abs(b - 4));
    };
    for (const auto& p : space.points)
        space.guess.push_back(shape(p) * (p[1] == 0 ? 1.05 : 1.0));
    const auto this_gpu = [&](const std::vector<std::int64_t>& p) { return shape(p) * (p[1] == 0 ? 0.85 : 1.0); };
    const Evaluate evaluate = [&](std::size_t p) -> std::optional<double> { return this_gpu(space.points[p]); };
    const double optimum = this_gpu({128, 0, 6});
    Budget budget;
    budget.max_evaluations = 10; // 5 % of the space
    for (const std::uint64_t seed : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u}) {
        const SearchTrace t = run_strategy("forest", space, evaluate, budget, seed);
        ASSERT_TRUE(t.best.has_value());
        EXPECT_DOUBLE_EQ(this_gpu(space.points[*t.best]), optimum) << "seed " << seed;
    }
}

TEST(GuessedSpace, ForestSpreadsItsGuidedPicksOverTheFamiliesTheGuessRatesHighest)
{
    // The guess rates one family (F = 0) first at every block size near its favourite, and
    // the next family (F = 1) just behind; on this GPU F = 1 is the faster one and the block
    // size does not matter. The guess's first points are all F = 0: picks spread over its
    // top 1 % (20 of 2,000 points) reach F = 1 within the initial design.
    SearchSpace space;
    space.parameter_names = {"F", "B", "T"};
    space.parameter_values = {{0, 1, 2, 3, 4}, {}, {0, 1, 2, 3}};
    for (std::int64_t b = 1; b <= 100; ++b)
        space.parameter_values[1].push_back(b);
    for (const auto f : space.parameter_values[0])
        for (const auto b : space.parameter_values[1])
            for (const auto t : space.parameter_values[2])
                space.points.push_back({f, b, t});
    const auto tile = [](std::int64_t t) { return 1 + 0.3 * static_cast<double>(3 - t); };
    for (const auto& p : space.points)
        space.guess.push_back((1 + 0.005 * static_cast<double>(p[0])) * (1 + 0.002 * static_cast<double>(std::abs(p[1] - 50))) *
                              tile(p[2]));
    const auto this_gpu = [&](const std::vector<std::int64_t>& p) { return (p[0] == 1 ? 0.85 : 1.0) * tile(p[2]); };
    const Evaluate evaluate = [&](std::size_t p) -> std::optional<double> { return this_gpu(space.points[p]); };
    Budget budget;
    budget.max_evaluations = 5; // the initial design alone: 3 guided picks, 2 random
    for (const std::uint64_t seed : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u}) {
        const SearchTrace t = run_strategy("forest", space, evaluate, budget, seed);
        ASSERT_TRUE(t.best.has_value());
        EXPECT_DOUBLE_EQ(this_gpu(space.points[*t.best]), 0.85) << "seed " << seed;
        EXPECT_EQ(t.evaluated.front(), 49u * 4 + 3) << "the first pick is the guess's fastest (F 0, B 50, T 3)";
    }
}

TEST(GuessedSpace, ForestFollowsTheBaselineWhereTheSpaceHasOneAndTheWalksTheGuess)
{
    // The guess (another GPU's times) is fastest at W = 1, the baseline (that blended with
    // the model's) at W = 12; this GPU agrees with the baseline. The forest's first pick and
    // its correction follow the baseline; ILS and annealing start from the guess.
    SearchSpace space = guessed_space();
    for (const auto& p : space.points) {
        const double rest = 1 + (std::log2(static_cast<double>(p[1])) - 4) * (std::log2(static_cast<double>(p[1])) - 4) + 0.1 * static_cast<double>(p[2]);
        space.guess.push_back(rest + static_cast<double>(p[0]));
        space.baseline.push_back(rest + static_cast<double>(13 - p[0]));
    }
    const Evaluate evaluate = [&](std::size_t p) -> std::optional<double> { return space.baseline[p]; };
    const auto fastest = [&](const std::vector<double>& v) { return static_cast<std::size_t>(std::min_element(v.begin(), v.end()) - v.begin()); };
    Budget budget;
    budget.max_evaluations = 10;
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
        const SearchTrace forest = run_strategy("forest", space, evaluate, budget, seed);
        EXPECT_EQ(forest.evaluated.front(), fastest(space.baseline)) << seed;
        ASSERT_TRUE(forest.best.has_value());
        EXPECT_EQ(*forest.best, fastest(space.baseline)) << seed;
        for (const std::string walk : {"ils", "annealing"})
            EXPECT_EQ(run_strategy(walk, space, evaluate, budget, seed).evaluated.front(), fastest(space.guess)) << walk;
    }
    SearchSpace short_baseline = space;
    short_baseline.baseline = {1.0};
    EXPECT_THROW((void)run_strategy("forest", short_baseline, evaluate, budget, 1), std::invalid_argument);
}

TEST(GuessedSpace, AFactOrGuessOfTheWrongLengthIsRefused)
{
    SearchSpace space = guessed_space();
    const Evaluate evaluate = [](std::size_t) -> std::optional<double> { return 1.0; };
    SearchSpace short_fact = space;
    short_fact.facts.push_back({"registers", {1.0, 2.0}});
    try {
        (void)run_strategy("forest", short_fact, evaluate, Budget{}, 1);
        FAIL() << "a fact of the wrong length was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("registers"));
    }
    SearchSpace short_guess = space;
    short_guess.guess = {1.0};
    EXPECT_THROW((void)run_strategy("ils", short_guess, evaluate, Budget{}, 1), std::invalid_argument);
}
