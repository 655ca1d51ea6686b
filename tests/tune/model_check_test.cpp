// The model check's scores on hand-made sets with answers worked out by hand, the exact
// expectation over tie groups against a brute-force enumeration, the seeded sample, and
// the join of a measured file to a spec.
#include "spec/load_spec.hpp"
#include "spec/problem.hpp"
#include "support/test_support.hpp"
#include "tune/model_check.hpp"

#include <algorithm>
#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <numeric>

using namespace autotune;
using ::testing::HasSubstr;
using ::testing::ElementsAre;
using json = nlohmann::ordered_json;

namespace {

CheckedPoint ran(double seconds, std::size_t rank, double occupancy)
{
    CheckedPoint p;
    p.measured = seconds;
    p.predicted_rank = rank;
    p.occupancy = occupancy;
    p.registers = 32;
    return p;
}

CheckedPoint failed(std::string predicted_failure)
{
    CheckedPoint p;
    p.predicted_failure = std::move(predicted_failure);
    return p;
}

// Every subset of `k` of the times: the mean of optimum / the subset's best.
double brute_force_best(const std::vector<double>& times, std::size_t k)
{
    const double optimum = *std::min_element(times.begin(), times.end());
    std::vector<bool> chosen(times.size(), false);
    std::fill(chosen.end() - static_cast<std::ptrdiff_t>(k), chosen.end(), true);
    double sum = 0;
    std::size_t subsets = 0;
    do {
        double best = INFINITY;
        for (std::size_t i = 0; i < times.size(); ++i)
            if (chosen[i])
                best = std::min(best, times[i]);
        sum += optimum / best;
        ++subsets;
    } while (std::next_permutation(chosen.begin(), chosen.end()));
    return sum / static_cast<double>(subsets);
}

} // namespace

TEST(ExpectedBestFraction, RandomPicksMatchEveryPossibleSubset)
{
    // Ties among the times too: the best of a pick is a value, not a position.
    const std::vector<double> times{4.0, 1.5, 9.0, 2.0, 1.5, 7.0, 3.0, 11.0, 5.0};
    const double optimum = 1.5;
    for (std::size_t k = 1; k <= times.size(); ++k)
        EXPECT_NEAR(expected_best_fraction({times}, k, optimum), brute_force_best(times, k), 1e-12) << k << " picks";
}

TEST(ExpectedBestFraction, AnOrderOfTieGroupsTakesWholeGroupsThenAPartOfTheNext)
{
    // First group {4}, then {2, 8, 1, 16}: 3 picks are 4 and 2 of the second group.
    const std::vector<std::vector<double>> groups{{4.0}, {2.0, 8.0, 1.0, 16.0}, {0.5}};
    const double optimum = 0.5;
    // By hand: pairs of {2,8,1,16}, each with 4 already picked: best of {4, pair}:
    // {2,8}:2 {2,1}:1 {2,16}:2 {8,1}:1 {8,16}:4 {1,16}:1 → mean of 0.5/best.
    const double expected = (0.25 + 0.5 + 0.25 + 0.5 + 0.125 + 0.5) / 6;
    EXPECT_NEAR(expected_best_fraction(groups, 3, optimum), expected, 1e-12);
    EXPECT_NEAR(expected_best_fraction(groups, 1, optimum), 0.5 / 4.0, 1e-12);
    EXPECT_NEAR(expected_best_fraction(groups, 5, optimum), 0.5 / 1.0, 1e-12);
    EXPECT_NEAR(expected_best_fraction(groups, 6, optimum), 1.0, 1e-12);
    EXPECT_NEAR(expected_best_fraction(groups, 60, optimum), 1.0, 1e-12);
}

TEST(ExpectedBestFraction, LargeGroupsNeitherOverflowNorLoseTheSum)
{
    // 2000 times 1..2000 s, 100 random picks: C(2000, 100) overflows any float; the
    // probabilities of the best of the picks must still sum to 1 (checked with equal times).
    std::vector<double> equal(2000, 3.0), ascending(2000);
    std::iota(ascending.begin(), ascending.end(), 1.0);
    EXPECT_NEAR(expected_best_fraction({equal}, 100, 3.0), 1.0, 1e-9);
    const double e = expected_best_fraction({ascending}, 100, 1.0);
    EXPECT_GT(e, 0.0);
    EXPECT_LT(e, 1.0);
}

