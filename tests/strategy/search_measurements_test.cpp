// The search on the tuner's side, against a scripted worker: only candidates get GPU
// time, the budget holds, duplicates carry their group's outcome.
#include "strategy/search_measurements.hpp"

#include "support/scripted_variants.hpp"
#include "support/test_support.hpp"

#include <fstream>
#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>

using namespace autotune;

namespace {

struct Candidates : test::ScriptedVariants {
    test::TempDir dir;
    PruneReport pruning;

    Candidates() : test::ScriptedVariants(test::scripted_variants(6, 64))
    {
        // A time that falls with the variant index.
        std::ofstream(dir.path() / "worker.sh") << test::answering_worker("0.001 * (10 - $v)");
        pruning.decisions.resize(6);
        pruning.decisions[1].pruned = true;   // cannot launch
        pruning.decisions[3].duplicate_of = 2; // same run as 2
    }
    MeasureSettings settings() { return test::scripted_worker_settings(dir.path()); }
    std::size_t asked() const
    {
        const std::string log = test::read_file(dir.path() / "asked.txt");
        return static_cast<std::size_t>(std::count(log.begin(), log.end(), '\n'));
    }
};

TEST(SearchAndMeasure, OnlyCandidatesGetGpuTimeAndDuplicatesCarryTheirGroupsOutcome)
{
    Candidates s;
    VariantMeasurer measurer(s.spec, s.problem, s.settings());
    SearchSettings search; // exhaustive, no budget
    const SearchOutcome out = search_and_measure(s.variants, s.compiled, s.predictions, s.pruning, {}, {}, measurer, search);
    EXPECT_EQ(out.candidates, 4u); // 0, 2, 4, 5
    EXPECT_EQ(out.evaluations, 4u);
    EXPECT_EQ(s.asked(), 4u);
    EXPECT_FALSE(out.measurements[1].has_value());
    ASSERT_TRUE(out.measurements[3].has_value());
    EXPECT_DOUBLE_EQ(out.measurements[3]->measurement->time.median, out.measurements[2]->measurement->time.median);
}

TEST(SearchAndMeasure, TheBudgetHoldsAndTheModelStrategyFollowsThePrior)
{
    Candidates s;
    VariantMeasurer measurer(s.spec, s.problem, s.settings());
    SearchSettings search;
    search.strategy = "model";
    search.budget.max_evaluations = 2;
    const std::vector<double> prior{0.1, 0.9, 0.2, 0.3, 0.8, 0.5}; // 1 is pruned: 4 then 5 come first
    const SearchOutcome out = search_and_measure(s.variants, s.compiled, s.predictions, s.pruning, prior, {}, measurer, search);
    EXPECT_EQ(out.evaluations, 2u);
    EXPECT_EQ(s.asked(), 2u);
    EXPECT_TRUE(out.measurements[4].has_value());
    EXPECT_TRUE(out.measurements[5].has_value());
    EXPECT_FALSE(out.measurements[0].has_value());
}

TEST(SearchAndMeasure, APercentageIsOfTheCandidatesNotOfTheWholeSpace)
{
    Candidates s; // 6 variants, 4 candidates (one pruned, one duplicate)
    VariantMeasurer measurer(s.spec, s.problem, s.settings());
    SearchSettings search;
    search.strategy = "model";
    search.budget = parse_budget("50%");
    const std::vector<double> prior{0.1, 0.9, 0.2, 0.3, 0.8, 0.5};
    const SearchOutcome out = search_and_measure(s.variants, s.compiled, s.predictions, s.pruning, prior, {}, measurer, search);
    EXPECT_EQ(out.evaluations, 2u); // half of 4, not of 6
    EXPECT_EQ(s.asked(), 2u);
}

TEST(SearchAndMeasure, AnotherGpusTimesOrderTheFirstMeasurementsAndTheFactsReachTheSpace)
{
    Candidates s; // parameter P = 0..5; candidates 0, 2, 4, 5
    VariantMeasurer measurer(s.spec, s.problem, s.settings());
    SearchSettings search;
    search.strategy = "model"; // no predicted fractions: the guess orders
    search.budget.max_evaluations = 2;
    nlohmann::ordered_json view = {{"variants", nlohmann::ordered_json::array()}};
    for (int p : {0, 2, 4, 5}) { // the other GPU: P = 2 fastest, then 0
        const double t = p == 2 ? 1e-3 : p == 0 ? 2e-3 : 5e-3;
        view["variants"].push_back({{"params", {{"P", p}}},
                                    {"status", "ok"},
                                    {"measurement", {{"time_seconds", {{"median", t}}}}}});
    }
    search.prior = PriorResults{view, "other-gpu.json"};
    const SearchOutcome out = search_and_measure(s.variants, s.compiled, s.predictions, s.pruning, {}, {}, measurer, search);
    EXPECT_TRUE(out.measurements[2].has_value());
    EXPECT_TRUE(out.measurements[0].has_value());
    EXPECT_FALSE(out.measurements[4].has_value());

    std::vector<CompiledFacts> facts(6);
    for (std::size_t i = 0; i < 6; ++i)
        facts[i].predicted_seconds = 10.0 - static_cast<double>(i);
    const SearchSpace space = search_space_of(s.variants, {0, 2, 4, 5}, {}, facts, search.prior);
    ASSERT_EQ(space.facts.size(), 6u); // five compiled facts and the prior's times
    EXPECT_EQ(space.facts[4].name, "predicted_seconds");
    EXPECT_THAT(space.facts[4].values, ::testing::ElementsAre(10.0, 8.0, 6.0, 5.0));
    EXPECT_EQ(space.facts[5].name, "prior_seconds");
    EXPECT_THAT(space.guess, ::testing::ElementsAre(2e-3, 1e-3, 5e-3, 5e-3)); // measured times first
    // The forest's baseline is both, averaged in log time: the predictions scaled to the
    // other GPU's median (upper medians: 5e-3 and 8), then the geometric mean.
    const std::vector<double> predicted{10.0, 8.0, 6.0, 5.0}, elsewhere{2e-3, 1e-3, 5e-3, 5e-3};
    ASSERT_EQ(space.baseline.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i)
        EXPECT_NEAR(space.baseline[i], std::sqrt(elsewhere[i] * predicted[i] * (5e-3 / 8.0)), 1e-12) << i;

    nlohmann::ordered_json unrelated = {{"variants", {{{"params", {{"Q", 1}}}, {"status", "ok"}}}}};
    try {
        (void)search_space_of(s.variants, {0, 2}, {}, {}, PriorResults{unrelated, "unrelated.json"});
        FAIL() << "a prior that matches nothing was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), ::testing::HasSubstr("unrelated.json"));
    }
}

TEST(ParseBudget, EvaluationsSharesOrDurations)
{
    EXPECT_EQ(parse_budget("5%").evaluations_for(200), 10u);
    EXPECT_EQ(parse_budget("1%").evaluations_for(17956), 180u); // rounded up
    EXPECT_EQ(parse_budget("1%").evaluations_for(500), 5u);     // not 6 by rounding error
    EXPECT_EQ(parse_budget("0.01%").evaluations_for(100), 1u);  // at least one
    EXPECT_EQ(parse_budget("100%").evaluations_for(37), 37u);
    EXPECT_EQ(parse_budget("25").evaluations_for(10), 25u);     // a count is not cut to the space
    EXPECT_EQ(parse_budget("").evaluations_for(10), std::numeric_limits<std::size_t>::max()); // no budget
    for (const char* bad : {"0%", "101%", "-5%", "nan%", "1e1%", "+5%", "%", "5 %"})
        EXPECT_THROW((void)parse_budget(bad), std::invalid_argument) << bad;
    EXPECT_EQ(parse_budget("200").max_evaluations, 200u);
    EXPECT_DOUBLE_EQ(parse_budget("90s").max_seconds, 90);
    EXPECT_DOUBLE_EQ(parse_budget("30m").max_seconds, 1800);
    EXPECT_DOUBLE_EQ(parse_budget("2h").max_seconds, 7200);
    for (const char* bad : {"0", "-5", "1.5", "10x", "m", "abc"})
        EXPECT_THROW((void)parse_budget(bad), std::invalid_argument) << bad;
}

} // namespace
