// Replay: a results document (ours, or an imported Kernel Tuner cache) as a search space
// answered by the recorded medians; budgets as counts or percentages; the outcome's
// fraction of the optimum.
#include "emit/kt_cache_import.hpp"
#include "strategy/replay.hpp"

#include "support/test_support.hpp"
#include "support/budgets.hpp"

#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <set>

using namespace autotune;
using autotune::test::evaluations;
using ::testing::HasSubstr;
using json = nlohmann::ordered_json;

namespace {

json variant(std::int64_t index, json params, const std::string& status, std::optional<double> median,
             std::optional<double> predicted = std::nullopt)
{
    json v{{"index", index}, {"params", std::move(params)}, {"status", status}, {"measurement", nullptr}};
    if (median)
        v["measurement"] = {{"verified", true}, {"time_seconds", {{"count", 10}, {"median", *median}, {"min", *median}}}};
    v["predicted_fraction"] = predicted ? json(*predicted) : json(nullptr);
    return v;
}

// Six variants in the shape results_json writes: BM and VEC integers, LAYOUT a string.
json small_results(bool with_prior = true)
{
    const auto p = [&](double f) { return with_prior ? std::optional<double>(f) : std::nullopt; };
    json variants = json::array({
        variant(40, {{"BM", 64}, {"VEC", 4}, {"LAYOUT", "row"}}, "ok", 0.004, p(0.5)),
        variant(12, {{"BM", 32}, {"VEC", 1}, {"LAYOUT", "col"}}, "ok", 0.002, p(0.2)),
        variant(7, {{"BM", 128}, {"VEC", 2}, {"LAYOUT", "row"}}, "compile_error", std::nullopt),
        variant(99, {{"BM", 64}, {"VEC", 1}, {"LAYOUT", "col"}}, "ok", 0.001, p(0.9)),
        variant(3, {{"BM", 32}, {"VEC", 4}, {"LAYOUT", "row"}}, "wrong_result", std::nullopt),
        variant(55, {{"BM", 128}, {"VEC", 4}, {"LAYOUT", "col"}}, "ok", 0.008, p(0.1)),
    });
    return json{{"kernel", "k"}, {"spec", "kernels/k.toml"}, {"arch", "sm_90"}, {"problem", {{"N", 1}}}, {"variants", variants}};
}

TEST(ReplaySpace, ReadsParametersValuesMediansAndIndices)
{
    const ReplaySpace r = replay_space(small_results(), "small.json");
    EXPECT_EQ(r.space.parameter_names, (std::vector<std::string>{"BM", "VEC", "LAYOUT"}));
    ASSERT_EQ(r.space.parameter_values.size(), 3u);
    EXPECT_EQ(r.space.parameter_values[0], (std::vector<std::int64_t>{32, 64, 128}));
    EXPECT_EQ(r.space.parameter_values[1], (std::vector<std::int64_t>{1, 2, 4}));
    EXPECT_EQ(r.space.parameter_values[2], (std::vector<std::int64_t>{0, 1})); // "col", "row" by sorted position
    ASSERT_EQ(r.space.points.size(), 6u);
    EXPECT_EQ(r.space.points[0], (std::vector<std::int64_t>{64, 4, 1}));
    EXPECT_EQ(r.space.points[1], (std::vector<std::int64_t>{32, 1, 0}));
    EXPECT_EQ(r.indices, (std::vector<std::int64_t>{40, 12, 7, 99, 3, 55}));
    EXPECT_EQ(r.params[2], (json{{"BM", 128}, {"VEC", 2}, {"LAYOUT", "row"}}));
    const std::vector<std::optional<double>> medians{0.004, 0.002, std::nullopt, 0.001, std::nullopt, 0.008};
    EXPECT_EQ(r.medians, medians);
    EXPECT_DOUBLE_EQ(r.optimum, 0.001);
}

TEST(ReplaySpace, ThePriorIsThePredictedFractionWithFailuresLast)
{
    const ReplaySpace r = replay_space(small_results(), "small.json");
    ASSERT_EQ(r.space.predicted_score.size(), 6u);
    EXPECT_DOUBLE_EQ(r.space.predicted_score[0], 0.5);
    EXPECT_DOUBLE_EQ(r.space.predicted_score[3], 0.9);
    EXPECT_EQ(r.space.predicted_score[2], -std::numeric_limits<double>::infinity());
    EXPECT_EQ(r.space.predicted_score[4], -std::numeric_limits<double>::infinity());

    // One ok variant without a prediction: no prior at all.
    json partial = small_results();
    partial["variants"][5]["predicted_fraction"] = nullptr;
    EXPECT_TRUE(replay_space(partial, "partial.json").space.predicted_score.empty());
    EXPECT_TRUE(replay_space(small_results(false), "none.json").space.predicted_score.empty());
}

TEST(ReplaySpace, ThePredictedRankOrdersWhereTheFileHasOne)
{
    // Ranked by time the order differs from the roof fractions' (0.5, 0.2, 0.9, 0.1).
    json ranked = small_results();
    const std::vector<std::pair<std::size_t, int>> ranks{{0, 4}, {1, 1}, {3, 3}, {5, 2}};
    for (const auto& [at, rank] : ranks)
        ranked["variants"][at]["predicted_rank"] = rank;
    const ReplaySpace r = replay_space(ranked, "ranked.json");
    ASSERT_EQ(r.space.predicted_score.size(), 6u);
    EXPECT_DOUBLE_EQ(r.space.predicted_score[1], -1.0);
    EXPECT_DOUBLE_EQ(r.space.predicted_score[5], -2.0);
    EXPECT_DOUBLE_EQ(r.space.predicted_score[0], -4.0);
    EXPECT_EQ(r.space.predicted_score[2], -std::numeric_limits<double>::infinity());
    EXPECT_EQ(replay(r, "model", evaluations(2), 1).trace.evaluated, (std::vector<std::size_t>{1, 5}));

    // A rank missing on one ok variant: the fractions, as in files without ranks.
    ranked["variants"][3]["predicted_rank"] = nullptr;
    EXPECT_DOUBLE_EQ(replay_space(ranked, "partly-ranked.json").space.predicted_score[3], 0.9);
}

TEST(ReplaySpace, AVariantWithoutAnIndexIsNumberedByItsPosition)
{
    json doc = small_results();
    doc["variants"][1].erase("index");
    EXPECT_EQ(replay_space(doc, "x.json").indices[1], 1);
}

TEST(ReplaySpace, AnOkVariantWithoutAMeasurementIsAFailedEvaluation)
{
    json doc = small_results();
    doc["variants"][3]["measurement"] = nullptr; // the fastest, unmeasured
    const ReplaySpace r = replay_space(doc, "x.json");
    EXPECT_FALSE(r.medians[3].has_value());
    EXPECT_DOUBLE_EQ(r.optimum, 0.002);
}

TEST(ReplaySpace, BadDocumentsThrowNamingTheSource)
{
    const auto expect_bad = [](const json& doc, const std::string& why) {
        try {
            (void)replay_space(doc, "bad.json");
            ADD_FAILURE() << "no exception for " << why;
        } catch (const std::invalid_argument& e) {
            EXPECT_THAT(e.what(), HasSubstr("'bad.json'")) << why;
            EXPECT_THAT(e.what(), HasSubstr(why));
        }
    };
    expect_bad(json::array(), "no \"variants\"");
    expect_bad(json{{"variants", json::array()}}, "no variants");
    json missing = small_results();
    missing["variants"][2]["params"].erase("VEC");
    expect_bad(missing, "variant 2");
    json extra = small_results();
    extra["variants"][4]["params"]["TM"] = 2;
    expect_bad(extra, "variant 4");
    json renamed = small_results();
    renamed["variants"][1]["params"].erase("VEC");
    renamed["variants"][1]["params"]["VECTOR"] = 1;
    expect_bad(renamed, "has no VEC");
    json unmeasured = small_results();
    for (auto& v : unmeasured["variants"])
        v["measurement"] = nullptr;
    expect_bad(unmeasured, "no variant has a measured time");
}

TEST(ReplayBudget, CountsAndPercentagesRoundedUp)
{
    EXPECT_EQ(replay_budget("1%", 17956), 180u);
    EXPECT_EQ(replay_budget("2%", 4092), 82u);
    EXPECT_EQ(replay_budget("1%", 500), 5u);
    EXPECT_EQ(replay_budget("10%", 30), 3u);
    EXPECT_EQ(replay_budget("100%", 4092), 4092u);
    EXPECT_EQ(replay_budget("0.5%", 1000), 5u);
    EXPECT_EQ(replay_budget("2.5%", 200), 5u);
    EXPECT_EQ(replay_budget("0.01%", 100), 1u); // at least one
    EXPECT_EQ(replay_budget("25", 10), 25u);    // a count may exceed the space
    EXPECT_EQ(replay_budget("1", 4092), 1u);
}

TEST(ReplayBudget, AnythingElseThrowsNamingIt)
{
    for (const std::string bad : {"", "0", "0%", "101%", "-5", "-5%", "abc", "5x", "%", "1.5", "x%", "5 %", "nan%",
                                  "99999999999999999999", " 5%", "+5%", "0x10%", "1e1%", "5.%.", "1..5%", ".%"}) {
        try {
            (void)replay_budget(bad, 100);
            ADD_FAILURE() << "'" << bad << "' accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_THAT(e.what(), HasSubstr("'" + bad + "'"));
        }
    }
}

TEST(Replay, TheWholeSpaceFindsTheOptimumAndFailuresCostEvaluations)
{
    const ReplaySpace space = replay_space(small_results(), "small.json");
    for (const std::string& name : strategy_names()) {
        const ReplayOutcome o = replay(space, name, evaluations(6), 3);
        EXPECT_EQ(o.evaluations, 6u) << name;
        EXPECT_EQ(o.failed, 2u) << name;
        ASSERT_TRUE(o.best.has_value()) << name;
        EXPECT_EQ(*o.best, 3u) << name;
        EXPECT_EQ(o.best_time, std::optional<double>(0.001)) << name;
        EXPECT_DOUBLE_EQ(o.fraction_of_optimum, 1.0) << name;
    }
}

TEST(Replay, APartialBudgetGivesTheOptimumOverTheBestFound)
{
    const ReplaySpace space = replay_space(small_results(), "small.json");
    // Exhaustive, three evaluations: 0.004, 0.002, a compile error.
    const ReplayOutcome o = replay(space, "exhaustive", evaluations(3), 1);
    EXPECT_EQ(o.evaluations, 3u);
    EXPECT_EQ(o.failed, 1u);
    EXPECT_EQ(o.best, std::optional<std::size_t>(1));
    EXPECT_DOUBLE_EQ(o.fraction_of_optimum, 0.5);
    EXPECT_EQ(o.trace.evaluated, (std::vector<std::size_t>{0, 1, 2}));
    // The model goes by predicted_fraction: 0.9 first, which is the optimum.
    const ReplayOutcome m = replay(space, "model", evaluations(1), 1);
    EXPECT_EQ(m.best, std::optional<std::size_t>(3));
    EXPECT_DOUBLE_EQ(m.fraction_of_optimum, 1.0);
}

TEST(Replay, NothingFoundIsFractionZero)
{
    json doc = small_results();
    std::swap(doc["variants"][0], doc["variants"][2]); // a compile error first
    const ReplaySpace space = replay_space(doc, "x.json");
    const ReplayOutcome o = replay(space, "exhaustive", evaluations(1), 1);
    EXPECT_EQ(o.evaluations, 1u);
    EXPECT_EQ(o.failed, 1u);
    EXPECT_FALSE(o.best.has_value());
    EXPECT_FALSE(o.best_time.has_value());
    EXPECT_EQ(o.fraction_of_optimum, 0.0);
}

TEST(Replay, AnImportedKernelTunerCacheReplays)
{
    AUTOTUNE_SKIP_WITHOUT_KERNEL_TUNER_CACHE("pnpoly");
    const json imported = import_kt_cache(test::kernel_tuner_cache("pnpoly"));
    const ReplaySpace space = replay_space(imported, "pnpoly");
    ASSERT_EQ(space.space.points.size(), 4092u);
    EXPECT_EQ(space.space.parameter_names,
              (std::vector<std::string>{"between_method", "block_size_x", "tile_size", "use_method"}));
    EXPECT_EQ(space.space.parameter_values[0], (std::vector<std::int64_t>{0, 1, 2, 3}));
    EXPECT_EQ(space.space.parameter_values[1].size(), 31u);
    EXPECT_TRUE(space.space.predicted_score.empty());
    std::size_t failed = 0;
    for (const auto& m : space.medians)
        failed += m ? 0 : 1;
    EXPECT_EQ(failed, 318u);
    // Kernel Tuner's fastest mean is 8.71 ms; the optimum is a median, near it.
    EXPECT_GT(space.optimum, 0.008);
    EXPECT_LT(space.optimum, 0.0095);

    const std::size_t budget = replay_budget("2%", space.space.points.size());
    EXPECT_EQ(budget, 82u);
    for (const std::string& name : strategy_names()) {
        const ReplayOutcome a = replay(space, name, evaluations(budget), 3);
        EXPECT_EQ(a.evaluations, budget) << name;
        EXPECT_GT(a.fraction_of_optimum, 0.0) << name;
        EXPECT_LE(a.fraction_of_optimum, 1.0) << name;
        const ReplayOutcome b = replay(space, name, evaluations(budget), 3);
        EXPECT_EQ(a.trace.evaluated, b.trace.evaluated) << name;
    }
    const ReplayOutcome all = replay(space, "exhaustive", evaluations(space.space.points.size()), 1);
    EXPECT_EQ(all.failed, 318u);
    EXPECT_DOUBLE_EQ(all.fraction_of_optimum, 1.0);
}

} // namespace