TEST(ScoreModel, HandMadeSetWithKnownAnswers)
{
    // 40 points ran. The model ranks them 1..40; the measured times are 10+rank seconds,
    // except that ranks 1 and 2 measured 3 s and 1 s (the optimum). All predicted at
    // occupancy 0.5 except rank 40 at 1.0 (so occupancy-first tries the slowest first).
    std::vector<CheckedPoint> points;
    for (std::size_t rank = 1; rank <= 40; ++rank)
        points.push_back(ran(rank == 1 ? 3.0 : rank == 2 ? 1.0 : 10.0 + static_cast<double>(rank), rank,
                             rank == 40 ? 1.0 : 0.5));
    // And the failures: one agreed, one only measured, one only predicted (it ran in 2 s).
    points.push_back(failed("cannot launch"));
    CheckedPoint only_measured = ran(0, 41, 0.5);
    only_measured.measured.reset();
    points.push_back(only_measured);
    CheckedPoint miss = ran(2.0, 0, 0);
    miss.occupancy.reset();
    miss.predicted_failure = "no block fits";
    points.push_back(miss);

    const ModelCheck m = score_model(points);
    EXPECT_EQ(m.points, 43u);
    EXPECT_EQ(m.ran, 41u);
    EXPECT_EQ(m.measured_failures, 2u);
    EXPECT_EQ(m.predicted_failures, 2u);
    EXPECT_EQ(m.failures_agree, 1u);
    EXPECT_EQ(m.failures_only_measured, 1u);
    EXPECT_EQ(m.failures_only_predicted, 1u);
    EXPECT_EQ(m.misses, std::vector<std::size_t>{42});

    // The model: 41 ran, top 1% = 1 pick, top 5% = ceil(2.05) = 3 picks (the miss is last).
    ASSERT_TRUE(m.model.top1_fraction && m.model.best_in_top_1pct && m.model.best_in_top_5pct && m.model.spearman);
    EXPECT_DOUBLE_EQ(*m.model.top1_fraction, 1.0 / 3.0);
    EXPECT_DOUBLE_EQ(*m.model.best_in_top_1pct, 1.0 / 3.0);
    EXPECT_DOUBLE_EQ(*m.model.best_in_top_5pct, 1.0);
    // Spearman over the 40 predicted: ranks 1 and 2 swapped, d² = 1 + 1.
    EXPECT_NEAR(*m.model.spearman, 1.0 - 6.0 * 2 / (40.0 * (40 * 40 - 1)), 1e-12);

    // Random: the mean of 1/t over the 41 that ran; spearman 0 by definition.
    double mean = 1.0 / 3.0 + 1.0 / 1.0 + 1.0 / 2.0;
    for (int rank = 3; rank <= 40; ++rank)
        mean += 1.0 / (10.0 + rank);
    EXPECT_NEAR(*m.random.top1_fraction, mean / 41, 1e-12);
    EXPECT_EQ(m.random.spearman, 0.0);

    // Occupancy first: rank 40 (50 s) alone first; then the other 39 as one group.
    EXPECT_DOUBLE_EQ(*m.occupancy_first.top1_fraction, 1.0 / 50.0);
    // 3 picks: 50 s and 2 of the 39 (the optimum, 1 s, among them): 1 - P(1 s not picked)
    // × ... computed by the brute force over the group, with 50 s already in hand.
    std::vector<double> group;
    for (std::size_t rank = 1; rank < 40; ++rank)
        group.push_back(*points[rank - 1].measured);
    EXPECT_NEAR(*m.occupancy_first.best_in_top_5pct, brute_force_best(group, 2), 1e-12);
}

TEST(ScoreModel, NothingRanNoScores)
{
    const ModelCheck m = score_model({failed("x"), failed("y")});
    EXPECT_EQ(m.ran, 0u);
    EXPECT_EQ(m.failures_agree, 2u);
    EXPECT_FALSE(m.model.top1_fraction);
    EXPECT_FALSE(m.random.top1_fraction);
    EXPECT_FALSE(m.measured_over_predicted);
}

