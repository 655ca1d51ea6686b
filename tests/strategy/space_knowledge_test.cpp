// What a search knows before measuring: compiled facts and another GPU's times joined to a
// space by parameters, and the strategies starting from (and learning relative to) the guess.
#include "strategy/space_knowledge.hpp"

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
