// autotune compare's logic: the classification against the recorded noise, and the
// matching of two sets of results documents by (kernel, arch, problem).
#include "rank/compare_results.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;
using json = nlohmann::ordered_json;

namespace {

// One problem's winner, as a results document records it.
struct Winner {
    int index = 7;
    int block = 128;                    // the winner's one parameter
    std::optional<double> seconds;      // measured median; nullopt: predicted only
    std::optional<double> noise = 0.01; // median_noise; nullopt: not recorded
    double spread = 0.02;               // relative_spread
};

json problem(const json& variables, const Winner& w)
{
    return {{"variables", variables},
            {"measured", w.seconds.has_value()},
            {"winner",
             {{"index", w.index},
              {"params", {{"BLOCK", w.block}}},
              {"basis", w.seconds ? "measured" : "predicted"},
              {"roofline_fraction", nullptr},
              {"predicted_fraction", 0.5}}}};
}

json variant(const Winner& w)
{
    json time = {{"count", 50}, {"median", w.seconds.value_or(0)}, {"min", 0}, {"max", 0}, {"mean", 0},
                 {"relative_spread", w.spread}};
    if (w.noise)
        time["median_noise"] = *w.noise;
    return {{"index", w.index},
            {"params", {{"BLOCK", w.block}}},
            {"status", "ok"},
            {"measurement", w.seconds ? json{{"time_seconds", time}, {"sm_clock_mhz", 1980}} : json(nullptr)}};
}

// A results document with one problem per (variables, winner) pair.
json document(const std::string& kernel, const std::vector<std::pair<json, Winner>>& problems,
              const std::string& arch = "sm_90")
{
    json d{{"kernel", kernel}, {"arch", arch}, {"device", nullptr}, {"measured", false},
           {"problems", json::array()}, {"variants", json::array()}};
    for (const auto& [variables, w] : problems) {
        d["problems"].push_back(problem(variables, w));
        d["variants"].push_back(variant(w));
        if (w.seconds) {
            d["measured"] = true;
            d["device"] = {{"name", "NVIDIA H100 80GB HBM3"}};
        }
    }
    return d;
}

json gemm_4096() { return {{"M", 4096}, {"N", 4096}, {"K", 4096}}; }

Winner measured(double seconds, double noise, int index = 7, int block = 128)
{
    return Winner{index, block, seconds, noise, 2 * noise};
}

// Compares one measured gemm problem on each side.
Comparison compare_one(const Winner& base, const Winner& next, double threshold = 0.05)
{
    return compare_results({{"base.json", document("gemm", {{gemm_4096(), base}})}},
                           {{"new.json", document("gemm", {{gemm_4096(), next}})}}, threshold);
}

// The classification itself.

TEST(CompareTimes, AClearTwentyPercentSlowdownWithOnePercentNoiseIsSlower)
{
    const auto c = classify_times(1.0e-3, 0.01, 1.2e-3, 0.01, 0.05);
    EXPECT_EQ(c.verdict, CompareVerdict::slower);
    EXPECT_NEAR(c.change, 0.2, 1e-12);
    EXPECT_NEAR(c.sigma, std::sqrt(2) * 0.01, 1e-12);
}

TEST(CompareTimes, AClearSpeedupIsFaster)
{
    EXPECT_EQ(classify_times(1.0e-3, 0.01, 0.8e-3, 0.01, 0.05).verdict, CompareVerdict::faster);
}

TEST(CompareTimes, AThreePercentChangeInsideFivePercentNoiseIsSame)
{
    EXPECT_EQ(classify_times(1.0e-3, 0.05, 1.03e-3, 0.05, 0.05).verdict, CompareVerdict::same);
    EXPECT_EQ(classify_times(1.0e-3, 0.05, 0.97e-3, 0.05, 0.05).verdict, CompareVerdict::same);
}

TEST(CompareTimes, ATenPercentChangeInsideEightPercentNoiseIsAmbiguous)
{
    // Beyond the threshold, but 3σ = 3·√2·8% ≈ 34%: the measurements cannot tell.
    EXPECT_EQ(classify_times(1.0e-3, 0.08, 1.1e-3, 0.08, 0.05).verdict, CompareVerdict::ambiguous);
    EXPECT_EQ(classify_times(1.0e-3, 0.08, 0.9e-3, 0.08, 0.05).verdict, CompareVerdict::ambiguous);
}

TEST(CompareTimes, AChangeInsideTheNoiseIsNeverSlowerHoweverLarge)
{
    // +40% with 20% noise on each side: 3σ ≈ 85%.
    EXPECT_EQ(classify_times(1.0e-3, 0.2, 1.4e-3, 0.2, 0.05).verdict, CompareVerdict::ambiguous);
    // The same change measured precisely is a regression.
    EXPECT_EQ(classify_times(1.0e-3, 0.002, 1.4e-3, 0.002, 0.05).verdict, CompareVerdict::slower);
}

TEST(CompareTimes, NoiseOnEitherSideCountsAndTheyCombineInQuadrature)
{
    // 3% and 4% make σ = 5%; a 12% change is inside 3σ = 15%, a 16% change beyond it.
    const auto c = classify_times(1.0e-3, 0.03, 1.12e-3, 0.04, 0.05);
    EXPECT_NEAR(c.sigma, 0.05, 1e-12);
    EXPECT_EQ(c.verdict, CompareVerdict::ambiguous);
    EXPECT_EQ(classify_times(1.0e-3, 0.03, 1.16e-3, 0.04, 0.05).verdict, CompareVerdict::slower);
    // One side's noise alone is enough to keep a change inside it.
    EXPECT_EQ(classify_times(1.0e-3, 0.0, 1.12e-3, 0.05, 0.05).verdict, CompareVerdict::ambiguous);
    EXPECT_EQ(classify_times(1.0e-3, 0.05, 1.12e-3, 0.0, 0.05).verdict, CompareVerdict::ambiguous);
}

TEST(CompareTimes, AChangeWithinTheThresholdIsSameEvenWhenMeasuredPrecisely)
{
    // A 4% change with 0.1% noise is real, but below the threshold: not reported as a change.
    EXPECT_EQ(classify_times(1.0e-3, 0.001, 1.04e-3, 0.001, 0.05).verdict, CompareVerdict::same);
    // At the threshold itself, too; just beyond it, slower.
    EXPECT_EQ(classify_times(1.0e-3, 0.001, 1.05e-3, 0.001, 0.05).verdict, CompareVerdict::same);
    EXPECT_EQ(classify_times(1.0e-3, 0.001, 1.051e-3, 0.001, 0.05).verdict, CompareVerdict::slower);
    // A tighter threshold makes the 4% change a regression.
    EXPECT_EQ(classify_times(1.0e-3, 0.001, 1.04e-3, 0.001, 0.02).verdict, CompareVerdict::slower);
}

TEST(CompareTimes, MissingNoiseCountsAsNone)
{
    EXPECT_EQ(classify_times(1.0e-3, std::nullopt, 1.1e-3, std::nullopt, 0.05).verdict, CompareVerdict::slower);
}

// Matching documents.

TEST(CompareResults, IdenticalDocumentsAreAllSame)
{
    const json d = document("gemm", {{gemm_4096(), measured(1e-3, 0.01)},
                                     {{{"M", 1024}, {"N", 1024}, {"K", 1024}}, measured(2e-5, 0.03, 9, 64)}});
    const auto c = compare_results({{"a.json", d}}, {{"b.json", d}}, 0.05);
    ASSERT_EQ(c.entries.size(), 2u);
    for (const auto& e : c.entries) {
        EXPECT_EQ(e.verdict, CompareVerdict::same);
        EXPECT_FALSE(e.winner_changed);
        ASSERT_TRUE(e.change.has_value());
        EXPECT_DOUBLE_EQ(*e.change, 0);
    }
    EXPECT_EQ(c.regressions(), 0u);
    EXPECT_EQ(c.count(CompareVerdict::same), 2u);
}

TEST(CompareResults, AClearSlowdownIsARegression)
{
    const auto c = compare_one(measured(1e-3, 0.01), measured(1.2e-3, 0.01));
    ASSERT_EQ(c.entries.size(), 1u);
    EXPECT_EQ(c.entries[0].verdict, CompareVerdict::slower);
    EXPECT_EQ(c.regressions(), 1u);
    EXPECT_NEAR(*c.entries[0].change, 0.2, 1e-12);
}

TEST(CompareResults, WhereARunRebuiltItsWinnersWithNvccTheShippedWinnerIsCompared)
{
    // NVRTC's winners are the same on both sides; the winner as nvcc builds it is 20 % slower.
    json base = document("gemm", {{gemm_4096(), measured(1e-3, 0.01)}});
    json next = document("gemm", {{gemm_4096(), measured(1e-3, 0.01)}});
    base["problems"][0]["winner_as_built_by_nvcc"] = {{"index", 9}, {"params", {{"BLOCK", 256}}},
                                                      {"median_seconds", 1.1e-3}, {"median_noise", 0.01}};
    next["problems"][0]["winner_as_built_by_nvcc"] = {{"index", 9}, {"params", {{"BLOCK", 256}}},
                                                      {"median_seconds", 1.32e-3}, {"median_noise", 0.01}};
    const auto c = compare_results({{"base.json", base}}, {{"new.json", next}}, 0.05);
    ASSERT_EQ(c.entries.size(), 1u);
    EXPECT_EQ(c.entries[0].verdict, CompareVerdict::slower);
    EXPECT_NEAR(*c.entries[0].change, 0.2, 1e-12);
    EXPECT_EQ(c.entries[0].base->winner.at("index"), 9);

    // Without the nvcc winner on either side, NVRTC's winners are compared: the same.
    base["problems"][0]["winner_as_built_by_nvcc"] = nullptr;
    next["problems"][0]["winner_as_built_by_nvcc"] = nullptr;
    EXPECT_EQ(compare_results({{"base.json", base}}, {{"new.json", next}}, 0.05).entries[0].verdict, CompareVerdict::same);
}

TEST(CompareResults, TheThresholdIsTheCallersAndMustBePositive)
{
    // 8% slower with 1% noise: a regression at 5%, the same at 10%.
    EXPECT_EQ(compare_one(measured(1e-3, 0.01), measured(1.08e-3, 0.01), 0.05).regressions(), 1u);
    EXPECT_EQ(compare_one(measured(1e-3, 0.01), measured(1.08e-3, 0.01), 0.10).regressions(), 0u);
    EXPECT_THROW((void)compare_one(measured(1e-3, 0.01), measured(1e-3, 0.01), 0), std::invalid_argument);
    EXPECT_THROW((void)compare_one(measured(1e-3, 0.01), measured(1e-3, 0.01), -0.05), std::invalid_argument);
}

TEST(CompareResults, AWinnerChangeIsReportedAndTheTwoWinnersTimesCompared)
{
    const auto c = compare_one(measured(1e-3, 0.01, 7, 128), measured(0.7e-3, 0.01, 12, 256));
    ASSERT_EQ(c.entries.size(), 1u);
    const auto& e = c.entries[0];
    EXPECT_TRUE(e.winner_changed);
    EXPECT_EQ(e.verdict, CompareVerdict::faster);
    EXPECT_NEAR(*e.change, -0.3, 1e-12);
    EXPECT_EQ(e.base->winner.at("index"), 7);
    EXPECT_EQ(e.next->winner.at("index"), 12);
    EXPECT_THAT(comparison_table(c), HasSubstr("#7 → #12"));
    const json j = comparison_json(c);
    EXPECT_EQ(j.at("entries").at(0).at("winner_changed"), true);
    EXPECT_EQ(j.at("entries").at(0).at("new_winner").at("params").at("BLOCK"), 256);
}

TEST(CompareResults, TheSameParametersUnderAnotherIndexAreTheSameWinner)
{
    // The spec's space changed and renumbered the variants; the winner did not change.
    const auto c = compare_one(measured(1e-3, 0.01, 7, 128), measured(1e-3, 0.01, 8, 128));
    EXPECT_FALSE(c.entries.at(0).winner_changed);
    const auto d = compare_one(measured(1e-3, 0.01, 7, 128), measured(1e-3, 0.01, 7, 256));
    EXPECT_TRUE(d.entries.at(0).winner_changed);
}

TEST(CompareResults, ProblemsMatchByTheirVariablesInAnyOrderAndKernelAndArchCount)
{
    json reordered = document("gemm", {{{{"K", 4096}, {"N", 4096}, {"M", 4096}}, measured(1e-3, 0.01)}});
    auto c = compare_results({{"a", document("gemm", {{gemm_4096(), measured(1e-3, 0.01)}})}}, {{"b", reordered}}, 0.05);
    ASSERT_EQ(c.entries.size(), 1u);
    EXPECT_EQ(c.entries[0].verdict, CompareVerdict::same);

    // Another arch, another kernel or another problem size is not a match.
    c = compare_results({{"a", document("gemm", {{gemm_4096(), measured(1e-3, 0.01)}})}},
                        {{"b", document("gemm", {{gemm_4096(), measured(1e-3, 0.01)}}, "sm_80")},
                         {"c", document("copy", {{gemm_4096(), measured(1e-3, 0.01)}})},
                         {"d", document("gemm", {{{{"M", 4096}, {"N", 4096}, {"K", 2048}}, measured(1e-3, 0.01)}})}},
                        0.05);
    EXPECT_EQ(c.count(CompareVerdict::removed), 1u);
    EXPECT_EQ(c.count(CompareVerdict::added), 3u);
    EXPECT_EQ(c.count(CompareVerdict::same), 0u);
}

TEST(CompareResults, AKernelNamedByItsFileIsMatchedWithTheOneProblemOfTheOtherSide)
{
    // Two T4 documents of one space, measured on two GPUs, import under their files' names
    // and without a problem size.
    json base = document("conv_3090_T4", {{gemm_4096(), measured(1e-3, 0.01)}});
    json next = document("conv_3060_T4", {{{{"problem_size", nullptr}}, measured(1.3e-3, 0.01)}});
    auto c = compare_results({{"a", base}}, {{"b", next}}, 0.05);
    EXPECT_EQ(c.compared(), 0u); // names alone: two kernels

    next["kernel_named_by_file"] = true;
    c = compare_results({{"a", base}}, {{"b", next}}, 0.05);
    ASSERT_EQ(c.entries.size(), 1u);
    EXPECT_EQ(c.entries[0].kernel, "conv_3090_T4");
    EXPECT_EQ(c.entries[0].verdict, CompareVerdict::slower);
    EXPECT_THAT(c.entries[0].notes,
                ::testing::Contains("named by its file: conv_3060_T4 (problem_size=null) compared as conv_3090_T4 (M=4096,N=4096,K=4096)"));

    // BASE's flag counts the same; another arch, or a side of two problems, matches by
    // kernel, arch and problem as before.
    next["kernel_named_by_file"] = false;
    base["kernel_named_by_file"] = true;
    EXPECT_EQ(compare_results({{"a", base}}, {{"b", next}}, 0.05).compared(), 1u);
    json elsewhere = next;
    elsewhere["arch"] = "sm_80";
    EXPECT_EQ(compare_results({{"a", base}}, {{"b", elsewhere}}, 0.05).compared(), 0u);
    EXPECT_EQ(compare_results({{"a", base}}, {{"b", next}, {"c", document("copy", {{gemm_4096(), measured(1e-3, 0.01)}})}}, 0.05)
                  .compared(),
              0u);
}

TEST(CompareResults, EntriesOnOneSideOnlyAreNewOrRemovedAndNeverRegressions)
{
    const auto c = compare_results(
        {{"base.json", document("gemm", {{gemm_4096(), measured(1e-3, 0.01)}, {{{"M", 1}, {"N", 1}, {"K", 1}}, measured(1e-6, 0.01)}})}},
        {{"new.json", document("gemm", {{gemm_4096(), measured(1e-3, 0.01)}})},
         {"copy.json", document("copy", {{{{"N", 1 << 20}}, measured(1e-5, 0.01)}})}},
        0.05);
    ASSERT_EQ(c.entries.size(), 3u);
    // Ordered by kernel, arch, problem.
    EXPECT_EQ(c.entries[0].kernel, "copy");
    EXPECT_EQ(c.entries[0].verdict, CompareVerdict::added);
    EXPECT_FALSE(c.entries[0].base.has_value());
    EXPECT_EQ(c.entries[1].problem.at("M"), 1);
    EXPECT_EQ(c.entries[1].verdict, CompareVerdict::removed);
    EXPECT_FALSE(c.entries[1].next.has_value());
    EXPECT_EQ(c.entries[2].verdict, CompareVerdict::same);
    EXPECT_EQ(c.regressions(), 0u);
    const json j = comparison_json(c);
    EXPECT_EQ(j.at("entries").at(0).at("verdict"), "new");
    EXPECT_TRUE(j.at("entries").at(0).at("base_seconds").is_null());
    EXPECT_EQ(j.at("entries").at(1).at("verdict"), "removed");
    EXPECT_TRUE(j.at("entries").at(1).at("new_winner").is_null());
}

TEST(CompareResults, APredictedOnlySideIsNotMeasuredAndOnlyTheChoiceIsCompared)
{
    Winner predicted;
    predicted.index = 12;
    predicted.block = 256;
    auto c = compare_one(measured(1e-3, 0.01), predicted);
    ASSERT_EQ(c.entries.size(), 1u);
    EXPECT_EQ(c.entries[0].verdict, CompareVerdict::not_measured);
    EXPECT_FALSE(c.entries[0].change.has_value());
    EXPECT_TRUE(c.entries[0].winner_changed);
    EXPECT_THAT(c.entries[0].notes, ::testing::Contains(HasSubstr("new: winner predicted")));
    EXPECT_EQ(c.regressions(), 0u);

    c = compare_one(Winner{}, Winner{});
    EXPECT_EQ(c.entries.at(0).verdict, CompareVerdict::not_measured);
    EXPECT_FALSE(c.entries.at(0).winner_changed);
    EXPECT_THAT(comparison_table(c), HasSubstr("predicted"));
    EXPECT_TRUE(comparison_json(c).at("entries").at(0).at("new_seconds").is_null());
}

TEST(CompareResults, AWinnerChosenByPredictionIsNotMeasuredEvenWithATime)
{
    // The ranking did not use the measurements (basis "predicted"): its pick is not a
    // measured winner, so no time is compared although the variant carries one.
    json predicted = document("gemm", {{gemm_4096(), measured(1.5e-3, 0.01)}});
    predicted["problems"][0]["winner"]["basis"] = "predicted";
    const auto c = compare_results({{"a", document("gemm", {{gemm_4096(), measured(1e-3, 0.01)}})}}, {{"b", predicted}}, 0.05);
    EXPECT_EQ(c.entries.at(0).verdict, CompareVerdict::not_measured);
    EXPECT_EQ(c.regressions(), 0u);
}

TEST(CompareResults, AProblemWithoutAWinnerIsNotMeasured)
{
    json none = document("gemm", {{gemm_4096(), measured(1e-3, 0.01)}});
    none["problems"][0]["winner"] = nullptr;
    const auto c = compare_results({{"a", document("gemm", {{gemm_4096(), measured(1e-3, 0.01)}})}}, {{"b", none}}, 0.05);
    EXPECT_EQ(c.entries.at(0).verdict, CompareVerdict::not_measured);
    EXPECT_THAT(c.entries.at(0).notes, ::testing::Contains("new: no winner"));
}

TEST(CompareResults, WithoutMedianNoiseHalfTheSpreadIsTheNoise)
{
    // +10%: with no median_noise and a 20% spread the noise is 10% a side: ambiguous.
    Winner base = measured(1e-3, 0.01), next = measured(1.1e-3, 0.01);
    base.noise = next.noise = std::nullopt;
    base.spread = next.spread = 0.2;
    auto c = compare_one(base, next);
    EXPECT_EQ(c.entries.at(0).verdict, CompareVerdict::ambiguous);
    EXPECT_NEAR(*c.entries.at(0).sigma, std::sqrt(2) * 0.1, 1e-12);
    // With a 1% spread the same change is clear.
    base.spread = next.spread = 0.01;
    c = compare_one(base, next);
    EXPECT_EQ(c.entries.at(0).verdict, CompareVerdict::slower);
}

TEST(CompareResults, NoisyMeasurementsAndClockChangesGetANote)
{
    const auto c = compare_one(measured(1e-3, 0.05), measured(1.03e-3, 0.05));
    EXPECT_EQ(c.entries.at(0).verdict, CompareVerdict::same);
    EXPECT_THAT(c.entries.at(0).notes, ::testing::Contains(HasSubstr("too noisy to resolve 5%")));
    json slow = document("gemm", {{gemm_4096(), measured(1.2e-3, 0.01)}});
    slow["variants"][0]["measurement"]["sm_clock_mhz"] = 1500;
    const auto d = compare_results({{"a", document("gemm", {{gemm_4096(), measured(1e-3, 0.01)}})}}, {{"b", slow}}, 0.05);
    EXPECT_THAT(d.entries.at(0).notes, ::testing::Contains("SM clock 1980 → 1500 MHz"));
}

TEST(CompareResults, ADocumentThatIsNotAResultsFileNamesItsSource)
{
    const json good = document("gemm", {{gemm_4096(), measured(1e-3, 0.01)}});
    for (const json& bad : {json{{"name", "h100-sxm"}, {"bandwidth_gbs", 3000}}, json::array({1, 2}),
                            json{{"kernel", "gemm"}, {"arch", "sm_90"}, {"problems", json::array({1})}, {"variants", json::array()}}}) {
        try {
            (void)compare_results({{"good.json", good}}, {{"devices/h100.json", bad}}, 0.05);
            ADD_FAILURE() << bad.dump();
        } catch (const CompareInputError& e) {
            EXPECT_THAT(e.what(), HasSubstr("'devices/h100.json' is not an autotune results file"));
        }
    }
}

TEST(CompareResults, TheSameProblemTwiceOnOneSideIsAnErrorNamingBoth)
{
    const json d = document("gemm", {{gemm_4096(), measured(1e-3, 0.01)}});
    try {
        (void)compare_results({{"one/sm_90/gemm.json", d}, {"two/sm_90/gemm.json", d}}, {{"new.json", d}}, 0.05);
        ADD_FAILURE();
    } catch (const CompareInputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("one/sm_90/gemm.json"));
        EXPECT_THAT(e.what(), HasSubstr("two/sm_90/gemm.json"));
        EXPECT_THAT(e.what(), HasSubstr("M=4096,N=4096,K=4096"));
    }
}