// A scale's points, median and quartiles.
void expect_scale(const std::optional<TimeScale>& scale, std::size_t points, double median, double lower, double upper)
{
    ASSERT_TRUE(scale);
    EXPECT_EQ(scale->points, points);
    EXPECT_DOUBLE_EQ(scale->median, median);
    EXPECT_DOUBLE_EQ(scale->lower_quartile, lower);
    EXPECT_DOUBLE_EQ(scale->upper_quartile, upper);
}

TEST(ScoreModel, CountedInstructionsOverPredictedAreScoredWhereTheFileCountedThem)
{
    // Counted / predicted 1.5, 0.5, 1.0 where both are known: median 1.0, quartiles 0.75 and
    // 1.25. A point without a count, one without a prediction, and one predicted to fail (its
    // count is of code the model does not rank) take no part; the time scale is its own.
    std::vector<CheckedPoint> points;
    const double ratios[] = {1.5, 0.5, 1.0};
    for (std::size_t k = 0; k < 3; ++k) {
        points.push_back(ran(1e-3, k + 1, 0.5));
        points.back().predicted_seconds = 1e-3;
        points.back().predicted_instructions = 1e6;
        points.back().counted_instructions = 1e6 * ratios[k];
    }
    points.push_back(ran(1e-3, 4, 0.5)); // not counted
    points.back().predicted_instructions = 1e6;
    points.push_back(ran(1e-3, 5, 0.5)); // counted, not predicted
    points.back().counted_instructions = 5e6;
    CheckedPoint pruned = ran(1.0, 0, 0.5);
    pruned.predicted_failure = "can never be resident";
    pruned.predicted_instructions = 1.0;
    pruned.counted_instructions = 1e9;
    points.push_back(pruned);
    const ModelCheck m = score_model(points);
    expect_scale(m.instructions_counted_over_predicted, 3, 1.0, 0.75, 1.25);
    ASSERT_TRUE(m.measured_over_predicted);
    EXPECT_EQ(m.measured_over_predicted->points, 3u);
    // Without any count there is no scale, and nothing says 0 or 1.
    for (CheckedPoint& c : points)
        c.counted_instructions.reset();
    EXPECT_FALSE(score_model(points).instructions_counted_over_predicted);
    EXPECT_FALSE(m.dram_bytes_counted_over_predicted) << "no DRAM count in these points";

    // DRAM bytes the same way, apart from the instructions: counted / predicted 2, 4, 3.
    const double dram_ratios[] = {2.0, 4.0, 3.0};
    for (std::size_t k = 0; k < 3; ++k) {
        points[k].predicted_dram_bytes = 1e5;
        points[k].counted_dram_bytes = 1e5 * dram_ratios[k];
    }
    points[3].counted_dram_bytes = 7e5; // counted, its prediction has no bytes
    const ModelCheck with_dram = score_model(points);
    expect_scale(with_dram.dram_bytes_counted_over_predicted, 3, 3.0, 2.5, 3.5);
    EXPECT_FALSE(with_dram.instructions_counted_over_predicted);
}

TEST(ScoreModel, MeasuredOverPredictedIsTheMedianAndQuartilesOfThePointsThatRanWithATime)
{
    // measured / predicted 4, 1, 3, 5, 2 (1..5 sorted): median 3, quartiles 2 and 4. A
    // measured failure, a point without a predicted time and one predicted to fail take no part.
    std::vector<CheckedPoint> points;
    const double ratios[] = {4, 1, 3, 5, 2};
    for (std::size_t k = 0; k < 5; ++k) {
        points.push_back(ran(1e-3 * static_cast<double>(k + 1), k + 1, 0.5));
        points.back().predicted_seconds = *points.back().measured / ratios[k];
    }
    points.push_back(ran(9.0, 6, 0.5)); // ran, no predicted time
    CheckedPoint failure = failed("");
    failure.predicted_seconds = 1.0;
    points.push_back(failure);
    CheckedPoint pruned = ran(1.0, 0, 0.5);
    pruned.predicted_failure = "can never be resident";
    pruned.predicted_seconds = 1e-6;
    points.push_back(pruned);
    const ModelCheck m = score_model(points);
    expect_scale(m.measured_over_predicted, 5, 3.0, 2.0, 4.0);

    // Between ranks, interpolated: 1, 2, 3, 4 give a median of 2.5 and quartiles 1.75, 3.25.
    points.erase(points.begin() + 3);
    const ModelCheck four = score_model(points);
    EXPECT_DOUBLE_EQ(four.measured_over_predicted->median, 2.5);
    EXPECT_DOUBLE_EQ(four.measured_over_predicted->lower_quartile, 1.75);
    EXPECT_DOUBLE_EQ(four.measured_over_predicted->upper_quartile, 3.25);
}

TEST(ScoreModel, MeasuredOverPredictedIsAlsoGroupedByTheTermThatBoundsEachPoint)
{
    // issue-bound points at 1, 2, 3; dram-bound at 4 and 6; one without a named bound (it takes
    // part in the whole, in no group); a predicted failure in none.
    std::vector<CheckedPoint> points;
    const std::pair<double, const char*> ratios[] = {{1, "issue"}, {2, "issue"}, {3, "issue"}, {4, "dram"}, {6, "dram"}, {5, ""}};
    std::size_t rank = 0;
    for (const auto& [ratio, bound] : ratios) {
        points.push_back(ran(1e-3 * static_cast<double>(rank + 1), rank + 1, 0.5));
        ++rank;
        points.back().predicted_seconds = *points.back().measured / ratio;
        points.back().predicted_bound = bound;
    }
    CheckedPoint pruned = ran(1.0, 0, 0.5);
    pruned.predicted_failure = "can never be resident";
    pruned.predicted_seconds = 1e-6;
    pruned.predicted_bound = "shared";
    points.push_back(pruned);
    const ModelCheck m = score_model(points);
    ASSERT_EQ(m.measured_over_predicted_by_bound.size(), 2u);
    expect_scale(m.measured_over_predicted_by_bound.at("issue"), 3, 2.0, 1.5, 2.5);
    expect_scale(m.measured_over_predicted_by_bound.at("dram"), 2, 5.0, 4.5, 5.5);
    expect_scale(m.measured_over_predicted, 6, 3.5, 2.25, 4.75);
}

TEST(ScoreModel, MeasuredOverPredictedIsAlsoGroupedByResidentWarpsPerScheduler)
{
    // 4 schedulers an SM: 6 resident warps are 2 a scheduler, 7 and 16 are 2 and 4
    // rounded up, 17 is 5, 64 is 16; one without an occupancy is in no group.
    std::vector<CheckedPoint> points;
    const std::pair<double, int> ratios[] = {{2, 6}, {4, 7}, {1.5, 16}, {1.2, 17}, {1.0, 64}, {9, 0}};
    std::size_t rank = 0;
    for (const auto& [ratio, warps] : ratios) {
        points.push_back(ran(1e-3 * static_cast<double>(rank + 1), rank + 1, 0.5));
        ++rank;
        points.back().predicted_seconds = *points.back().measured / ratio;
        if (warps > 0)
            points.back().resident_warps = warps;
    }
    const ModelCheck m = score_model(points);
    const auto& by = m.measured_over_predicted_by_warps_per_scheduler;
    ASSERT_EQ(by.size(), 4u);
    expect_scale(by.at("1-2"), 2, 3.0, 2.5, 3.5);
    expect_scale(by.at("3-4"), 1, 1.5, 1.5, 1.5);
    expect_scale(by.at("5-8"), 1, 1.2, 1.2, 1.2);
    expect_scale(by.at("9+"), 1, 1.0, 1.0, 1.0);
    EXPECT_EQ(m.measured_over_predicted->points, 6u);
}