TEST(CompareResults, JsonHasWhatCIReads)
{
    const auto c = compare_one(measured(1e-3, 0.01), measured(1.2e-3, 0.02));
    const json j = comparison_json(c);
    EXPECT_EQ(j.at("regressions"), 1);
    EXPECT_EQ(j.at("threshold_percent"), 5.0);
    EXPECT_EQ(j.at("counts").at("slower"), 1);
    const json& e = j.at("entries").at(0);
    for (const char* field : {"kernel", "arch", "problem", "base_seconds", "new_seconds", "change", "verdict",
                              "base_winner", "new_winner"})
        EXPECT_TRUE(e.contains(field)) << field;
    EXPECT_EQ(e.at("kernel"), "gemm");
    EXPECT_EQ(e.at("arch"), "sm_90");
    EXPECT_EQ(e.at("problem"), gemm_4096());
    EXPECT_DOUBLE_EQ(e.at("base_seconds").get<double>(), 1e-3);
    EXPECT_DOUBLE_EQ(e.at("new_seconds").get<double>(), 1.2e-3);
    EXPECT_DOUBLE_EQ(e.at("new_noise").get<double>(), 0.02);
    EXPECT_NEAR(e.at("change").get<double>(), 0.2, 1e-12);
    EXPECT_EQ(e.at("verdict"), "slower");
    EXPECT_EQ(e.at("base_winner").at("index"), 7);
    EXPECT_EQ(e.at("base_winner").at("basis"), "measured");
    EXPECT_EQ(e.at("base_file"), "base.json");
    EXPECT_EQ(e.at("new_file"), "new.json");
}