TEST(ScoreModel, MeasuredOverPredictedIsAlsoGroupedByEachParametersValue)
{
    // tile: 1 runs at 2-4x its prediction, 2 at 1.5x, 4 at 1x; block sorts it less (its
    // values mix the tiles); fixed holds one value and is left out.
    struct Row {
        const char* tile;
        const char* block;
        double ratio;
    };
    const Row rows[] = {{"1", "64", 2.0}, {"1", "128", 4.0}, {"1", "64", 3.0}, {"2", "128", 1.5},
                        {"2", "64", 1.5}, {"4", "128", 1.0}, {"4", "64", 1.0}, {"4", "128", 1.0}};
    std::vector<CheckedPoint> points;
    std::size_t rank = 0;
    for (const Row& row : rows) {
        points.push_back(ran(1e-3 * static_cast<double>(rank + 1), rank + 1, 0.5));
        ++rank;
        points.back().predicted_seconds = *points.back().measured / row.ratio;
        points.back().parameters = {{"tile", row.tile}, {"block", row.block}, {"fixed", "7"}};
    }
    points.push_back(failed("too many registers")); // no time: in no group
    points.back().parameters = {{"tile", "8"}, {"block", "64"}, {"fixed", "7"}};
    const ModelCheck m = score_model(points);
    const auto& by = m.measured_over_predicted_by_parameter;
    ASSERT_EQ(by.size(), 2u);
    EXPECT_FALSE(by.contains("fixed"));
    ASSERT_EQ(by.at("tile").size(), 3u);
    expect_scale(by.at("tile").at("1"), 3, 3.0, 2.5, 3.5);
    expect_scale(by.at("tile").at("2"), 2, 1.5, 1.5, 1.5);
    expect_scale(by.at("tile").at("4"), 3, 1.0, 1.0, 1.0);
    EXPECT_EQ(by.at("block").at("64").points, 4u);
    EXPECT_EQ(by.at("block").at("128").points, 4u);

    const auto widest = widest_parameter_spread(m, 2);
    ASSERT_TRUE(widest);
    EXPECT_EQ(widest->parameter, "tile");
    EXPECT_DOUBLE_EQ(widest->spread, 3.0);
    // Values of fewer points than asked do not count: at 3, tile has two values left (3.0x).
    EXPECT_DOUBLE_EQ(widest_parameter_spread(m, 3)->spread, 3.0);
    EXPECT_FALSE(widest_parameter_spread(m, 5)); // no parameter has two values of 5 points
}

TEST(ScoreModel, AnEvenFactorBetweenMeasuredAndPredictedMovesNoRankingScore)
{
    std::vector<CheckedPoint> points;
    for (std::size_t k = 1; k <= 6; ++k) {
        points.push_back(ran(1e-3 * static_cast<double>(k), k, 0.5));
        points.back().predicted_seconds = *points.back().measured;
    }
    const ModelCheck exact = score_model(points);
    for (auto& p : points)
        *p.predicted_seconds /= 2; // a GPU clocked at half the table's: every time twice the prediction
    const ModelCheck halved = score_model(points);
    EXPECT_DOUBLE_EQ(exact.measured_over_predicted->median, 1.0);
    EXPECT_DOUBLE_EQ(halved.measured_over_predicted->median, 2.0);
    EXPECT_DOUBLE_EQ(halved.measured_over_predicted->lower_quartile, 2.0);
    EXPECT_DOUBLE_EQ(*halved.model.spearman, *exact.model.spearman);
    EXPECT_DOUBLE_EQ(*halved.model.top1_fraction, *exact.model.top1_fraction);
}

TEST(SamplePositions, SeededSortedAndTheSameEveryTime)
{
    const auto a = sample_positions(1000, 10, 7);
    EXPECT_EQ(a.size(), 10u);
    EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
    EXPECT_EQ(std::adjacent_find(a.begin(), a.end()), a.end());
    EXPECT_EQ(a, sample_positions(1000, 10, 7));
    EXPECT_NE(a, sample_positions(1000, 10, 8));
    EXPECT_EQ(sample_positions(5, 10, 1), (std::vector<std::size_t>{0, 1, 2, 3, 4}));
}

class JoinMeasured : public ::testing::Test {
protected:
    KernelSpec spec = load_spec(test::source_dir() / "kernels" / "copy.toml");
    Problem problem = resolve_problem(spec, {});