TEST(CompareResults, TableAndMarkdownShowTimesNoiseChangeAndVerdict)
{
    const auto c = compare_one(measured(1e-3, 0.01), measured(1.2e-3, 0.015));
    const std::string table = comparison_table(c);
    EXPECT_THAT(table, HasSubstr("M=4096,N=4096,K=4096"));
    EXPECT_THAT(table, HasSubstr("1000 ±1.0%"));
    EXPECT_THAT(table, HasSubstr("1200 ±1.5%"));
    EXPECT_THAT(table, HasSubstr("+20.0%"));
    EXPECT_THAT(table, HasSubstr("slower"));
    EXPECT_THAT(table, HasSubstr("1 regression"));
    const std::string md = comparison_markdown(c);
    EXPECT_THAT(md, HasSubstr("**1 regression**"));
    EXPECT_THAT(md, HasSubstr("| gemm | sm_90 | M=4096,N=4096,K=4096 | 1000 ±1.0% | 1200 ±1.5% | +20.0% | **slower** |"));

    const auto same = compare_one(measured(1e-3, 0.01), measured(1e-3, 0.01));
    EXPECT_THAT(comparison_markdown(same), HasSubstr("**No regressions**"));
    EXPECT_THAT(comparison_table(same), ::testing::Not(HasSubstr("regression")));
}

} // namespace