    static MeasuredConfiguration configuration(int block, int max_threads, std::optional<double> seconds)
    {
        return {json{{"BLOCK", block}, {"VEC", 1}, {"ITEMS", 1}, {"MAX_THREADS", max_threads}, {"MIN_BLOCKS", 0},
                     {"MAXRREGCOUNT", 0}},
                seconds, seconds ? "" : "RuntimeFailedConfig"};
    }
    MeasuredFile file(std::vector<MeasuredConfiguration> configurations)
    {
        MeasuredFile f;
        f.parameters = {"BLOCK", "VEC", "ITEMS", "MAX_THREADS", "MIN_BLOCKS", "MAXRREGCOUNT"};
        f.configurations = std::move(configurations);
        return f;
    }
};

TEST_F(JoinMeasured, ValuesOutsideTheSpecAreLeftOutRejectedCombinationsArePredictedToFail)
{
    const MeasuredJoin join = join_measured(
        spec, problem,
        file({configuration(128, 0, 1e-3), configuration(96, 0, 2e-3), configuration(1024, 64, std::nullopt)}),
        "m.json");
    EXPECT_EQ(join.outside_space, 1u); // BLOCK=96 is not among the spec's values
    ASSERT_EQ(join.points.size(), 2u);
    ASSERT_EQ(join.variants.size(), 1u);
    EXPECT_EQ(join.variants[0].value("BLOCK"), 128);
    EXPECT_EQ(join.point_variant[0], 0u);
    EXPECT_THAT(join.point_rejection[1], HasSubstr("__launch_bounds__ max threads below the block size"));
}

// A parameter only one side has joins where it cannot change the configuration: a setting
// the file recorded at one value (Kernel Tuner caches keep such keys), a limit the spec
// writes as a one-value parameter (BAT's MAX_THREADS = [1024]). Each is noted.
TEST_F(JoinMeasured, AParameterOneSideHoldsAtOneValueJoinsAndIsNoted)
{
    MeasuredFile extra = file({configuration(128, 0, 1e-3), configuration(256, 0, 2e-3)});
    extra.parameters.push_back("PRECISION");
    for (auto& c : extra.configurations)
        c.params["PRECISION"] = 32;
    MeasuredJoin join = join_measured(spec, problem, extra, "m.json");
    EXPECT_EQ(join.variants.size(), 2u);
    EXPECT_THAT(join.notes, ElementsAre("'m.json' holds PRECISION = 32 in every configuration, and the spec of copy has "
                                        "no such parameter: joined without it"));
    // Two values of it are two configurations the spec cannot tell apart: refused.
    extra.configurations[1].params["PRECISION"] = 64;
    EXPECT_THROW((void)join_measured(spec, problem, extra, "m.json"), ModelCheckError);

    KernelSpec fixed = spec;
    for (auto& p : fixed.parameters)
        if (p.name == "MAXRREGCOUNT")
            p.values = p.default_values = {0};
    MeasuredFile fewer = file({configuration(128, 0, 1e-3)});
    fewer.parameters.pop_back();
    fewer.configurations[0].params.erase("MAXRREGCOUNT");
    join = join_measured(fixed, problem, fewer, "m.json");
    ASSERT_EQ(join.variants.size(), 1u);
    EXPECT_EQ(join.variants[0].value("MAXRREGCOUNT"), 0);
    EXPECT_THAT(join.notes, ElementsAre("'m.json' has no parameter MAXRREGCOUNT: every configuration is joined at the "
                                        "spec's one value, 0"));
}

TEST_F(JoinMeasured, AParameterMissingOnEitherSideIsNamed)
{
    MeasuredFile other = file({});
    other.parameters = {"BLOCK", "VEC", "ITEMS", "MAX_THREADS", "MIN_BLOCKS", "block_size_x"};
    try {
        (void)join_measured(spec, problem, other, "m.json");
        ADD_FAILURE() << "no error";
    } catch (const ModelCheckError& e) {
        EXPECT_THAT(e.what(), HasSubstr("'m.json' has a parameter block_size_x"));
    }
    other.parameters.pop_back();
    try {
        (void)join_measured(spec, problem, other, "m.json");
        ADD_FAILURE() << "no error";
    } catch (const ModelCheckError& e) {
        EXPECT_THAT(e.what(), HasSubstr("has a parameter MAXRREGCOUNT that 'm.json' does not"));
    }
}
